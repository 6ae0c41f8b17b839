// "Only Large Weights (And Not Skip Connections) Can Prevent the Perils of
// Rank Collapse" (004_fc07a226cef95160.txt), Section 4.3 Lemma 4.4 and its
// restatements in Appendix D.2 (Corollary D.3, Lemma D.4).
//
// collapse.lemma4.4.softmax_perturbation
//   a, b in R^n, |b_i| <= eps for all i => ||softm(a+b) - softm(a)||_inf <= 2(e^eps - 1).
// collapse.corD.3.softmax_lipschitz_exp
//   a, b in R^n => ||softm(a+b) - softm(a)||_inf <= 2(e^{||b||_inf} - 1).
// collapse.lemmaD.4
//   a, b in R^n, ||b||_inf <= 1 => ||softm(a+b) - softm(b)||_inf <= 4||b||_inf.
//   AS PRINTED the second term is softm(b), not softm(a). Expected REFUTED:
//   a = (1, 0), b = 0 give ||softm(a) - softm(0)|| = e/(1+e) - 1/2 > 0 = 4||b||.
// collapse.lemmaD.4.ours (OURS: the evident intent, softm(a) in place of
//   softm(b)): ||b||_inf <= 1 => ||softm(a+b) - softm(a)||_inf <= 4||b||_inf.
// collapse.lemmaD.4.exp_inequality (D.4 proof step): e^x - 1 <= 2x for x in (0,1].
// Generated: n in [1,5], a dyadic in [-8,8], eps in (0,2] (or (0,1]), b = eps r,
// r in [-1,1] (half +-1). Backends double, MPFR (exp).
#include <cmath>

#include "properties/collapse/collapse_cases.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace {

/// Budget for ||softm(x) - softm(y)||: x = a + b rounds (abs err u(|a|+|b|),
/// which moves softm by <= 2(e^e-1) ~ 2e), each softmax entry errs <=
/// (2 max|arg| + n + 3) u (max subtraction, exp 0.51 ulp, sum, division).
template <class S>
double SoftmaxBudget(const Vec<S>& a, const Vec<S>& b) {
  const double u = ScalarTraits<S>::UnitRoundoff();
  const double m = ToDouble(collapse::VecMaxNorm<S>(a)) + ToDouble(collapse::VecMaxNorm<S>(b));
  return Gamma(double(a.size()) + 8, u) * (1 + 4 * m);
}
constexpr const char* kBudgetReason =
    "a+b rounds (abs err u(|a|+|b|), moving softm by ~2x that); each softmax entry errs <= (2max|arg|+n+3)u; "
    "the right-hand side (exp, -1, x2) errs <= 3u e^eps";

struct SoftmaxPerturbation : ClaimId<"collapse.lemma4.4.softmax_perturbation"> {
  // |b_i| <= eps (the lemma's); the domain of collapse::PerturbedVector
  // keeps e^eps and the budget finite in double (softmax itself subtracts
  // the maximum).
  template <class S> static Domain Hypotheses() { return collapse::PerturbedWithinEps(2); }
  template <class S> static void Conclusion(const In<S>& in) {
    using std::exp;
    const Vec<S> a = in[collapse::kA].row(0).transpose(), b = in[collapse::kB].row(0).transpose();
    const S eps = in[collapse::kEps];
    const Vec<S> diff = Softmax<S>(Vec<S>(a + b)) - Softmax<S>(a);
    const double u = ScalarTraits<S>::UnitRoundoff();
    static const Tolerance kDistance{"||softm(a+b) - softm(a)||_inf",
                                            "2(e^eps - 1) + gamma_{n+8}(1 + 4(||a||+||b||)) + gamma_3 e^eps",
                                            kBudgetReason, MetricKind::kClaim};
    ExpectWithin(kDistance, ToDouble(collapse::VecMaxNorm<S>(diff)),
                 ToDouble(S(2 * (exp(eps) - 1))) + SoftmaxBudget<S>(a, b) + Gamma(3, u) * std::exp(ToDouble(eps)));
  }
};
ATTNPROP_REGISTER(SoftmaxPerturbation, double, Mpfr);

