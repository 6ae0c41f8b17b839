// Tests of the kernel backends, on the plug-ins built from
// plugins/plugin_kernel.cc, through the one run path (PropertiesFor, then
// RunProperty and Judge as every command runs them): the correct reference
// passes every kernel property; each broken kernel is refuted by the
// property expected to catch it, with a shrunk counterexample that is saved
// to its store and replays there; a crash and a hang are reported as the
// outcome of a case; load errors are clear.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <fnmatch.h>
#include <iostream>
#include <list>
#include <sstream>

#include "properties/framework/backend.h"
#include "properties/framework/judge.h"
#include "properties/framework/options.h"
#include "properties/framework/registry.h"
#include "properties/framework/replay.h"
#include "properties/abi/diagnosis.h"
#include "properties/operator/confine.h"
#include "properties/operator/kernel_backend.h"
#include "properties/operator/sandbox.h"

namespace attnprop::ksuite {
namespace {

std::string Plugin(const std::string& name) { return std::string(ATTNPROP_PLUGIN_DIR) + "/" + name + ".so"; }

struct Outcome {
  PropertyDef def;
  PropertyResult result;
};

/// Runs the kernel properties matching `filter` on a plug-in, saving new
/// counterexamples into `store` (a fresh directory).
std::vector<Outcome> RunOn(const std::string& plugin, const std::string& filter, int cases, double timeout_s = 5,
                           double budget_s = 20, const std::string& store = "") {
  EXPECT_TRUE(JoinRegistry().empty());
  const LoadResult load = LoadKernel(Plugin(plugin), timeout_s);
  EXPECT_EQ(load.status, LoadStatus::kOk) << load.error;
  if (load.status != LoadStatus::kOk) return {};
  // The instances must outlive the bound definitions.
  static std::list<std::vector<KernelInstance>> kept;
  kept.push_back({UserKernelInstance(load, timeout_s)});
  RunOptions o;
  o.max_success = cases;
  o.shrink_budget_s = budget_s;
  o.store_dir = o.save_dir = store;
  std::vector<Outcome> out;
  for (auto& d : PropertiesFor(kept.back(), /*model=*/false)) {
    if (fnmatch(filter.c_str(), d.Name().c_str(), 0) != 0) continue;
    PropertyResult r = RunProperty(d, o);
    out.push_back({std::move(d), std::move(r)});
  }
  return out;
}

const Outcome* Find(const std::vector<Outcome>& r, const std::string& name) {
  for (const auto& p : r)
    if (p.def.Name() == name) return &p;
  return nullptr;
}

/// An empty path for one test's store or log, under the system's temporary
/// directory (one folder per test process): never in the source tree, which
/// a test run from there used to fill.
/// This test process's scratch directory (its pid: ctest runs several).
std::filesystem::path ScratchRoot() {
  return std::filesystem::temp_directory_path() / ("attnprop-kernel-suite-test-" + std::to_string(getpid()));
}

/// Removes the scratch directory when the tests end (it was left in /tmp).
class ScratchCleanup : public ::testing::Environment {
 public:
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(ScratchRoot(), ec);
  }
};
[[maybe_unused]] ::testing::Environment* const kScratchCleanup =
    ::testing::AddGlobalTestEnvironment(new ScratchCleanup);

std::string FreshDir(const std::string& name) {
  const std::filesystem::path dir = ScratchRoot() / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir.parent_path());
  return dir.string();
}

class Reference : public ::testing::TestWithParam<const char*> {};

