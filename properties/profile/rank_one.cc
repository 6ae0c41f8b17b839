// Profiles of rank-one matrices (001_4e20808ed1137a14.txt, the statements
// "If L has rank one and unit norm ..." and "For N >= 2 the set of profiles
// of rank-one matrices is Theta ..."); pi(L) = (a, b, c, d) as in
// model/profile.h (CATALOG.md reconstruction).
//
// profile.rank_one_formula
//   Statement: if L has rank one and unit (Frobenius) norm, then with
//   t = tr(L), pi(L) = ((1 - t^2)/2, (1 - t^2)/2, t_+^2, t_-^2).
//   Hypotheses: rank L = 1, ||L||_F = 1 (the claim's domain). Generated
//   exactly: L = u w^T with u, w rational unit vectors (inverse
//   stereographic projection, dense in the sphere) of points p, q drawn
//   in every regime (gen::Layout: scales 2^-20..2^6, short to
//   full-mantissa entries, structures), N in [1,6] (MPFR, rational: [1,4]).
//   Double and MPFR see L rounded to nearest (input error u, budgeted);
//   the right side is evaluated exactly from the exact t.
//   Rational: exact route, no eigen-solver: rank(sym L) <= 2 gives pi in
//   closed form from tr S, ||S||^2 (model/profile.h, ProfileRankTwoExact).
//   A rational rank-one unit L always has rational eigenvalues (t +- 1)/2.
//
// profile.rank_one_set
//   Statement: for N >= 2 the set of profiles of rank-one matrices is
//   Theta = {a = b, cd = 0} in Delta_3; for N = 1 only the vertices c = 1
//   and d = 1 occur.
//   Checked in both directions from one case:
//   (subset) pi(x y^T) lies in Theta (a = b, min(c, d) = 0, coordinates >= 0,
//     sum 1) for generated nonzero x, y (any norm: pi is scale invariant);
//     for N = 1 it is one of the two vertices.
//   (onto) every generated point of Theta is attained by a constructed
//     witness: for t in [-1, 1] the point (a, a, t_+^2, t_-^2), a = (1-t^2)/2,
//     (all of Theta as t ranges over [-1,1]) by L = e1 (t e1 + s e2)^T,
//     s = sqrt(1 - t^2). Two target families: t = +-(1-m^2)/(1+m^2) with
//     m dyadic (rational s = 2m/(1+m^2): every backend, exact in Q), and, in
//     double and MPFR, a dyadic a in [0, 1/2] with t = +-sqrt(1-2a) (the
//     rational backend cannot hold these witnesses: a rational rank-one unit
//     L has rational t, so a point with irrational sqrt(1-2a) has no
//     rational witness; its rational targets are the dense set above).
//     For N = 1 the witnesses [1] and [-1] attain the two vertices.
// Backends: double, MPFR (Eigen's SelfAdjointEigenSolver on Mat<Mpfr>, its
// error measured against rigorous enclosures: profile_checks.h), rational
// (exact rank <= 2 route); certified by intervals (the spectrum enclosed,
// model/spectral_enclosure.h; an identity there is refuted or undecided,
// and an undecided candidate goes to the exact rank <= 2 route).
#include <algorithm>

#include "generators/regime.h"
#include "generators/scalars.h"
#include "properties/framework/property.h"
#include "properties/profile/profile_checks.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

template <class S> constexpr int64_t kMaxN = SizeBudget<S>::Pick(6, 4);

/// pi(L) with its measured eigenvalue error (profile_checks.h); rationals:
/// the exact rank <= 2 route, no error.
template <class S>
std::optional<MeasuredProfile<S>> ComputeProfile(const Mat<S>& l) {
  if constexpr (ScalarTraits<S>::kExact) {
    const auto p = ProfileRankTwoExact(l);
    if (!p) return std::nullopt;
    return MeasuredProfile<S>{*p, 0};
  } else {
    return ProfileMeasured<S>(l);
  }
}

// max and min found by argument-dependent lookup: Interval's are hulls (a
// comparison of overlapping enclosures would be undecided).
template <class S>
S MaxCoordDiff(const ProfileValue<S>& p, const ProfileValue<S>& q) {
  using std::abs;
  using std::max;
  return max(max(S(abs(p.a - q.a)), S(abs(p.b - q.b))), max(S(abs(p.c - q.c)), S(abs(p.d - q.d))));
}

