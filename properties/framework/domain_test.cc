// The Domain (domain.h): every drawn case satisfies the hypotheses the
// domain derives; each derived condition (kinds, shared axes, admitted
// extents and values, derivations, assumptions) rejects a case that breaks
// it and names why; a claim declared over a Domain is refuted with a
// counterexample inside its hypotheses, shrunk with its axes kept together.
#include <gtest/gtest.h>

#include <cmath>

#include "generators/scalars.h"
#include "properties/framework/domain.h"
#include "properties/framework/property.h"
#include "properties/framework/rc_bridge.h"
#include "properties/framework/runner.h"

namespace attnprop {
namespace {

constexpr Axis kRows{"n"}, kCols{"d"};
constexpr MatrixField kX{"X"}, kW{"W"};
constexpr ScalarField kEps{"eps"}, kMax{"phi0"};
constexpr IntField kN{"n"}, kVariant{"variant"};

Domain Sample() {
  gen::Regime r;
  r.max_scale = 2;
  Domain d;
  d.Dim(kRows, {1, 6, 6}).Dim(kCols, {1, 4, 4});
  d.Matrix(kX, kRows, kCols, r, Admit::Within(0x1p20));
  d.Matrix(kW, kCols, kCols, gen::Dyadic(1, 4), Admit::Within(1));
  d.Scalar(kEps, gen::PositiveDyadic(1, 6), Admit::Within(1).Positive());
  d.Derived(kMax, [](const Values& v) {
    double m = 0;
    for (const Exact& e : v[kX].data) m = std::fmax(m, std::fabs(e.ToDouble()));
    return Exact(m);
  });
  d.Int(kN, kRows);
  d.Int(kVariant, gen::UniformCount(0, 3), 0, 3);
  d.Assume("eps < 1", [](const Values& v) { return v[kEps].ToDouble() < 1; });
  return d;
}

TEST(Domain, EveryDrawnCaseSatisfiesItsHypotheses) {
  const Domain d = Sample();
  const std::vector<Case> cases = SampleCases(d.Generator(), 17, 200);
  ASSERT_EQ(cases.size(), 200u);
  for (const Case& c : cases) {
    EXPECT_EQ(d.Violation(c), std::nullopt) << c.ToText();
    EXPECT_EQ(c.GetMatrix("X").rows, c.GetInt("n"));
    EXPECT_EQ(c.GetMatrix("X").cols, c.GetMatrix("W").rows);
    EXPECT_LT(c.GetScalar("eps").ToDouble(), 1);
    EXPECT_GE(c.GetInt("variant"), 0);
    EXPECT_LE(c.GetInt("variant"), 3);
  }
  // The fields in declaration order: the text of a hand-built case.
  EXPECT_EQ(cases[0].fields()[0].first, "X");
  EXPECT_EQ(cases[0].fields()[4].first, "n");
}

/// The first drawn case with at least two rows and two columns.
Case Wide(const Domain& d) {
  for (const Case& c : SampleCases(d.Generator(), 5, 100))
    if (c.GetMatrix("X").rows >= 2 && c.GetMatrix("X").cols >= 2) return c;
  ADD_FAILURE() << "no 2x2 case drawn";
  return {};
}

TEST(Domain, EachDerivedConditionRejectsTheCaseThatBreaksIt) {
  const Domain d = Sample();
  const Case good = Wide(d);
  ASSERT_EQ(d.Violation(good), std::nullopt);
  auto with = [&](auto edit) {
    Case c = good;
    edit(c);
    return d.Violation(c).value_or("(accepted)");
  };
  // W is d x d: a W with one row fewer breaks the shared axis.
  EXPECT_NE(with([](Case& c) {
              ExactMatrix w = c.GetMatrix("W");
              w.rows -= 1, w.data.resize(static_cast<size_t>(w.rows * w.cols));
              c.Matrix("W", w);
            }).find("but axis d is"),
            std::string::npos);
  // n is X's row count.
  EXPECT_NE(with([](Case& c) { c.Int("n", c.GetInt("n") + 1); }).find("axis n"), std::string::npos);
  // Admitted values: |W| <= 1, eps > 0, finite.
  EXPECT_NE(with([](Case& c) {
              ExactMatrix w = c.GetMatrix("W");
              w(0, 0) = 2.0;
              c.Matrix("W", w);
            }).find("W(0,0): |x| = 2 > 1"),
            std::string::npos);
  EXPECT_NE(with([](Case& c) { c.Scalar("eps", 0.0); }).find("eps: not > 0"), std::string::npos);
  EXPECT_NE(with([](Case& c) { c.Scalar("eps", INFINITY); }).find("not finite"), std::string::npos);
  // An int drawn by its own law stays in its admitted range.
  EXPECT_EQ(with([](Case& c) { c.Int("variant", 4); }), "variant = 4, outside [0, 3]");
  // The assumption, in the claim's words.
  EXPECT_EQ(with([](Case& c) { c.Scalar("eps", 1.0); }), "assumption eps < 1");
  // phi0 = max |X| is re-derived, not trusted.
  EXPECT_NE(with([](Case& c) { c.Scalar("phi0", c.GetScalar("phi0").ToDouble() * 2 + 1); }).find("derivation"),
            std::string::npos);
  // A field of another kind, or a case of another claim: a misfit.
  EXPECT_TRUE(d.Misfit(Case().Scalar("X", 1.0)).has_value());
  Case kind = good;
  kind.Scalar("X", 1.0);
  EXPECT_NE(d.Misfit(kind).value_or("").find("another kind"), std::string::npos);
  // Extents beyond the admitted range are refused before any code reads them.
  Domain small;
  small.Dim(kRows, {1, 6, 6}, 8).Dim(kCols, {1, 4, 4});
  small.Matrix(kX, kRows, kCols, gen::Dyadic(1, 4), Admit::Finite());
  EXPECT_NE(small.Misfit(Case().Matrix("X", ExactMatrix(9, 2))).value_or("").find("outside axis n's [1, 8]"),
            std::string::npos);
}

constexpr Axis kLayers{"L"}, kHeads{"H"};
constexpr IntField kL{"L"}, kH{"H"};

/// A network: X, the counts, then per layer and head its q and v weights.
Domain Network() {
  Domain d;
  d.Dim(kRows, {1, 4, 4}).Dim(kCols, {1, 3, 3}).Dim(kLayers, {1, 2, 2}).Dim(kHeads, {1, 3, 3});
  d.Matrix(kX, kRows, kCols, gen::Dyadic(4, 2), Admit::Within(4));
  d.Int(kH, kHeads).Int(kL, kLayers);
  const int q = d.Param({kLayers, kHeads}, kCols, kCols, gen::Regime{});
  auto name = [](const std::vector<int64_t>& i) { return "W" + std::to_string(i[0]) + "_" + std::to_string(i[1]); };
  d.Group({kLayers, kHeads}, name,
          {{"q", kCols, kCols, [q](const Domain::Drawn& in, const std::vector<int64_t>& i) { return in.Param(q, i); },
            Admit::Within(0x1p20)},
           {"v", kCols, kCols,
            [](const Domain::Drawn& in, const std::vector<int64_t>&) {
              return ExactMatrix(in.Dim(kCols), in.Dim(kCols));  // zeros
            },
            Admit::Within(0)}});
  return d;
}

TEST(Domain, AGroupHoldsOneFieldPerIndexAndIsReadFieldByField) {
  const Domain d = Network();
  for (const Case& c : SampleCases(d.Generator(), 3, 100)) {
    ASSERT_EQ(d.Violation(c), std::nullopt) << c.ToText();
    const int64_t layers = c.GetInt("L"), heads = c.GetInt("H");
    ASSERT_EQ(c.fields().size(), static_cast<size_t>(3 + 2 * layers * heads));
    EXPECT_EQ(c.fields().back().first, "W" + std::to_string(layers - 1) + "_" + std::to_string(heads - 1) + "v");
    EXPECT_EQ(c.GetMatrix("W0_0q").rows, c.GetMatrix("X").cols);
  }
  Case c = SampleCases(d.Generator(), 4, 1)[0];
  c.Int("H", c.GetInt("H") + 1);  // a head more than the case holds
  EXPECT_TRUE(d.Misfit(c).has_value());
  Case v = SampleCases(d.Generator(), 4, 1)[0];
  ExactMatrix w = v.GetMatrix("W0_0v");
  w(0, 0) = 1.0;
  v.Matrix("W0_0v", w);
  EXPECT_NE(d.Violation(v).value_or("").find("W0_0v(0,0)"), std::string::npos);
}

/// Heads with an int and a scalar each, named member + index (pot0, par0).
TEST(Domain, AGroupMayHoldIntsAndScalarsNamedByMemberAndIndex) {
  Domain d;
  gen::DimRange heads{1, 2, 2};
  heads.uniform = true;
  d.Dim(kCols, {1, 3, 3}).Dim(kHeads, heads, 4);
  d.Int(kH, kHeads);
  const int pot = d.ScalarParam(gen::UniformInteger(0, 2)), par = d.ScalarParam(gen::PositiveDyadic(4, 3));
  d.Group({kHeads},
          {Domain::IntMember(
               "pot", [pot](const Domain::Drawn& in, const std::vector<int64_t>&) {
                 return static_cast<int64_t>(in.ScalarParam(pot).ToDouble());
               }, 0, 2),
           Domain::ScalarMember(
               "par", [par](const Domain::Drawn& in, const std::vector<int64_t>&) { return in.ScalarParam(par); },
               Admit::Within(8).Positive())},
          [](const char* member, const std::vector<int64_t>& i) { return member + std::to_string(i[0]); });
  int two_heads = 0;
  for (const Case& c : SampleCases(d.Generator(), 5, 100)) {
    ASSERT_EQ(d.Violation(c), std::nullopt) << c.ToText();
    ASSERT_EQ(c.fields().size(), static_cast<size_t>(1 + 2 * c.GetInt("H")));
    EXPECT_EQ(c.fields()[1].first, "pot0");
    EXPECT_EQ(c.fields()[2].first, "par0");
    two_heads += c.GetInt("H") == 2;
  }
  EXPECT_GE(two_heads, 20);  // uniform: about half the cases at every size
  Case c = SampleCases(d.Generator(), 6, 1)[0];
  c.Int("pot0", 3);
  EXPECT_NE(d.Violation(c).value_or("").find("pot0 = 3, outside [0, 2]"), std::string::npos);
  c.Int("pot0", 1).Scalar("par0", -1.0);
  EXPECT_NE(d.Violation(c).value_or("").find("par0"), std::string::npos);
  c.Scalar("par0", 1.0).Matrix("pot0", ExactMatrix(1, 1));
  EXPECT_NE(d.Misfit(c).value_or("").find("another kind"), std::string::npos);
}

/// A planted false claim over a domain: sum_j W_jj <= 2 with |W_jj| <= 1
/// holds for d <= 2 and fails at d = 3 with W = I (or near it).
struct TraceAtMostTwo : ClaimId<"planted.trace_at_most_two"> {
  static inline const Tolerance kTrace{"tr W", "2", "the planted (false) bound", MetricKind::kClaim};
  template <class S> static Domain Hypotheses() { return Sample(); }
  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> w = in[kW];
    ExpectWithin(kTrace, ToDouble(S(w.trace())), 2.0);
  }
};

TEST(Domain, AClaimOverADomainIsRefutedInsideItsHypothesesAndShrunk) {
  const PropertyDef def = internal::MakeDef<TraceAtMostTwo, double>(__FILE__);
  EXPECT_TRUE(def.checks_hypotheses);
  ASSERT_TRUE(def.misfit);
  RunOptions o;
  o.max_success = 300;
  const PropertyResult r = RunProperty(def, o);
  ASSERT_EQ(r.verdict, Verdict::kRefuted) << r.message;
  ASSERT_TRUE(r.counterexample_case);
  const Case& c = *r.counterexample_case;
  EXPECT_EQ(def.why_outside(c), std::nullopt) << c.ToText();
  // Shrunk: W must stay 3 x 3 (tr W > 2 needs three diagonal entries), X
  // keeps W's d as its columns and shrinks to one row.
  EXPECT_EQ(c.GetMatrix("W").rows, 3) << c.ToText();
  EXPECT_EQ(c.GetMatrix("X").cols, 3) << c.ToText();
  EXPECT_EQ(c.GetMatrix("X").rows, 1) << c.ToText();
}

constexpr Axis kUnitRow{"1"}, kLen{"len"};
constexpr MatrixField kV{"v"};
constexpr ScalarField kTotal{"total"};

/// A planted false claim with a tied field: total = sum_j v_j (derived),
/// total <= 1. Drawn v_j in [0, 1/4], n <= 3: total <= 3/4, so the random
/// phase never fails it; Admit lets the search reach v_j up to 4. An edit
/// of v alone breaks the tie unless the domain derives total again.
struct TiedTotal : ClaimId<"planted.tied_total"> {
  static inline const Tolerance kSum{"total", "1", "the planted (false) bound", MetricKind::kClaim};
  template <class S> static Domain Hypotheses() {
    Domain d;
    d.Dim(kUnitRow, {1, 1, 1}, 1).Dim(kLen, {1, 3, 3});
    d.Matrix(kV, kUnitRow, kLen, gen::Uniform(0.0, 0.25), Admit::Within(4).Nonnegative());
    d.Derived(kTotal, [](const Values& v) {
      Rational t = 0;
      for (const Exact& e : v[kV].data) t += e.ToRational();
      return Exact(t);
    });
    return d;
  }
  template <class S> static void Conclusion(const In<S>& in) {
    ExpectWithin(kSum, ToDouble(in[kTotal]), 1.0);
  }
};

TEST(Domain, TheSearchDerivesATiedFieldAgainAfterEachEdit) {
  const PropertyDef def = internal::MakeDef<TiedTotal, double>(__FILE__);
  RunOptions o;
  EXPECT_EQ(RunProperty(def, o).verdict, Verdict::kHolds) << "the random phase must not find it";
  o.search_steps = 2000;
  const PropertyResult r = RunProperty(def, o);
  ASSERT_EQ(r.verdict, Verdict::kRefuted) << r.search_tried << " candidates, " << r.search_outside << " outside";
  EXPECT_EQ(r.found_by, FoundBy::kSearch);
  ASSERT_TRUE(r.counterexample_case);
  EXPECT_EQ(def.why_outside(*r.counterexample_case), std::nullopt) << r.counterexample;
}

TEST(Domain, ADerivedIntIsComputedWhenDrawnAndAgainAfterAnEdit) {
  // The number of positive entries of X, as an int field the claim reads.
  constexpr IntField kPositive{"positive"};
  Domain d;
  d.Dim(kRows, {1, 4, 4}).Dim(kCols, {1, 3, 3});
  d.Matrix(kX, kRows, kCols, gen::Dyadic(4, 2), Admit::Within(4));
  d.Derived(kPositive, [](const Values& v) {
    int64_t n = 0;
    for (const Exact& e : v[kX].data) n += e.ToDouble() > 0;
    return n;
  });
  int checked = 0;
  for (const Case& c : rc::gen::container<std::vector<Case>>(20, d.Generator())(rc::Random(7), 50).value()) {
    int64_t n = 0;
    for (const Exact& e : c.GetMatrix("X").data) n += e.ToDouble() > 0;
    EXPECT_EQ(c.GetInt("positive"), n) << c.ToText();
    EXPECT_EQ(d.Violation(c), std::nullopt) << c.ToText();
    // An edit of X: the count is stale, the hypotheses say so, and the
    // search's rederivation puts it right.
    Case edited = c;
    ExactMatrix x = c.GetMatrix("X");
    x.data[0] = x.data[0].ToDouble() > 0 ? Exact(-1.0) : Exact(1.0);
    edited.Matrix("X", x);
    ASSERT_TRUE(d.Violation(edited).has_value());
    EXPECT_NE(d.Violation(edited)->find("positive is not its derivation"), std::string::npos) << *d.Violation(edited);
    EXPECT_EQ(d.Violation(d.Rederived(edited)), std::nullopt);
    ++checked;
  }
  EXPECT_EQ(checked, 20);
}

}  // namespace
}  // namespace attnprop
