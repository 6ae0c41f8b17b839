// Input that must not crash attnprop (issue 16): malformed store files are
// errors naming FILE:LINE (testdata/malformed/), cases that parse but do not
// fit their claim are rejected before the claim's code runs on them
// (testdata/misfit/, replayed on a kernel claim's double backend), a
// reproduce token is checked before RapidCheck decodes it, RC_PARAMS that
// would run no case is an error, and concurrent saves into one store lose no
// entry.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

#include "properties/framework/rc_bridge.h"
#include "properties/framework/registry.h"
#include "properties/framework/replay.h"
#include "properties/framework/store.h"

#ifndef ATTNPROP_TESTDATA_DIR
#error "ATTNPROP_TESTDATA_DIR must be defined by the build"
#endif

namespace attnprop {
namespace {

namespace fs = std::filesystem;

std::string Read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<fs::path> FilesIn(const std::string& sub) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path(ATTNPROP_TESTDATA_DIR) / sub)) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(RobustInput, MalformedStoreFilesAreErrorsWithFileAndLine) {
  const auto files = FilesIn("malformed");
  ASSERT_GE(files.size(), 10u);
  for (const auto& f : files) {
    try {
      ParseStore(Read(f), f.filename().string());
      ADD_FAILURE() << f << " was accepted";
    } catch (const StoreError& e) {
      // "NAME.txt:LINE: why"
      const std::string what = e.what(), prefix = f.filename().string() + ":";
      EXPECT_EQ(what.rfind(prefix, 0), 0u) << what;
      EXPECT_TRUE(what.size() > prefix.size() && std::isdigit(static_cast<unsigned char>(what[prefix.size()])))
          << what;
    }
  }
}

TEST(RobustInput, LimitsAreStated) {
  std::string error;
  EXPECT_FALSE(Case::Parse("Q: matrix 4611686018427387904x2\n", &error));
  EXPECT_NE(error.find("limit"), std::string::npos) << error;
  // The whole case counts: 1 + 2^20 elements exceed the limit only together.
  const std::string big = "A: matrix 1x1\n  0\nB: matrix 1024x1024\n";
  EXPECT_FALSE(Case::Parse(big, &error));
  EXPECT_NE(error.find("elements in all"), std::string::npos) << error;
}

const PropertyDef& Def(const std::string& name) {
  for (const PropertyDef& d : Registry())
    if (d.Name() == name) return d;
  throw std::logic_error("no property " + name);
}

TEST(RobustInput, CasesThatDoNotFitAreNeverRun) {
  const PropertyDef& def = Def("lecture4.prop7.2.nadaraya_watson_form/double");
  const auto files = FilesIn("misfit");
  ASSERT_GE(files.size(), 6u);
  for (const auto& f : files) {
    const auto cases = ParseStore(Read(f), f.filename().string());
    ASSERT_EQ(cases.size(), 1u) << f;
    const ReplayOutcome o = ReplayCase(def, cases[0]);
    EXPECT_FALSE(o.ok) << f;
    EXPECT_FALSE(o.regression) << f << ": a case that does not fit is not a refutation: " << o.detail;
    EXPECT_TRUE(o.detail.find(kCaseMisfit) != std::string::npos ||
                o.detail.find("no longer satisfies the claim's hypotheses") != std::string::npos)
        << f << ": " << o.detail;
  }
  // The same shapes made consistent fit.
  const auto good = ParseStore(
      "[case name=a expect=holds backends=double]\nbatch: int 1\ncausal: int 0\nscale: scalar 0x1p+0\n"
      "Q: matrix 1x1\n  0x1p+0\nK: matrix 1x1\n  0x1p+0\nV: matrix 1x1\n  0x1p+0\n[end]\n",
      "good.txt");
  EXPECT_EQ(CaseDoesNotFit(def, good[0].value), std::nullopt);
  EXPECT_TRUE(ReplayCase(def, good[0]).ok) << ReplayCase(def, good[0]).detail;
}

