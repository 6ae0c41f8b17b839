// Faces of the profile and its scaling under L -> S (001_4e20808ed1137a14.txt:
// faces item 1, "a = 0 exactly when L is symmetric, and a = 1 exactly when L
// is antisymmetric"; "If the symmetric part S of L is nonzero, pi(L) =
// (a,b,c,d) and pi(S) = (0,b_S,c_S,d_S), then (b,c,d) = (1-a)(b_S,c_S,d_S)").
//
// profile.face_a
//   Statement: for L != 0, a = 0 <=> L = L^T and a = 1 <=> L = -L^T.
//   a = ||T||^2/||L||^2 needs no eigenvalues: exact in rationals. Cases: L != 0
//   of five shapes (x y^T + (Y - Y^T), symmetric, antisymmetric, rank one,
//   general), entries in every regime (square_cases.h).
//   Which face L is on is decided exactly (rationals on the case). Floating:
//   T = 0 computed iff L_ij = L_ji exactly (differences of doubles vanish
//   only for equal operands), and an antisymmetric L has T = L exactly, so
//   a = 0 and a = 1 hold exactly there; off the faces 0 < a < 1 is shown
//   by a computed a farther than its gamma_{2N^2+8} error from 0 and 1, and
//   a case nearer than that is a candidate that intervals decide (certified
//   by intervals; the margin hypothesis min(a, 1-a) >= 2^-30 it once needed
//   is gone).
// profile.bcd_scaling
//   Statement: S != 0 => (b, c, d) = (1 - a)(b_S, c_S, d_S).
//   Cases: L = x y^T + T (T antisymmetric) and, in double/MPFR, the other four
//   shapes of face_a; S != 0 required. Rational: rank(S) <= 2 for the first
//   shape, so both profiles come from the exact route of model/profile.h.
//   Floating: the two profiles use the same computed spectrum (sym(S) = S
//   exactly), so they differ only in the normalisations ||L||^2, ||S||^2.
#include "properties/profile/lambda_checks.h"
#include "properties/profile/square_cases.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

template <class S> constexpr int64_t kMaxN = SizeBudget<S>::Pick(8, 4);

using profile::kL;

/// Square L in every regime (SquareDomain), nonzero: shape 0 x y^T + (Y -
/// Y^T) (rank(S) <= 2), 1 symmetric, 2 antisymmetric, 3 rank one, 4 general;
/// shapes drawn in [0, drawn_shapes), admitted in [0, 4].
template <class S>
Domain FaceDomain(int64_t max_n, int drawn_shapes) {
  return SquareDomain<S>(
      max_n, drawn_shapes, 5,
      [](int shape, const Mat<Rational>& x, const Mat<Rational>& y) {
        Mat<Rational> l;
        switch (shape) {
          case 0: l = x.col(0) * y.col(0).transpose() + (y - y.transpose()); break;  // rank(S) <= 2
          case 1: l = x + x.transpose(); break;
          case 2: l = x - x.transpose(); break;
          case 3: l = x.col(0) * y.col(0).transpose(); break;
          default: l = x; break;
        }
        if (l.isZero()) l(0, 0) = 1;
        return l;
      },
      ProfileAdmit<S>(0x1p200));
}

struct FaceA : ClaimId<"profile.face_a"> {
  // L square (N >= 1), nonzero, finite. Double, MPFR: nonzero |entries| in
  // [2^-200, 2^200] (ProfileAdmit). Which face L is on (L = L^T, L = -L^T) is
  // decided exactly, on the case's own values.
  template <class S> static Domain Hypotheses() {
    Domain d = FaceDomain<S>(kMaxN<S>, 5);
    d.Assume("L != 0", [](const Values& v) { return !Mat<Rational>(v[kL].As<Rational>()).isZero(); });
    return d;
  }
  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<Rational> exact = in.exact(kL).template As<Rational>();
    const bool symmetric = exact == exact.transpose(), antisymmetric = exact == Mat<Rational>(-exact.transpose());
    const Mat<S> l = in[kL];
    const S a = FrobeniusSq<S>(AntisymmetricPart<S>(l)) / FrobeniusSq<S>(l);
    // On a face the computed a is exact in every backend whose L holds the
    // case exactly (T = 0, or T = L, bit for bit): the identity as stated.
    if (symmetric) {
      ExpectThat(a == 0, "L is symmetric but a != 0");
    } else if (antisymmetric) {
      ExpectThat(a == 1, "L is antisymmetric but a != 1");
    } else if constexpr (std::is_same_v<S, Interval>) {
      ExpectThat(a > 0 && a < 1, "L is on neither face but a = 0 or a = 1");
    } else {
      // Off the faces: a computed farther than its rounding error from 0 and
      // 1 proves 0 < a < 1; nearer (an exact margin below gamma) it is a
      // candidate that intervals decide.
      const double nd = static_cast<double>(l.rows());
      const double err = Gamma(2 * nd * nd + 8, ScalarTraits<S>::UnitRoundoff());
      using std::min;
      static const Tolerance kMargin{
          "a's rounding error gamma_{2N^2+8} against min(a, 1 - a) (a not on a face)", "min(a, 1 - a)",
          "a is computed within gamma_{2N^2+8}; a computed a within that error of 0 or 1 off the faces is a "
          "candidate: intervals certify 0 < a < 1 or refute it", MetricKind::kClaim};
      ExpectWithin<S>(kMargin, S(err), S(min(a, S(1 - a))));
    }
  }
};

