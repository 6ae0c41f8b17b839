// attend2.additivity
// Source: 002_ea0019801d84ed2d.txt (Lean: TransformerAttention, proved).
// Statement: for all real s0, s1, v0, v0', v1, v1',
//   attend2(s0, s1, v0 + v0', v1 + v1')
//     = attend2(s0, s1, v0, v1) + attend2(s0, s1, v0', v1'),
// with attend2(s0, s1, v0, v1) = (e^{s0} v0 + e^{s1} v1) / (e^{s0} + e^{s1}).
// Hypotheses: none beyond reality of the arguments.
// Rational backend: exp has no rational value, so the weights e^{s_i} are
// replaced by arbitrary positive rationals w_i (the identity uses nothing
// else about them); this checks the algebraic core exactly.
#include <cmath>

#include "generators/scalars.h"
#include "model/attend2.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace {

/// Finite (a rational always is; a double not inf or NaN) with |x| <= bound
/// and either 0 or |x| >= tiny.
bool FiniteWithin(const Exact& x, double bound, double tiny) {
  const double d = std::abs(x.ToDouble());
  if (x.IsDouble() && !(d <= bound)) return false;
  if (!x.IsDouble()) return true;
  return d == 0 || d >= tiny;
}

struct Attend2Additivity {
  static constexpr const char* kId = "attend2.additivity";

  static inline const Tolerance kDifference{
      "|lhs - rhs|", "gamma_11(u) * max_i(|v_i| + |v_i'|)",
      "each attend2 is 2 products, 1 sum, 1 division on shared weights (gamma_3 of the convex "
      "combination of |v|), the sums v+v' add 1 rounding, the final sum 1, the checker's "
      "difference 1: gamma_4 + gamma_3 + u(1+gamma_3) + u <= gamma_11; weights sum to 1(1+u)"};
  static std::vector<Tolerance> Tolerances() { return {kDifference}; }

  // No hypothesis beyond real arguments (the Lean statement's); the fields
  // of the backend: exact: positive rational weights w0, w1 (exp has no
  // rational value); else scores s0, s1 with |s| <= 2^1000 (s_i - max finite,
  // exp then underflows gracefully), and in every backend values v with
  // |v| <= 2^1000 (v + v' finite), each 0 or |v| >= 2^-900: the budget is
  // absolute, gamma_11 max(|v|+|v'|), and the underflow of e^{s-m} v (<=
  // 2^-1074 per product) must stay below it. The generators draw |s| <=
  // 1000 and multiples of 2^-12 up to 2^20 (rational: positive rationals).
  template <class S>
  static bool HypothesesHold(const Case& c) {
    for (const char* v : {"v0", "v0'", "v1", "v1'"})
      if (!FiniteWithin(c.GetScalar(v), 0x1p1000, 0x1p-900)) return false;
    if constexpr (ScalarTraits<S>::kExact) {
      return FiniteWithin(c.GetScalar("w0"), 0x1p1000, 0) && FiniteWithin(c.GetScalar("w1"), 0x1p1000, 0) &&
             c.Get<Rational>("w0") > 0 && c.Get<Rational>("w1") > 0;
    } else {
      return FiniteWithin(c.GetScalar("s0"), 0x1p1000, 0) && FiniteWithin(c.GetScalar("s1"), 0x1p1000, 0);
    }
  }

  template <class S>
  static rc::Gen<Case> Hypotheses() {
    if constexpr (ScalarTraits<S>::kExact) {
      return rc::gen::apply(
          [](Exact w0, Exact w1, Exact v0, Exact v0p, Exact v1, Exact v1p) {
            return Case().Scalar("w0", w0).Scalar("w1", w1).Scalar("v0", v0).Scalar("v0'", v0p).Scalar("v1", v1).Scalar(
                "v1'", v1p);
          },
          gen::PositiveRational(1000, 97), gen::PositiveRational(1000, 97), gen::Rational(1000, 60),
          gen::Rational(1000, 60), gen::Rational(1000, 60), gen::Rational(1000, 60));
    } else {
      // Scores with a wide dynamic range up to +-1000 (subnormal and tiny
      // magnitudes, the thresholds of exp at 709.78 and -745.13, far past
      // exp's overflow), values up to +-2^20 with fractions: the claim
      // quantifies over all reals.
      return rc::gen::apply(
          [](Exact s0, Exact s1, Exact v0, Exact v0p, Exact v1, Exact v1p) {
            return Case().Scalar("s0", s0).Scalar("s1", s1).Scalar("v0", v0).Scalar("v0'", v0p).Scalar("v1", v1).Scalar(
                "v1'", v1p);
          },
          gen::Wide(1000), gen::Wide(1000), gen::Dyadic(1 << 20, 12), gen::Dyadic(1 << 20, 12),
          gen::Dyadic(1 << 20, 12), gen::Dyadic(1 << 20, 12));
    }
  }

  template <class S>
  static void Conclusion(const Case& c) {
    const S v0 = c.Get<S>("v0"), v0p = c.Get<S>("v0'"), v1 = c.Get<S>("v1"), v1p = c.Get<S>("v1'");
    S lhs, rhs;
    if constexpr (ScalarTraits<S>::kExact) {
      const S w0 = c.Get<S>("w0"), w1 = c.Get<S>("w1");
      lhs = Attend2FromWeights<S>(w0, w1, v0 + v0p, v1 + v1p);
      rhs = Attend2FromWeights<S>(w0, w1, v0, v1) + Attend2FromWeights<S>(w0, w1, v0p, v1p);
      ExpectWithin<S>(kDifference, abs(lhs - rhs), S(0));
    } else {
      const S s0 = c.Get<S>("s0"), s1 = c.Get<S>("s1");
      lhs = Attend2<S>(s0, s1, v0 + v0p, v1 + v1p);
      rhs = Attend2<S>(s0, s1, v0, v1) + Attend2<S>(s0, s1, v0p, v1p);
      // The difference is taken in MPFR (exact for two doubles).
      const Mpfr diff = abs(Mpfr(lhs) - Mpfr(rhs));
      using std::abs;
      const double scale = std::max(ToDouble(abs(v0)) + ToDouble(abs(v0p)), ToDouble(abs(v1)) + ToDouble(abs(v1p)));
      ExpectWithin(kDifference, ToDouble(diff), Gamma(11, ScalarTraits<S>::UnitRoundoff()) * scale);
    }
  }
};

ATTNPROP_REGISTER(Attend2Additivity, double, Mpfr, Rational);

}  // namespace
}  // namespace attnprop
