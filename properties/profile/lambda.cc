// Bounds on Lambda_m (001_4e20808ed1137a14.txt, "For m >= 1, let Lambda_m
// ...", "For lambda in Lambda_m, [elided] Moreover, 0 <= 2C <= 1 and
// 0 <= P <= 1.", "Every lambda in Lambda_m has |lambda_i| < 1."). C, P,
// lambda_+- as reconstructed in CATALOG.md (see lambda_checks.h).
//
// profile.Lambda.C_bounds      0 <= 2C <= 1 on Lambda_m.
// profile.Lambda.P_bounds      0 <= P <= 1 on Lambda_m (P <= 1 is immediate
//   from ||.|| >= 0; P >= 0 is ||lambda_+ - lambda_-||^2 <= 1, compared as a
//   square in rationals).
// profile.Lambda.entries_lt_1  |lambda_i| < 1 for every lambda in Lambda_m.
// profile.Lambda.elided_bounds (elided display; the CATALOG.md candidates,
//   each a labelled reconstruction): ||lambda_+||^2 + ||lambda_-||^2 = 1;
//   |I| < 1; I^2 + 4C^2 <= 1, with I = ||lambda_+||^2 - ||lambda_-||^2;
//   and the other natural reading ||lambda_+ - lambda_-||^2 = 1 - 2C.
// Hypotheses: lambda in Lambda_m (the domain of LambdaFamily, checked
// exactly for stored cases).
// Cases: exact rational points of Lambda_m, m in [1,5] (lambda_checks.h);
// double and MPFR see lambda rounded to nearest (input error u relative per
// entry, budgeted below).
#include "properties/profile/lambda_checks.h"

namespace attnprop {
namespace {

struct LambdaCBounds : LambdaFamily, ClaimId<"profile.Lambda.C_bounds"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Vec<S> lam = GetLambda<S>(in);
    const S two_c = 2 * LambdaC<S>(lam);
    ExpectThat(two_c >= 0, "2C < 0");
    if constexpr (ScalarTraits<S>::kExact) ExpectThat(two_c <= 1, "2C = " + two_c.str() + " > 1");
    static const Tolerance kTwoC{
        "2C against 1", "1 + gamma_{m+3} (1 in rationals)",
        "C is a sum of m nonnegative products of entries each rounded by u: relative error gamma_{m+3}, "
        "and the exact C <= ||lambda_+|| ||lambda_-|| <= 1/2", MetricKind::kClaim};
    ExpectWithin(kTwoC, two_c, S(S(1) + S(Gamma(static_cast<double>(lam.size() / 2) + 3, ScalarTraits<S>::UnitRoundoff()))));
  }
};
ATTNPROP_REGISTER(LambdaCBounds, double, Mpfr, Rational);

struct LambdaPBounds : LambdaFamily, ClaimId<"profile.Lambda.P_bounds"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Vec<S> lam = GetLambda<S>(in);
    const S d = OneMinusPSq<S>(lam);
    static const Tolerance kMinusP{
        "||lambda_+ - lambda_-||^2 against 1 (P >= 0)", "1 + gamma_{m+12} (1 in rationals)",
        "D = ||lambda_+ - lambda_-||^2 <= ||lambda||^2 = 1; each difference of two u-rounded positives errs "
        "by <= 2u(lambda+_i + lambda-_i), so D moves by <= 8u + gamma_{m+2}; sqrt and 1 - sqrt add 2u, "
        "and sqrt(1 + e) - 1 <= e/2", MetricKind::kClaim};
    if constexpr (ScalarTraits<S>::kExact) {
      ExpectThat(d >= 0, "||lambda_+ - lambda_-||^2 < 0");
      ExpectThat(d <= 1, "P < 0: ||lambda_+ - lambda_-||^2 = " + d.str() + " > 1");
      ExpectWithin(kMinusP, d, S(1));
    } else {
      using std::sqrt;
      const S p = 1 - sqrt(d);
      ExpectThat(p <= 1, "P > 1");
      // P >= 0 iff D <= 1; D's own error is within the budget (the bound's reason).
      ExpectWithin(kMinusP, d, S(S(1) + S(Gamma(static_cast<double>(lam.size() / 2) + 12, ScalarTraits<S>::UnitRoundoff()))));
    }
  }
};
ATTNPROP_REGISTER(LambdaPBounds, double, Mpfr, Rational);

struct LambdaEntriesLt1 : LambdaFamily, ClaimId<"profile.Lambda.entries_lt_1"> {
  // No tolerance: rounding is monotone and 1 is representable, so a rounded
  // entry can only reach 1 if the exact one is within u of 1; the generated
  // points have 1 - |lambda_i| >= 2/(|p|^2 + 1) >= 2/146.
  template <class S> static void Conclusion(const In<S>& in) {
    const Vec<S> lam = GetLambda<S>(in);
    using std::abs;
    for (int64_t i = 0; i < lam.size(); ++i)
      ExpectThat(abs(lam[i]) < 1, "|lambda_" + std::to_string(i + 1) + "| >= 1");
  }
};
ATTNPROP_REGISTER(LambdaEntriesLt1, double, Mpfr, Rational);