// Two correct kernels that compute differently (two-pass naive; one pass
// over key blocks with online rescaling and FMA): the bounds admit both.
TEST_P(Reference, EveryPropertyHolds) {
  InitMpfrPrecisionFromEnvironment();
  const auto r = RunOn(GetParam(), "*", 20);  // kernel.reference*_plugin/* run 30 more
  // Every registered kernel property ran, once per kernel backend it has.
  size_t expected = 0;
  for (const auto& d : Registry()) {
    const BackendInfo* b = FindBackend(d.backend);
    expected += b && b->kernel;
  }
  ASSERT_EQ(r.size(), expected);
  for (const auto& p : r) {
    // ABI v1 kernels: their bf16 / f16 properties are skipped, saying why
    // (plugins/half_kernel.cc's kernels run them: plugins.cli.check.half_*).
    const std::string_view base = BaseBackend(p.def.backend);
    if (base == "kernel-bf16" || base == "kernel-f16") {
      EXPECT_NE(p.def.skip_reason.find("(optional, kernel ABI v2)"), std::string::npos) << p.def.Name();
      EXPECT_EQ(p.result.verdict, Verdict::kSkipped) << p.def.Name();
      continue;
    }
    EXPECT_EQ(p.result.verdict, Verdict::kHolds) << p.def.Name() << ": " << p.result.message << "\n" << p.result.counterexample;
    EXPECT_TRUE(Judge(p.result, p.def).as_expected()) << p.def.Name();
    EXPECT_GE(p.result.cases, 20) << p.def.Name() << " ran too few cases (" << p.result.discarded << " discarded)";
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, Reference, ::testing::Values("reference", "reference_online"));

struct BrokenCase {
  const char* plugin;
  const char* property;  // expected to catch it
  const char* message;   // a fragment of the failure message
};

class Broken : public ::testing::TestWithParam<BrokenCase> {};

TEST_P(Broken, CaughtByTheExpectedPropertyWithAShrunkCounterexample) {
  InitMpfrPrecisionFromEnvironment();
  const BrokenCase& b = GetParam();
  const std::string store = FreshDir(std::string(b.plugin) + "-" + std::to_string(std::hash<std::string>{}(b.property)));
  const auto r = RunOn(b.plugin, b.property, 30, 5, 20, store);
  const Outcome* p = Find(r, b.property);
  ASSERT_NE(p, nullptr) << b.property << " did not run";
  ASSERT_EQ(p->result.verdict, Verdict::kRefuted) << b.plugin << " was not caught by " << b.property;
  EXPECT_FALSE(Judge(p->result, p->def).as_expected());
  EXPECT_NE(p->result.message.find(b.message), std::string::npos) << p->result.message;
  ASSERT_TRUE(p->result.counterexample_case.has_value());
  EXPECT_FALSE(p->result.saved_to.empty()) << "the counterexample was not saved to the kernel's store";
  std::cout << b.plugin << " caught by " << p->def.Name() << ": " << p->result.message << "\nshrunk ("
            << p->result.shrink_steps << " steps):\n"
            << p->result.counterexample;
  // The saved counterexample replays on the property it was saved from, and still fails.
  const StorePhase replay = ReplayStore(p->def, store);
  ASSERT_EQ(replay.cases.size(), 1u);
  EXPECT_TRUE(replay.regression.has_value()) << "the saved counterexample does not replay: " << replay.outcomes[0].detail;
  // ...and on that property only: another backend's run does not replay it.
  PropertyDef other = p->def;
  other.backend = BaseBackend(p->def.backend) == "kernel-f32" ? "kernel-f64" : "kernel-f32";
  EXPECT_TRUE(ReplayStore(other, store).cases.empty());
  // A second run replays it before any random case.
  const auto again = RunOn(b.plugin, b.property, 30, 5, 20, store);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].result.verdict, Verdict::kRefuted);
  ASSERT_EQ(again[0].result.replayed.size(), 1u);
  EXPECT_TRUE(again[0].result.replayed[0].regression);
}