/// pi of a rank-one unit matrix with trace t, by the formula.
ProfileValue<Rational> RankOneFormula(const Rational& t) {
  const Rational half = (1 - t * t) / 2;
  return {half, half, t > 0 ? Rational(t * t) : Rational(0), t < 0 ? Rational(t * t) : Rational(0)};
}

template <class S>
ProfileValue<S> ToBackend(const ProfileValue<Rational>& p) {
  return {Exact(p.a).As<S>(), Exact(p.b).As<S>(), Exact(p.c).As<S>(), Exact(p.d).As<S>()};
}

constexpr Axis kOne{"1"}, kN{"N"};
constexpr MatrixField kL{"L"};
constexpr IntField kNInt{"N"}, kDSide{"d_side"};
constexpr MatrixField kX{"x"}, kY{"y"};
constexpr ScalarField kM{"m"}, kATarget{"a_target"};

struct RankOneFormulaClaim : ClaimId<"profile.rank_one_formula"> {
  // L square (N >= 1), rank one, ||L||_F = 1 (exact). Double, MPFR:
  // nonzero |entries| in [2^-200, 2^200] (ProfileDomain); rationals: finite.
  // Drawn: p, q (1 x N, the first N - 1 entries used) in every regime on
  // one axis N: tiny p puts u near -e_N, huge p near +e_N, full mantissas
  // give u and L long rationals (rounded once for double: the budgeted u);
  // two signs in {0, 1} negate u, w.
  template <class S> static Domain Hypotheses() {
    const gen::Regime regime = gen::RegimeFor<S>(gen::Regime{});
    const Admit entries = ScalarTraits<S>::kExact ? Admit::Finite() : Admit::Within(0x1p200).NonzeroAtLeast(0x1p-200);
    Domain d;
    d.Dim(kOne, {1, 1, 1}).Dim(kN, {1, kMaxN<S>, kMaxN<S>});
    const int p_m = d.Param(kOne, kN, regime), q_m = d.Param(kOne, kN, regime);
    const int neg_u_s = d.ScalarParam(gen::UniformInteger(0, 1)), neg_w_s = d.ScalarParam(gen::UniformInteger(0, 1));
    d.Built(
        kL, kN, kN,
        [=](const Domain::Drawn& in) {
          const int64_t n = in.Dim(kN);
          const Vec<Rational> u = RationalUnitVector(in.Param(p_m), n, in.ScalarParam(neg_u_s).ToDouble() != 0),
                              w = RationalUnitVector(in.Param(q_m), n, in.ScalarParam(neg_w_s).ToDouble() != 0);
          return ToExact(Mat<Rational>(u * w.transpose()));
        },
        entries);
    d.Assume("rank L = 1 and ||L||_F = 1", [](const Values& v) {
      const Mat<Rational> l = v[kL].As<Rational>();
      Eigen::FullPivLU<Mat<Rational>> lu(l);
      return lu.rank() == 1 && FrobeniusSq<Rational>(l) == 1;
    });
    return d;
  }

  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> l = in[kL];
    const ProfileValue<Rational> formula = RankOneFormula(in.exact(kL).template As<Rational>().trace());
    const auto measured = ComputeProfile<S>(l);
    ExpectThat(measured.has_value(), "no profile: eigen-solver failed or rank(sym L) > 2");
    const ProfileValue<S>& pi = measured->value;
    const double u = ScalarTraits<S>::UnitRoundoff();
    if constexpr (ScalarTraits<S>::kExact)
      ExpectThat(MaxCoordDiff<S>(pi, formula) == 0,
                 "pi(L) = " + ProfileText(pi) + " != formula " + ProfileText(formula));
    static const Tolerance kFormula{
        "max_coord |pi(L) - formula|", "ProfileCoordinateBound(N, u, shift, u) (0 in rationals)",
        "the eigenvalues' error measured against rigorous enclosures (shift), plus the rounding of the "
        "rational L (relative u), propagated through the 1-Lipschitz sorted spectrum (profile_checks.h)",
        MetricKind::kRounding};
    ExpectWithin<S>(kFormula, MaxCoordDiff<S>(pi, ToBackend<S>(formula)),
                    S(ProfileCoordinateBound(l.rows(), u, measured->eig_shift, u)));
  }
};

