// The involution iota on Lambda_m (001_4e20808ed1137a14.txt, the iota
// lemma: "The map iota is an orthogonal, self-adjoint linear involution,
// preserves Lambda_m, and exchanges lambda_+ and lambda_-. Consequently
// I o iota = -I, C o iota = C and P o iota = P. For lambda in Lambda_m,
// [elided] In particular, P(lambda) = 1 if and only if iota lambda = lambda.").
// iota(lambda)_i = -lambda_{2m+1-i} (CATALOG.md reconstruction); I is elided:
// the CATALOG.md candidates ||lambda_+||^2 - ||lambda_-||^2, sum lambda_i^3,
// sum artanh lambda_i are each checked (labelled reconstructions).
//
// profile.iota.orthogonal_selfadjoint_involution: R = matrix of iota has
//   R^T R = I, R^T = R, R^2 = I; iota lambda in Lambda_m; (iota lambda)_+ =
//   lambda_-, (iota lambda)_- = lambda_+.
// profile.iota.invariance_of_I_C_P: I(iota lambda) = -I(lambda) (three
//   candidates; artanh only in double and MPFR), C and P invariant.
// profile.iota.elided_formula (candidate): P = 1 - ||lambda - iota lambda||/sqrt 2,
//   compared as (1 - P)^2 = ||lambda - iota lambda||^2 / 2 (both sides >= 0);
//   and the other natural reading <lambda, iota lambda> = 2C.
// profile.iota.P_eq_1_iff_fixed: P(lambda) = 1 <=> iota lambda = lambda.
// Hypotheses: lambda in Lambda_m (LambdaFamily's domain). Cases:
// lambda_checks.h (one in four with m even is a fixed point of iota).
// Negation and reversal are exact in every backend, so the structural
// checks are exact everywhere (in an interval evaluation, decided on the
// case's exact rationals); the identities are exact in rationals and
// certified by interval arithmetic in double and MPFR.
#include "properties/profile/lambda_checks.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

/// lambda in Lambda_m in the backend's own arithmetic (sorted, sign
/// pattern; the norm is checked separately with a tolerance).
template <class S>
bool SortedWithSigns(const Vec<S>& lam) {
  const int64_t n = lam.size();
  for (int64_t i = 0; i + 1 < n; ++i)
    if (lam[i] > lam[i + 1]) return false;
  return n % 2 == 0 && lam[n / 2 - 1] < 0 && lam[n / 2] > 0;
}

/// The scalar in which a backend decides exact structure (equal entries,
/// order, signs): itself in double, MPFR and rationals (negation and
/// reversal are exact there), rationals inside an interval evaluation
/// (enclosures of equal non-dyadic rationals cannot be proved equal; the
/// case's exact values can).
template <class S>
using Structural = std::conditional_t<std::is_same_v<S, Interval>, Rational, S>;

struct IotaStructure : LambdaFamily, ClaimId<"profile.iota.orthogonal_selfadjoint_involution"> {
  template <class S> static void Conclusion(const In<S>& in) {
    using std::abs;
    {
      using X = Structural<S>;
      const Vec<X> lam = GetLambda<X>(In<X>(in.value()));
      const int64_t n = lam.size();
      const Mat<X> r = IotaMatrix<X>(n), id = Mat<X>::Identity(n, n);
      ExpectThat(Vec<X>(r * lam) == Iota<X>(lam), "R lambda != iota(lambda)");
      ExpectThat(Mat<X>(r.transpose() * r) == id, "iota is not orthogonal");
      ExpectThat(r.transpose() == r, "iota is not self-adjoint");
      ExpectThat(Mat<X>(r * r) == id, "iota is not an involution");
      const Vec<X> il = Iota<X>(lam);
      ExpectThat(SortedWithSigns<X>(il), "iota(lambda) is not sorted with m negative, m positive entries");
      if constexpr (ScalarTraits<X>::kExact) ExpectThat(InLambda(il), "iota(lambda) not in Lambda_m");
      ExpectThat(LambdaPlus<X>(il) == LambdaMinus<X>(lam), "(iota lambda)_+ != lambda_-");
      ExpectThat(LambdaMinus<X>(il) == LambdaPlus<X>(lam), "(iota lambda)_- != lambda_+");
    }
    // The unit norm in S: exact in rationals, certified by intervals
    // elsewhere (double and MPFR see lambda rounded).
    const Vec<S> il = Iota<S>(GetLambda<S>(in));
    static const Tolerance kUnitNorm{"|‖ιλ‖² - 1|", "0 (an identity)",
                                     "exact in rationals; certified by interval arithmetic elsewhere", MetricKind::kRounding};
    ExpectWithin<S>(kUnitNorm, abs(Dot<S>(il, il) - 1), S(0));
  }
};
ATTNPROP_REGISTER(IotaStructure, double, Mpfr, Rational, Interval);