TEST(RobustInput, EveryStoredCaseOfTheRepositoryFitsItsClaim) {
  // The schema learned from each generator admits every pin and regression
  // case kept in the repository (else a real case would be rejected).
  int checked = 0;
  for (const PropertyDef& d : Registry()) {
    for (const StoredCase& sc : LoadStore(DefaultStoreDir(), d.id)) {
      if (!sc.AppliesTo(d.backend)) continue;
      EXPECT_EQ(CaseDoesNotFit(d, sc.value), std::nullopt) << d.Name() << " " << sc.origin;
      ++checked;
    }
  }
  EXPECT_GT(checked, 20);
}

TEST(RobustInput, MalformedReproduceTokensAreRejectedBeforeRapidCheck) {
  // A real token, then mutations of it: each is rejected (invalid_argument)
  // or decodes to something RapidCheck can replay without crashing.
  const std::vector<std::string> bad = {"", "reproduce=", "reproduce=!!!!", "reproduce=AAAA", "seed=1",
                                        "reproduce=BQCblNGd1JX\xff\xfe"};
  for (const auto& t : bad) EXPECT_THROW(ReproduceTokenProperties(t), std::invalid_argument) << t;
}

TEST(RobustInput, AReproduceTokenNamingAPropertyTwiceIsRejected) {
  // RapidCheck's decoder reads entries until it holds as many distinct names
  // as the token declares: a repeated name made it read past the end of the
  // token (found by fuzz/token_decoder in CI; the input is kept there).
  std::ifstream in(std::string(ATTNPROP_TESTDATA_DIR) +  // properties/framework/testdata
                   "/../../../fuzz/regressions/token_decoder/crash-d4778efd3a7f7f2b776f50e178fd6d8f71cbbd00");
  const std::string token((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(token.empty());
  try {
    ReproduceTokenProperties(token);
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("a property named twice"), std::string::npos) << e.what();
  }
}

TEST(RobustInput, RcParamsThatRunNoCaseAreAnError) {
  EXPECT_THROW(OptionsFromRcParams("max_success=0", RunOptions{}), std::invalid_argument);
  EXPECT_THROW(OptionsFromRcParams("max_success=-3", RunOptions{}), std::invalid_argument);
  EXPECT_EQ(OptionsFromRcParams("max_success=7", RunOptions{}).max_success, 7);
  // Parsed strictly (issue 35): RapidCheck itself reads "1e3" as 1 and ignores unknown keys.
  EXPECT_THROW(OptionsFromRcParams("max_success=1e3", RunOptions{}), std::invalid_argument);
  EXPECT_THROW(OptionsFromRcParams("max_sucess=100", RunOptions{}), std::invalid_argument);
  EXPECT_THROW(OptionsFromRcParams("seed=12abc", RunOptions{}), std::invalid_argument);
  EXPECT_THROW(OptionsFromRcParams("noshrink=yes", RunOptions{}), std::invalid_argument);
  EXPECT_EQ(OptionsFromRcParams("seed=5 max_success=9 noshrink=1", RunOptions{}).max_success, 9);
}

void SleepBetweenReadAndWrite() { usleep(20000); }

TEST(RobustInput, ConcurrentSavesLoseNoEntry) {
  // 40 processes save a different case into one store file at once; each
  // waits 20 ms between reading the file and writing it back, so without the
  // lock nearly every write would overwrite the others'.
  const fs::path dir = fs::temp_directory_path() / ("attnprop-concurrent-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  constexpr int kRuns = 40;
  int go[2];
  ASSERT_EQ(pipe(go), 0);
  std::vector<pid_t> pids;
  for (int i = 0; i < kRuns; ++i) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      close(go[1]);
      char c;
      while (read(go[0], &c, 1) > 0) {
      }  // the start line: EOF when the parent closes its end
      SetStoreMergeHookForTesting(&SleepBetweenReadAndWrite);
      StoredCase s;
      s.name = "run";
      s.value.Int("x", i);
      int rc = 0;
      try {
        rc = SaveToStore(dir.string(), "test.concurrent", s) ? 0 : 3;
      } catch (...) {
        rc = 4;
      }
      _exit(rc);
    }
    pids.push_back(pid);
  }
  close(go[0]);
  close(go[1]);
  for (pid_t pid : pids) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  }
  const auto cases = LoadStore(dir.string(), "test.concurrent");
  EXPECT_EQ(cases.size(), static_cast<size_t>(kRuns));
  std::set<int64_t> xs;
  for (const auto& c : cases) xs.insert(c.value.GetInt("x"));
  EXPECT_EQ(xs.size(), static_cast<size_t>(kRuns));
  // No temporary file is left behind.
  for (const auto& e : fs::directory_iterator(dir)) EXPECT_EQ(e.path().extension(), ".txt") << e.path();
  fs::remove_all(dir);
}

