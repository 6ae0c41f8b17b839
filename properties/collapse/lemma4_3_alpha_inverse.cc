// "Only Large Weights (And Not Skip Connections) Can Prevent the Perils of
// Rank Collapse" (004_fc07a226cef95160.txt), Section 4.2, Lemma 4.3.
// alpha(x) = <exp(x), 1_n> (Definition 3.1).
//
// Hypotheses: a, b in R^n, ||b||_inf <= eps.
// collapse.lemma4.3.alpha_inv_rel_a      |alpha(a+b)^-1 - alpha(a)^-1| <= (e^eps-1) alpha(a)^-1
// collapse.lemma4.3.alpha_inv_rel_aplusb |alpha(a+b)^-1 - alpha(a)^-1| <= (e^eps-1) alpha(a+b)^-1
// Both hold (b = eps 1_n makes them tight up to e^-eps).
// Generated: n in [1,5], a dyadic in [-8,8], eps in (0,2], b = eps r, r in
// [-1,1] (half +-1). Backends double, MPFR (exp).
#include <cmath>

#include "properties/collapse/collapse_cases.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace {

rc::Gen<Case> AlphaCase() {
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

bool AlphaHypothesesHold(const Case& c) {
  const Mat<Rational> a = c.GetMat<Rational>("a"), b = c.GetMat<Rational>("b");
  const Rational eps = c.Get<Rational>("eps");
  if (a.rows() != 1 || b.rows() != 1 || a.cols() != b.cols() || a.cols() < 1) return false;
  for (Eigen::Index j = 0; j < b.cols(); ++j)
    if (b(0, j) > eps || -b(0, j) > eps) return false;
  return true;
}

template <class S>
void CheckAlphaInverse(const Case& c, bool rel_to_a, const char* metric) {
  using std::abs;
  using std::exp;
  const Mat<S> a = c.GetMat<S>("a"), b = c.GetMat<S>("b");
  const S eps = c.Get<S>("eps");
  S alpha_a = 0, alpha_ab = 0;
  double spread = 0;
  for (Eigen::Index i = 0; i < a.cols(); ++i) {
    alpha_a += exp(a(0, i));
    alpha_ab += exp(S(a(0, i) + b(0, i)));
    spread = std::max(spread, 1 + std::abs(ToDouble(a(0, i))) + std::abs(ToDouble(b(0, i))));
  }
  const S inv_a = S(1) / alpha_a, inv_ab = S(1) / alpha_ab;
  const S lhs = abs(S(inv_ab - inv_a));
  const S rhs = (exp(eps) - 1) * (rel_to_a ? inv_a : inv_ab);
  const double u = ScalarTraits<S>::UnitRoundoff();
  const double n = double(a.cols());
  const double budget = Gamma(n + 6, u) * spread * (ToDouble(inv_a) + ToDouble(inv_ab)) * std::exp(ToDouble(eps));
  ExpectWithin(metric, ToDouble(lhs) / (ToDouble(rhs) + budget), 1.0);
}

constexpr const char* kReason =
    "each alpha errs relatively <= gamma_{n+2} max(1+|a_i|+|b_i|) (argument rounding, exp 0.51 ulp, n-term sum); "
    "inversion, e^eps - 1, product and difference one rounding each: budget gamma_{n+6} spread "
    "(alpha(a)^-1 + alpha(a+b)^-1) e^eps, added to the right-hand side";

struct AlphaInvRelA {
  static constexpr const char* kId = "collapse.lemma4.3.alpha_inv_rel_a";
  static constexpr const char* kSource = "004 Section 4.2, Lemma 4.3 (1)";
  static std::vector<Tolerance> Tolerances() {
    return {{"|alpha(a+b)^-1 - alpha(a)^-1| / ((e^eps-1) alpha(a)^-1 + budget)", "1", kReason}};
  }
  static bool HypothesesHold(const Case& c) { return AlphaHypothesesHold(c); }
  template <class S>
  static rc::Gen<Case> Hypotheses() {
    return AlphaCase();
  }
  template <class S>
  static void Conclusion(const Case& c) {
    CheckAlphaInverse<S>(c, true, "|alpha(a+b)^-1 - alpha(a)^-1| / ((e^eps-1) alpha(a)^-1 + budget)");
  }
};

struct AlphaInvRelAB {
  static constexpr const char* kId = "collapse.lemma4.3.alpha_inv_rel_aplusb";
  static constexpr const char* kSource = "004 Section 4.2, Lemma 4.3 (2)";
  static std::vector<Tolerance> Tolerances() {
    return {{"|alpha(a+b)^-1 - alpha(a)^-1| / ((e^eps-1) alpha(a+b)^-1 + budget)", "1", kReason}};
  }
  static bool HypothesesHold(const Case& c) { return AlphaHypothesesHold(c); }
  template <class S>
  static rc::Gen<Case> Hypotheses() {
    return AlphaCase();
  }
  template <class S>
  static void Conclusion(const Case& c) {
    CheckAlphaInverse<S>(c, false, "|alpha(a+b)^-1 - alpha(a)^-1| / ((e^eps-1) alpha(a+b)^-1 + budget)");
  }
};

ATTNPROP_REGISTER(AlphaInvRelA, double, Mpfr);
ATTNPROP_REGISTER(AlphaInvRelAB, double, Mpfr);

}  // namespace
}  // namespace attnprop