struct IotaInvariance : LambdaFamily, ClaimId<"profile.iota.invariance_of_I_C_P"> {
  template <class S> static void Conclusion(const In<S>& in) {
    using std::abs;
    {
      // C and P: the same products / differences in the same order: exact.
      // I candidate 1: ||lambda_+||^2 - ||lambda_-||^2 (same sums, swapped).
      using X = Structural<S>;
      const Vec<X> lam = GetLambda<X>(In<X>(in.value())), il = Iota<X>(lam);
      ExpectThat(LambdaC<X>(il) == LambdaC<X>(lam), "C(iota lambda) != C(lambda)");
      ExpectThat(OneMinusPSq<X>(il) == OneMinusPSq<X>(lam), "P(iota lambda) != P(lambda)");
      auto quad = [](const Vec<X>& x) {
        return Dot<X>(LambdaPlus<X>(x), LambdaPlus<X>(x)) - Dot<X>(LambdaMinus<X>(x), LambdaMinus<X>(x));
      };
      ExpectThat(quad(il) == -quad(lam), "I(iota lambda) != -I(lambda) for I = ||l+||^2 - ||l-||^2");
    }
    const Vec<S> lam = GetLambda<S>(in), il = Iota<S>(lam);
    // I candidate 2: sum lambda_i^3 (odd: the same cubes in reverse order).
    auto cubes = [](const Vec<S>& x) {
      S s = 0;
      for (int64_t i = 0; i < x.size(); ++i) s += x[i] * x[i] * x[i];
      return s;
    };
    static const Tolerance kCubes{"|Σλ³(ιλ) + Σλ³(λ)|", "0 (an identity)",
                                  "exact in rationals; certified by interval arithmetic elsewhere", MetricKind::kRounding};
    ExpectWithin<S>(kCubes, abs(cubes(il) + cubes(lam)), S(0));
    // I candidate 3: sum artanh lambda_i (|lambda_i| < 1), not in rationals.
    if constexpr (!ScalarTraits<S>::kExact) {
      using std::atanh;
      S s1 = 0, s2 = 0;
      for (int64_t i = 0; i < lam.size(); ++i) s1 += atanh(lam[i]), s2 += atanh(il[i]);
      static const Tolerance kArtanh{"|Σartanh(ιλ) + Σartanh(λ)|", "0 (an identity)",
                                     "certified by interval arithmetic (artanh is odd)", MetricKind::kRounding};
      ExpectWithin<S>(kArtanh, abs(s1 + s2), S(0));
    }
  }
};
ATTNPROP_REGISTER(IotaInvariance, double, Mpfr, Rational, Interval);

struct IotaElidedFormula : LambdaFamily, ClaimId<"profile.iota.elided_formula"> {
  // Identities: exact in rationals, certified by intervals elsewhere.
  template <class S> static void Conclusion(const In<S>& in) {
    using std::abs;
    const Vec<S> lam = GetLambda<S>(in);
    // Candidate 2: <lambda, iota lambda> = 2C.
    static const Tolerance kInner{"|<λ,ιλ> - 2C|", "0 (an identity)",
                                  "the other natural reading: <lambda, iota lambda> = 2 sum_i lambda-_i lambda+_i", MetricKind::kRounding};
    ExpectWithin<S>(kInner, abs(Dot<S>(lam, Iota<S>(lam)) - 2 * LambdaC<S>(lam)), S(0));
    const Vec<S> d = lam - Iota<S>(lam);
    static const Tolerance kFormula{"|‖λ₊-λ₋‖² - ‖λ-ιλ‖²/2|", "0 (an identity)",
                                    "both sides sum the same m squared differences (lambda - iota lambda holds each "
                                    "twice)", MetricKind::kRounding};
    ExpectWithin<S>(kFormula, abs(OneMinusPSq<S>(lam) - Dot<S>(d, d) / 2), S(0));
  }
};
ATTNPROP_REGISTER(IotaElidedFormula, double, Mpfr, Rational, Interval);

struct IotaPEq1IffFixed : LambdaFamily, ClaimId<"profile.iota.P_eq_1_iff_fixed"> {
  // As stated: P = 1 - ||lambda_+ - lambda_-|| compared with 1, and iota
  // lambda compared with lambda. In double and MPFR, 1 - sqrt(D) rounds to 1
  // for 0 < D <= 2^-2p (a point next to a fixed point): their answer is a
  // candidate, which interval arithmetic certifies or dismisses (P < 1
  // certainly once the precision exceeds -log2 sqrt(D)); iota lambda =
  // lambda on rationals that are not dyadic is decided exactly (rationals
  // have no square root: P = 1 iff D = 0 there). Pinned: both rounding
  // artefacts (properties/counterexamples/profile.iota.P_eq_1_iff_fixed.txt).
  template <class S> static void Conclusion(const In<S>& in) {
    const Vec<S> lam = GetLambda<S>(in);
    bool p_is_1;
    if constexpr (ScalarTraits<S>::kExact) {
      p_is_1 = OneMinusPSq<S>(lam) == 0;
    } else {
      using std::sqrt;
      const S p = S(1) - sqrt(OneMinusPSq<S>(lam));
      p_is_1 = p == S(1);
    }
    const bool fixed = Iota<S>(lam) == lam;
    ExpectThat(p_is_1 == fixed, std::string("P = 1 is ") + (p_is_1 ? "true" : "false") + " but iota lambda = lambda is " +
                                    (fixed ? "true" : "false"));
  }
};
ATTNPROP_REGISTER(IotaPEq1IffFixed, double, Mpfr, Rational, Interval);

}  // namespace
}  // namespace attnprop
