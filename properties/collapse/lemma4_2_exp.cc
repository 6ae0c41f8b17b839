// "Only Large Weights (And Not Skip Connections) Can Prevent the Perils of
// Rank Collapse" (004_fc07a226cef95160.txt), Section 4.2, Lemma 4.2 and the
// proof's Eq. (2). alpha(x) = <exp(x), 1_n> (Definition 3.1).
//
// Hypotheses (Lemma 4.2): a, b in R^n, ||b||_inf <= eps.
// collapse.lemma4.2.exp_rel_a       |e^{a_i+b_i} - e^{a_i}| <= (e^eps - 1) e^{a_i}      (each i)
// collapse.lemma4.2.exp_rel_aplusb  |e^{a_i+b_i} - e^{a_i}| <= (e^eps - 1) e^{a_i+b_i}  (each i)
// collapse.lemma4.2.alpha_rel_a     |alpha(a+b) - alpha(a)| <= (e^eps - 1) alpha(a)
// collapse.lemma4.2.alpha_rel_aplusb|alpha(a+b) - alpha(a)| <= (e^eps - 1) alpha(a+b)
// collapse.lemma4.2.eq2             |b| <= eps => max{|e^{-b}-1|, |e^b-1|} <= e^eps - 1
// All hold; b = +-eps makes the first two tight.
// Generated: n in [1,5], a dyadic in [-8,8], eps dyadic in (0,2], b = eps r
// with r in [-1,1] dyadic (half the entries +-1: the tight case). Exact in
// every backend; backends double, MPFR (exp).
// Checked as a ratio: LHS / (RHS + rounding budget) <= 1, the budget below.
#include <cmath>
#include <string>

#include "properties/collapse/collapse_cases.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace {

constexpr const char* kExpBudget =
    "(1 + |a_i| + |b_i|) (e^{a_i+b_i} + e^{a_i}) e^eps gamma_4 (per i; for alpha: summed over i, gamma_{n+4})";
constexpr const char* kExpBound = "1 (budget in the denominator: see reason)";
constexpr const char* kExpReason =
    "a_i + b_i rounds (relative error u|a_i+b_i| in its exp), each exp errs <= 0.51 ulp, e^eps - 1 and the "
    "product one rounding each, the subtraction/sum one (n) more";

enum class Which { kExpA, kExpAB, kAlphaA, kAlphaAB };

template <class S>
void CheckExp(const In<S>& in, Which which, const Tolerance& tolerance) {
  using std::abs;
  using std::exp;
  const Mat<S> a = in[collapse::kA], b = in[collapse::kB];
  const S eps = in[collapse::kEps];
  const double u = ScalarTraits<S>::UnitRoundoff();
  const double n = double(a.cols());
  const S factor = exp(eps) - 1;
  double worst = 0;
  S alpha_a = 0, alpha_ab = 0;
  double budget_sum = 0;
  for (Eigen::Index i = 0; i < a.cols(); ++i) {
    const S e_a = exp(a(0, i)), e_ab = exp(S(a(0, i) + b(0, i)));
    alpha_a += e_a;
    alpha_ab += e_ab;
    const double scale = (1 + std::abs(ToDouble(a(0, i))) + std::abs(ToDouble(b(0, i)))) *
                         (ToDouble(e_ab) + ToDouble(e_a)) * std::exp(ToDouble(eps));
    budget_sum += scale;
    if (which == Which::kExpA || which == Which::kExpAB) {
      const S lhs = abs(S(e_ab - e_a));
      const S rhs = factor * (which == Which::kExpA ? e_a : e_ab);
      const double ratio = ToDouble(lhs) / (ToDouble(rhs) + Gamma(4, u) * scale);
      if (ratio > worst) worst = ratio;
    }
  }
  if (which == Which::kAlphaA || which == Which::kAlphaAB) {
    const S lhs = abs(S(alpha_ab - alpha_a));
    const S rhs = factor * (which == Which::kAlphaA ? alpha_a : alpha_ab);
    worst = ToDouble(lhs) / (ToDouble(rhs) + Gamma(n + 4, u) * budget_sum);
  }
  ExpectWithin(tolerance, worst, 1.0);
}

/// The four claims of Lemma 4.2 share their hypotheses (||b||_inf <= eps,
/// exactly; a and b the same length) and their cases; each adds its ratio.
struct ExpFamily {
  // ||b||_inf <= eps (the lemma's); the domain of collapse::PerturbedVector.
  template <class S> static Domain Hypotheses() { return collapse::PerturbedWithinEps(2); }
};

