// Profiles of rank-one matrices (001_4e20808ed1137a14.txt, the statements
// "If L has rank one and unit norm ..." and "For N >= 2 the set of profiles
// of rank-one matrices is Theta ..."); pi(L) = (a, b, c, d) as in
// model/profile.h (CATALOG.md reconstruction).
//
// profile.rank_one_formula
//   Statement: if L has rank one and unit (Frobenius) norm, then with
//   t = tr(L), pi(L) = ((1 - t^2)/2, (1 - t^2)/2, t_+^2, t_-^2).
//   Hypotheses: rank L = 1, ||L||_F = 1. Generated exactly: L = u w^T with
//   u, w rational unit vectors (inverse stereographic projection, dense in
//   the sphere) of points p, q drawn in every regime (gen::Layout: scales
//   2^-20..2^6, short to full-mantissa entries, structures), N in [1,6]
//   (MPFR, rational: [1,4]).
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
// Backends: double, MPFR (Eigen's SelfAdjointEigenSolver on Mat<Mpfr>),
// rational (exact rank <= 2 route).
#include <algorithm>

#include "generators/regime.h"
#include "generators/scalars.h"
#include "properties/framework/property.h"
#include "properties/profile/profile_checks.h"

namespace attnprop {
namespace {

template <class S>
constexpr int64_t kMaxN = SizeBudget<S>::Pick(6, 4);

template <class S>
std::optional<ProfileValue<S>> ComputeProfile(const Mat<S>& l) {
  if constexpr (ScalarTraits<S>::kExact) return ProfileRankTwoExact(l);
  else return Profile<S>(l);
}

template <class S>
S MaxCoordDiff(const ProfileValue<S>& p, const ProfileValue<S>& q) {
  using std::abs;
  return std::max({S(abs(p.a - q.a)), S(abs(p.b - q.b)), S(abs(p.c - q.c)), S(abs(p.d - q.d))});
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

struct RankOneFormulaClaim {
  static constexpr const char* kId = "profile.rank_one_formula";

  static inline const Tolerance kFormula{
      "max_coord |pi(L) - formula|", "ProfileCoordinateBound(N, u, u) (0 in rationals)",
      "eigen-solver backward error p(N)u with p(N) = 4N^2 + 8, plus the rounding of the rational L "
      "(relative u), propagated through the 1-Lipschitz sorted spectrum (profile_checks.h)"};
  static std::vector<Tolerance> Tolerances() { return {kFormula}; }

  // L square (N >= 1), rank one, ||L||_F = 1 (exact). Double, MPFR:
  // nonzero |entries| in [2^-200, 2^200] (ProfileDomain).
  template <class S>
  static bool HypothesesHold(const Case& c) {
    const ExactMatrix& le = c.GetMatrix("L");
    if (le.rows != le.cols || le.rows < 1 || !ProfileDomain<S>(le, 0x1p200)) return false;
    const Mat<Rational> l = c.GetMat<Rational>("L");
    Eigen::FullPivLU<Mat<Rational>> lu(l);
    return lu.rank() == 1 && FrobeniusSq<Rational>(l) == 1;
  }

  template <class S>
  static rc::Gen<Case> Hypotheses() {
    // p, q (1 x N, the first N - 1 entries used) in every regime on one axis
    // N: tiny p puts u near -e_N, huge p near +e_N, full mantissas give u
    // and L long rationals (rounded once for double: the budgeted u).
    gen::Layout layout;
    const int one = layout.Axis({1, 1, 1}), n_axis = layout.Axis({1, kMaxN<S>, kMaxN<S>});
    const gen::Regime regime = gen::RegimeFor<S>(gen::Regime{});
    const int p_m = layout.Matrix(one, n_axis, regime), q_m = layout.Matrix(one, n_axis, regime);
    const int neg_u_s = layout.Scalar(gen::UniformInteger(0, 1)), neg_w_s = layout.Scalar(gen::UniformInteger(0, 1));
    return layout.Build<Case>([=](const gen::Layout::Drawn& d) {
      const int64_t n = d.Dim(n_axis);
      const Vec<Rational> u = RationalUnitVector(d.Matrix(p_m), n, d.Scalar(neg_u_s).ToDouble() != 0),
                          w = RationalUnitVector(d.Matrix(q_m), n, d.Scalar(neg_w_s).ToDouble() != 0);
      return Case().Matrix("L", ToExact(Mat<Rational>(u * w.transpose())));
    });
  }

  template <class S>
  static void Conclusion(const Case& c) {
    const Mat<S> l = c.GetMat<S>("L");
    const ProfileValue<Rational> formula = RankOneFormula(c.GetMat<Rational>("L").trace());
    const auto pi = ComputeProfile<S>(l);
    ExpectThat(pi.has_value(), "no profile: eigen-solver failed or rank(sym L) > 2");
    const double u = ScalarTraits<S>::UnitRoundoff();
    if constexpr (ScalarTraits<S>::kExact)
      ExpectThat(MaxCoordDiff<S>(*pi, formula) == 0,
                 "pi(L) = " + ProfileText(*pi) + " != formula " + ProfileText(formula));
    ExpectWithin(kFormula, ToDouble(MaxCoordDiff<S>(*pi, ToBackend<S>(formula))),
                 ProfileCoordinateBound(l.rows(), u, u));
  }
};

struct RankOneSetClaim {
  static constexpr const char* kId = "profile.rank_one_set";

  static inline const Tolerance kOffTheta{
      "pi(x y^T) off Theta: max(|a-b|, min(c,d), |sum-1|)", "2 ProfileCoordinateBound(N, u, 0)",
      "x y^T is exact in every backend (short dyadics); each coordinate errs <= the eigen-solver bound "
      "of profile_checks.h; a difference or a sum of two coordinates doubles it"};
  static inline const Tolerance kWitness{
      "max_coord |pi(witness) - target|", "ProfileCoordinateBound(N, u, 2u) (0 in rationals)",
      "the witness's entries t, s are rounded (rational t, s: one rounding; sqrt route: sqrt of an "
      "exact 1-2a or 2a, one rounding): relative input error <= 2u"};
  static std::vector<Tolerance> Tolerances() { return {kOffTheta, kWitness}; }

  template <class S>
  static rc::Gen<Case> Hypotheses() {
    // x, y (1 x N) in every regime with at most 26-bit significands (the
    // domain below), on one axis N; m in [0, 1] covers t in [0, 1]; a in [0, 1/2].
    gen::Layout layout;
    const int one = layout.Axis({1, 1, 1}), n_axis = layout.Axis({1, kMaxN<S>, kMaxN<S>});
    gen::Regime regime;
    regime.full_bits = 26;
    regime.structured = false;  // a rank-one x would have 52-bit entries
    const int x_m = layout.Matrix(one, n_axis, regime), y_m = layout.Matrix(one, n_axis, regime);
    const int m_s = layout.Scalar(gen::Uniform(0, 1)), a_s = layout.Scalar(gen::Uniform(0, 0.5));
    const int side_s = layout.Scalar(gen::UniformInteger(0, 1));
    return layout.Build<Case>([=](const gen::Layout::Drawn& d) {
      ExactMatrix xs = d.Matrix(x_m), ys = d.Matrix(y_m);
      // x, y != 0 (a rank-one matrix): a zero vector becomes e_1.
      if (std::all_of(xs.data.begin(), xs.data.end(), [](const Exact& e) { return e.ToDouble() == 0; }))
        xs(0, 0) = 1.0;
      if (std::all_of(ys.data.begin(), ys.data.end(), [](const Exact& e) { return e.ToDouble() == 0; }))
        ys(0, 0) = 1.0;
      return Case()
          .Int("N", xs.cols)
          .Matrix("x", xs)
          .Matrix("y", ys)
          .Scalar("m", d.Scalar(m_s))
          .Scalar("a_target", d.Scalar(a_s))
          .Int("d_side", static_cast<int64_t>(d.Scalar(side_s).ToDouble()));
    });
  }

  // N >= 1, x and y (1 x N) nonzero, m in [0, 1], a_target in [0, 1/2],
  // d_side in {0, 1}; finite. Domain (every backend): x and y entries
  // doubles of at most 26 significant bits with nonzero |entries| in
  // [2^-200, 2^200], so x y^T is exact in double (the tolerance's reason:
  // kOffTheta has no input-rounding term) and its profile's products stay
  // normal; the generator draws 26-bit significands at most.
  static bool ShortEntries(const ExactMatrix& v) {
    if (!hyp::InRange(v, 0x1p-200, 0x1p200)) return false;
    for (const Exact& e : v.data)
      if (!e.IsDouble() || hyp::SignificantBits(e.ToDouble()) > 26) return false;
    return true;
  }
  static bool HypothesesHold(const Case& c) {
    const int64_t n = c.GetInt("N"), d_side = c.GetInt("d_side");
    const ExactMatrix &x = c.GetMatrix("x"), &y = c.GetMatrix("y");
    if (x.rows != 1 || y.rows != 1 || !ShortEntries(x) || !ShortEntries(y) || (d_side != 0 && d_side != 1) ||
        !hyp::Finite(c.GetScalar("m")) || !hyp::Finite(c.GetScalar("a_target")))
      return false;
    auto nonzero = [](const ExactMatrix& v) {
      return std::any_of(v.data.begin(), v.data.end(), [](const Exact& e) { return e.ToRational() != 0; });
    };
    const Rational m = c.Get<Rational>("m"), a = c.Get<Rational>("a_target");
    return n >= 1 && x.cols == n && y.cols == n && nonzero(x) && nonzero(y) && m >= 0 && m <= 1 && a >= 0 &&
           a * 2 <= 1;
  }

  template <class S>
  static void Conclusion(const Case& c) {
    const int64_t n = c.GetInt("N");
    const bool d_side = c.GetInt("d_side") != 0;
    const double u = ScalarTraits<S>::UnitRoundoff();
    const Vec<S> x = c.GetMat<S>("x").row(0).transpose(), y = c.GetMat<S>("y").row(0).transpose();

    // (subset) pi(x y^T) in Theta.
    const auto pi = ComputeProfile<S>(Mat<S>(x * y.transpose()));
    ExpectThat(pi.has_value(), "no profile of x y^T");
    const S one = 1, zero = 0;
    using std::abs;
    ExpectThat(pi->a >= 0 && pi->b >= 0 && pi->c >= 0 && pi->d >= 0, "a coordinate of pi(x y^T) is negative");
    const double on_theta = 2 * ProfileCoordinateBound(n, u, 0);
    if (n == 1) {
      // Only the vertices c = 1 and d = 1.
      const ProfileValue<S> vc{zero, zero, one, zero}, vd{zero, zero, zero, one};
      const S dist = std::min(MaxCoordDiff<S>(*pi, vc), MaxCoordDiff<S>(*pi, vd));
      if constexpr (ScalarTraits<S>::kExact) ExpectThat(dist == 0, "N = 1: pi = " + ProfileText(*pi) + " is no vertex");
      ExpectWithin(kOffTheta, ToDouble(dist), on_theta);
    } else {
      const S miss = std::max({S(abs(pi->a - pi->b)), std::min(pi->c, pi->d), S(abs(pi->a + pi->b + pi->c + pi->d - 1))});
      if constexpr (ScalarTraits<S>::kExact) ExpectThat(miss == 0, "pi(x y^T) = " + ProfileText(*pi) + " not in Theta");
      ExpectWithin(kOffTheta, ToDouble(miss), on_theta);
    }

    // (onto) witnesses.
    const double witness_bound = ProfileCoordinateBound(n, u, 2 * u);
    auto check_witness = [&](const Mat<S>& witness, const ProfileValue<S>& target, const std::string& what) {
      const auto pw = ComputeProfile<S>(witness);
      ExpectThat(pw.has_value(), "no profile of the witness");
      const S miss = MaxCoordDiff<S>(*pw, target);
      if constexpr (ScalarTraits<S>::kExact)
        ExpectThat(miss == 0, what + ": pi(witness) = " + ProfileText(*pw) + " != target " + ProfileText(target));
      ExpectWithin(kWitness, ToDouble(miss), witness_bound);
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
      const Rational m = c.Get<Rational>("m");
      const Rational t = (d_side ? -1 : 1) * (1 - m * m) / (1 + m * m), s = 2 * m / (1 + m * m);
      const ProfileValue<Rational> target{(1 - t * t) / 2, (1 - t * t) / 2, t > 0 ? Rational(t * t) : Rational(0),
                                          t < 0 ? Rational(t * t) : Rational(0)};
      check_witness(witness(Exact(t).As<S>(), Exact(s).As<S>()), ToBackend<S>(target), "rational witness");
    }
    if constexpr (!ScalarTraits<S>::kExact) {  // Any a in [0, 1/2]: t = +-sqrt(1 - 2a), s = sqrt(2a).
      using std::sqrt;
      const S a = c.Get<S>("a_target");
      const S t = (d_side ? S(-1) : S(1)) * S(sqrt(S(1 - 2 * a))), s = sqrt(S(2 * a));
      const S rest = 1 - 2 * a;
      check_witness(witness(t, s), {a, a, d_side ? zero : rest, d_side ? rest : zero}, "sqrt witness");
    }
  }
};

ATTNPROP_REGISTER(RankOneFormulaClaim, double, Mpfr, Rational);
ATTNPROP_REGISTER(RankOneSetClaim, double, Mpfr, Rational);

}  // namespace
}  // namespace attnprop