struct RankOneSetClaim : ClaimId<"profile.rank_one_set"> {
  // N >= 1 (the int field N is the axis's extent), x and y (1 x N) nonzero,
  // m in [0, 1], a_target in [0, 1/2], d_side in {0, 1}; finite. Domain
  // (every backend): x and y entries doubles of at most 26 significant bits
  // with nonzero |entries| in [2^-200, 2^200], so x y^T is exact in double
  // (the tolerance's reason: kOffTheta has no input-rounding term) and its
  // profile's products stay normal. Drawn: x, y in every regime with at most
  // 26-bit significands (a zero vector becomes e_1), on one axis N; m in
  // [0, 1] covers t in [0, 1]; a in [0, 1/2].
  static bool ShortEntries(const ExactMatrix& v) {
    for (const Exact& e : v.data)
      if (!e.IsDouble() || hyp::SignificantBits(e.ToDouble()) > 26) return false;
    return true;
  }
  static bool Nonzero(const ExactMatrix& v) {
    return std::any_of(v.data.begin(), v.data.end(), [](const Exact& e) { return e.ToRational() != 0; });
  }
  template <class S> static Domain Hypotheses() {
    gen::Regime regime;
    regime.full_bits = 26;
    regime.structured = false;  // a rank-one x would have 52-bit entries
    const Admit entries = Admit::Within(0x1p200).NonzeroAtLeast(0x1p-200);
    Domain d;
    d.Dim(kOne, {1, 1, 1}, 1).Dim(kN, {1, kMaxN<S>, kMaxN<S>});
    const int x_m = d.Param(kOne, kN, regime), y_m = d.Param(kOne, kN, regime);
    auto nonzero = [](int param) {
      return [param](const Domain::Drawn& in) {
        ExactMatrix v = in.Param(param);
        if (std::all_of(v.data.begin(), v.data.end(), [](const Exact& e) { return e.ToDouble() == 0; })) v(0, 0) = 1.0;
        return v;
      };
    };
    d.Int(kNInt, kN);
    d.Built(kX, kOne, kN, nonzero(x_m), entries);
    d.Built(kY, kOne, kN, nonzero(y_m), entries);
    d.Scalar(kM, gen::Uniform(0, 1), Admit::Within(1).Nonnegative());
    d.Scalar(kATarget, gen::Uniform(0, 0.5), Admit::Within(0.5).Nonnegative());
    d.Int(kDSide, gen::UniformCount(0, 1), 0, 1);
    d.Assume("(computability) x, y entries doubles of at most 26 significant bits",
             [](const Values& v) { return ShortEntries(v[kX]) && ShortEntries(v[kY]); });
    d.Assume("x != 0 and y != 0", [](const Values& v) { return Nonzero(v[kX]) && Nonzero(v[kY]); });
    return d;
  }