INSTANTIATE_TEST_SUITE_P(
    Kernels, Broken,
    ::testing::Values(
        BrokenCase{"broken_nomax", "lecture4.prop7.2.nadaraya_watson_form/kernel-f32", "out["},
        BrokenCase{"broken_lse_log2", "abi.lse_values/kernel-f32", "lse["},
        BrokenCase{"broken_causal_topleft", "abi.tq_ne_tk/kernel-f32", "call: "},
        BrokenCase{"broken_batch_stride", "abi.batch_independence/kernel-f32", "batched call"},
        BrokenCase{"broken_tail8", "lecture4.prop7.2.nadaraya_watson_form/kernel-f32", "out["},
        BrokenCase{"broken_oob_write", "abi.no_writes_outside_outputs/kernel-f32", "out +"},
        BrokenCase{"broken_oob_read", "abi.no_reads_outside_inputs/kernel-f32", "k +"},
        BrokenCase{"broken_modifies_inputs", "abi.inputs_unchanged/kernel-f32", "q["},
        BrokenCase{"broken_no_validation", "abi.argument_validation/kernel-f32", "returned 0"},
        BrokenCase{"broken_f64_as_float", "abi.f64_in_double/kernel-f64", "bound"},
        BrokenCase{"broken_bf16_weights", "lecture4.prop7.2.nadaraya_watson_form/kernel-f32", "bound"},
        BrokenCase{"broken_crude_exp", "lecture4.prop7.2.nadaraya_watson_form/kernel-f32", "bound"},
        BrokenCase{"broken_empty_rows", "abi.empty_rows/kernel-f32", "no visible key"},
        BrokenCase{"broken_causal_topleft", "lecture4.sec8.1.kv_cache_equivalence/kernel-f32", "cached"},
        BrokenCase{"broken_v_stride_dk", "abi.dk_ne_dv/kernel-f32", "call"},
        BrokenCase{"broken_nondeterministic", "abi.repeatable/kernel-f32", "on the same inputs gave different"},  // out or lse bytes: reversed sums differ in either
        BrokenCase{"broken_write_before_out", "abi.no_writes_outside_outputs/kernel-f64", "(before the start) was written"}),
    [](const ::testing::TestParamInfo<BrokenCase>& i) {
      std::string s = std::string(i.param.plugin) + "_" + std::to_string(i.index);
      return s;
    });

// The regimes real kernels branch on and the state they keep between calls
// (issue 14): each planted bug is caught by the property of its regime,
// with a case shrunk to the smallest shape (or shortest sequence) that
// shows it (ctest: plugins.BrokenRegimes).
INSTANTIATE_TEST_SUITE_P(
    Regimes, Broken,
    ::testing::Values(
        BrokenCase{"broken_scale_abs", "abi.scalar_ranges/kernel-f32", "bound"},  // head_dim_max, split_kv_merge: below
        BrokenCase{"broken_vec_tail16", "abi.long_kv/kernel-f32", "out["},
        BrokenCase{"broken_stale_workspace", "abi.call_sequences/kernel-f32", "state kept from the earlier calls"},
        BrokenCase{"broken_cache_by_shape", "abi.call_sequences/kernel-f32", "state kept from the earlier calls"},
        BrokenCase{"broken_first_call_scale", "abi.call_sequences/kernel-f32", "state kept from the earlier calls"},
        BrokenCase{"hostile_third_call", "abi.call_sequences/kernel-f32", "call 3 of 3"}),
    [](const ::testing::TestParamInfo<BrokenCase>& i) { return std::string(i.param.plugin) + "_" + std::to_string(i.index); });

/// The shape of a shrunk regime counterexample: the smallest that shows the bug.
Problem ShrunkOn(const std::string& plugin, const std::string& property) {
  const auto r = RunOn(plugin, property, 100);
  EXPECT_EQ(r.size(), 1u);
  if (r.size() != 1 || !r[0].result.counterexample_case) {
    ADD_FAILURE() << plugin << " not caught by " << property;
    return {};
  }
  return Problem::FromCase(*r[0].result.counterexample_case);
}

TEST(Regimes, AHeadDimAboveTheCompiledMaximumShrinksTo257) {
  InitMpfrPrecisionFromEnvironment();
  const Problem p = ShrunkOn("broken_head_dim_max", "abi.wide_heads/kernel-f32");
  EXPECT_EQ(p.d_k, 257);
  EXPECT_EQ(p.t_q * p.t_k * p.d_v * p.batch, 1);
}

TEST(Regimes, ASplitKvMergeShrinksToOneQueryAnd1025Keys) {
  InitMpfrPrecisionFromEnvironment();
  const Problem p = ShrunkOn("broken_split_kv_merge", "abi.long_kv/kernel-f32");
  EXPECT_EQ(p.t_k, 1025);
  EXPECT_EQ(p.t_q, 1);
  EXPECT_EQ(p.d_k * p.d_v * p.batch, 1);
}

