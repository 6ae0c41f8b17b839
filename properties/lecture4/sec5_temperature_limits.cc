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
// Rounding: s/tau is exact (tau a power of two, s on a grid, no overflow);
// computed p_j have relative error <= gamma_{T+3}; the checker works in MPFR
// from the computed p (its own error below 1e-60).
#include <algorithm>
#include <cmath>

#include "generators/scalars.h"
#include "generators/shape.h"
#include "model/softmax.h"
#include "properties/framework/hypotheses_checks.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace {

template <class S> constexpr int64_t kMaxLen = SizeBudget<S>::Pick(12, 6);

constexpr Axis kLen{"T"}, kOne{"1"};
constexpr MatrixField kScores{"s"};

/// s is T x 1 (T >= 1) with finite entries, drawn on a coarse grid
/// (integers and halves in [-3, 3]) so that ties, hence argmax sets of size
/// > 1, are common. Domain: |s_j| <= 2^900 and nonzero |s_j| >= 2^-900, so
/// that s / tau and s 2^n (tau = 2^-8..2^20, 2^n = 1..64) are exact in
/// double (no overflow, no underflow: the relative rounding model
/// gamma_{T+3} of the computed p needs exact scaled scores).
template <class S>
Domain CoarseScores() {
  Domain d;
  d.Dim(kLen, {1, kMaxLen<S>, kMaxLen<S>}).Dim(kOne, {1, 1, 1}, 1);
  d.Matrix(kScores, kLen, kOne, gen::Dyadic(3, 1), Admit::Within(0x1p900).NonzeroAtLeast(0x1p-900));
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

/// The range R = max s - min s <= 700: the tau -> infinity rate
/// (e^{R/tau} - 1)/T at tau = 1 must be a finite double to be compared
/// (the generator's range is at most 6).
bool RangeWithin700(const Values& v) {
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  for (const Exact& e : v[kScores].data) lo = std::min(lo, e.ToDouble()), hi = std::max(hi, e.ToDouble());
  return hi - lo <= 700;
}

/// Both limits of Rem 5.4 run along coarse scores.
struct CoarseScoresFamily {
  template <class S> static Domain Hypotheses() { return CoarseScores<S>(); }
};

template <class S>
double G(double extra) {
  return Gamma(extra, ScalarTraits<S>::UnitRoundoff());
}

struct TauToZero : CoarseScoresFamily, ClaimId<"lecture4.rem5.4.tau_to_zero"> {
  template <class S> static void Conclusion(const In<S>& in) {
    using std::exp;
    const Vec<S> s = in[kScores].col(0);
    const Eigen::Index t = s.size();
    const S top = s.maxCoeff();
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
    const Mpfr g = has_second ? Mpfr(Mpfr(top) - Mpfr(second)) : Mpfr(0);
    const double tol = G<S>(static_cast<double>(t + 3));
    for (int n = 0; n <= 8; ++n) {
      const S tau = S(std::ldexp(1.0, -n));
      const Vec<S> p = Softmax<S>(Vec<S>(s / tau));
      const Mpfr decay = has_second ? Mpfr(exp(Mpfr(-g / Mpfr(tau)))) : Mpfr(0);
      for (Eigen::Index j = 0; j < t; ++j) {
        const Mpfr pj = p[j];
        // Top weights: |p_j - 1/m| <= (T - m) e^{-g/tau} / m^2; the others: p_j <= e^{-g/tau}.
        const Mpfr lhs = s[j] == top ? Mpfr(abs(pj - Mpfr(1) / Mpfr(double(m)))) : pj;
        const Mpfr rate = s[j] == top ? Mpfr(Mpfr(double(t - m)) * decay / Mpfr(double(m * m))) : decay;
        static const Tolerance kExcess{"|p_j - 1/m| (top j) or p_j (others) against the rate",
                                              "rate + gamma_{T+3}(u)",
                                              "the computed p_j errs by <= gamma_{T+3} p_j (relative); p_j <= 1", MetricKind::kClaim};
        ExpectWithin(kExcess, lhs, Mpfr(rate + tol));
      }
    }
  }
};
ATTNPROP_REGISTER(TauToZero, double, Mpfr);

struct TauToInfinity : CoarseScoresFamily, ClaimId<"lecture4.rem5.4.tau_to_infinity"> {
  template <class S> static Domain Hypotheses() {
    Domain d = CoarseScores<S>();
    d.Assume("R = max s - min s <= 700 (the rate at tau = 1 a finite double)", RangeWithin700);
    return d;
  }

  template <class S> static void Conclusion(const In<S>& in) {
    using std::exp;
    const Vec<S> s = in[kScores].col(0);
    const Eigen::Index t = s.size();
    const Mpfr r = Mpfr(s.maxCoeff()) - Mpfr(s.minCoeff());
    const double tol = G<S>(static_cast<double>(t + 3));
    for (int n = 0; n <= 20; ++n) {
      const S tau = S(std::ldexp(1.0, n));
      const Vec<S> p = Softmax<S>(Vec<S>(s / tau));
      const Mpfr rate = (exp(Mpfr(r / Mpfr(tau))) - 1) / Mpfr(double(t));
      static const Tolerance kExcess{"|p_j - 1/T| against the rate (e^{R/tau}-1)/T",
                                            "rate + gamma_{T+3}(u)",
                                            "the computed p_j errs by <= gamma_{T+3} p_j (relative); p_j <= 1",
                                            MetricKind::kClaim};
      for (Eigen::Index j = 0; j < t; ++j)
        ExpectWithin(kExcess, Mpfr(abs(Mpfr(p[j]) - Mpfr(1) / Mpfr(double(t)))), Mpfr(rate + tol));
    }
  }
};
ATTNPROP_REGISTER(TauToInfinity, double, Mpfr);

struct SaturatedJacobian : ClaimId<"lecture4.rem5.6.saturated_jacobian_vanishes"> {
  template <class S> static Domain Hypotheses() {
    Domain d = CoarseScores<S>();
    d.Assume("a unique argmax", UniqueArgmax);
    return d;
  }

  template <class S> static void Conclusion(const In<S>& in) {
    using std::exp;
    const Vec<S> s = in[kScores].col(0);
    const Eigen::Index t = s.size();
    const S top = s.maxCoeff();
    S second = top;
    bool has_second = false;
    for (Eigen::Index j = 0; j < t; ++j)
      if (s[j] != top && (!has_second || s[j] > second)) second = s[j], has_second = true;
    const double tol = G<S>(static_cast<double>(t + 3));
    for (int n = 0; n <= 6; ++n) {
      const S scale = S(std::ldexp(1.0, n));
      const Vec<Mpfr> p = Softmax<S>(Vec<S>(s * scale)).template cast<Mpfr>();
      const Mat<Mpfr> jac = Mat<Mpfr>(p.asDiagonal()) - p * p.transpose();
      const Mpfr gap = Mpfr(1) - p.maxCoeff();
      static const Tolerance kJacobian{
          "max|diag(p)-pp^T| against 1 - max p", "(1 - max p) + 3 gamma_{T+3}(u)",
          "both sides from the computed p (relative error gamma_{T+3}); entries are products of two p's", MetricKind::kClaim};
      ExpectWithin(kJacobian, Mpfr(jac.cwiseAbs().maxCoeff()), Mpfr(gap + 3 * tol));
      const Mpfr rate = has_second ? Mpfr(Mpfr(double(t - 1)) * exp(Mpfr(-(Mpfr(top) - Mpfr(second)) * Mpfr(scale))))
                                   : Mpfr(0);
      static const Tolerance kTopWeight{
          "1 - max p against (T-1) e^{-2^n g}", "(T-1) e^{-2^n g} + gamma_{T+3}(u)",
          "the top weight 1/(1 + sum_l e^{-(top - s_l)2^n}) has 1 - p_top <= sum_l e^{-2^n g}", MetricKind::kClaim};
      ExpectWithin(kTopWeight, gap, Mpfr(rate + tol));
    }
  }
};
ATTNPROP_REGISTER(SaturatedJacobian, double, Mpfr);

}  // namespace
}  // namespace attnprop
