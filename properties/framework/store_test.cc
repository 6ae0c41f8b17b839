// Unit tests of the counterexample store and of its replay by the runner,
// on a small claim of our own (not registered: the registry stays the
// project's).
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "properties/framework/property.h"
#include "properties/framework/run.h"
#include "properties/framework/runner.h"
#include "properties/framework/atomic_file.h"
#include "properties/framework/store.h"

namespace attnprop {
namespace {

// "For 0 <= x: x <= bound, and (x + 1) - x = 1." False whenever x > bound
// (a real refutation); the second part fails only in rounding arithmetic
// (x >= 2^53 in double), so a case that trips only it is an artefact.
struct BoundClaim : ClaimId<"test.bound_claim"> {
  static inline const Tolerance kGap{"x - bound", "0", "exact comparison of two exact inputs", MetricKind::kRounding};
  // Every hypothesis, the bound's included: the generic shrinker edits every
  // field, and only this check keeps it inside the claim.
  static bool HypothesesHold(const Case& c) {
    return c.GetScalar("x").ToDouble() >= 0 && c.GetScalar("bound").ToDouble() > 0;
  }
  template <class S> static rc::Gen<Case> Hypotheses() {
    return rc::gen::map(rc::gen::inRange<int>(0, 101), [](int x) {
      return Case().Scalar("x", static_cast<double>(x)).Scalar("bound", 50.0);
    });
  }
  template <class S> static void Conclusion(const Case& c) {
    const S x = c.Get<S>("x"), bound = c.Get<S>("bound");
    ExpectThat((x + 1) - x == 1, "(x + 1) - x != 1");
    ExpectWithin(kGap, ToDouble(S(x - bound)), 0.0);
  }
};

// Without HypothesesHold: every case is accepted.
struct PlainClaim : ClaimId<"test.plain_claim"> {
  template <class S> static rc::Gen<Case> Hypotheses() { return rc::gen::just(Case().Int("n", 1)); }
  template <class S> static void Conclusion(const Case&) {}
};

PropertyDef BoundDef() { return internal::MakeDef<BoundClaim, double>(__FILE__); }

StoredCase Stored(const char* name, StoredCase::Expect e, double x, double bound) {
  StoredCase s;
  s.name = name;
  s.expect = e;
  s.value = Case().Scalar("x", x).Scalar("bound", bound);
  return s;
}

std::string TempDir(const std::string& tag) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("attnprop_store_test_" + tag + "_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                    "_" + std::to_string(reinterpret_cast<uintptr_t>(&tag) % 100000));
  std::filesystem::remove_all(dir);
  return dir.string();
}


const char* kGoodStore =
    "# pinned\n"
    "[case name=big expect=refutes backends=double,mpfr]\n"
    "x: scalar 0x1p+3  # 8\n"
    "bound: scalar 0x1p+2\n"
    "[end]\n"
    "\n"
    "[case name=small expect=holds backends=all]\n"
    "x: scalar 0x1p+0\n"
    "bound: scalar 0x1p+2\n"
    "[end]\n";

TEST(Store, ParsesEntries) {
  const auto cases = ParseStore(kGoodStore, "f.txt");
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].name, "big");
  EXPECT_EQ(cases[0].expect, StoredCase::Expect::kRefutes);
  EXPECT_EQ(cases[0].origin, "f.txt:2");
  EXPECT_TRUE(cases[0].AppliesTo("mpfr"));
  EXPECT_FALSE(cases[0].AppliesTo("rational"));
  EXPECT_TRUE(cases[1].AppliesTo("rational"));
  EXPECT_EQ(cases[0].value.GetScalar("x"), Exact(8.0));
}

TEST(Store, FormatRoundTrips) {
  const auto cases = ParseStore(kGoodStore, "f.txt");
  std::string text;
  for (const auto& c : cases) text += FormatStoredCase(c);
  const auto again = ParseStore(text, "g.txt");
  ASSERT_EQ(again.size(), 2u);
  EXPECT_EQ(again[0].value, cases[0].value);
  EXPECT_EQ(again[0].backends, cases[0].backends);
  EXPECT_EQ(again[1].backends, cases[1].backends);
}