struct ExpRelA : ExpFamily, ClaimId<"collapse.lemma4.2.exp_rel_a"> {
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kRatio{"max_i |e^{a+b}-e^a|_i / ((e^eps-1) e^{a_i} + budget)", kExpBound,
                                         kExpReason, MetricKind::kClaim};
    CheckExp<S>(in, Which::kExpA, kRatio);
  }
};
ATTNPROP_REGISTER(ExpRelA, double, Mpfr);

struct ExpRelAB : ExpFamily, ClaimId<"collapse.lemma4.2.exp_rel_aplusb"> {
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kRatio{"max_i |e^{a+b}-e^a|_i / ((e^eps-1) e^{a_i+b_i} + budget)", kExpBound,
                                         kExpReason, MetricKind::kClaim};
    CheckExp<S>(in, Which::kExpAB, kRatio);
  }
};
ATTNPROP_REGISTER(ExpRelAB, double, Mpfr);

struct AlphaRelA : ExpFamily, ClaimId<"collapse.lemma4.2.alpha_rel_a"> {
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kRatio{"|alpha(a+b)-alpha(a)| / ((e^eps-1) alpha(a) + budget)", kExpBound,
                                         kExpReason, MetricKind::kClaim};
    CheckExp<S>(in, Which::kAlphaA, kRatio);
  }
};
ATTNPROP_REGISTER(AlphaRelA, double, Mpfr);

struct AlphaRelAB : ExpFamily, ClaimId<"collapse.lemma4.2.alpha_rel_aplusb"> {
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kRatio{"|alpha(a+b)-alpha(a)| / ((e^eps-1) alpha(a+b) + budget)", kExpBound,
                                         kExpReason, MetricKind::kClaim};
    CheckExp<S>(in, Which::kAlphaAB, kRatio);
  }
};
ATTNPROP_REGISTER(AlphaRelAB, double, Mpfr);

constexpr ScalarField kPerturbation{"b"};

struct Eq2 : ClaimId<"collapse.lemma4.2.eq2"> {
  // |b| <= eps (the document's), both finite; eps <= 300: e^eps, e^{+-b}
  // finite in double. Drawn: eps in (0, 4] and b = eps r, r in [-1, 1]
  // (half the cases +-1: the tight case).
  template <class S> static Domain Hypotheses() {
    Domain d;
    const int eps = d.ScalarParam(gen::PositiveDyadic(4, 10));
    const int r = d.ScalarParam(rc::gen::oneOf(rc::gen::element(Exact(-1.0), Exact(1.0)), gen::Dyadic(1, 10)));
    d.Built(
        kPerturbation,
        [eps, r](const Domain::Drawn& in) { return Exact(in.ScalarParam(eps).ToRational() * in.ScalarParam(r).ToRational()); },
        Admit::Within(300));
    d.Built(collapse::kEps, [eps](const Domain::Drawn& in) { return in.ScalarParam(eps); }, Admit::Within(300));
    d.Assume("|b| <= eps", [](const Values& v) {
      const Rational b = v[kPerturbation].ToRational(), e = v[collapse::kEps].ToRational();
      return b <= e && -b <= e;
    });
    return d;
  }
  template <class S> static void Conclusion(const In<S>& in) {
    using std::abs;
    using std::exp;
    const S b = in[kPerturbation], eps = in[collapse::kEps];
    const S l1 = abs(S(exp(S(-b)) - 1)), l2 = abs(S(exp(b) - 1));
    const S lhs = l1 > l2 ? l1 : l2;
    const double u = ScalarTraits<S>::UnitRoundoff();
    static const Tolerance kExcess{"max{|e^{-b}-1|, |e^b-1|} - (e^eps - 1)", "gamma_3 e^eps",
                                          "each exp errs <= 0.51 ulp of a value <= e^eps, each subtraction one rounding",
                                          MetricKind::kClaim};
    // Recorded as lhs against (e^eps - 1) + budget (the same conclusion as
    // lhs - (e^eps - 1) <= budget), so observed/bound is the claim's tightness.
    ExpectWithin(kExcess, ToDouble(lhs), ToDouble(S(exp(eps) - 1)) + Gamma(3, u) * std::exp(ToDouble(eps)));
  }
};
ATTNPROP_REGISTER(Eq2, double, Mpfr);

}  // namespace
}  // namespace attnprop
