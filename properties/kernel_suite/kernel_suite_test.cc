// Tests of the kernel property suite itself, on the plug-ins built from
// plugins/plugin_kernel.cc: the correct reference passes every property;
// each broken kernel is refuted by the property expected to catch it, with a
// shrunk counterexample that replays; a crash and a hang are reported as the
// outcome of a case; load errors are clear.
#include <gtest/gtest.h>

#include <unistd.h>

#include <iostream>
#include <sstream>

#include "properties/framework/options.h"
#include "properties/kernel_suite/suite.h"

namespace attnprop::ksuite {
namespace {

std::string Plugin(const std::string& name) { return std::string(ATTNPROP_PLUGIN_DIR) + "/" + name + ".so"; }

SuiteReport RunOn(const std::string& plugin, const std::string& filter, int cases, double timeout_s = 5,
                double budget_s = 20) {
  SuiteOptions o;
  o.path = Plugin(plugin);
  o.filter = filter;
  o.cases = cases;
  o.timeout_s = timeout_s;
  o.budget_s = budget_s;
  o.save_dir = "kernel-suite-test-cases";
  return RunSuite(o, std::cout);
}

const PropertyOutcome* Find(const SuiteReport& r, const std::string& name) {
  for (const auto& p : r.properties)
    if (p.name == name) return &p;
  return nullptr;
}

class Reference : public ::testing::TestWithParam<const char*> {};

// Two correct kernels that compute differently (two-pass naive; one pass
// over key blocks with online rescaling and FMA): the bounds admit both.
TEST_P(Reference, EveryPropertyHolds) {
  InitMpfrPrecisionFromEnvironment();
  const SuiteReport r = RunOn(GetParam(), "*", 20);  // kernel.reference*_plugin/* run 30 more
  ASSERT_EQ(r.load.status, LoadStatus::kOk) << r.load.error;
  // Every property of the suite ran, once per dtype (f64_only ones once).
  size_t expected = 0;
  for (const auto& p : KernelProperties()) expected += p.f64_only ? 1 : 2;
  ASSERT_EQ(r.properties.size(), expected);
  for (const auto& p : r.properties) {
    EXPECT_EQ(p.result.verdict, Verdict::kHolds) << p.name << ": " << p.result.message << "\n" << p.result.counterexample;
    EXPECT_GE(p.result.cases, 20) << p.name << " ran too few cases (" << p.result.discarded << " discarded)";
  }
  EXPECT_TRUE(r.AllHold());
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
  const SuiteReport r = RunOn(b.plugin, b.property, 30);
  ASSERT_EQ(r.load.status, LoadStatus::kOk) << r.load.error;
  const PropertyOutcome* p = Find(r, b.property);
  ASSERT_NE(p, nullptr) << b.property << " did not run";
  ASSERT_EQ(p->result.verdict, Verdict::kRefuted) << b.plugin << " was not caught by " << b.property;
  EXPECT_NE(p->result.message.find(b.message), std::string::npos) << p->result.message;
  ASSERT_TRUE(p->result.counterexample_case.has_value());
  EXPECT_FALSE(p->replay.empty());
  std::cout << b.plugin << " caught by " << p->name << ": " << p->result.message << "\nshrunk ("
            << p->result.shrink_steps << " steps):\n"
            << p->result.counterexample;
  // The counterexample replays from its file, and still fails.
  SuiteOptions o;
  o.path = Plugin(b.plugin);
  o.filter = b.property;
  o.replay_file = p->case_file;
  const SuiteReport again = RunSuite(o, std::cout);
  ASSERT_EQ(again.properties.size(), 1u);
  EXPECT_EQ(again.properties[0].result.verdict, Verdict::kRefuted) << "the saved counterexample does not replay";
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
        BrokenCase{"broken_nondeterministic", "abi.repeatable/kernel-f32", "different out bytes"},
        BrokenCase{"broken_write_before_out", "abi.no_writes_outside_outputs/kernel-f64", "(before the start) was written"}),
    [](const ::testing::TestParamInfo<BrokenCase>& i) {
      std::string s = std::string(i.param.plugin) + "_" + std::to_string(i.index);
      return s;
    });

TEST(Isolation, ACrashIsReportedWithItsShrunkCase) {
  InitMpfrPrecisionFromEnvironment();
  const SuiteReport r = RunOn("broken_crash", "lecture4.prop7.2.nadaraya_watson_form/kernel-f32", 30);
  ASSERT_EQ(r.properties.size(), 1u);
  const PropertyOutcome& p = r.properties[0];
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
  const SuiteReport r = RunOn("broken_hang", "abi.repeatable/kernel-f32", 30, 0.25, 8);
  ASSERT_EQ(r.properties.size(), 1u);
  const PropertyOutcome& p = r.properties[0];
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
  EXPECT_NE(r.error.find("version 2"), std::string::npos) << r.error;
}

TEST(Load, NotALibraryIsAClearError) {
  const LoadResult r = LoadKernel(std::string(ATTNPROP_PLUGIN_DIR) + "/../CMakeFiles", 5);
  EXPECT_EQ(r.status, LoadStatus::kNotALibrary) << r.error;
}

}  // namespace
}  // namespace attnprop::ksuite