TEST(Regimes, AQueryTileTailShrinksTo257Queries) {
  // Tiles of 64 queries above t_q = 256, the partial last tile skipped: the
  // smallest case is one query past 256 (the shrinker drops blocks of query
  // rows, then single rows).
  InitMpfrPrecisionFromEnvironment();
  const Problem p = ShrunkOn("broken_query_tile_tail", "abi.long_queries/kernel-f32");
  EXPECT_EQ(p.t_q, 257);
  EXPECT_EQ(p.t_k * p.d_k * p.d_v * p.batch, 1);
}

TEST(Regimes, ACallSequenceShrinksToTwoCalls) {
  InitMpfrPrecisionFromEnvironment();
  const auto r = RunOn("broken_first_call_scale", "abi.call_sequences/kernel-f32", 100);
  ASSERT_EQ(r.size(), 1u);
  ASSERT_TRUE(r[0].result.counterexample_case.has_value());
  const Case& c = *r[0].result.counterexample_case;
  EXPECT_EQ(c.GetInt("calls"), 2);
  // Each call's matrices shrink to at most 2 x 2 (a first call and the one it spoils).
  for (const auto& [name, value] : c.fields())
    if (const auto* m = std::get_if<ExactMatrix>(&value)) {
      EXPECT_LE(m->rows, 2) << name;
      EXPECT_LE(m->cols, 2) << name;
    }
}

// The diagnosis (diagnosis.h) on failure patterns of known bugs.
KernelFailure Failure(const char* id, const char* backend, const char* message, int64_t t_q, int64_t t_k,
                      int64_t d_k, int64_t causal) {
  Case c;
  c.Int("batch", 1).Int("causal", causal).Scalar("scale", 1.0);
  c.Matrix("Q", ExactMatrix(t_q, d_k)).Matrix("K", ExactMatrix(t_k, d_k)).Matrix("V", ExactMatrix(t_k, 1));
  return {id, backend, message, c.ToText(), c};
}

TEST(Diagnosis, NamesTheBugClassAndRanksThePropertyThatPointsAtIt) {
  // Causal mask aligned top-left: every minimal case is causal with t_q != t_k.
  Diagnosis d = Diagnose({Failure("abi.empty_rows", "kernel-f32", "out[b=0][i=0][c=0] = 1 for a row with no visible key", 2, 1, 1, 1),
                          Failure("lecture4.sec4.prefix_convex_hull", "kernel-f32", "out[", 1, 2, 1, 1),
                          Failure("abi.tq_ne_tk", "kernel-f32", "out[", 1, 2, 1, 1)});
  EXPECT_EQ(d.bug_class, "causal alignment when t_q != t_k");
  EXPECT_EQ(d.order[0], 2u);
  EXPECT_EQ(d.groups, 2u);  // the last two share their counterexample
  // Only the f64 entry point fails.
  d = Diagnose({Failure("abi.lse_values", "kernel-f64", "out[", 1, 1, 1, 0),
                Failure("abi.f64_in_double", "kernel-f64", "out[", 1, 1, 1, 0)});
  EXPECT_EQ(d.bug_class, "precision below f64 in the f64 entry point");
  EXPECT_EQ(d.order[0], 1u);
  // The same dtype in a run that checked f64 alone (issue 33: a causal-mask
  // bug read "precision below f64"): judged on what failed.
  d = Diagnose({Failure("abi.empty_rows", "kernel-f64", "out[b=0][i=0][c=0] = 1 for a row with no visible key", 2, 1, 1, 1),
                Failure("lecture4.sec4.prefix_convex_hull", "kernel-f64", "out[", 1, 2, 1, 1),
                Failure("abi.tq_ne_tk", "kernel-f64", "out[", 1, 2, 1, 1)},
               /*f32_ran=*/false);
  EXPECT_EQ(d.bug_class, "causal alignment when t_q != t_k");
  // Every minimal case has d_k above 256.
  d = Diagnose({Failure("lecture4.prop7.2.nadaraya_watson_form", "kernel-f32", "out[", 1, 1, 300, 0),
                Failure("abi.wide_heads", "kernel-f32", "lse[", 1, 1, 257, 0)});
  EXPECT_EQ(d.bug_class, "head dim d_k above a compiled maximum (fails from d_k = 257)");
  EXPECT_EQ(d.order[0], 1u);
  // Only lse is wrong.
  d = Diagnose({Failure("abi.tq_ne_tk", "kernel-f32", "|lse - lse*| at call: lse[b=0][i=0]", 1, 2, 1, 0),
                Failure("abi.lse_values", "kernel-f32", "lse[b=0][i=0]", 1, 1, 1, 0)});
  EXPECT_EQ(d.order[0], 1u);
  EXPECT_NE(d.bug_class.find("lse"), std::string::npos);
  EXPECT_TRUE(Diagnose({}).order.empty());
}

