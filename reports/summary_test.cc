// The summary: the headline, the claims false as stated, and which audit
// flags count as problems (hand-made entries; the approval baselines show
// the summary of real runs).
#include "reports/summary.h"

#include <gtest/gtest.h>

#include <utility>

namespace attnprop::report {
namespace {

MetricStats Metric(double max_ratio, double max_observed, bool nonfinite = false) {
  MetricStats m;
  m.tolerance = {"err", "bound", "derived", MetricKind::kRounding};
  m.count = 10;
  m.max_ratio = max_ratio;
  m.max_observed = max_observed;
  m.max_bound = 1;
  m.nonfinite = nonfinite;
  return m;
}

Entry Make(const std::string& id, Verdict v, Expectation expect, bool as_expected, std::vector<MetricStats> metrics) {
  Entry e;
  e.result.id = id;
  e.result.backend = "double";
  e.result.verdict = v;
  e.result.metrics = std::move(metrics);
  e.expect = expect;
  e.judgement.status = as_expected ? Judgement::Status::kAsExpected : Judgement::Status::kUnexpected;
  e.judgement.why = as_expected ? "" : "refuted, but registered to hold";
  return e;
}

TEST(Summary, FailOnAnExpectedRefutationIsNotAProblem) {
  const Entry refuted = Make("a", Verdict::kRefuted, Expectation::kRefuted, true, {Metric(3, 3)});
  EXPECT_EQ(AuditFlags(refuted.result.metrics[0]), unsigned{kFail});
  EXPECT_EQ(ProblemFlags(refuted, refuted.result.metrics[0]), 0u);
  // The same FAIL where the claim should hold is a problem.
  const Entry unexpected = Make("b", Verdict::kRefuted, Expectation::kHolds, false, {Metric(3, 3)});
  EXPECT_EQ(ProblemFlags(unexpected, unexpected.result.metrics[0]), unsigned{kFail});
  // A refutation registered but not confirmed: its FAIL is still a problem.
  const Entry unconfirmed = Make("c", Verdict::kRefuted, Expectation::kRefuted, false, {Metric(3, 3)});
  EXPECT_EQ(ProblemFlags(unconfirmed, unconfirmed.result.metrics[0]), unsigned{kFail});
}

TEST(Summary, LooseWithZeroErrorIsExactNotLoose) {
  const Entry e = Make("a", Verdict::kHolds, Expectation::kHolds, true, {Metric(0, 0), Metric(1e-6, 1e-20)});
  EXPECT_EQ(AuditFlags(e.result.metrics[0]), unsigned{kLoose});
  EXPECT_TRUE(IsExactEverywhere(e.result.metrics[0]));
  EXPECT_EQ(ProblemFlags(e, e.result.metrics[0]), 0u);
  EXPECT_EQ(ProblemFlags(e, e.result.metrics[1]), unsigned{kLoose}) << "a small non-zero error under a huge bound is loose";
}

TEST(Summary, CountsAndHeadline) {
  Report r;
  r.entries.push_back(Make("x.holds", Verdict::kHolds, Expectation::kHolds, true, {Metric(0, 0)}));
  r.entries.push_back(Make("x.false", Verdict::kRefuted, Expectation::kRefuted, true, {Metric(2, 2)}));
  r.entries.push_back(Make("x.false", Verdict::kRefuted, Expectation::kRefuted, true, {Metric(2, 2)}));
  r.entries.back().result.backend = "mpfr";
  Summary s = Summarize(r);
  EXPECT_EQ(Headline(s), "3 properties, all 3 as expected, 0 unexpected");
  ASSERT_EQ(s.refuted.size(), 1u) << "one row per claim";
  EXPECT_EQ(s.refuted[0].backends, (std::vector<std::string>{"double", "mpfr"}));
  EXPECT_EQ(s.problem_metrics, 0);
  EXPECT_EQ(s.refutation_flags, 2);
  EXPECT_EQ(s.exact_metrics, 1);

  r.entries.push_back(Make("x.bad", Verdict::kRefuted, Expectation::kHolds, false, {Metric(2, 2)}));
  r.entries.back().result.reproduce = "reproduce=ABC";
  s = Summarize(r);
  EXPECT_EQ(Headline(s), "4 properties: 3 as expected, 1 UNEXPECTED: x.bad/double");
  EXPECT_EQ(s.problem_metrics, 1);
  EXPECT_EQ(ReproduceCommand(r, r.entries.back()), "attnprop reproduce x.bad/double reproduce=ABC");
  const std::string text = ConsoleSummary(r);
  EXPECT_NE(text.find("Unexpected results (1)"), std::string::npos) << text;
  EXPECT_NE(text.find("1 claim is false as stated"), std::string::npos) << text;
}

// Each backend's own provenance (issue 37: the first backend's was printed
// for all, "found by search" where MPFR had only its pin).
TEST(Summary, ProvenancePerBackend) {
  Report r;
  for (const auto& [backend, found] : {std::pair{"double", FoundBy::kSearch}, std::pair{"mpfr", FoundBy::kStore}}) {
    Entry e = Make("c", Verdict::kRefuted, Expectation::kRefuted, true, {});
    e.result.backend = backend;
    e.result.found_by = found;
    e.result.search_tried = 12;
    e.result.pinned_refutation = true;
    r.entries.push_back(e);
  }
  Summary s = Summarize(r);
  ASSERT_EQ(s.refuted.size(), 1u);
  EXPECT_EQ(BackendsAndProvenance(s.refuted[0]), "double: search (12 candidates); mpfr: pin only");
  // One provenance for all: said once.
  r.entries[1].result.found_by = FoundBy::kSearch;
  s = Summarize(r);
  EXPECT_EQ(BackendsAndProvenance(s.refuted[0]), "double, mpfr; found by search (12 candidates)");
}

TEST(Summary, StatementsComeFromTheCatalogue) {
  EXPECT_EQ(StatementOf("collapse.lemmaD.4"), "`‖b‖≤1 ⇒ ‖softm(a+b)−softm(b)‖ ≤ 4‖b‖`");
  EXPECT_NE(StatementOf("formal.prop.bidegree11_decomposition").find("claims/CATALOG.md"), std::string::npos)
      << "a reconstructed formula points at its reconstruction";
  EXPECT_EQ(StatementOf("no.such.claim"), "");
}

}  // namespace
}  // namespace attnprop::report