struct LambdaElidedBounds : LambdaFamily, ClaimId<"profile.Lambda.elided_bounds"> {
  // Lambda_m (LambdaFamily), and in double and MPFR min(||lambda_+||^2,
  // ||lambda_-||^2) >= 2^-40: the strict |I| < 1 is decided on the computed
  // I, which the exact 1 - |I| >= min(A, B) keeps below 1 only when that
  // margin exceeds the rounding (the generated points have min >= 2^-20).
  template <class S> static Domain Hypotheses() {
    Domain d = LambdaFamily::Hypotheses<S>();
    if constexpr (!ScalarTraits<S>::kExact) {
      d.Assume("(computability) min(||lambda_+||^2, ||lambda_-||^2) >= 2^-40", [](const Values& v) {
        const Vec<Rational> lam = Mat<Rational>(v[profile::kLambda].As<Rational>()).row(0).transpose();
        const Vec<Rational> lp = LambdaPlus<Rational>(lam), lm = LambdaMinus<Rational>(lam);
        const Rational a = Dot<Rational>(lp, lp), b = Dot<Rational>(lm, lm);
        const Rational lo = a < b ? a : b;
        return lo * Rational(int64_t{1} << 40) >= 1;
      });
    }
    return d;
  }
  template <class S> static void Conclusion(const In<S>& in) {
    const Vec<S> lam = GetLambda<S>(in);
    const Vec<S> lp = LambdaPlus<S>(lam), lm = LambdaMinus<S>(lam);
    const S a = Dot<S>(lp, lp), b = Dot<S>(lm, lm), cc = Dot<S>(lp, lm);
    const S i_val = a - b;
    const double u = ScalarTraits<S>::UnitRoundoff();
    const double m = static_cast<double>(lam.size() / 2);
    using std::abs;
    // Candidate 1: ||lambda_+||^2 + ||lambda_-||^2 = 1.
    if constexpr (ScalarTraits<S>::kExact) ExpectThat(a + b == 1, "||lambda_+||^2 + ||lambda_-||^2 != 1");
    static const Tolerance kUnitNorm{
        "|‖λ₊‖² + ‖λ₋‖² - 1|", "gamma_{2m+3} (0 in rationals)",
        "2m squares of u-rounded entries (gamma_3 each) summed (gamma_{2m}); exact value 1"};
    ExpectWithin(kUnitNorm, ToDouble(S(abs(a + b - 1))), Gamma(2 * m + 3, u));
    // Candidate 2: |I| < 1 (strict; both parts have a nonzero entry, so
    // |I| <= 1 - min(A, B), far from 1 for the generated points).
    ExpectThat(abs(i_val) < 1, "|I| >= 1");
    // Candidate 3: I^2 + 4C^2 <= 1.
    const S lhs = i_val * i_val + 4 * cc * cc;
    if constexpr (ScalarTraits<S>::kExact) ExpectThat(lhs <= 1, "I^2 + 4C^2 = " + lhs.str() + " > 1");
    static const Tolerance kDisc{
        "I² + 4C² against 1", "1 + 4 gamma_{m+5} (1 in rationals)",
        "I = A - B and C err by gamma_{m+3}(A + B) = gamma_{m+3} and gamma_{m+3} C; squaring doubles a "
        "relative error, |I|, 2C <= 1, plus u for each of the three operations", MetricKind::kClaim};
    ExpectWithin(kDisc, lhs, S(S(1) + S(4 * Gamma(m + 5, u))));
    // Candidate 4 (the other reading): ||lambda_+ - lambda_-||^2 = 1 - 2C.
    const Vec<S> gap = lp - lm;
    const S gap_sq = Dot<S>(gap, gap), one_minus = S(1) - 2 * cc;
    if constexpr (ScalarTraits<S>::kExact) ExpectThat(gap_sq == one_minus, "||lambda_+ - lambda_-||^2 != 1 - 2C");
    static const Tolerance kGap{
        "|‖λ₊-λ₋‖² - (1 - 2C)|", "16 gamma_{m+4} (0 in rationals)",
        "the other natural reading of the display: each difference of two u-rounded entries errs by "
        "2u(l+ + l-), its square by 8u(l+^2 + l-^2), the m-term sum gamma_m (value <= 2); 1 - 2C errs by "
        "gamma_{m+3} 2C + u"};
    ExpectWithin(kGap, ToDouble(S(abs(gap_sq - one_minus))), 16 * Gamma(m + 4, u));
  }
};
ATTNPROP_REGISTER(LambdaElidedBounds, double, Mpfr, Rational);

}  // namespace
}  // namespace attnprop
