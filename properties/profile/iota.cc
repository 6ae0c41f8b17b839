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
// checks are exact everywhere.
#include "properties/profile/lambda_checks.h"

namespace attnprop {
namespace {

/// lambda in Lambda_m in the backend's own arithmetic (sorted, sign
/// pattern; the norm is checked separately with a tolerance).
template <class S>
bool SortedWithSigns(const Vec<S>& lam) {
  const int64_t n = lam.size();
  for (int64_t i = 0; i + 1 < n; ++i)
    if (lam[i] > lam[i + 1]) return false;
  return n % 2 == 0 && lam[n / 2 - 1] < 0 && lam[n / 2] > 0;
}

struct IotaStructure : LambdaFamily, ClaimId<"profile.iota.orthogonal_selfadjoint_involution"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Vec<S> lam = GetLambda<S>(in);
    const int64_t n = lam.size();
    const Mat<S> r = IotaMatrix<S>(n), id = Mat<S>::Identity(n, n);
    ExpectThat(Vec<S>(r * lam) == Iota<S>(lam), "R lambda != iota(lambda)");
    ExpectThat(Mat<S>(r.transpose() * r) == id, "iota is not orthogonal");
    ExpectThat(r.transpose() == r, "iota is not self-adjoint");
    ExpectThat(Mat<S>(r * r) == id, "iota is not an involution");
    const Vec<S> il = Iota<S>(lam);
    ExpectThat(SortedWithSigns<S>(il), "iota(lambda) is not sorted with m negative, m positive entries");
    if constexpr (ScalarTraits<S>::kExact) ExpectThat(InLambda(il), "iota(lambda) not in Lambda_m");
    using std::abs;
    static const Tolerance kUnitNorm{
        "|‖ιλ‖² - 1|", "gamma_{2m+3} (0 in rationals)",
        "iota permutes and negates (exact); ||.||^2 of 2m u-rounded entries errs by gamma_{2m+3}"};
    ExpectWithin(kUnitNorm, ToDouble(S(abs(Dot<S>(il, il) - 1))),
                 Gamma(static_cast<double>(n) + 3, ScalarTraits<S>::UnitRoundoff()));
    ExpectThat(LambdaPlus<S>(il) == LambdaMinus<S>(lam), "(iota lambda)_+ != lambda_-");
    ExpectThat(LambdaMinus<S>(il) == LambdaPlus<S>(lam), "(iota lambda)_- != lambda_+");
  }
};
ATTNPROP_REGISTER(IotaStructure, double, Mpfr, Rational);

struct IotaInvariance : LambdaFamily, ClaimId<"profile.iota.invariance_of_I_C_P"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Vec<S> lam = GetLambda<S>(in), il = Iota<S>(lam);
    const double u = ScalarTraits<S>::UnitRoundoff();
    const double n = static_cast<double>(lam.size());
    using std::abs;
    // C and P: the same products / differences in the same order: exact.
    ExpectThat(LambdaC<S>(il) == LambdaC<S>(lam), "C(iota lambda) != C(lambda)");
    ExpectThat(OneMinusPSq<S>(il) == OneMinusPSq<S>(lam), "P(iota lambda) != P(lambda)");
    // I candidate 1: ||lambda_+||^2 - ||lambda_-||^2 (same sums, swapped).
    auto quad = [](const Vec<S>& x) {
      return Dot<S>(LambdaPlus<S>(x), LambdaPlus<S>(x)) - Dot<S>(LambdaMinus<S>(x), LambdaMinus<S>(x));
    };
    ExpectThat(quad(il) == -quad(lam), "I(iota lambda) != -I(lambda) for I = ||l+||^2 - ||l-||^2");
    // I candidate 2: sum lambda_i^3.
    auto cubes = [](const Vec<S>& x) {
      S s = 0;
      for (int64_t i = 0; i < x.size(); ++i) s += x[i] * x[i] * x[i];
      return s;
    };
    S abs_cubes = 0;
    for (int64_t i = 0; i < lam.size(); ++i) abs_cubes += abs(lam[i] * lam[i] * lam[i]);
    if constexpr (ScalarTraits<S>::kExact) ExpectThat(cubes(il) == -cubes(lam), "sum cubes not odd under iota");
    static const Tolerance kCubes{
        "|Σλ³(ιλ) + Σλ³(λ)|", "2 gamma_{2m+3} sum |lambda_i|^3 (0 in rationals)",
        "the two sums add the same cubes in reverse order: each errs by gamma_{2m+2} sum |lambda_i|^3 "
        "(cubes 2u, summation 2m), input rounding is common to both"};
    ExpectWithin(kCubes, ToDouble(S(abs(cubes(il) + cubes(lam)))), 2 * Gamma(n + 3, u) * ToDouble(abs_cubes));
    // I candidate 3: sum artanh lambda_i (|lambda_i| < 1), floating only.
    if constexpr (!ScalarTraits<S>::kExact) {
      using std::atanh;
      S s1 = 0, s2 = 0, abs_sum = 0;
      for (int64_t i = 0; i < lam.size(); ++i) {
        s1 += atanh(lam[i]);
        s2 += atanh(il[i]);
        abs_sum += abs(atanh(lam[i]));
      }
      static const Tolerance kArtanh{
          "|Σartanh(ιλ) + Σartanh(λ)|", "2 (2m + 2) u sum |artanh lambda_i| (double, MPFR)",
          "artanh within 2u relative (glibc/MPFR; atanh is odd so both sums see the same values up to sign), "
          "summation gamma_{2m} on each side"};
      ExpectWithin(kArtanh, ToDouble(S(abs(s1 + s2))), 2 * (2 * n + 2) * u * ToDouble(abs_sum) * 1.01);
    }
  }
};
ATTNPROP_REGISTER(IotaInvariance, double, Mpfr, Rational);

