// The property test binary: every registered property becomes the gtest
// `<doc>.<rest of id>/<backend>`, i.e. the ctest name `<id>/<backend>`.
// The counterexample store (properties/counterexamples) is replayed first.
// A holds-claim must hold; a known-refuted claim's pinned counterexample must
// still refute it (in the store, and confirmed at higher precision); the
// random search may or may not find another.
//   attnprop_properties [--property=ID/BACKEND] [--store=DIR] [--store-out=DIR] [gtest flags]
// --store: the store replayed (default: the source tree's); --store-out:
// where a new counterexample is saved (default: nowhere; never the source
// tree unless asked: the failure message prints the entry to paste).
// Environment: RC_PARAMS (seed, max_success, reproduce=...), ATTNPROP_MPFR_BITS.
#include <gtest/gtest.h>

#include <cstring>
#include <iostream>

#include "properties/framework/options.h"
#include "properties/framework/registry.h"
#include "properties/framework/store.h"
#include "rapidcheck/detail/Configuration.h"

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
      const auto cfg = rc::detail::configFromString(g_reproduce_env);
      if (cfg.reproduce.count(def_->Name())) o.reproduce = g_reproduce_env;
    }
    const PropertyResult r = RunProperty(*def_, o);
    std::cout << def_->Name() << ": " << VerdictName(r.verdict) << " after " << r.cases << " cases ("
              << r.discarded << " discarded), " << r.seconds << " s\n";
    for (const auto& rep : r.replayed)
      std::cout << "  stored case " << rep.name << " (expect " << ExpectName(rep.expect)
                << "): " << (rep.ok ? "ok" : "NOT OK") << ", " << rep.detail << "\n";
    const RegistryRow* row = FindRow(def_->id);
    ASSERT_NE(row, nullptr);
    std::string store_note;
    if (!r.store_entry.empty()) {
      store_note = r.saved_to.empty() ? "\nStore entry (paste into " + StorePath(DefaultStoreDir(), def_->id) + "):\n"
                                      : "\nSaved to " + r.saved_to + ":\n";
      store_note += r.store_entry;
    }
    if (row->expect == Expectation::kHolds) {
      EXPECT_STREQ(VerdictName(r.verdict), "holds")
          << def_->Name() << " " << VerdictName(r.verdict) << ": " << r.message << "\nShrunk counterexample ("
          << r.shrink_steps << " shrink steps):\n"
          << r.counterexample << "Reproduce: RC_PARAMS=\"" << r.reproduce << "\" ctest -R '^" << def_->Name()
          << "$' --output-on-failure" << store_note;
    } else {
      EXPECT_STREQ(VerdictName(r.verdict), "refuted")
          << def_->Name() << " is registered as refuted but " << VerdictName(r.verdict) << ": " << r.message;
      EXPECT_TRUE(r.pinned_refutation)
          << def_->Name() << " is registered as refuted but no pinned counterexample (expect=refutes, backend "
          << def_->backend << ") in " << StorePath(g_options.store_dir, def_->id)
          << " reproduces: it must still refute, satisfy the hypotheses and be confirmed at higher precision."
          << store_note;
      if (r.confirmed.has_value() && !r.pinned_refutation) {
        EXPECT_TRUE(*r.confirmed) << "the random counterexample does not survive higher precision\n" << r.counterexample;
      }
    }
  }

 private:
  const PropertyDef* def_;
};

}  // namespace
}  // namespace attnprop

int main(int argc, char** argv) {
  using namespace attnprop;
  std::string only, store = DefaultStoreDir(), store_out;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--property=", 11) == 0) only = argv[i] + 11;
    if (std::strncmp(argv[i], "--store=", 8) == 0) store = argv[i] + 8;
    if (std::strncmp(argv[i], "--store-out=", 12) == 0) store_out = argv[i] + 12;
  }
  try {
    g_options = OptionsFromEnvironment();
    g_options.store_dir = store;
    g_options.save_dir = store_out;
    InitMpfrPrecisionFromEnvironment();
    const char* env = std::getenv("RC_PARAMS");
    if (env && std::strstr(env, "reproduce=")) g_reproduce_env = env;
    const auto problems = RegistryProblems();
    if (!problems.empty()) {
      for (const auto& p : problems) std::cerr << "attnprop: " << p << "\n";
      return 2;
    }
  } catch (const std::exception& e) {
    std::cerr << "attnprop: " << e.what() << "\n";
    return 2;
  }
  if (!only.empty() && !FindProperty(only)) {
    std::cerr << "attnprop: no property named '" << only << "'\n";
    return 2;
  }
  PrintBanner(std::cout, g_options, ActiveKernelPath());
  for (const auto& def : Registry()) {
    const auto dot = def.id.find('.');
    const std::string suite = def.id.substr(0, dot), name = def.id.substr(dot + 1) + "/" + def.backend;
    const PropertyDef* p = &def;
    ::testing::RegisterTest(suite.c_str(), name.c_str(), nullptr, nullptr, def.file.c_str(), 0,
                            [p]() -> ::testing::Test* { return new PropertyTest(p); });
  }
  ::testing::InitGoogleTest(&argc, argv);
  if (!only.empty()) GTEST_FLAG_SET(filter, only);
  return RUN_ALL_TESTS();
}
