// report.html's heatmaps of the run's own counterexamples: the weights of a
// case that is an attention problem, and the section that draws them.
#include "reports/html_attention.h"

#include <gtest/gtest.h>

#include <cmath>

#include "reports/report.h"

namespace attnprop::report {
namespace {

ExactMatrix Column(std::vector<double> v) {
  ExactMatrix m(static_cast<int64_t>(v.size()), 1);
  for (size_t i = 0; i < v.size(); ++i) m(static_cast<int64_t>(i), 0) = Exact(v[i]);
  return m;
}

Case Problem(int64_t causal) {
  return Case()
      .Int("batch", 1)
      .Int("causal", causal)
      .Scalar("scale", Exact(1.0))
      .Matrix("Q", Column({0, 1}))
      .Matrix("K", Column({0, 1}))
      .Matrix("V", Column({1, 2}));
}

TEST(CounterexampleHeatmap, WeightsOfAnAttentionProblem) {
  const auto w = AttentionWeightsOf(Problem(1));
  ASSERT_TRUE(w.has_value());
  ASSERT_EQ(w->size(), 2u);
  EXPECT_DOUBLE_EQ((*w)[0][0], 1.0);
  EXPECT_TRUE(std::isnan((*w)[0][1])) << "masked: j > i";
  // Row 1: scores (0, 1): softmax = (1, e) / (1 + e).
  EXPECT_NEAR((*w)[1][1], std::exp(1.0) / (1 + std::exp(1.0)), 1e-15);
  const auto unmasked = AttentionWeightsOf(Problem(0));
  ASSERT_TRUE(unmasked.has_value());
  EXPECT_NEAR((*unmasked)[0][0] + (*unmasked)[0][1], 1.0, 1e-15);
  EXPECT_FALSE(AttentionWeightsOf(Case().Scalar("x", Exact(1.0))).has_value()) << "not an attention problem";
}

TEST(CounterexampleHeatmap, DrawnInTheReport) {
  Report r;
  Entry e;
  e.result.id = "lecture4.prop3.1.simplex_rows";
  e.result.backend = "kernel-f32";
  e.result.verdict = Verdict::kRefuted;
  e.result.counterexample = Problem(1).ToText();
  e.result.counterexample_case = Problem(1);
  e.judgement.status = Judgement::Status::kUnexpected;
  r.entries.push_back(e);
  const std::string html = ToHtml(r);
  const size_t at = html.find("<h2 id=\"cx-heatmaps\">");
  ASSERT_NE(at, std::string::npos);
  EXPECT_NE(html.find("aria-label=\"lecture4.prop3.1.simplex_rows/kernel-f32\"", at), std::string::npos);
  EXPECT_NE(html.find("url(#hatch-cx-0)", at), std::string::npos) << "the masked cell is hatched";
}

}  // namespace
}  // namespace attnprop::report