  template <class S> static void Conclusion(const In<S>& in) {
    const int64_t n = in[kNInt];
    const bool d_side = in[kDSide] != 0;
    const double u = ScalarTraits<S>::UnitRoundoff();
    const Vec<S> x = in[kX].row(0).transpose(), y = in[kY].row(0).transpose();

    // (subset) pi(x y^T) in Theta.
    const auto measured = ComputeProfile<S>(Mat<S>(x * y.transpose()));
    ExpectThat(measured.has_value(), "no profile of x y^T");
    const ProfileValue<S>* pi = &measured->value;
    const S one = 1, zero = 0;
    using std::abs;
    ExpectThat(pi->a >= 0 && pi->b >= 0 && pi->c >= 0 && pi->d >= 0, "a coordinate of pi(x y^T) is negative");
    const double on_theta = 2 * ProfileCoordinateBound(n, u, measured->eig_shift, 0);
    static const Tolerance kOffTheta{
        "pi(x y^T) off Theta: max(|a-b|, min(c,d), |sum-1|)", "2 ProfileCoordinateBound(N, u, shift, 0)",
        "x y^T is exact in every backend (short dyadics); each coordinate errs <= the bound of "
        "profile_checks.h with the measured eigenvalue error; a difference or a sum of two coordinates "
        "doubles it", MetricKind::kRounding};
    if (n == 1) {
      // Only the vertices c = 1 and d = 1.
      const ProfileValue<S> vc{zero, zero, one, zero}, vd{zero, zero, zero, one};
      using std::min;
      const S dist = min(MaxCoordDiff<S>(*pi, vc), MaxCoordDiff<S>(*pi, vd));
      if constexpr (ScalarTraits<S>::kExact) ExpectThat(dist == 0, "N = 1: pi = " + ProfileText(*pi) + " is no vertex");
      ExpectWithin<S>(kOffTheta, dist, S(on_theta));
    } else {
      using std::max;
      using std::min;
      const S miss = max(max(S(abs(pi->a - pi->b)), S(min(pi->c, pi->d))), S(abs(pi->a + pi->b + pi->c + pi->d - 1)));
      if constexpr (ScalarTraits<S>::kExact) ExpectThat(miss == 0, "pi(x y^T) = " + ProfileText(*pi) + " not in Theta");
      ExpectWithin<S>(kOffTheta, miss, S(on_theta));
    }

    // (onto) witnesses.
    auto check_witness = [&](const Mat<S>& witness, const ProfileValue<S>& target, const std::string& what) {
      const auto pw = ComputeProfile<S>(witness);
      ExpectThat(pw.has_value(), "no profile of the witness");
      const S miss = MaxCoordDiff<S>(pw->value, target);
      if constexpr (ScalarTraits<S>::kExact)
        ExpectThat(miss == 0,
                   what + ": pi(witness) = " + ProfileText(pw->value) + " != target " + ProfileText(target));
      static const Tolerance kWitness{
          "max_coord |pi(witness) - target|", "ProfileCoordinateBound(N, u, shift, 2u) (0 in rationals)",
          "the witness's entries t, s are rounded (rational t, s: one rounding; sqrt route: sqrt of an "
          "exact 1-2a or 2a, one rounding): relative input error <= 2u", MetricKind::kRounding};
      ExpectWithin<S>(kWitness, miss, S(ProfileCoordinateBound(n, u, pw->eig_shift, 2 * u)));
    };
    if (n == 1) {
      check_witness(Mat<S>::Constant(1, 1, one), {zero, zero, one, zero}, "vertex c = 1");
      check_witness(Mat<S>::Constant(1, 1, S(-1)), {zero, zero, zero, one}, "vertex d = 1");
      return;
    }
    auto witness = [n](const S& t, const S& s) {
      Mat<S> w = Mat<S>::Zero(n, n);
      w(0, 0) = t;
      w(0, 1) = s;
      return w;
    };
    {  // Rational family: t = +-(1-m^2)/(1+m^2), s = 2m/(1+m^2).
      const Rational m = in.exact(kM).ToRational();
      const Rational t = (d_side ? -1 : 1) * (1 - m * m) / (1 + m * m), s = 2 * m / (1 + m * m);
      const ProfileValue<Rational> target{(1 - t * t) / 2, (1 - t * t) / 2, t > 0 ? Rational(t * t) : Rational(0),
                                          t < 0 ? Rational(t * t) : Rational(0)};
      check_witness(witness(Exact(t).As<S>(), Exact(s).As<S>()), ToBackend<S>(target), "rational witness");
    }
    if constexpr (!ScalarTraits<S>::kExact) {  // Any a in [0, 1/2]: t = +-sqrt(1 - 2a), s = sqrt(2a).
      using std::sqrt;
      const S a = in[kATarget];
      const S t = (d_side ? S(-1) : S(1)) * S(sqrt(S(1 - 2 * a))), s = sqrt(S(2 * a));
      const S rest = 1 - 2 * a;
      check_witness(witness(t, s), {a, a, d_side ? zero : rest, d_side ? rest : zero}, "sqrt witness");
    }
  }
};

ATTNPROP_REGISTER(RankOneFormulaClaim, double, Mpfr, Interval, Rational);
ATTNPROP_REGISTER(RankOneSetClaim, double, Mpfr, Interval, Rational);

}  // namespace
}  // namespace attnprop