TEST(Diagnosis, NonfiniteOutputsAtLargeScoresAreExpOverflow) {
  // broken_nomax's minimal case: exp(3 * 29) * 6 passes FLT_MAX.
  auto failure = [](double q, double k, const char* message) {
    Case c;
    ExactMatrix mq(1, 1), mk(1, 1), mv(1, 1);
    mq(0, 0) = Exact(q), mk(0, 0) = Exact(k), mv(0, 0) = Exact(6.0);
    c.Int("batch", 1).Int("causal", 0).Scalar("scale", 1.0);
    c.Matrix("Q", mq).Matrix("K", mk).Matrix("V", mv);
    return KernelFailure{"abi.lse_values", "kernel-f32", message, c.ToText(), c};
  };
  const char* inf = "|out - out*| at call: out[b=0][i=0][c=0] = inf (inf), exact 6: |error| inf > bound 1.5e-05";
  const Diagnosis d = Diagnose({failure(3, 29, inf)});
  EXPECT_NE(d.bug_class.find("exp overflow"), std::string::npos) << d.bug_class;
  EXPECT_NE(d.bug_class.find("a score of 87"), std::string::npos) << d.bug_class;
  // Non-finite at a small score is not an overflow of exp; a finite error at a large one neither.
  EXPECT_EQ(Diagnose({failure(1, 2, inf)}).bug_class.find("exp overflow"), std::string::npos);
  EXPECT_EQ(Diagnose({failure(3, 29, "out[b=0][i=0][c=0] = 5 (5), exact 6")}).bug_class.find("exp overflow"),
            std::string::npos);
}

TEST(Isolation, ACrashIsReportedWithItsShrunkCase) {
  InitMpfrPrecisionFromEnvironment();
  const auto r = RunOn("broken_crash", "lecture4.prop7.2.nadaraya_watson_form/kernel-f32", 30);
  ASSERT_EQ(r.size(), 1u);
  const Outcome& p = r[0];
  ASSERT_EQ(p.result.verdict, Verdict::kRefuted);
  EXPECT_NE(p.result.message.find("signal 11"), std::string::npos) << p.result.message;
  ASSERT_TRUE(p.result.counterexample_case.has_value());
  // The crash needs t_k >= 6 and d_k >= 2: the shrunk case is exactly that shape.
  const Problem shrunk = Problem::FromCase(*p.result.counterexample_case);
  EXPECT_EQ(shrunk.t_k, 6);
  EXPECT_EQ(shrunk.d_k, 2);
  EXPECT_EQ(shrunk.batch, 1);
  EXPECT_EQ(shrunk.t_q, 1);
}

TEST(Isolation, AHangIsReportedAsATimeout) {
  InitMpfrPrecisionFromEnvironment();
  const auto r = RunOn("broken_hang", "abi.repeatable/kernel-f32", 30, 0.25, 8);
  ASSERT_EQ(r.size(), 1u);
  const Outcome& p = r[0];
  ASSERT_EQ(p.result.verdict, Verdict::kRefuted);
  EXPECT_NE(p.result.message.find("timed out"), std::string::npos) << p.result.message;
  ASSERT_TRUE(p.result.counterexample_case.has_value());
  EXPECT_EQ(Problem::FromCase(*p.result.counterexample_case).t_k, 7);
}

