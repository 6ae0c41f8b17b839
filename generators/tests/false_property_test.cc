// A deliberately false property over these generators, run through
// RapidCheck's own search (rc::detail::checkTestable): it must be refuted,
// and the counterexample must shrink to small dimensions and simple values.
// The test passes when that happens (it does not register a failing test).
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cmath>
#include <iostream>

#include "generators/sequences.h"
#include "generators/show.h"
#include "model/attention.h"
#include "rapidcheck/detail/Results.h"
#include "rapidcheck/detail/TestListener.h"
#include "rapidcheck/detail/TestMetadata.h"
#include "rapidcheck/detail/TestParams.h"

namespace attnprop::gen {
namespace {

// Counts cases and shrink steps, and keeps the failing case: the first
// failure, then every accepted shrink (a rejected candidate passed).
class CountingListener : public rc::detail::TestListener {
 public:
  explicit CountingListener(const AttentionProblem* current) : current_(current) {}
  void onTestCaseFinished(const rc::detail::CaseDescription& d) override {
    ++cases;
    if (d.result.type == rc::detail::CaseResult::Type::Failure) failing = *current_;
  }
  void onShrinkTried(const rc::detail::CaseDescription&, bool accepted) override {
    ++tried;
    accepted_steps += accepted;
    if (accepted) failing = *current_;
  }
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
  int cases = 0, tried = 0, accepted_steps = 0;
  AttentionProblem failing;

 private:
  const AttentionProblem* current_;
};

// False claim: "attention output does not depend on Q" (it does whenever two
// keys get different scores).
TEST(FalseProperty, AttentionIgnoresQueriesShrinksSmall) {
  AttentionShape shape = DefaultAttentionShape<double>();
  shape.t = {1, 128, 100};
  shape.d = {1, 48, 40};
  const rc::Gen<AttentionProblem> gen = AttentionProblems(shape);
  AttentionProblem current;
  CountingListener listener(&current);
  rc::detail::TestParams params;
  params.seed = 42;
  params.maxSuccess = 100;
  params.maxSize = 100;
  rc::detail::TestMetadata metadata;
  metadata.id = "false.attention_ignores_q";
  const auto result = rc::detail::checkTestable(
      [&] {
        const AttentionProblem p = *gen;
        current = p;
        for (int64_t b = 0; b < p.batch; ++b) {
          const auto i = static_cast<size_t>(b);
          const Mat<double> q = p.q[i].As<double>(), k = p.k[i].As<double>(), v = p.v[i].As<double>();
          const double scale = p.scale.ToDouble();
          const Mat<double> with_q = Attention<double>(q, k, v, scale).out;
          const Mat<double> without = Attention<double>(Mat<double>::Zero(q.rows(), q.cols()), k, v, scale).out;
          RC_ASSERT((with_q - without).cwiseAbs().maxCoeff() <= 1e-12);
        }
      },
      metadata, params, listener, std::unordered_map<std::string, rc::detail::Reproduce>{});
  rc::detail::FailureResult failure;
  ASSERT_TRUE(result.match(failure)) << "the false property was not refuted";
  const AttentionProblem& last = listener.failing;
  std::cout << "false property refuted after " << failure.numSuccess << " passing cases; " << listener.accepted_steps
            << " shrink steps accepted of " << listener.tried << " tried\ncounterexample: ";
  showValue(last, std::cout);
  std::cout << "\n";
  for (const auto& [type, value] : failure.counterExample) std::cout << "rapidcheck shows: " << value << "\n";
  EXPECT_EQ(last.batch, 1);
  EXPECT_EQ(last.t_q, 1);
  EXPECT_EQ(last.t_k, 2);
  EXPECT_LE(last.d_k + last.d_v, 3);  // {1, 2}
  // Simple values: every entry k/16 with |k| <= 32 (0, small integers,
  // short fractions such as 1/2, 1/4, 1/16); most entries exactly 0.
  int zeros = 0, entries = 0;
  for (const auto* ms : {&last.q, &last.k, &last.v})
    for (const ExactMatrix& m : *ms)
      for (const Exact& x : m.data) {
        const double k = x.ToDouble() * 16;
        EXPECT_TRUE(k == std::trunc(k) && std::fabs(k) <= 32) << x.ToDisplay();
        zeros += x.ToDouble() == 0;
        ++entries;
      }
  EXPECT_GT(2 * zeros, entries);
}

}  // namespace
}  // namespace attnprop::gen
