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
// exactly for stored cases; entries_lt_1 drops LambdaFamily's computability
// condition, which is its own conclusion).
// Cases: exact rational points of Lambda_m, m in [1,5] (lambda_checks.h);
// double and MPFR see lambda rounded to nearest: their failures are
// candidates that interval arithmetic decides at the exact point.
#include "properties/profile/lambda_checks.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

struct LambdaCBounds : LambdaFamily, ClaimId<"profile.Lambda.C_bounds"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Vec<S> lam = GetLambda<S>(in);
    const S two_c = 2 * LambdaC<S>(lam);
    ExpectThat(two_c >= S(0), "2C < 0");
    static const Tolerance kTwoC{"2C", "1", "C <= ||lambda_+|| ||lambda_-|| <= 1/2 (exact in rationals, certified "
                                            "by interval arithmetic elsewhere)", MetricKind::kClaim};
    ExpectWithin<S>(kTwoC, two_c, S(1));
  }
};
ATTNPROP_REGISTER(LambdaCBounds, double, Mpfr, Rational, Interval);

struct LambdaPBounds : LambdaFamily, ClaimId<"profile.Lambda.P_bounds"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Vec<S> lam = GetLambda<S>(in);
    // D = ||lambda_+ - lambda_-||^2 = (1 - P)^2. P <= 1 is sqrt(D) >= 0, true
    // by definition (no check can fail there); P >= 0 is D <= 1.
    const S d = OneMinusPSq<S>(lam);
    static const Tolerance kMinusP{"||lambda_+ - lambda_-||^2 (P >= 0)", "1",
                                   "D = ||lambda_+ - lambda_-||^2 <= ||lambda||^2 = 1 (exact in rationals, certified "
                                   "by interval arithmetic elsewhere)",
                                   MetricKind::kClaim};
    ExpectWithin<S>(kMinusP, d, S(1));
  }
};
ATTNPROP_REGISTER(LambdaPBounds, double, Mpfr, Rational, Interval);

struct LambdaEntriesLt1 : ClaimId<"profile.Lambda.entries_lt_1"> {
  // LambdaFamily's domain without its computability condition (every entry
  // rounded to S strictly inside (-1, 1)): that condition is this claim's
  // conclusion, and would discard in double and MPFR exactly the cases that
  // could fail. lambda in Lambda_m exactly; double, MPFR: nonzero entries in
  // [2^-200, 2^200] (ProfileDomain).
  template <class S> static Domain Hypotheses() {
    const int64_t max_m = SizeBudget<S>::Pick(5, 4);
    if constexpr (ScalarTraits<S>::kExact) return LambdaDomain(max_m, Admit::Finite());
    else return LambdaDomain(max_m, Admit::Within(0x1p200).NonzeroAtLeast(0x1p-200));
  }
  // No tolerance: exact in rationals; in double and MPFR an entry rounded to
  // +-1 fails there, a candidate that the intervals decide at the exact point.
  template <class S> static void Conclusion(const In<S>& in) {
    const Vec<S> lam = GetLambda<S>(in);
    using std::abs;
    for (int64_t i = 0; i < lam.size(); ++i)
      ExpectThat(abs(lam[i]) < S(1), "|lambda_" + std::to_string(i + 1) + "| >= 1");
  }
};
ATTNPROP_REGISTER(LambdaEntriesLt1, double, Mpfr, Rational, Interval);

struct LambdaElidedBounds : LambdaFamily, ClaimId<"profile.Lambda.elided_bounds"> {
  // Exact in rationals, certified by interval arithmetic elsewhere: no
  // rounding budget.
  template <class S> static void Conclusion(const In<S>& in) {
    using std::abs;
    const Vec<S> lam = GetLambda<S>(in);
    const Vec<S> lp = LambdaPlus<S>(lam), lm = LambdaMinus<S>(lam);
    const S a = Dot<S>(lp, lp), b = Dot<S>(lm, lm), cc = Dot<S>(lp, lm);
    const S i_val = a - b;
    // Candidate 1: ||lambda_+||^2 + ||lambda_-||^2 = 1.
    static const Tolerance kUnitNorm{"|‖λ₊‖² + ‖λ₋‖² - 1|", "0 (an identity)",
                                     "exact in rationals; certified by interval arithmetic elsewhere", MetricKind::kRounding};
    ExpectWithin<S>(kUnitNorm, abs(a + b - 1), S(0));
    // Candidate 2: |I| < 1 (strict; both parts have a nonzero entry, so
    // |I| <= 1 - min(A, B)).
    ExpectThat(abs(i_val) < S(1), "|I| >= 1");
    // Candidate 3: I^2 + 4C^2 <= 1.
    static const Tolerance kDisc{"I² + 4C²", "1", "(A - B)^2 + 4C^2 <= (A + B)^2 = 1 as C^2 <= AB (Cauchy-Schwarz)",
                                 MetricKind::kClaim};
    ExpectWithin<S>(kDisc, S(i_val * i_val + 4 * cc * cc), S(1));
    // Candidate 4 (the other reading): ||lambda_+ - lambda_-||^2 = 1 - 2C.
    const Vec<S> gap = lp - lm;
    static const Tolerance kGap{"|‖λ₊-λ₋‖² - (1 - 2C)|", "0 (an identity)",
                                "the other natural reading of the display; exact in rationals, certified by "
                                "interval arithmetic elsewhere", MetricKind::kRounding};
    ExpectWithin<S>(kGap, abs(Dot<S>(gap, gap) - (S(1) - 2 * cc)), S(0));
  }
};
ATTNPROP_REGISTER(LambdaElidedBounds, double, Mpfr, Rational, Interval);

}  // namespace
}  // namespace attnprop