TEST(Isolation, GuardPagesAndCanariesLocateAWildWrite) {
  // A write just past a kEnd buffer faults in the guard page, and the
  // address is named relative to the buffer.
  GuardedBuffer end("out", 12, GuardedBuffer::Place::kEnd);
  const ChildOutcome o = RunInChild([&] { end.data()[12] = 1; }, 5);
  ASSERT_EQ(o.kind, ChildOutcome::Kind::kSignal);
  ASSERT_TRUE(o.have_fault_address);
  std::string where;
  ASSERT_TRUE(end.Describe(o.fault_address, &where));
  EXPECT_EQ(where, "out + 12 bytes (0 past the end, guard page)");
  EXPECT_EQ(end.SlackDamage(), "");
  // A write just before it lands in the canary slack (shared with the child).
  EXPECT_EQ(RunInChild([&] { end.data()[-3] = 0; }, 5).kind, ChildOutcome::Kind::kFinished);
  EXPECT_EQ(end.SlackDamage(), "out - 3 bytes (before the start) was written");
  GuardedBuffer start("lse", 8, GuardedBuffer::Place::kStart);
  EXPECT_EQ(RunInChild([&] { start.data()[8] = 0; }, 5).kind, ChildOutcome::Kind::kFinished);
  EXPECT_EQ(start.SlackDamage(), "lse + 8 bytes (0 past the end) was written");
  EXPECT_EQ(RunInChild([&] { start.data()[-1] = 0; }, 5).kind, ChildOutcome::Kind::kSignal);
  // A kernel that ends the process itself is not mistaken for a finished call.
  EXPECT_EQ(RunInChild([] { _exit(0); }, 5).kind, ChildOutcome::Kind::kExit);
  EXPECT_EQ(RunInChild([] { volatile int spin = 0; for (;;) spin = 1 - spin; }, 0.2).kind, ChildOutcome::Kind::kTimeout);
}

