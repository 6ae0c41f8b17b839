// Section 1 of the Lean-formalised paper on attention functions
// (000_b045eeb287420cf4.txt), the definition of an attention function
// [CATALOG.md reconstruction]: a(x) = sum_j omega_j(x) x_j with omega =
// grad phi o sigma, phi smooth convex, sigma a polynomial score, omega
// simplex-valued; softmax attention (phi = lse) is the main instance.
//
// formal.def.attention_function_softmax_instance
//   For x = (x_1, ..., x_k) in C^k (C = R^m), the bilinear score of the last
//   token as query, sigma(x)_j = <x_k Wq, x_j Wk> (a polynomial map, scale 1),
//   and phi = lse:
//   (1) omega = softmax(sigma(x)) is grad lse at sigma(x): checked against an
//       independent derivative, the central difference (lse(s + h e_j) -
//       lse(s - h e_j)) / 2h (h = 2^-13 double, 2^-40 MPFR), within its
//       truncation bound;
//   (2) omega is in the simplex (omega_j >= 0, sum 1);
//   (3) the softmax attention output (model/attention.h, values V = X) is
//       sum_j omega_j x_j, against the same sum with the difference-quotient
//       weights;
//   (4) phi = lse is convex: midpoint convexity at s = sigma(x) and t = s + w
//       (w drawn), lse((s + t)/2) <= (lse(s) + lse(t))/2; where w is
//       constant (k = 1 included) lse is affine along w (lse(s + c 1) =
//       lse(s) + c) and the equality is checked as an identity.
//   Certified by interval arithmetic: no rounding budget.
//   Generated: k in [1,8] tokens (MPFR 6), m in [1,4], X, Wq, Wk, w in every
//   regime (up to 2^2 x 2). Backends double, MPFR (exp, log).
#include <cmath>
#include <string>
#include <vector>

#include "generators/regime.h"
#include "model/attention.h"
#include "model/softmax.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

/// The difference step h: double 2^-13 (truncation h^2 against rounding/h),
/// MPFR 2^-40; a field of the case, so the certificate evaluates the same h.
template <class S>
double Step() {
  return std::is_same_v<S, double> ? std::ldexp(1.0, -13) : std::ldexp(1.0, -40);
}

/// max |lse'''| along a coordinate: p (1 - p)(1 - 2p) <= 1/(6 sqrt 3).
constexpr double kThirdDerivative = 0.0963;

constexpr Axis kK{"k"}, kM{"m"}, kOne{"1"};
constexpr MatrixField kX{"X"}, kWq{"Wq"}, kWk{"Wk"}, kW{"w"};
constexpr ScalarField kStep{"h"};

template <class S>
struct Scores {
  Mat<S> q, k;  // the query row x_k Wq (1 x m) and the keys X Wk (k x m)
  Vec<S> s;     // s_j = <q, k_j>, sequential sums (model/attention.h's order)
};

template <class S>
Scores<S> ScoresOf(const In<S>& in) {
  const Mat<S> x = in[kX];
  Scores<S> r;
  r.q = Mat<S>(x.row(x.rows() - 1)) * in[kWq];
  r.k = x * in[kWk];
  r.s = Vec<S>(x.rows());
  for (Eigen::Index j = 0; j < x.rows(); ++j) {
    S dot = 0;
    for (Eigen::Index l = 0; l < r.q.cols(); ++l) dot += r.q(0, l) * r.k(j, l);
    r.s[j] = dot;
  }
  return r;
}

