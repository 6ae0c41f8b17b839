// Lecture 4, sections 5.1-5.2 (003_dd971a1151775776.txt): temperature limits
// and saturation, as finite statements along explicit sequences with rates.
//
// lecture4.rem5.4.tau_to_zero (Rem 5.4)
//   Statement: as tau -> 0+, softmax(s/tau) -> uniform on M = argmax s.
//   Finite form along tau_n = 2^-n, n = 0..8: with g = max s - (second
//   largest distinct value) and m = |M|,
//     |p_j - 1/m| <= (T - m) e^{-g/tau} / m^2 (j in M),
//     p_j <= e^{-g/tau} (j not in M),
//   so the distance is O(e^{-g/tau}) (0 when m = T).
// lecture4.rem5.4.tau_to_infinity (Rem 5.4)
//   Statement: as tau -> infinity, softmax(s/tau) -> uniform on all T.
//   Finite form along tau_n = 2^n, n = 0..20: with R = max s - min s,
//     |p_j - 1/T| <= (e^{R/tau} - 1) / T, which is O(R / (T tau)).
// lecture4.rem5.6.saturated_jacobian_vanishes (Rem 5.6)
//   Statement: if p tends to a one-hot vector, diag(p) - pp^T tends
//   entrywise to 0. Finite form: max_ij |(diag(p) - pp^T)_ij| <= 1 - max_k p_k
//   (every entry is p_i(1-p_i) or p_i p_j with i or j off the top), along
//   s_n = 2^n s (n = 0..6) with a unique argmax, where 1 - max p <=
//   (T-1) e^{-2^n g}.
// Rounding: s/tau and 2^n s are exact (powers of two, no overflow or
// underflow); no rounding budget: each check is as stated, certified by
// interval arithmetic (a failure in double or MPFR is a candidate the
// intervals decide). Backends double, MPFR, interval.
#include <algorithm>
#include <cmath>

#include "generators/regime.h"
#include "generators/scalars.h"
#include "generators/shape.h"
#include "model/softmax.h"
#include "properties/framework/hypotheses_checks.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

template <class S> constexpr int64_t kMaxLen = SizeBudget<S>::Pick(12, 6);

constexpr Axis kLen{"T"}, kOne{"1"};
constexpr MatrixField kScores{"s"};

/// s is T x 1 (T >= 1) with finite entries, drawn in every regime (scales
/// 2^-20..2^3, a dominant entry to 2^13); its structures (all equal, +-1
/// signs, a zero block) make ties, hence argmax sets of size > 1, common.
/// Domain: |s_j| <= 2^900 and nonzero |s_j| >= 2^-900, so
/// that s / tau and s 2^n (tau = 2^-8..2^20, 2^n = 1..64) are exact in
/// double (no overflow, no underflow).
template <class S>
Domain CoarseScores() {
  Domain d;
  d.Dim(kLen, {1, kMaxLen<S>, kMaxLen<S>}).Dim(kOne, {1, 1, 1}, 1);
  gen::Regime regime = gen::RegimeFor<S>(gen::Regime{});
  regime.max_scale = 3;
  d.Matrix(kScores, kLen, kOne, regime, Admit::Within(0x1p900).NonzeroAtLeast(0x1p-900));
  return d;
}

/// A unique largest score (Rem 5.6's hypothesis), read exactly from the case.
bool UniqueArgmax(const Values& v) {
  const ExactMatrix& s = v[kScores];
  double top = -1e300;
  int count = 0;
  for (const Exact& e : s.data) top = std::max(top, e.ToDouble());
  for (const Exact& e : s.data) count += e.ToDouble() == top ? 1 : 0;
  return count == 1;
}

/// Both limits of Rem 5.4 run along coarse scores.
struct CoarseScoresFamily {
  template <class S> static Domain Hypotheses() { return CoarseScores<S>(); }
};

