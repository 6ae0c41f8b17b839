// The variants of the formal norm-bound cases (formal.prop.norm_bound_L_V_LV,
// formal.proof.head_rows_convex; properties/formal/sec1_norm_bound.cc) each
// get at least a fifth of a default run's cases, in every backend the
// registry runs them in (issue 12): the norms l1, l2, l_inf; one and two
// heads; the aligned family (the cases that attain the bound); the maps
// linear, scaled tanh (not in rationals: no tanh) and scaled clamp; the
// three potentials softmax, tempered lse and log-barrier (per head, in the
// backends that compute them). RapidCheck's size schedule once narrowed the
// variants drawn with inRange so that l_inf, the clamp map, the log-barrier
// potential and two heads appeared in about one case per run; this test
// fails if that comes back. Sampled as a default run does (100 cases, sizes
// 0..99) from five seeds.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "generators/tests/test_util.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace {

std::map<std::string, int> VariantCounts(const PropertyDef& def, int* cases, bool exact) {
  std::map<std::string, int> counts;
  for (uint64_t seed = 1; seed <= 5; ++seed)
    for (const Case& c : gen::testing::Sample(def.hypotheses(), gen::testing::kDefaultCases, seed)) {
      ++*cases;
      ++counts["norm" + std::to_string(c.GetInt("norm"))];
      ++counts["heads" + std::to_string(c.GetInt("heads"))];
      ++counts["aligned" + std::to_string(c.GetInt("aligned"))];
      ++counts["mkind" + std::to_string(c.GetInt("mkind"))];
      if (!exact)
        for (int64_t h = 0; h < c.GetInt("heads"); ++h) ++counts["pot" + std::to_string(c.GetInt("pot" + std::to_string(h)))];
    }
  return counts;
}

TEST(FormalNormBound, EveryVariantHasAFifthOfTheCases) {
  for (const char* id : {"formal.prop.norm_bound_L_V_LV", "formal.proof.head_rows_convex"})
    for (const char* backend : {"double", "mpfr", "rational"}) {
      const PropertyDef* def = FindProperty(std::string(id) + "/" + backend);
      ASSERT_NE(def, nullptr) << id << "/" << backend;
      const bool exact = std::string(backend) == "rational";
      int cases = 0;
      const std::map<std::string, int> counts = VariantCounts(*def, &cases, exact);
      std::vector<std::string> variants = {"norm0", "norm1", "norm2", "heads1", "heads2", "aligned0", "aligned1",
                                           "mkind0", "mkind2"};
      if (!exact) {
        variants.push_back("mkind1");
        for (const char* p : {"pot0", "pot1", "pot2"}) variants.push_back(p);
      }
      for (const std::string& v : variants) {
        const auto it = counts.find(v);
        const int n = it == counts.end() ? 0 : it->second;
        // Potentials are counted per head (1.5 heads a case on average);
        // a fifth of the heads drawn.
        int total = cases;
        if (v.rfind("pot", 0) == 0) total = counts.at("heads1") + 2 * counts.at("heads2");
        EXPECT_GE(5 * n, total) << id << "/" << backend << ": variant " << v << " in " << n << " of " << total;
      }
    }
}

}  // namespace
}  // namespace attnprop