TEST(RobustInput, ConcurrentMergesAndSavesLoseNoEntry) {
  // 20 processes at once into one store: the even ones fold a shard's store
  // (MergeStore: one case every shard has, two of its own), the odd ones
  // save a case of their own (SaveToStore); each waits 20 ms between reading
  // a file and writing it back. Under the store's flock every entry is
  // there, and the shared one once.
  const fs::path root = fs::temp_directory_path() / ("attnprop-merge-" + std::to_string(getpid()));
  fs::remove_all(root);
  const fs::path into = root / "into";
  constexpr int kRuns = 20;
  auto stored = [](int64_t x) {
    StoredCase s;
    s.name = "case";
    s.value.Int("x", x);
    return s;
  };
  for (int i = 0; i < kRuns; i += 2) {
    const std::string shard = (root / ("shard" + std::to_string(i))).string();
    ASSERT_TRUE(SaveToStore(shard, "test.merge", stored(-1)));  // in every shard
    ASSERT_TRUE(SaveToStore(shard, "test.merge", stored(1000 + i)));
    ASSERT_TRUE(SaveToStore(shard, "test.merge", stored(2000 + i)));
  }
  int go[2];
  ASSERT_EQ(pipe(go), 0);
  std::vector<pid_t> pids;
  for (int i = 0; i < kRuns; ++i) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      close(go[1]);
      char c;
      while (read(go[0], &c, 1) > 0) {
      }  // the start line: EOF when the parent closes its end
      SetStoreMergeHookForTesting(&SleepBetweenReadAndWrite);
      int rc = 0;
      try {
        if (i % 2 == 0)
          MergeStore(into.string(), (root / ("shard" + std::to_string(i))).string());
        else
          rc = SaveToStore(into.string(), "test.merge", stored(i)) ? 0 : 3;
      } catch (...) {
        rc = 4;
      }
      _exit(rc);
    }
    pids.push_back(pid);
  }
  close(go[0]);
  close(go[1]);
  for (pid_t pid : pids) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  }
  const auto cases = LoadStore(into.string(), "test.merge");
  std::multiset<int64_t> xs;
  for (const auto& c : cases) xs.insert(c.value.GetInt("x"));
  EXPECT_EQ(xs.count(-1), 1u) << "the case every shard has, once";
  for (int i = 0; i < kRuns; ++i) {
    if (i % 2 == 0) {
      EXPECT_EQ(xs.count(1000 + i), 1u) << i;
      EXPECT_EQ(xs.count(2000 + i), 1u) << i;
    } else {
      EXPECT_EQ(xs.count(i), 1u) << i;
    }
  }
  EXPECT_EQ(cases.size(), 1u + 3u * kRuns / 2);
  // Merging a shard again adds nothing.
  const StoreMergeCount again = MergeStore(into.string(), (root / "shard0").string());
  EXPECT_EQ(again.added, 0u);
  EXPECT_EQ(again.present, 3u);
  fs::remove_all(root);
}

}  // namespace
}  // namespace attnprop
