// ProblemClass: every case its generator draws is in the class, and a case
// that breaks one declared condition (a field's range, shape or kind, an
// Assume) names it.
#include "properties/operator/problem_class.h"

#include <gtest/gtest.h>

#include "properties/framework/rc_bridge.h"

namespace attnprop::ksuite {
namespace {

ProblemClass Declared() {
  ShapeSpec s;
  s.causal = ShapeSpec::Causal::kYes;
  s.min_t_k = 2;
  return ProblemClass(s)
      .Int("prefix", Const(1), TK)
      .Int("m", Const(1), Field("prefix"))
      .Matrix("u", Const(1), DK, 16)
      .Permutation("perm", TQ)
      .Alternative("2", 16)
      .Assume("Q2 differs from Q", [](DType, const Case& c) { return !(c.GetMatrix("Q2") == c.GetMatrix("Q")); });
}

TEST(ProblemClass, EveryDrawnCaseIsInTheClass) {
  const ProblemClass k = Declared();
  for (const DType t : {DType::kF32, DType::kF64}) {
    int held = 0;
    for (const Case& c : SampleCases(k.Gen({t, false}), 7, 200)) {
      const std::string v = k.Violation(t, c);
      // The Assume may fail on a draw (Q2 = Q, both tiny); nothing else may.
      EXPECT_TRUE(v.empty() || v == "Q2 differs from Q") << v << "\n" << c.ToText();
      held += v.empty();
      EXPECT_LE(c.GetInt("m"), c.GetInt("prefix"));
    }
    EXPECT_GT(held, 150);
  }
}

TEST(ProblemClass, ABrokenConditionIsNamed) {
  const ProblemClass k = Declared();
  const DType t = DType::kF64;
  Case c;
  for (const Case& s : SampleCases(k.Gen({t, false}), 11, 50))
    if (k.Holds(t, s)) {
      c = s;
      break;
    }
  ASSERT_TRUE(k.Holds(t, c));
  const int64_t t_k = Problem::FromCase(c).t_k;
  auto broken = [&](auto edit) {
    Case e = c;
    edit(e);
    return k.Violation(t, e);
  };
  EXPECT_EQ(broken([&](Case& e) { e.Int("prefix", t_k + 1); }), "prefix out of its range, shape or kind");
  EXPECT_EQ(broken([&](Case& e) { e.Int("m", e.GetInt("prefix") + 1); }), "m out of its range, shape or kind");
  EXPECT_EQ(broken([&](Case& e) { e.Matrix("u", ExactMatrix(2, 1)); }), "u out of its range, shape or kind");
  EXPECT_EQ(broken([&](Case& e) { e.Scalar("u", 1.0); }), "u missing or not of its kind");
  EXPECT_EQ(broken([&](Case& e) {
              ExactMatrix p = e.GetMatrix("perm");
              p.data[0] = p.data.size() > 1 ? p.data[1] : Exact(1.0);
              e.Matrix("perm", p);
            }),
            "perm out of its range, shape or kind");
  EXPECT_EQ(broken([&](Case& e) { e.Matrix("Q2", e.GetMatrix("Q")); }), "Q2 differs from Q");
  EXPECT_EQ(broken([&](Case& e) {
              ExactMatrix k2 = e.GetMatrix("K2");
              k2.data[0] = Exact(0x1p300);  // beyond the problem's numeric domain
              e.Matrix("K2", k2);
            }),
            "Q2, K2, V2 in place of Q, K, V: a problem of the class");
  EXPECT_EQ(broken([&](Case& e) { e.Int("causal", 0); }), "not a problem of the shape class");
}

}  // namespace
}  // namespace attnprop::ksuite
