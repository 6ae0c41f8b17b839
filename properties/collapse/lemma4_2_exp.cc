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

rc::Gen<Case> ExpPerturbationCase() {
  return rc::gen::apply(
      [](int64_t n, const ExactMatrix& a, const ExactMatrix& r, Exact eps) {
        ExactMatrix b(1, n);
        for (int64_t j = 0; j < n; ++j) b(0, j) = Exact(eps.ToRational() * r(0, j).ToRational());
        return Case().Matrix("a", gen::Crop(a, 1, n)).Matrix("b", b).Scalar("eps", eps);
      },
      gen::UniformDim(1, 5), gen::Matrix(1, 5, gen::Dyadic(8, 20)),
      gen::Matrix(1, 5, rc::gen::oneOf(rc::gen::element(Exact(-1.0), Exact(1.0)), gen::Dyadic(1, 10))),
      gen::PositiveDyadic(2, 10));
}

/// ||b||_inf <= eps, exactly; a and b the same length.
bool ExpHypothesesHold(const Case& c) {
  const Mat<Rational> a = c.GetMat<Rational>("a"), b = c.GetMat<Rational>("b");
  const Rational eps = c.Get<Rational>("eps");
  if (a.rows() != 1 || b.rows() != 1 || a.cols() != b.cols() || a.cols() < 1) return false;
  for (Eigen::Index j = 0; j < b.cols(); ++j)
    if (b(0, j) > eps || -b(0, j) > eps) return false;
  return true;
}

constexpr const char* kExpBudget =
    "(1 + |a_i| + |b_i|) (e^{a_i+b_i} + e^{a_i}) e^eps gamma_4 (per i; for alpha: summed over i, gamma_{n+4})";
constexpr const char* kExpReason =
    "a_i + b_i rounds (relative error u|a_i+b_i| in its exp), each exp errs <= 0.51 ulp, e^eps - 1 and the "
    "product one rounding each, the subtraction/sum one (n) more";

enum class Which { kExpA, kExpAB, kAlphaA, kAlphaAB };

template <class S>
void CheckExp(const Case& c, Which which, const char* metric) {
  using std::abs;
  using std::exp;
  const Mat<S> a = c.GetMat<S>("a"), b = c.GetMat<S>("b");
  const S eps = c.Get<S>("eps");
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
  ExpectWithin(metric, worst, 1.0);
}

#define COLLAPSE_EXP_CLAIM(Name, id, which, metric)                                                 \
  struct Name {                                                                                    \
    static constexpr const char* kId = id;                                                         \
    static constexpr const char* kSource = "004 Section 4.2, Lemma 4.2";                           \
    static std::vector<Tolerance> Tolerances() { return {{metric, "1 (budget in the denominator: " \
                                                                  "see reason)", kExpReason}}; }   \
    static bool HypothesesHold(const Case& c) { return ExpHypothesesHold(c); }                     \
    template <class S>                                                                             \
    static rc::Gen<Case> Hypotheses() {                                                            \
      return ExpPerturbationCase();                                                                \
    }                                                                                              \
    template <class S>                                                                             \
    static void Conclusion(const Case& c) {                                                        \
      CheckExp<S>(c, which, metric);                                                               \
    }                                                                                              \
  };                                                                                               \
  ATTNPROP_REGISTER(Name, double, Mpfr)

COLLAPSE_EXP_CLAIM(ExpRelA, "collapse.lemma4.2.exp_rel_a", Which::kExpA,
                   "max_i |e^{a+b}-e^a|_i / ((e^eps-1) e^{a_i} + budget)");
COLLAPSE_EXP_CLAIM(ExpRelAB, "collapse.lemma4.2.exp_rel_aplusb", Which::kExpAB,
                   "max_i |e^{a+b}-e^a|_i / ((e^eps-1) e^{a_i+b_i} + budget)");
COLLAPSE_EXP_CLAIM(AlphaRelA, "collapse.lemma4.2.alpha_rel_a", Which::kAlphaA,
                   "|alpha(a+b)-alpha(a)| / ((e^eps-1) alpha(a) + budget)");
COLLAPSE_EXP_CLAIM(AlphaRelAB, "collapse.lemma4.2.alpha_rel_aplusb", Which::kAlphaAB,
                   "|alpha(a+b)-alpha(a)| / ((e^eps-1) alpha(a+b) + budget)");

struct Eq2 {
  static constexpr const char* kId = "collapse.lemma4.2.eq2";
  static constexpr const char* kSource = "004 Section 4.2, proof of Lemma 4.2, Eq. (2)";
  static std::vector<Tolerance> Tolerances() {
    return {{"max{|e^{-b}-1|, |e^b-1|} - (e^eps - 1)", "gamma_3 e^eps",
             "each exp errs <= 0.51 ulp of a value <= e^eps, each subtraction one rounding"}};
  }
  static bool HypothesesHold(const Case& c) {
    const Rational b = c.Get<Rational>("b"), eps = c.Get<Rational>("eps");
    return b <= eps && -b <= eps;
  }
  template <class S>
  static rc::Gen<Case> Hypotheses() {
    return rc::gen::apply(
        [](Exact eps, Exact r) { return Case().Scalar("b", Exact(eps.ToRational() * r.ToRational())).Scalar("eps", eps); },
        gen::PositiveDyadic(4, 10), rc::gen::oneOf(rc::gen::element(Exact(-1.0), Exact(1.0)), gen::Dyadic(1, 10)));
  }
  template <class S>
  static void Conclusion(const Case& c) {
    using std::abs;
    using std::exp;
    const S b = c.Get<S>("b"), eps = c.Get<S>("eps");
    const S l1 = abs(S(exp(S(-b)) - 1)), l2 = abs(S(exp(b) - 1));
    const S lhs = l1 > l2 ? l1 : l2;
    const double u = ScalarTraits<S>::UnitRoundoff();
    ExpectWithin("max{|e^{-b}-1|, |e^b-1|} - (e^eps - 1)", ToDouble(S(lhs - (exp(eps) - 1))),
                 Gamma(3, u) * std::exp(ToDouble(eps)));
  }
};
ATTNPROP_REGISTER(Eq2, double, Mpfr);

}  // namespace
}  // namespace attnprop