struct AttentionFunctionSoftmax : ClaimId<"formal.def.attention_function_softmax_instance"> {
  // Shapes: X k x m, Wq and Wk m x m, w 1 x k (k, m >= 1). Drawn: k up to
  // 8 (MPFR 6), m up to 4, every matrix in every regime (up to 2^2 x 2). Domain
  // where the check is computable in double: k, m <= 16, entries finite
  // with |.| <= 2^8, and max |sigma_j| <= 2^20 (checked in 256-bit MPFR):
  // the scores and exp(s - max) stay finite. h the difference step.
  template <class S> static Domain Hypotheses() {
    const int64_t max_k = SizeBudget<S>::Pick(8, 6);
    gen::Regime r = gen::RegimeFor<S>(gen::Regime{});
    r.max_abs = 2, r.max_scale = 2;
    const Admit entries = Admit::Within(0x1p8);
    Domain d;
    d.Dim(kK, {1, max_k, max_k}, 16).Dim(kM, {1, 4, 4}, 16).Dim(kOne, {1, 1, 1}, 1);
    d.Matrix(kX, kK, kM, r, entries).Matrix(kWq, kM, kM, r, entries).Matrix(kWk, kM, kM, r, entries);
    d.Matrix(kW, kOne, kK, r, entries);
    d.Assume("max_j |sigma(x)_j| <= 2^20 (where the check is computable)", [](const Values& v) {
      MpfrPrecisionScope precise(256);
      const Scores<Mpfr> s = ScoresOf<Mpfr>(In<Mpfr>(v.value()));
      for (Eigen::Index j = 0; j < s.s.size(); ++j)
        if (abs(s.s[j]) > 0x1p20) return false;
      return true;
    });
    d.Built(kStep, [](const Domain::Drawn&) { return Exact(Step<S>()); }, Admit::Within(1).Positive().Doubles());
    return d;
  }
  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> x = in[kX];
    const Scores<S> sc = ScoresOf<S>(in);
    const AttentionResult<S> att = Attention<S>(sc.q, sc.k, x, S(1));
    const Eigen::Index k = x.rows(), m = x.cols();
    const S h = in[kStep];
    // The independent derivative: central differences of lse at step h,
    // within the truncation h^2/6 max|lse'''| of the gradient.
    const S truncation = S(kThirdDerivative / 6) * h * h;
    static const Tolerance kGradient{"|softmax(sigma)_j - (lse(sigma + h e_j) - lse(sigma - h e_j))/2h|",
                                     "0.0161 h^2",
                                     "the difference quotient's truncation h^2/6 max|lse'''|, lse''' <= 1/(6 sqrt 3) "
                                     "(certified by interval arithmetic: no rounding budget)",
                                     MetricKind::kClaim};
    static const Tolerance kSimplex{"|sum_j omega_j - 1|", "0 (an identity)", "certified by interval arithmetic", MetricKind::kRounding};
    static const Tolerance kOutput{"|attention(x)_c - sum_j g_j x_jc| (g: the difference-quotient weights)",
                                   "0.0161 h^2 sum_j |x_jc|", "the weights differ by at most the gradient's bound",
                                   MetricKind::kClaim};
    Vec<S> g(k);
    S total = 0;
    for (Eigen::Index j = 0; j < k; ++j) {
      Vec<S> plus = sc.s, minus = sc.s;
      plus[j] += h, minus[j] -= h;
      g[j] = (LogSumExp<S>(plus) - LogSumExp<S>(minus)) / (2 * h);
      ExpectThat(att.weights(0, j) >= S(0), "omega_" + std::to_string(j) + " < 0: not in the simplex");
      ExpectWithin<S>(kGradient, abs(att.weights(0, j) - g[j]), truncation);
      total += att.weights(0, j);
    }
    ExpectWithin<S>(kSimplex, abs(total - 1), S(0));
    for (Eigen::Index col = 0; col < m; ++col) {
      S reference = 0, colsum = 0;
      for (Eigen::Index j = 0; j < k; ++j) reference += g[j] * x(j, col), colsum += abs(x(j, col));
      ExpectWithin<S>(kOutput, abs(att.out(0, col) - reference), S(truncation * colsum));
    }
    // (4) phi = lse convex, at s and t = s + w (header).
    const Vec<S> w = in[kW].row(0).transpose();
    const S mid = LogSumExp<S>(Vec<S>(sc.s + w / S(2)));
    const S ends = (LogSumExp<S>(sc.s) + LogSumExp<S>(Vec<S>(sc.s + w))) / 2;
    const ExactMatrix w_exact = in.exact(kW);
    bool constant = true;
    for (Eigen::Index j = 1; j < k; ++j) constant = constant && w_exact(0, j).ToRational() == w_exact(0, 0).ToRational();
    static const Tolerance kConvex{"lse((s + t)/2)", "(lse(s) + lse(t))/2",
                                   "phi = lse is convex (the definition's hypothesis on phi); certified by interval "
                                   "arithmetic",
                                   MetricKind::kClaim};
    static const Tolerance kAffine{"|lse(s + w/2) - (lse(s) + lse(s + w))/2| (w constant)", "0 (an identity)",
                                   "lse(s + c 1) = lse(s) + c; certified by interval arithmetic", MetricKind::kRounding};
    if (constant) ExpectWithin<S>(kAffine, abs(mid - ends), S(0));
    else ExpectWithin<S>(kConvex, mid, ends);
  }
};

ATTNPROP_REGISTER(AttentionFunctionSoftmax, double, Mpfr, Interval);

}  // namespace
}  // namespace attnprop
