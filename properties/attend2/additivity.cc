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
#include "generators/scalars.h"
#include "model/attend2.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

constexpr ScalarField kS0{"s0"}, kS1{"s1"}, kW0{"w0"}, kW1{"w1"}, kV0{"v0"}, kV0p{"v0'"}, kV1{"v1"}, kV1p{"v1'"};

struct Attend2Additivity : ClaimId<"attend2.additivity"> {
  // No hypothesis beyond real arguments (the Lean statement's). Exact
  // backend: positive rational weights w0, w1 (exp has no rational value);
  // else scores s0, s1 with a wide dynamic range up to +-1000 (subnormal and
  // tiny magnitudes, the thresholds of exp at 709.78 and -745.13, far past
  // exp's overflow); values v up to +-2^20 with fractions (rational: signed
  // rationals). Domain where the check is computable: |s|, |v| <= 2^1000
  // (s_i - max and v + v' finite). No rounding budget: the verdict is exact
  // (rationals) or certified (intervals), so tiny and subnormal values are
  // in the domain too.
  template <class S> static Domain Hypotheses() {
    Domain d;
    const Admit wide = Admit::Within(0x1p1000);
    if constexpr (ScalarTraits<S>::kExact) {
      d.Scalar(kW0, gen::PositiveRational(1000, 97), wide.Positive())
          .Scalar(kW1, gen::PositiveRational(1000, 97), wide.Positive());
    } else {
      d.Scalar(kS0, gen::Wide(1000), wide).Scalar(kS1, gen::Wide(1000), wide);
    }
    const Admit value = wide;
    for (const ScalarField v : {kV0, kV0p, kV1, kV1p})
      d.Scalar(v, ScalarTraits<S>::kExact ? gen::Rational(1000, 60) : gen::Dyadic(1 << 20, 12), value);
    return d;
  }

  template <class S> static void Conclusion(const In<S>& in) {
    const S v0 = in[kV0], v0p = in[kV0p], v1 = in[kV1], v1p = in[kV1p];
    S lhs, rhs;
    if constexpr (ScalarTraits<S>::kExact) {
      const S w0 = in[kW0], w1 = in[kW1];
      lhs = Attend2FromWeights<S>(w0, w1, v0 + v0p, v1 + v1p);
      rhs = Attend2FromWeights<S>(w0, w1, v0, v1) + Attend2FromWeights<S>(w0, w1, v0p, v1p);
    } else {
      const S s0 = in[kS0], s1 = in[kS1];
      lhs = Attend2<S>(s0, s1, v0 + v0p, v1 + v1p);
      rhs = Attend2<S>(s0, s1, v0, v1) + Attend2<S>(s0, s1, v0p, v1p);
    }
    // An identity, certified: exactly in rationals; in intervals |lhs - rhs|
    // encloses 0 unless it fails (a double or MPFR difference is a candidate).
    static const Tolerance kDifference{"|lhs - rhs|", "0 (an identity)",
                                       "exact in rationals; certified by interval arithmetic elsewhere", MetricKind::kRounding};
    ExpectWithin<S>(kDifference, abs(lhs - rhs), S(0));
  }
};

ATTNPROP_REGISTER(Attend2Additivity, double, Mpfr, Rational, Interval);

}  // namespace
}  // namespace attnprop