TEST(Store, MalformedFilesNameFileAndLine) {
  const std::pair<const char*, const char*> bad[] = {
      {"junk\n", "f.txt:1: expected '[case"},
      {"[case name=a]\nx: int 1\n[end]\n", "f.txt:1: the header has no expect="},
      {"[case name=a expect=maybe]\n", "f.txt:1: expect must be refutes, holds or undecided"},
      {"[case name=a expect=holds backends=gpu]\n", "unknown backend 'gpu'"},
      {"[case name=a expect=holds colour=red]\n", "unknown header key 'colour'"},
      {"[case name=a expect=holds]\nx: int 1\n", "f.txt:2: case 'a' has no [end]"},
      {"[case name=a expect=holds]\nx: int 1\n[case name=b expect=holds]\n", "f.txt:3: case 'a' has no [end] before"},
      {"\n[case name=a expect=holds]\nx: int 1\ny: scalar 1.5q\n[end]\n", "f.txt:4: case 'a': bad exact value '1.5q'"},
      {"[case name=a expect=holds]\nx: int 1\n[end]\n[case name=a expect=holds]\nx: int 2\n[end]\n",
       "f.txt:4: duplicate case name 'a'"},
      {"[case name=a expect=holds]\n[end]\n", "case 'a' is empty"},
  };
  for (const auto& [text, want] : bad) {
    try {
      ParseStore(text, "f.txt");
      ADD_FAILURE() << "accepted:\n" << text;
    } catch (const StoreError& e) {
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what() << "\nwanted: " << want;
    }
  }
}

TEST(Store, OptionalClaimMembersArePickedUpWhenDefined) {
  const PropertyDef bound = BoundDef();
  EXPECT_TRUE(bound.hypotheses_hold(Case().Scalar("x", 1.0).Scalar("bound", 50.0)));
  EXPECT_FALSE(bound.hypotheses_hold(Case().Scalar("x", -1.0).Scalar("bound", 50.0)));
  EXPECT_FALSE(bound.hypotheses_hold(Case().Scalar("x", 1.0).Scalar("bound", 0.0)));
  const PropertyDef plain = internal::MakeDef<PlainClaim, double>(__FILE__);
  EXPECT_TRUE(plain.hypotheses_hold(Case()));
}

TEST(Replay, PinnedRefutationIsCheckedThreeWays) {
  const PropertyDef def = BoundDef();
  using E = StoredCase::Expect;
  const ReplayOutcome real = ReplayCase(def, Stored("real", E::kRefutes, 8, 4));
  EXPECT_TRUE(real.ok) << real.detail;
  const ReplayOutcome fixed = ReplayCase(def, Stored("fixed", E::kRefutes, 1, 4));
  EXPECT_FALSE(fixed.ok);
  EXPECT_NE(fixed.detail.find("no longer refutes"), std::string::npos) << fixed.detail;
  const ReplayOutcome outside = ReplayCase(def, Stored("outside", E::kRefutes, -8, 4));
  EXPECT_FALSE(outside.ok);
  EXPECT_NE(outside.detail.find("hypotheses"), std::string::npos) << outside.detail;
  // (2^60 + 1) - 2^60 = 0 in double but 1 in MPFR at twice the precision.
  const ReplayOutcome artefact = ReplayCase(def, Stored("artefact", E::kRefutes, 0x1p60, 0x1p70));
  EXPECT_FALSE(artefact.ok);
  EXPECT_NE(artefact.detail.find("rounding artefact"), std::string::npos) << artefact.detail;
  EXPECT_TRUE(ReplayCase(def, Stored("regression", E::kHolds, 1, 4)).ok);
  // A case of another shape (a field the claim does not have) is no refutation.
  StoredCase other;
  other.name = "other";
  other.expect = E::kHolds;
  other.value = Case().Scalar("x", 1.0);
  const ReplayOutcome misfit = ReplayCase(def, other);
  EXPECT_FALSE(misfit.ok);
  EXPECT_EQ(misfit.detail.rfind(kCaseMisfit, 0), 0u) << misfit.detail;
  EXPECT_FALSE(ReplayCase(def, Stored("regression", E::kHolds, 8, 4)).ok);
}

