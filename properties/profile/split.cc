// The symmetric/antisymmetric split of L and its Pythagoras identity
// (001_4e20808ed1137a14.txt, "For L in M_N(R), put [S, T] Then L = S + T ...",
// "For any L in M_N(R), [elided]", "For L != 0, division gives [elided]";
// the displays are reconstructed in shared/claims/CATALOG.md:
// S = (L + L^T)/2, T = (L - L^T)/2, Frobenius norms).
//
// profile.sym_antisym_split
//   Statement: S is symmetric, T is antisymmetric and L = S + T.
// profile.pythagoras
//   Statement: ||L||^2 = ||S||^2 + ||T||^2 for every L.
// profile.pythagoras_normalized
//   Statement: for L != 0, ||S||^2/||L||^2 + ||T||^2/||L||^2 = 1.
// Hypotheses: L square (the normalised form: L != 0, generated nonzero).
// Cases: L in every regime (SquareDomain: scales, full-mantissa entries, so
// the rounding bounds are tested; inputs are doubles, exact in MPFR and
// rationals), N in [1,8] (MPFR [1,5]), five shapes
// (general, symmetric, antisymmetric, rank one, zero for the unnormalised
// claims) so that S = 0 and T = 0 are visited.
#include "generators/scalars.h"
#include "properties/framework/property.h"
#include "properties/profile/profile_checks.h"
#include "properties/profile/square_cases.h"

namespace attnprop {
namespace {

template <class S> constexpr int64_t kMaxN = SizeBudget<S>::Pick(8, 5);

using profile::kL;

/// Square L in every regime (SquareDomain); shape 0 general, 1 symmetric, 2
/// antisymmetric, 3 rank one, 4 zero (replaced by e1 e1^T when allow_zero is
/// false).
Mat<Rational> SplitL(int shape, const Mat<Rational>& x, const Mat<Rational>& y, bool allow_zero) {
  Mat<Rational> l;
  switch (shape) {
    case 1: l = x + x.transpose(); break;
    case 2: l = x - x.transpose(); break;
    case 3: l = x.col(0) * y.col(0).transpose(); break;
    case 4: l = Mat<Rational>::Zero(x.rows(), x.rows()); break;
    default: l = x; break;
  }
  if (!allow_zero && l.isZero()) l(0, 0) = 1;
  return l;
}

/// The three claims share their hypotheses and cases; the normalised one
/// excludes L = 0.
template <bool kAllowZero>
struct SplitFamily {
  // L square (N >= 1; the axis N), nonzero where the claim divides by
  // ||L||; finite; double, MPFR: nonzero |entries| in [2^-200, 2^200]
  // (ProfileAdmit: squares and Frobenius sums stay normal). The shape
  // index (how L was drawn) is admitted in [0, 4].
  template <class S> static Domain Hypotheses() {
    Domain d = SquareDomain<S>(
        kMaxN<S>, 5, 5,
        [](int shape, const Mat<Rational>& x, const Mat<Rational>& y) { return SplitL(shape, x, y, kAllowZero); },
        ProfileAdmit<S>(0x1p200));
    if constexpr (!kAllowZero)
      d.Assume("L != 0", [](const Values& v) { return !Mat<Rational>(v[kL].As<Rational>()).isZero(); });
    return d;
  }
};

struct SymAntisymSplit : SplitFamily<true>, ClaimId<"profile.sym_antisym_split"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> l = in[kL];
    const Mat<S> s = SymmetricPart<S>(l), t = AntisymmetricPart<S>(l);
    ExpectThat(s == s.transpose(), "S is not symmetric");
    ExpectThat(t == Mat<S>(-t.transpose()), "T is not antisymmetric");
    using std::abs;
    double worst = 0;
    for (Eigen::Index i = 0; i < l.rows(); ++i)
      for (Eigen::Index j = 0; j < l.cols(); ++j) {
        const double scale = std::max(ToDouble(S(abs(l(i, j)))), ToDouble(S(abs(l(j, i)))));
        const S err = abs(S(s(i, j) + t(i, j)) - l(i, j));
        if constexpr (ScalarTraits<S>::kExact) ExpectThat(err == 0, "S + T != L");
        if (scale > 0) worst = std::max(worst, ToDouble(err) / scale);
        else ExpectThat(err == 0, "S + T != L at a zero pair");
      }
    static const Tolerance kSplit{
        "max_ij |S + T - L|_ij / max(|L_ij|, |L_ji|)", "gamma_2 (0 in rationals)",
        "S_ij = fl(L_ij + L_ji)/2 and T_ij = fl(L_ij - L_ji)/2 err by u (|L_ij| +- |L_ji|)/2 each "
        "(halving is exact), their sum by u more: <= (2u + u^2) max(|L_ij|, |L_ji|)"};
    ExpectWithin(kSplit, worst, Gamma(2, ScalarTraits<S>::UnitRoundoff()));
  }
};
ATTNPROP_REGISTER(SymAntisymSplit, double, Mpfr, Rational);