// Once a call process has protected its buffers (ProtectAndLock), no system
// call may change a mapping that meets the shared arena or a buffer: not one
// starting inside it, nor one starting far below and reaching in, nor a
// mremap onto it. Memory of the kernel's own stays its own to change.
TEST(Isolation, TheBuffersProtectionsCannotBeChangedOnceLocked) {
  // The lock is a filter stacked on the call process's: none without seccomp.
  if (ConfinementStatus().rfind("seccomp-bpf", 0) != 0) GTEST_SKIP() << ConfinementStatus();
  GuardedBuffer q("q", 64, GuardedBuffer::Place::kEnd);
  const GuardedRegion region = q.Region(/*read_only=*/true);
  const auto in_child = [&](const std::function<void()>& after_lock) {
    return RunInChild(
        [&] {
          ProtectAndLock(&region, 1);
          after_lock();
        },
        5);
  };
  // Locked: refused by the filter (the process dies by SIGSYS naming the
  // call; ATTNPROP_NO_MSEAL=1, or a kernel without mseal), or sealed (the
  // call fails and q's page is still read-only: a write to it then faults).
  const auto locked = [&](long nr, const std::function<void()>& attempt) {
    const ChildOutcome o = in_child([&] {
      attempt();
      *static_cast<volatile unsigned char*>(q.data()) = 1;
    });
    const bool refused = o.kind == ChildOutcome::Kind::kSignal && o.signal == SIGSYS && o.refused_syscall == nr;
    const bool faulted = o.kind == ChildOutcome::Kind::kSignal && o.signal == SIGSEGV;
    return refused || faulted;
  };
  auto* data = reinterpret_cast<void*>(region.base + 4096);
  EXPECT_TRUE(locked(SYS_mprotect, [&] { mprotect(data, 4096, PROT_READ | PROT_WRITE); }));
  EXPECT_TRUE(locked(SYS_mprotect, [&] { mprotect(reinterpret_cast<void*>(4096), region.base + 4096, PROT_READ | PROT_WRITE); }));
  EXPECT_TRUE(locked(SYS_munmap, [&] {
    munmap(reinterpret_cast<void*>(region.base), region.bytes);
    mmap(reinterpret_cast<void*>(region.base), region.bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  }));
  EXPECT_TRUE(locked(SYS_mremap, [&] {
    void* own = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    mremap(own, 4096, 4096, MREMAP_MAYMOVE | MREMAP_FIXED, data);
  }));
  EXPECT_TRUE(locked(SYS_mmap, [&] {
    mmap(data, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  }));
  // madvise: refused by the filter; sealed, the shared pages keep their
  // data (dropping them from this process loses nothing: they are the
  // parent's too).
  std::memset(q.data(), 0x5a, 64);
  const ChildOutcome advised = in_child([&] { madvise(data, 4096, MADV_DONTNEED); });
  EXPECT_TRUE((advised.kind == ChildOutcome::Kind::kSignal && advised.refused_syscall == SYS_madvise) ||
              advised.kind == ChildOutcome::Kind::kFinished)
      << advised.Describe();
  EXPECT_EQ(static_cast<const unsigned char*>(q.data())[63], 0x5a);
  // The kernel's own memory: mapped, protected, moved and unmapped freely.
  const ChildOutcome own = in_child([] {
    void* p = mmap(nullptr, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED || mprotect(p, 8192, PROT_READ) != 0) _exit(3);
    void* moved = mremap(p, 8192, 16384, MREMAP_MAYMOVE);
    if (moved == MAP_FAILED || munmap(moved, 16384) != 0) _exit(4);
  });
  EXPECT_EQ(own.kind, ChildOutcome::Kind::kFinished) << own.Describe();
}

/// Lines the plug-in appended to ATTNPROP_LOAD_LOG_FD after checking `plugin` on 20 cases of
/// abi.lse_values/kernel-f32 (each case calls it at least once).
size_t LoadsFor(const std::string& plugin) {
  const std::string log = FreshDir("load-log-" + plugin) + ".log";
  std::filesystem::create_directories(std::filesystem::path(log).parent_path());
  std::filesystem::remove(log);
  // The plug-in appends to a descriptor (a call process may not open files
  // for writing: properties/operator/confine.h).
  const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  EXPECT_GE(fd, 0) << log;
  setenv("ATTNPROP_LOAD_LOG_FD", std::to_string(fd).c_str(), 1);
  InitMpfrPrecisionFromEnvironment();
  const auto r = RunOn(plugin, "abi.lse_values/kernel-f32", 20);
  unsetenv("ATTNPROP_LOAD_LOG_FD");
  if (fd >= 0) close(fd);
  EXPECT_EQ(r.size(), 1u);
  if (r.size() == 1) {
    EXPECT_EQ(r[0].result.verdict, Verdict::kHolds) << r[0].result.message;
  }
  std::ifstream in(log);
  size_t lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  return lines;
}

// A plug-in is loaded by the load probe and by its loader, not once per call
// (libtorch: 0.5 s of CPU per load).
TEST(Loader, APlugInIsLoadedTwiceNotOncePerCall) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "no loader under AddressSanitizer (Zygote::Start)";
#else
  EXPECT_EQ(LoadsFor("hostile_count_loads"), 2u);
#endif
}

// A library whose constructor leaves a thread running cannot be cloned
// faithfully: every call loads it in a fork of attnprop, and holds.
TEST(Loader, AThreadStartedAtLoadGetsTheDirectPath) { EXPECT_GT(LoadsFor("hostile_ctor_thread"), 20u); }

TEST(Load, MissingFileIsAClearError) {
  const LoadResult r = LoadKernel(Plugin("no_such_kernel"), 5);
  EXPECT_EQ(r.status, LoadStatus::kMissingFile);
  EXPECT_NE(r.error.find("no such file"), std::string::npos) << r.error;
}

TEST(Load, LibraryWithoutTheAbiIsAClearError) {
  const LoadResult r = LoadKernel(Plugin("not_a_kernel"), 5);
  EXPECT_EQ(r.status, LoadStatus::kMissingSymbols);
  EXPECT_NE(r.error.find("attnprop_attention_f32"), std::string::npos) << r.error;
}

TEST(Load, AnotherAbiVersionIsAClearError) {
  const LoadResult r = LoadKernel(Plugin("broken_wrong_version"), 5);
  EXPECT_EQ(r.status, LoadStatus::kWrongVersion);
  EXPECT_NE(r.error.find("version 3"), std::string::npos) << r.error;
}

TEST(Load, NotALibraryIsAClearError) {
  const LoadResult r = LoadKernel(std::string(ATTNPROP_PLUGIN_DIR) + "/../CMakeFiles", 5);
  EXPECT_EQ(r.status, LoadStatus::kNotALibrary) << r.error;
}

}  // namespace
}  // namespace attnprop::ksuite
