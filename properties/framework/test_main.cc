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
#include "properties/framework/store.h"
#include "properties/operator/kernel_backend.h"

namespace attnprop {
namespace {

RunOptions g_options;
std::string g_reproduce_env;

class PropertyTest : public ::testing::Test {
 public:
  explicit PropertyTest(const PropertyDef* def) : def_(def) {}
  void TestBody() override {
    RunOptions o = g_options;
    if (!g_reproduce_env.empty()) {
      const auto names = ReproduceTokenProperties(g_reproduce_env.substr(g_reproduce_env.find("reproduce=")));
      if (std::find(names.begin(), names.end(), def_->Name()) != names.end()) o.reproduce = g_reproduce_env;
    }
    const PropertyResult r = RunProperty(*def_, o);
    std::cout << def_->Name() << ": " << VerdictName(r.verdict) << " after " << r.cases << " cases ("
              << r.discarded << " discarded), " << r.seconds << " s\n";
    for (const auto& rep : r.replayed)
      std::cout << "  stored case " << rep.name << " (expect " << ExpectName(rep.expect)
                << "): " << (rep.ok ? "ok" : "NOT OK") << ", " << rep.detail << "\n";
    const Judgement j = Judge(r, *def_);
    if (j.skipped()) GTEST_SKIP() << j.why;
    std::string details;
    if (!r.counterexample.empty())
      details += "\nShrunk counterexample (" + std::to_string(r.shrink_steps) + " shrink steps):\n" + r.counterexample;
    if (!r.reproduce.empty())
      details += "Reproduce: RC_PARAMS=\"" + r.reproduce + "\" ctest -R '^" + def_->Name() + "$' --output-on-failure";
    if (!r.store_entry.empty())
      details += (r.saved_to.empty() ? "\nStore entry (paste into " + StorePath(DefaultStoreDir(), def_->id) + "):\n"
                                     : "\nSaved to " + r.saved_to + ":\n") +
                 r.store_entry;
    EXPECT_TRUE(j.as_expected()) << def_->Name() << ": " << j.why << details;
    if (j.as_expected() && r.verdict == Verdict::kRefuted && !r.pinned_refutation)
      std::cout << "note: refuted by the search alone; pin the counterexample in "
                << StorePath(g_options.store_dir, def_->id) << details << "\n";
  }

 private:
  const PropertyDef* def_;
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
  try {
    g_options = OptionsFromEnvironment();
    g_options.store_dir = store;
    g_options.save_dir = store_out;
    InitMpfrPrecisionFromEnvironment();
    const char* env = std::getenv("RC_PARAMS");
    if (env && std::strstr(env, "reproduce=")) g_reproduce_env = env;
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
  } catch (const std::exception& e) {
    std::cerr << "attnprop: " << e.what() << "\n";
    return 2;
  }
  if (!only.empty() && std::none_of(defs.begin(), defs.end(), [&](const PropertyDef& d) { return d.Name() == only; })) {
    std::cerr << "attnprop: no property named '" << only << "'\n";
    return 2;
  }
  PrintBanner(std::cout, g_options, ksuite::KernelSummary(kernels));
  for (const auto& def : defs) {
    const auto dot = def.id.find('.');
    const std::string suite = def.id.substr(0, dot), name = def.id.substr(dot + 1) + "/" + def.backend;
    const PropertyDef* p = &def;
    ::testing::RegisterTest(suite.c_str(), name.c_str(), nullptr, nullptr, def.file.c_str(), 0,
                            [p]() -> ::testing::Test* { return new PropertyTest(p); });
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