struct BcdScaling : ClaimId<"profile.bcd_scaling"> {
  // L square (N >= 1) with S = sym(L) != 0, finite. Double, MPFR: nonzero
  // |entries| in [2^-200, 2^200] (ProfileAdmit). Rationals: rank(S) <= 2,
  // the domain of the exact profile route (ProfileRankTwoExact: the
  // eigenvalues of a rank <= 2 symmetric matrix are exact quadratic
  // irrationals it can evaluate; others it cannot); only the rank(S) <= 2
  // shape 0 is drawn there.
  template <class S> static Domain Hypotheses() {
    Domain d = FaceDomain<S>(kMaxN<S>, ScalarTraits<S>::kExact ? 1 : 5);
    d.Assume("S = sym(L) != 0", [](const Values& v) {
      return !SymmetricPart<Rational>(Mat<Rational>(v[kL].As<Rational>())).isZero();
    });
    if constexpr (ScalarTraits<S>::kExact) {
      d.Assume("(computability) the exact rank <= 2 profile route applies to L and to S", [](const Values& v) {
        const Mat<Rational> l = v[kL].As<Rational>();
        return ProfileRankTwoExact(l).has_value() &&
               ProfileRankTwoExact(Mat<Rational>(SymmetricPart<Rational>(l))).has_value();
      });
    }
    return d;
  }
  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> l = in[kL];
    const Mat<S> s = SymmetricPart<S>(l);
    std::optional<ProfileValue<S>> pl, ps;
    if constexpr (ScalarTraits<S>::kExact) {
      pl = ProfileRankTwoExact(l);
      ps = ProfileRankTwoExact(s);
      RC_PRE(pl.has_value() && ps.has_value());  // stored cases with rank(S) > 2
    } else {
      pl = Profile<S>(l);
      ps = Profile<S>(s);
      ExpectThat(pl.has_value() && ps.has_value(), "eigen-solver did not converge");
    }
    ExpectThat(ps->a == 0, "a_S != 0");
    const S f = 1 - pl->a;
    using std::abs;
    using std::max;  // Interval's (argument-dependent lookup) is the hull
    const S worst = max(max(S(abs(pl->b - f * ps->b)), S(abs(pl->c - f * ps->c))), S(abs(pl->d - f * ps->d)));
    if constexpr (ScalarTraits<S>::kExact) ExpectThat(worst == 0, "(b,c,d) != (1-a)(b_S,c_S,d_S)");
    const double nd = static_cast<double>(l.rows());
    static const Tolerance kScaling{
        "max |(b,c,d) - (1-a)(b_S,c_S,d_S)|", "gamma_{4N^2+12} (0 in rationals)",
        "same spectrum on both sides; 1 - a errs by gamma_{2N^2+6} absolute, b, b_S, ... by gamma_{N^2+3} relative "
        "each, the numerators agree bit for bit; b, c, d, b_S, ... <= 1 and 1 - a <= 1, plus u for 1 - a, "
        "u for the product and u for each division", MetricKind::kRounding};
    ExpectWithin<S>(kScaling, worst, S(Gamma(4 * nd * nd + 12, ScalarTraits<S>::UnitRoundoff())));
  }
};

ATTNPROP_REGISTER(FaceA, double, Mpfr, Interval, Rational);
ATTNPROP_REGISTER(BcdScaling, double, Mpfr, Interval, Rational);

}  // namespace
}  // namespace attnprop
