// "Only Large Weights (And Not Skip Connections) Can Prevent the Perils of
// Rank Collapse" (004_fc07a226cef95160.txt), Section 4.2, Lemma 4.3.
// alpha(x) = <exp(x), 1_n> (Definition 3.1).
//
// Hypotheses: a, b in R^n, ||b||_inf <= eps.
// collapse.lemma4.3.alpha_inv_rel_a      |alpha(a+b)^-1 - alpha(a)^-1| <= (e^eps-1) alpha(a)^-1
// collapse.lemma4.3.alpha_inv_rel_aplusb |alpha(a+b)^-1 - alpha(a)^-1| <= (e^eps-1) alpha(a+b)^-1
// Both hold, with equality at b = -eps 1_n (rel_a) and b = eps 1_n (rel_aplusb).
// Generated (collapse::PerturbedWithinEps(2)): n in [1,8], a in every regime
// (|a_i| <= 300), eps in [0,2], b = eps r, r in [-1,1] (half +-1), rounded to
// double. Backends double, MPFR, interval (exp).
#include "properties/collapse/collapse_cases.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

/// Certified by interval arithmetic: no rounding budget.
template <class S>
void CheckAlphaInverse(const In<S>& in, bool rel_to_a, const Tolerance& tolerance) {
  using std::abs;
  using std::exp;
  const Mat<S> a = in[collapse::kA], b = in[collapse::kB];
  const S eps = in[collapse::kEps];
  S alpha_a = 0, alpha_ab = 0;
  for (Eigen::Index i = 0; i < a.cols(); ++i) {
    alpha_a += exp(a(0, i));
    alpha_ab += exp(S(a(0, i) + b(0, i)));
  }
  const S inv_a = S(1) / alpha_a, inv_ab = S(1) / alpha_ab;
  ExpectWithin<S>(tolerance, abs(S(inv_ab - inv_a)), S((exp(eps) - 1) * (rel_to_a ? inv_a : inv_ab)));
}

/// Both claims of Lemma 4.3 share their hypotheses (||b||_inf <= eps,
/// exactly; a and b the same length) and their cases.
struct AlphaInvFamily {
  // ||b||_inf <= eps (the lemma's); the domain of collapse::PerturbedVector
  // keeps alpha(a), alpha(a+b) and their inverses finite and nonzero in double.
  template <class S> static Domain Hypotheses() { return collapse::PerturbedWithinEps(2); }
};

struct AlphaInvRelA : AlphaInvFamily, ClaimId<"collapse.lemma4.3.alpha_inv_rel_a"> {
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kRatio{"|alpha(a+b)^-1 - alpha(a)^-1|", "(e^eps-1) alpha(a)^-1", "Lemma 4.3 as stated",
                                  MetricKind::kClaim};
    CheckAlphaInverse<S>(in, true, kRatio);
  }
};

struct AlphaInvRelAB : AlphaInvFamily, ClaimId<"collapse.lemma4.3.alpha_inv_rel_aplusb"> {
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kRatio{"|alpha(a+b)^-1 - alpha(a)^-1|", "(e^eps-1) alpha(a+b)^-1", "Lemma 4.3 as stated",
                                  MetricKind::kClaim};
    CheckAlphaInverse<S>(in, false, kRatio);
  }
};

ATTNPROP_REGISTER(AlphaInvRelA, double, Mpfr, Interval);
ATTNPROP_REGISTER(AlphaInvRelAB, double, Mpfr, Interval);

}  // namespace
}  // namespace attnprop
