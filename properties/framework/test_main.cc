// The property test binary: every registered property becomes the gtest
// `<doc>.<rest of id>/<backend>`, i.e. the ctest name `<id>/<backend>`.
// A holds-claim must hold; a known-refuted claim must still be refuted,
// and its counterexample must survive higher precision.
//   attnprop_properties [--property=ID/BACKEND] [gtest flags]
// Environment: RC_PARAMS (seed, max_success, reproduce=...), ATTNPROP_MPFR_BITS.
#include <gtest/gtest.h>

#include <cstring>
#include <iostream>

#include "properties/framework/options.h"
#include "properties/framework/registry.h"
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
    const RegistryRow* row = FindRow(def_->id);
    ASSERT_NE(row, nullptr);
    if (row->expect == Expectation::kHolds) {
      EXPECT_STREQ(VerdictName(r.verdict), "holds")
          << def_->Name() << " " << VerdictName(r.verdict) << ": " << r.message << "\nShrunk counterexample ("
          << r.shrink_steps << " shrink steps):\n"
          << r.counterexample << "Reproduce: RC_PARAMS=\"" << r.reproduce << "\" ctest -R '^" << def_->Name()
          << "$' --output-on-failure";
    } else {
      ASSERT_STREQ(VerdictName(r.verdict), "refuted") << def_->Name() << " is registered as refuted but " << VerdictName(r.verdict);
      ASSERT_TRUE(r.counterexample_case.has_value());
      const auto hi = CheckCase(def_->confirm, *r.counterexample_case);
      EXPECT_TRUE(hi.has_value()) << "the counterexample does not survive higher precision: a rounding artefact\n"
                                  << r.counterexample;
    }
  }

 private:
  const PropertyDef* def_;
};

}  // namespace
}  // namespace attnprop

int main(int argc, char** argv) {
  using namespace attnprop;
  std::string only;
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], "--property=", 11) == 0) only = argv[i] + 11;
  try {
    g_options = OptionsFromEnvironment();
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
  PrintBanner(std::cout, g_options, "none");
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
