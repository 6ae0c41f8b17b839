// The property test binary: every property becomes the gtest
// `<doc>.<rest of id>/<backend>`, i.e. the ctest name `<id>/<backend>`;
// kernel backends run against attnprop's own kernel once per dispatch target
// (`<id>/kernel-f32@avx2`). The counterexample store (properties/
// counterexamples) is replayed first. Judge (judge.h) decides pass or fail,
// as for `attnprop run`; a dispatch target this CPU lacks is a gtest skip.
//   attnprop_properties [--property=ID/BACKEND] [--store=DIR] [--store-out=DIR] [gtest flags]
//   attnprop_properties --ctest-list
// --ctest-list: one line per property, "<name> TAB <labels, comma-separated>
// TAB <1 if a kernel backend>", which is how ctest learns its tests
// (cmake/AttnpropPropertyTests.cmake): the claims and their backends are
// said once, in code, and registry.tsv's labels and expectation are joined
// here, not parsed by CMake.
// --store: the store replayed (default: the source tree's); --store-out:
// where a new counterexample is saved (default: nowhere; never the source
// tree unless asked: the failure message prints the entry to paste).
// Environment: RC_PARAMS (seed, max_success, reproduce=...), ATTNPROP_MPFR_BITS.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <iostream>

#include "properties/framework/backend.h"
#include "properties/framework/judge.h"
#include "properties/framework/options.h"
#include "properties/framework/rc_bridge.h"
#include "properties/framework/registry.h"
#include "properties/framework/run.h"
#include "properties/framework/program.h"
#include "properties/framework/store.h"
#include "properties/operator/kernel_backend.h"

namespace attnprop {
namespace {

/// The attnprop command line a replay runs (the build tree's, by its
/// absolute path: the line works from any folder).
#ifdef ATTNPROP_CLI
constexpr const char* kCli = ATTNPROP_CLI;
#else
constexpr const char* kCli = "attnprop";
#endif

/// The run every test belongs to (main builds it); each gtest test runs
/// one of its properties.
PropertyRun* g_run = nullptr;

/// gtest hears each outcome: the property's line and its stored cases, then
/// a skip, or the expectation with the counterexample and how to reproduce
/// it.
class GtestListener : public RunListener {
 public:
  void Finished(const PropertyOutcome& o) override {
    const PropertyDef& def = *o.def;
    const PropertyResult& r = o.result;
    const Judgement& j = o.judgement;
    std::cout << def.Name() << ": " << VerdictName(r.verdict) << " after " << r.cases << " cases (" << r.discarded
              << " discarded), " << r.seconds << " s\n";
    if (r.undecided > 0 || r.search_undecided > 0)
      std::cout << "  undecided by interval arithmetic: " << r.undecided << " of the cases, " << r.search_undecided
                << " search candidates; the first:\n  " << r.undecided_example << "\n";
    for (const auto& rep : r.replayed)
      std::cout << "  stored case " << rep.name << " (expect " << ExpectName(rep.expect)
                << "): " << (rep.ok ? "ok" : "NOT OK") << ", " << rep.detail << "\n";
    if (j.skipped()) GTEST_SKIP() << j.why;
    std::string details;
    if (!r.counterexample.empty())
      details += "\nShrunk counterexample (" + std::to_string(r.shrink_steps) + " shrink steps):\n" + r.counterexample;
    if (!r.replay_file.empty())
      details += "\nReplay: " + std::string(kCli) + " reproduce '" + def.Name() + "' '" + r.replay_file + "'\n";
    if (!r.reproduce.empty())
      details += "Reproduce: RC_PARAMS=\"" + r.reproduce + "\" ctest -R '^" + def.Name() + "$' --output-on-failure";
    if (!r.store_entry.empty())
      details += (r.saved_to.empty() ? "\nStore entry (paste into " + StorePath(DefaultStoreDir(), def.id) + "):\n"
                                     : "\nSaved to " + r.saved_to + ":\n") +
                 r.store_entry;
    EXPECT_TRUE(j.as_expected()) << def.Name() << ": " << j.why << details;
    if (j.as_expected() && r.verdict == Verdict::kRefuted && !r.pinned_refutation)
      std::cout << "note: refuted by the search alone; pin the counterexample in "
                << StorePath(o.options->store_dir, def.id) << details << "\n";
  }
};

class PropertyTest : public ::testing::Test {
 public:
  explicit PropertyTest(size_t index) : index_(index) {}
  void TestBody() override { g_run->RunOne(index_); }