TEST(Replay, StoreIsReplayedBeforeTheRandomCases) {
  const std::string dir = TempDir("replay");
  std::filesystem::create_directories(dir);
  {
    std::ofstream(StorePath(dir, BoundClaim::kId)) << kGoodStore;
  }
  RunOptions o;
  o.store_dir = dir;
  o.max_success = 20;
  // Random cases alone would refute (x up to 100 > 50): limit them to x<=50
  // by a claim whose generator is safe, so only the pin can refute.
  PropertyDef def = BoundDef();
  def.hypotheses = [] { return rc::gen::just(Case().Scalar("x", 1.0).Scalar("bound", 50.0)); };
  PropertyResult r = RunProperty(def, o);
  ASSERT_EQ(r.replayed.size(), 2u);
  EXPECT_EQ(r.replayed[0].name, "big");
  EXPECT_TRUE(r.pinned_refutation);
  EXPECT_EQ(r.verdict, Verdict::kRefuted) << r.message;
  EXPECT_NE(r.message.find("pinned counterexample big"), std::string::npos) << r.message;
  EXPECT_EQ(r.cases, 20);  // the random search still ran

  // A failing regression case stops the search, and the pins are still checked.
  {
    std::ofstream(StorePath(dir, BoundClaim::kId))
        << "[case name=again expect=holds]\nx: scalar 9\nbound: scalar 4\n[end]\n" << kGoodStore;
  }
  r = RunProperty(def, o);
  EXPECT_EQ(r.verdict, Verdict::kRefuted) << r.message;
  EXPECT_EQ(r.cases, 0);
  EXPECT_TRUE(r.pinned_refutation);
  EXPECT_EQ(r.replayed.size(), 3u);
  EXPECT_NE(r.message.find("stored case again"), std::string::npos) << r.message;

  // A pin that no longer refutes is an error, not a pass.
  {
    std::ofstream(StorePath(dir, BoundClaim::kId)) << "[case name=stale expect=refutes]\nx: scalar 1\nbound: scalar 4\n[end]\n";
  }
  r = RunProperty(def, o);
  EXPECT_EQ(r.verdict, Verdict::kError);
  EXPECT_FALSE(r.pinned_refutation);
  EXPECT_NE(r.message.find("no longer refutes"), std::string::npos) << r.message;

  // A malformed store stops the run with file and line.
  {
    std::ofstream(StorePath(dir, BoundClaim::kId)) << "[case name=x expect=holds]\nx: scalar 1\n";
  }
  EXPECT_THROW(RunProperty(def, o), StoreError);
  std::filesystem::remove_all(dir);
}