/// Error of a computed ||X||^2 for X = sym/antisym part of L: entries carry
/// relative error u, squares gamma_2 more, the sum of N^2 terms gamma_{N^2}.
double PythagorasBound(int64_t n, double u) {
  return 2 * Gamma(static_cast<double>(n * n) + 5, u);
}

struct Pythagoras : SplitFamily<true>, ClaimId<"profile.pythagoras"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> l = in[kL];
    const S ll = FrobeniusSq<S>(l);
    const S diff = ll - FrobeniusSq<S>(SymmetricPart<S>(l)) - FrobeniusSq<S>(AntisymmetricPart<S>(l));
    using std::abs;
    if constexpr (ScalarTraits<S>::kExact) ExpectThat(diff == 0, "‖L‖² != ‖S‖² + ‖T‖²: diff " + diff.str());
    if (ll == 0) {
      ExpectThat(diff == 0, "L = 0 but ‖S‖² + ‖T‖² != 0");
      return;
    }
    static const Tolerance kPythagoras{
        "|‖L‖² - ‖S‖² - ‖T‖²| / ‖L‖²", "2 gamma_{N^2+5} (0 in rationals)",
        "each of the three sums of N^2 nonnegative squares errs by gamma_{N^2+3} relative (entries of S, T "
        "err by u, squaring by u, summation gamma_{N^2}); ‖S‖² + ‖T‖² = ‖L‖², so the three errors and "
        "the final add and subtract total <= 2 gamma_{N^2+5} ‖L‖²"};
    ExpectWithin(kPythagoras, ToDouble(S(abs(diff) / ll)), PythagorasBound(l.rows(), ScalarTraits<S>::UnitRoundoff()));
  }
};
ATTNPROP_REGISTER(Pythagoras, double, Mpfr, Rational);

struct PythagorasNormalized : SplitFamily<false>, ClaimId<"profile.pythagoras_normalized"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> l = in[kL];
    const S ll = FrobeniusSq<S>(l);
    const S sum = FrobeniusSq<S>(SymmetricPart<S>(l)) / ll + FrobeniusSq<S>(AntisymmetricPart<S>(l)) / ll;
    using std::abs;
    if constexpr (ScalarTraits<S>::kExact) ExpectThat(sum == 1, "ratios sum to " + sum.str());
    const double n = static_cast<double>(l.rows());
    static const Tolerance kRatios{
        "|‖S‖²/‖L‖² + ‖T‖²/‖L‖² - 1|", "gamma_{2N^2+8} (0 in rationals)",
        "each ratio errs by gamma_{N^2+3} (numerator) + gamma_{N^2} (denominator) + u (division) relative; "
        "the two exact ratios sum to 1, plus u for the sum"};
    ExpectWithin(kRatios, ToDouble(S(abs(sum - 1))), Gamma(2 * n * n + 8, ScalarTraits<S>::UnitRoundoff()));
  }
};
ATTNPROP_REGISTER(PythagorasNormalized, double, Mpfr, Rational);

}  // namespace
}  // namespace attnprop