struct SoftmaxLipschitzExp : ClaimId<"collapse.corD.3.softmax_lipschitz_exp"> {
  // No hypothesis beyond a, b in R^n: the domain of collapse::PerturbedVector
  // (|a_i|, |b_i| <= 300: e^{||b||} and the budget finite in double).
  template <class S> static Domain Hypotheses() { return collapse::PerturbedVector(2); }
  template <class S> static void Conclusion(const In<S>& in) {
    using std::exp;
    const Vec<S> a = in[collapse::kA].row(0).transpose(), b = in[collapse::kB].row(0).transpose();
    const S nb = collapse::VecMaxNorm<S>(b);
    const Vec<S> diff = Softmax<S>(Vec<S>(a + b)) - Softmax<S>(a);
    const double u = ScalarTraits<S>::UnitRoundoff();
    static const Tolerance kDistance{
        "||softm(a+b) - softm(a)||_inf", "2(e^{||b||} - 1) + gamma_{n+8}(1 + 4(||a||+||b||)) + gamma_3 e^{||b||}",
        kBudgetReason, MetricKind::kClaim};
    ExpectWithin(kDistance, ToDouble(collapse::VecMaxNorm<S>(diff)),
                 ToDouble(S(2 * (exp(nb) - 1))) + SoftmaxBudget<S>(a, b) + Gamma(3, u) * std::exp(ToDouble(nb)));
  }
};
ATTNPROP_REGISTER(SoftmaxLipschitzExp, double, Mpfr);

template <class S>
void CheckLemmaD4(const In<S>& in, bool as_printed, const Tolerance& tolerance) {
  const Vec<S> a = in[collapse::kA].row(0).transpose(), b = in[collapse::kB].row(0).transpose();
  const S nb = collapse::VecMaxNorm<S>(b);
  const Vec<S> diff = Softmax<S>(Vec<S>(a + b)) - Softmax<S>(as_printed ? b : a);
  const double u = ScalarTraits<S>::UnitRoundoff();
  ExpectWithin(tolerance, ToDouble(collapse::VecMaxNorm<S>(diff)), 4 * ToDouble(nb) * (1 + u) + SoftmaxBudget<S>(a, b));
}

/// Lemma D.4 as printed and as intended share the hypotheses ||b||_inf <= 1.
struct LemmaD4Family {
  // ||b||_inf <= 1 (the lemma's), in the domain of collapse::PerturbedVector.
  template <class S> static Domain Hypotheses() {
    Domain d = collapse::PerturbedVector(1);
    d.Assume("||b||_inf <= 1", [](const Values& v) { return collapse::BWithin(v, Rational(1)); });
    return d;
  }
};

struct LemmaD4 : LemmaD4Family, ClaimId<"collapse.lemmaD.4"> {
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kDistance{"||softm(a+b) - softm(b)||_inf",
                                            "4||b||(1+u) + gamma_{n+8}(1 + 4(||a||+||b||))", kBudgetReason,
                                            MetricKind::kClaim};
    CheckLemmaD4<S>(in, true, kDistance);
  }
};
ATTNPROP_REGISTER(LemmaD4, double, Mpfr);

struct LemmaD4Ours : LemmaD4Family, ClaimId<"collapse.lemmaD.4.ours"> {
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kDistance{"||softm(a+b) - softm(a)||_inf",
                                            "4||b||(1+u) + gamma_{n+8}(1 + 4(||a||+||b||))", kBudgetReason,
                                            MetricKind::kClaim};
    CheckLemmaD4<S>(in, false, kDistance);
  }
};
ATTNPROP_REGISTER(LemmaD4Ours, double, Mpfr);

constexpr ScalarField kX{"x"};

struct ExpInequality : ClaimId<"collapse.lemmaD.4.exp_inequality"> {
  // x in (0,1] (the proof step's); drawn 1 or a positive dyadic.
  template <class S> static Domain Hypotheses() {
    Domain d;
    d.Scalar(kX, rc::gen::oneOf(rc::gen::just(Exact(1.0)), gen::PositiveDyadic(1, 30)), Admit::Within(1).Positive());
    return d;
  }
  template <class S> static void Conclusion(const In<S>& in) {
    using std::exp;
    const S x = in[kX];
    const double u = ScalarTraits<S>::UnitRoundoff();
    static const Tolerance kExcess{"e^x - 1 against 2x", "2x + gamma_2 e",
                                          "exp errs <= 0.51 ulp of a value <= e, the subtraction one rounding",
                                          MetricKind::kClaim};
    // Recorded as e^x - 1 (>= 0) against 2x + budget (the same conclusion as
    // (e^x - 1) - 2x <= budget), so observed/bound is the claim's tightness.
    ExpectWithin(kExcess, ToDouble(S(exp(x) - 1)), ToDouble(S(2 * x)) + Gamma(2, u) * std::exp(1.0));
  }
};
ATTNPROP_REGISTER(ExpInequality, double, Mpfr);

}  // namespace
}  // namespace attnprop