TEST(Replay, NewCounterexampleIsSavedThenReplayedFirst) {
  const std::string dir = TempDir("save");
  RunOptions o;
  o.store_dir = dir;
  o.save_dir = dir;
  o.max_success = 200;
  const PropertyDef def = BoundDef();
  const PropertyResult first = RunProperty(def, o);
  ASSERT_EQ(first.verdict, Verdict::kRefuted);
  ASSERT_TRUE(first.counterexample_case.has_value());
  // RapidCheck shrinks to the edge (x = 51 against bound 50); attnprop's
  // shrinker then gives both values fewer significant bits (48 > 32, 0x30 >
  // 0x20), brings the case to magnitude 1 (1.5 > 1: TowardUnitScale) and
  // simplifies again, still inside the hypotheses (bound > 0).
  EXPECT_EQ(first.counterexample_case->GetScalar("x"), Exact(1.0)) << first.counterexample;
  EXPECT_EQ(first.counterexample_case->GetScalar("bound"), Exact(0.5)) << first.counterexample;
  EXPECT_EQ(first.confirmed, std::optional<bool>(true));
  ASSERT_EQ(first.saved_to, StorePath(dir, def.id));
  const auto stored = LoadStore(dir, def.id);
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_EQ(stored[0].expect, StoredCase::Expect::kHolds);
  EXPECT_EQ(stored[0].backends, std::vector<std::string>{"double"});
  EXPECT_EQ(stored[0].value, *first.counterexample_case);
  // No temporary file is left behind; the new store says what it is (README.md), and is no cache.
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    files += e.is_regular_file() && e.path().filename() != "README.md";
  EXPECT_EQ(files, 1);
  EXPECT_TRUE(std::filesystem::is_regular_file(std::filesystem::path(dir) / "README.md"));
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(dir) / ".gitignore"));

  const PropertyResult second = RunProperty(def, o);
  EXPECT_EQ(second.verdict, Verdict::kRefuted);
  EXPECT_EQ(second.cases, 0) << "the stored case should refute before any random case";
  EXPECT_NE(second.message.find("stored case found-double"), std::string::npos) << second.message;
  EXPECT_EQ(LoadStore(dir, def.id).size(), 1u);
  EXPECT_FALSE(SaveToStore(dir, def.id, stored[0])) << "a stored case is not stored twice";
  std::filesystem::remove_all(dir);
}

TEST(Replay, ACounterexampleNoStoreKeepsIsWrittenAsACaseFile) {
  // --no-save (no save dir): the counterexample goes to the replay folder as
  // Case text, named by an absolute path, so that its printed replay line
  // works from any folder.
  const std::string dir = TempDir("replay");
  RunOptions o;
  o.max_success = 200;
  o.replay_dir = dir;
  const PropertyDef def = BoundDef();
  const PropertyResult r = RunProperty(def, o);
  ASSERT_EQ(r.verdict, Verdict::kRefuted);
  EXPECT_TRUE(r.saved_to.empty());
  ASSERT_FALSE(r.replay_file.empty());
  EXPECT_TRUE(std::filesystem::path(r.replay_file).is_absolute()) << r.replay_file;
  std::ifstream in(r.replay_file);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string error;
  const auto parsed = Case::Parse(text, &error);
  ASSERT_TRUE(parsed) << error;
  EXPECT_EQ(*parsed, *r.counterexample_case);
  // The same case, the same file.
  EXPECT_EQ(RunProperty(def, o).replay_file, r.replay_file);
  std::filesystem::remove_all(dir);
}

TEST(Replay, ReproduceTokenReplaysTheShrunkCase) {
  const PropertyDef def = BoundDef();
  RunOptions o;
  o.max_success = 200;
  const PropertyResult found = RunProperty(def, o);
  ASSERT_EQ(found.verdict, Verdict::kRefuted);
  ASSERT_FALSE(found.reproduce.empty());
  RunOptions again;
  again.reproduce = found.reproduce;
  const PropertyResult replayed = RunProperty(def, again);
  EXPECT_EQ(replayed.verdict, Verdict::kRefuted);
  ASSERT_TRUE(replayed.counterexample_case.has_value());
  EXPECT_EQ(*replayed.counterexample_case, *found.counterexample_case);
  // A token names its property: another property refuses it.
  PropertyDef other = def;
  other.id = "test.other";
  EXPECT_THROW(RunProperty(other, again), std::invalid_argument);
}

TEST(Store, UnwritableDirectoryIsAClearError) {
  StoredCase s = Stored("a", StoredCase::Expect::kHolds, 1, 2);
  EXPECT_THROW(SaveToStore("/dev/null/store", "x", s), StoreError);
  EXPECT_THROW(WriteFileAtomically("/dev/null/x.txt", "text"), std::runtime_error);
}