struct IotaElidedFormula : LambdaFamily, ClaimId<"profile.iota.elided_formula"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Vec<S> lam = GetLambda<S>(in);
    // Candidate 2: <lambda, iota lambda> = 2C.
    const S inner = Dot<S>(lam, Iota<S>(lam)), two_c = 2 * LambdaC<S>(lam);
    if constexpr (ScalarTraits<S>::kExact) ExpectThat(inner == two_c, "<lambda, iota lambda> != 2C");
    static const Tolerance kInner{
        "|<λ,ιλ> - 2C|", "4 gamma_{2m+4} (0 in rationals)",
        "the other natural reading: <lambda, iota lambda> = 2 sum_i lambda-_i lambda+_i; 2m products of u-rounded "
        "entries summed (gamma_{2m+3} times 2C <= 1) against 2C (gamma_{m+3} times 2C)"};
    ExpectWithin(kInner, ToDouble(S(abs(inner - two_c))),
                 4 * Gamma(static_cast<double>(lam.size()) + 4, ScalarTraits<S>::UnitRoundoff()));
    const Vec<S> d = lam - Iota<S>(lam);
    const S lhs = OneMinusPSq<S>(lam), rhs = Dot<S>(d, d) / 2;
    using std::abs;
    if constexpr (ScalarTraits<S>::kExact) ExpectThat(lhs == rhs, "(1-P)^2 != ||lambda - iota lambda||^2 / 2");
    static const Tolerance kFormula{
        "|‖λ₊-λ₋‖² - ‖λ-ιλ‖²/2|", "gamma_{m+4} 8 (0 in rationals)",
        "both sides sum the same m squared differences (lambda-iota lambda holds each twice): the "
        "differences err by u relative, squares 2u, sums gamma_{2m}; each side <= 2"};
    ExpectWithin(kFormula, ToDouble(S(abs(lhs - rhs))),
                 8 * Gamma(static_cast<double>(lam.size()) + 4, ScalarTraits<S>::UnitRoundoff()));
  }
};
ATTNPROP_REGISTER(IotaElidedFormula, double, Mpfr, Rational);

struct IotaPEq1IffFixed : LambdaFamily, ClaimId<"profile.iota.P_eq_1_iff_fixed"> {
  // Exact in every backend: P = 1 iff ||lambda_+ - lambda_-|| = 0 iff the
  // computed differences vanish iff the rounded entries agree; rounding to
  // nearest is odd, so a fixed point rounds to a fixed point.
  template <class S> static void Conclusion(const In<S>& in) {
    const Vec<S> lam = GetLambda<S>(in);
    bool p_is_1;
    if constexpr (ScalarTraits<S>::kExact) {
      p_is_1 = OneMinusPSq<S>(lam) == 0;
    } else {
      using std::sqrt;
      p_is_1 = S(1 - sqrt(OneMinusPSq<S>(lam))) == 1;
    }
    const bool fixed = Iota<S>(lam) == lam;
    ExpectThat(p_is_1 == fixed, std::string("P = 1 is ") + (p_is_1 ? "true" : "false") + " but iota lambda = lambda is " +
                                    (fixed ? "true" : "false"));
  }
};
ATTNPROP_REGISTER(IotaPEq1IffFixed, double, Mpfr, Rational);

}  // namespace
}  // namespace attnprop