struct TauToZero : CoarseScoresFamily, ClaimId<"lecture4.rem5.4.tau_to_zero"> {
  // Certified by interval arithmetic: no rounding budget. All scores tied
  // (m = T) make the rate 0 and the claim an identity.
  template <class S> static void Conclusion(const In<S>& in) {
    using std::exp;
    const Vec<S> s = in[kScores].col(0);
    const Eigen::Index t = s.size();
    const S top = s.maxCoeff();  // the scores are exact: comparisons decide
    Eigen::Index m = 0;
    S second = top;
    bool has_second = false;
    for (Eigen::Index j = 0; j < t; ++j) {
      if (s[j] == top) {
        ++m;
      } else if (!has_second || s[j] > second) {
        second = s[j], has_second = true;
      }
    }
    static const Tolerance kExcess{"|p_j - 1/m| (top j) or p_j (others) against the rate",
                                   "(T - m) e^{-g/tau} / m^2 (top j) or e^{-g/tau}",
                                   "Rem 5.4's tau -> 0 limit at its rate (g the gap below the top score)",
                                   MetricKind::kClaim};
    for (int n = 0; n <= 8; ++n) {
      const S tau = S(std::ldexp(1.0, -n));
      const Vec<S> p = Softmax<S>(Vec<S>(s / tau));
      const S decay = has_second ? S(exp(S(-(top - second) / tau))) : S(0);
      for (Eigen::Index j = 0; j < t; ++j) {
        if (s[j] == top)
          ExpectWithin<S>(kExcess, abs(p[j] - S(1) / S(double(m))), S(S(double(t - m)) * decay / S(double(m * m))));
        else
          ExpectWithin<S>(kExcess, p[j], decay);
      }
    }
  }
};
ATTNPROP_REGISTER(TauToZero, double, Mpfr, Interval);

struct TauToInfinity : CoarseScoresFamily, ClaimId<"lecture4.rem5.4.tau_to_infinity"> {
  // Certified by interval arithmetic: no rounding budget (a rate that
  // overflows in double is a candidate the intervals decide). Equal scores
  // (R = 0) make the claim an identity.
  template <class S> static void Conclusion(const In<S>& in) {
    using std::expm1;
    const Vec<S> s = in[kScores].col(0);
    const Eigen::Index t = s.size();
    const S r = s.maxCoeff() - s.minCoeff();  // exact scores: comparisons decide
    static const Tolerance kExcess{"|p_j - 1/T| against the rate (e^{R/tau}-1)/T", "(e^{R/tau}-1)/T",
                                   "Rem 5.4's tau -> infinity limit at its rate (R the range of the scores)",
                                   MetricKind::kClaim};
    for (int n = 0; n <= 20; ++n) {
      const S tau = S(std::ldexp(1.0, n));
      const Vec<S> p = Softmax<S>(Vec<S>(s / tau));
      const S rate = expm1(S(r / tau)) / S(double(t));
      for (Eigen::Index j = 0; j < t; ++j) ExpectWithin<S>(kExcess, abs(p[j] - S(1) / S(double(t))), rate);
    }
  }
};
ATTNPROP_REGISTER(TauToInfinity, double, Mpfr, Interval);

struct SaturatedJacobian : ClaimId<"lecture4.rem5.6.saturated_jacobian_vanishes"> {
  template <class S> static Domain Hypotheses() {
    Domain d = CoarseScores<S>();
    d.Assume("a unique argmax", UniqueArgmax);
    return d;
  }

  // Certified by interval arithmetic: no rounding budget.
  template <class S> static void Conclusion(const In<S>& in) {
    using std::exp;
    using std::max;
    const Vec<S> s = in[kScores].col(0);
    const Eigen::Index t = s.size();
    const S top = s.maxCoeff();  // exact scores: comparisons decide
    S second = top;
    bool has_second = false;
    for (Eigen::Index j = 0; j < t; ++j)
      if (s[j] != top && (!has_second || s[j] > second)) second = s[j], has_second = true;
    static const Tolerance kJacobian{"max|diag(p)-pp^T| against 1 - max p", "1 - max p",
                                     "|p_i(delta_ij - p_j)| <= 1 - max p (rows and columns of a probability vector)",
                                     MetricKind::kClaim};
    static const Tolerance kTopWeight{
        "1 - max p against (T-1) e^{-2^n g}", "(T-1) e^{-2^n g}",
        "the top weight 1/(1 + sum_l e^{-(top - s_l)2^n}) has 1 - p_top <= sum_l e^{-2^n g}", MetricKind::kClaim};
    for (int n = 0; n <= 6; ++n) {
      const S scale = S(std::ldexp(1.0, n));
      const Vec<S> p = Softmax<S>(Vec<S>(s * scale));
      S pmax = p[0], jmax = 0;  // decision-free maxima (max, not comparisons)
      for (Eigen::Index i = 0; i < t; ++i) {
        pmax = max(pmax, p[i]);
        for (Eigen::Index j = 0; j < t; ++j) jmax = max(jmax, S(abs(S((i == j ? p[i] : S(0)) - p[i] * p[j]))));
      }
      const S gap = 1 - pmax;
      ExpectWithin<S>(kJacobian, jmax, gap);
      const S rate = has_second ? S(S(double(t - 1)) * exp(S(-(top - second) * scale))) : S(0);
      ExpectWithin<S>(kTopWeight, gap, rate);
    }
  }
};
ATTNPROP_REGISTER(SaturatedJacobian, double, Mpfr, Interval);

}  // namespace
}  // namespace attnprop
