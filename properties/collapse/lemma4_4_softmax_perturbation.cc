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
// Generated (collapse::PerturbedVector(2), or (1) for D.4): n in [1,8], a in
// every regime (|a_i| <= 300), eps in [0,2] (or [0,1]), b = eps r, r in [-1,1]
// (half +-1), rounded to double; x 1 or a positive dyadic. Backends double,
// MPFR, interval (exp).
#include <cmath>

#include "properties/collapse/collapse_cases.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

// Every claim here is certified by interval arithmetic (properties/
// framework/certify.h): its checks state the mathematics with no rounding
// budget; a failure in double or MPFR is a candidate the intervals decide.
constexpr const char* kAsStated = "the claim as stated";

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
    static const Tolerance kDistance{"||softm(a+b) - softm(a)||_inf", "2(e^eps - 1)", kAsStated, MetricKind::kClaim};
    ExpectWithin<S>(kDistance, collapse::VecMaxNorm<S>(diff), S(2 * (exp(eps) - 1)));
  }
};
ATTNPROP_REGISTER(SoftmaxPerturbation, double, Mpfr, Interval);

struct SoftmaxLipschitzExp : ClaimId<"collapse.corD.3.softmax_lipschitz_exp"> {
  // No hypothesis beyond a, b in R^n: the domain of collapse::PerturbedVector
  // (|a_i|, |b_i| <= 300: e^{||b||} and the budget finite in double).
  template <class S> static Domain Hypotheses() { return collapse::PerturbedVector(2); }
  template <class S> static void Conclusion(const In<S>& in) {
    using std::exp;
    const Vec<S> a = in[collapse::kA].row(0).transpose(), b = in[collapse::kB].row(0).transpose();
    const S nb = collapse::VecMaxNorm<S>(b);
    const Vec<S> diff = Softmax<S>(Vec<S>(a + b)) - Softmax<S>(a);
    static const Tolerance kDistance{"||softm(a+b) - softm(a)||_inf", "2(e^{||b||} - 1)", kAsStated,
                                     MetricKind::kClaim};
    ExpectWithin<S>(kDistance, collapse::VecMaxNorm<S>(diff), S(2 * (exp(nb) - 1)));
  }
};
ATTNPROP_REGISTER(SoftmaxLipschitzExp, double, Mpfr, Interval);

template <class S>
void CheckLemmaD4(const In<S>& in, bool as_printed, const Tolerance& tolerance) {
  const Vec<S> a = in[collapse::kA].row(0).transpose(), b = in[collapse::kB].row(0).transpose();
  const S nb = collapse::VecMaxNorm<S>(b);
  const Vec<S> diff = Softmax<S>(Vec<S>(a + b)) - Softmax<S>(as_printed ? b : a);
  ExpectWithin<S>(tolerance, collapse::VecMaxNorm<S>(diff), S(4 * nb));
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
    static const Tolerance kDistance{"||softm(a+b) - softm(b)||_inf", "4||b||", kAsStated, MetricKind::kClaim};
    CheckLemmaD4<S>(in, true, kDistance);
  }
};
ATTNPROP_REGISTER(LemmaD4, double, Mpfr, Interval);

struct LemmaD4Ours : LemmaD4Family, ClaimId<"collapse.lemmaD.4.ours"> {
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kDistance{"||softm(a+b) - softm(a)||_inf", "4||b||", kAsStated, MetricKind::kClaim};
    CheckLemmaD4<S>(in, false, kDistance);
  }
};
ATTNPROP_REGISTER(LemmaD4Ours, double, Mpfr, Interval);

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
    static const Tolerance kExcess{"e^x - 1", "2x", kAsStated, MetricKind::kClaim};
    ExpectWithin<S>(kExcess, S(exp(x) - 1), S(2 * x));
  }
};
ATTNPROP_REGISTER(ExpInequality, double, Mpfr, Interval);

}  // namespace
}  // namespace attnprop