 private:
  size_t index_;
};

/// The ctest tests: a property's labels are its base backend ("kernel" too
/// for a kernel backend), registry.tsv's labels, and "refuted" for a claim
/// registered false as stated.
void PrintCtestList(const std::vector<PropertyDef>& defs) {
  for (const auto& d : defs) {
    const std::string base(BaseBackend(d.backend));
    const bool kernel = base.rfind("kernel-", 0) == 0;
    std::string labels = base + (kernel ? ",kernel" : "");
    if (d.row) {
      for (const auto& l : d.row->labels) labels += "," + l;
      if (d.row->expect == Expectation::kRefuted) labels += ",refuted";
    }
    std::cout << d.Name() << "\t" << labels << "\t" << (kernel ? 1 : 0) << "\n";
  }
}

}  // namespace
}  // namespace attnprop

int main(int argc, char** argv) {
  using namespace attnprop;
  std::string only, store = DefaultStoreDir(), store_out;
  bool ctest_list = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--ctest-list") == 0) ctest_list = true;
    if (std::strncmp(argv[i], "--property=", 11) == 0) only = argv[i] + 11;
    if (std::strncmp(argv[i], "--store=", 8) == 0) store = argv[i] + 8;
    if (std::strncmp(argv[i], "--store-out=", 12) == 0) store_out = argv[i] + 12;
  }
  const std::vector<ksuite::KernelInstance> kernels = ksuite::OwnKernelInstances();
  std::vector<PropertyDef> defs;
  std::vector<RunOptions> options;
  RunOptions base;
  try {
    base = OptionsFromEnvironment();
    base.store_dir = store;
    base.save_dir = store_out;
    InitMpfrPrecisionFromEnvironment();
    const auto problems = JoinRegistry();
    if (!problems.empty()) {
      for (const auto& p : problems) std::cerr << "attnprop: " << p << "\n";
      return 2;
    }
    defs = ksuite::PropertiesFor(kernels, /*model=*/true);
    if (ctest_list) {
      PrintCtestList(defs);
      return 0;
    }
    // RC_PARAMS=reproduce=... replays its own properties; the rest run as usual.
    options.assign(defs.size(), base);
    const char* env = std::getenv("RC_PARAMS");
    if (env && std::strstr(env, "reproduce=")) {
      const std::string token = env;
      const auto names = ReproduceTokenProperties(token.substr(token.find("reproduce=")));
      for (size_t i = 0; i < defs.size(); ++i)
        if (std::find(names.begin(), names.end(), defs[i].Name()) != names.end()) options[i].reproduce = token;
    }
  } catch (const std::exception& e) {
    std::cerr << "attnprop: " << e.what() << "\n";
    return 2;
  }
  if (!only.empty() && std::none_of(defs.begin(), defs.end(), [&](const PropertyDef& d) { return d.Name() == only; })) {
    std::cerr << "attnprop: no property named '" << only << "'\n";
    return 2;
  }
  PrintBanner(std::cout, base, ksuite::KernelSummary(kernels));
  PropertyRun run(std::move(defs), std::move(options));
  GtestListener gtest;
  run.Listen(gtest);
  g_run = &run;
  for (size_t i = 0; i < run.size(); ++i) {
    const PropertyDef& def = run.defs()[i];
    const auto dot = def.id.find('.');
    const std::string suite = def.id.substr(0, dot), name = def.id.substr(dot + 1) + "/" + def.backend;
    ::testing::RegisterTest(suite.c_str(), name.c_str(), nullptr, nullptr, def.file.c_str(), 0,
                            [i]() -> ::testing::Test* { return new PropertyTest(i); });
  }
  ::testing::InitGoogleTest(&argc, argv);
  // A gtest filter reads '-' as the start of its negative patterns
  // ("kernel-f32"): match it with '?' (names are unique, so nothing else
  // matches), and refuse to pass having run nothing.
  std::string filter = only;
  for (char& ch : filter)
    if (ch == '-') ch = '?';
  if (!only.empty()) GTEST_FLAG_SET(filter, filter);
  const int status = RUN_ALL_TESTS();
  if (!only.empty() && ::testing::UnitTest::GetInstance()->test_to_run_count() != 1) {
    std::cerr << "attnprop: --property=" << only << " selected "
              << ::testing::UnitTest::GetInstance()->test_to_run_count() << " tests, not 1\n";
    return 2;
  }
  return status;
}