// A SIGTERM, SIGINT or SIGHUP arriving while a store file is written ends
// the process only once the file is renamed into place: no temporary is left
// and the entry is whole (issue 35: an interrupted save left a .tmp and lost
// the entry).
TEST(Store, SignalDuringASaveLeavesTheWholeFileAndNoTemporary) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("attnprop-atomic-signal-" + std::to_string(getpid()));
  for (const int sig : {SIGTERM, SIGINT, SIGHUP}) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "entry.txt").string();
    WriteFileAtomically(path, "old");
    const std::string text(64u << 20, 'n');  // long enough to be written when the signal comes
    const pid_t child = fork();
    if (child == 0) {
      std::signal(sig, SIG_DFL);
      const pid_t self = getpid();
      // A sibling thread is not needed: a second child signals this one.
      if (fork() == 0) {
        usleep(2000);
        kill(self, sig);
        _exit(0);
      }
      WriteFileAtomically(path, text);
      pause();  // the held signal has been delivered by now; this is not reached
      _exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status)) << "signal " << sig << ": status " << status;
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
    EXPECT_EQ(names, std::vector<std::string>{"entry.txt"}) << "signal " << sig << ": a temporary was left";
    const auto size = std::filesystem::file_size(path);
    EXPECT_TRUE(size == 3 || size == text.size()) << "signal " << sig << ": entry.txt has " << size << " bytes";
  }
  std::filesystem::remove_all(dir);
}

// The run pipeline: listeners hear each property start and finish, judged,
// in order, and the end; fail_fast stops after the first unexpected
// outcome (BoundClaim is refuted and has no registry row: expected to hold).
TEST(PropertyRun, ListenersHearEachOutcomeAndFailFastStops) {
  struct Log : RunListener {
    void Started(size_t i, const PropertyDef& d) override { events.push_back("start " + std::to_string(i) + " " + d.id); }
    void Finished(const PropertyOutcome& o) override {
      events.push_back("finish " + std::to_string(o.index) + (o.judgement.as_expected() ? " ok" : " unexpected") +
                       " " + VerdictName(o.result.verdict));
    }
    void Ended(size_t ran) override { events.push_back("end " + std::to_string(ran)); }
    std::vector<std::string> events;
  };
  const std::vector<PropertyDef> defs = {internal::MakeDef<PlainClaim, double>(__FILE__), BoundDef(),
                                         internal::MakeDef<PlainClaim, double>(__FILE__)};
  for (const bool fail_fast : {false, true}) {
    PropertyRun run(defs, std::vector<RunOptions>(defs.size()));
    Log log;
    run.Listen(log);
    const size_t ran = run.RunAll(fail_fast);
    const std::vector<std::string> head = {"start 0 test.plain_claim", "finish 0 ok holds", "start 1 test.bound_claim",
                                           "finish 1 unexpected refuted"};
    EXPECT_EQ(ran, fail_fast ? 2u : 3u);
    ASSERT_EQ(log.events.size(), fail_fast ? 5u : 7u);
    EXPECT_EQ(std::vector<std::string>(log.events.begin(), log.events.begin() + 4), head);
    EXPECT_EQ(log.events.back(), "end " + std::to_string(ran));
  }
}

// A capped budget gives each property its share of the search time, and
// none once the run's part is spent; without a budget the options stand.
TEST(PropertyRun, SearchBudgetSharesTheRunsTime) {
  const SearchBudget budget(900, 30, 10);
  EXPECT_TRUE(budget.capped());
  EXPECT_EQ(budget.share(), 30);
  EXPECT_EQ(budget.guard(), 300);
  EXPECT_EQ(budget.Share(0), 30);
  EXPECT_EQ(budget.Share(290), 10);
  EXPECT_EQ(budget.Share(400), 0);
  EXPECT_FALSE(SearchBudget().capped());
  RunOptions o;
  o.search_seconds = 7;
  PropertyRun run({internal::MakeDef<PlainClaim, double>(__FILE__)}, {o});
  run.RunAll(false);
  EXPECT_EQ(run.options(0).search_seconds, 7);
  PropertyRun capped({internal::MakeDef<PlainClaim, double>(__FILE__)}, {o}, SearchBudget(60, 1, 1));
  capped.RunAll(false);
  EXPECT_GT(capped.options(0).search_seconds, 50);  // 60 s less what the run took before it
  EXPECT_LE(capped.options(0).search_seconds, 60);
}

}  // namespace
}  // namespace attnprop
