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
// Cases: L in every regime (SquareDomain: scales, full-mantissa entries,
// where double rounds and the intervals decide; inputs are doubles, exact in MPFR and
// rationals), N in [1,8] (MPFR [1,5]), five shapes
// (general, symmetric, antisymmetric, rank one, zero for the unnormalised
// claims) so that S = 0 and T = 0 are visited.
#include "generators/scalars.h"
#include "properties/framework/property.h"
#include "properties/profile/profile_checks.h"
#include "properties/profile/square_cases.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

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

// Identities: exact in rationals, certified by interval arithmetic in double
// and MPFR (no rounding budget).
struct SymAntisymSplit : SplitFamily<true>, ClaimId<"profile.sym_antisym_split"> {
  template <class S> static void Conclusion(const In<S>& in) {
    using std::abs;
    const Mat<S> l = in[kL];
    const Mat<S> s = SymmetricPart<S>(l), t = AntisymmetricPart<S>(l);
    static const Tolerance kSymmetric{"|S_ij - S_ji|", "0 (S symmetric)", "an identity", MetricKind::kRounding};
    static const Tolerance kAntisymmetric{"|T_ij + T_ji|", "0 (T antisymmetric)", "an identity", MetricKind::kRounding};
    static const Tolerance kSplit{"|S + T - L|_ij", "0 (an identity)", "an identity", MetricKind::kRounding};
    for (Eigen::Index i = 0; i < l.rows(); ++i)
      for (Eigen::Index j = 0; j < l.cols(); ++j) {
        ExpectWithin<S>(kSymmetric, abs(s(i, j) - s(j, i)), S(0));
        ExpectWithin<S>(kAntisymmetric, abs(t(i, j) + t(j, i)), S(0));
        ExpectWithin<S>(kSplit, abs(S(s(i, j) + t(i, j)) - l(i, j)), S(0));
      }
  }
};
ATTNPROP_REGISTER(SymAntisymSplit, double, Mpfr, Rational, Interval);

struct Pythagoras : SplitFamily<true>, ClaimId<"profile.pythagoras"> {
  template <class S> static void Conclusion(const In<S>& in) {
    using std::abs;
    const Mat<S> l = in[kL];
    const S diff = FrobeniusSq<S>(l) - FrobeniusSq<S>(SymmetricPart<S>(l)) - FrobeniusSq<S>(AntisymmetricPart<S>(l));
    static const Tolerance kPythagoras{"|‖L‖² - ‖S‖² - ‖T‖²|", "0 (an identity)", "an identity", MetricKind::kRounding};
    ExpectWithin<S>(kPythagoras, abs(diff), S(0));
  }
};
ATTNPROP_REGISTER(Pythagoras, double, Mpfr, Rational, Interval);

struct PythagorasNormalized : SplitFamily<false>, ClaimId<"profile.pythagoras_normalized"> {
  template <class S> static void Conclusion(const In<S>& in) {
    using std::abs;
    const Mat<S> l = in[kL];
    const S ll = FrobeniusSq<S>(l);
    const S sum = FrobeniusSq<S>(SymmetricPart<S>(l)) / ll + FrobeniusSq<S>(AntisymmetricPart<S>(l)) / ll;
    static const Tolerance kRatios{"|‖S‖²/‖L‖² + ‖T‖²/‖L‖² - 1|", "0 (an identity)", "an identity", MetricKind::kRounding};
    ExpectWithin<S>(kRatios, abs(sum - 1), S(0));
  }
};
ATTNPROP_REGISTER(PythagorasNormalized, double, Mpfr, Rational, Interval);

}  // namespace
}  // namespace attnprop
