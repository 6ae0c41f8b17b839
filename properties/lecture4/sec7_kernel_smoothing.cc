// Lecture 4, section 7 "Attention as kernel smoothing"
// (003_dd971a1151775776.txt).
//
// lecture4.sec7.1.uniform_scores_mean (sec 7.1, reconstructed [R])
//   Statement: uniform scores give the mean of the values. Scores are made
//   uniform by a zero query (all <q_i, k_j> = 0), unmasked.
// lecture4.ex7.4.gaussian_kernel_limits (Ex. 7.4, reconstructed [R]: the
//   masked Gaussian positional kernel S_ij = -(i-j)^2/(2h^2), j <= i, CATALOG.md)
//   Statement: h -> 0 gives A -> I, h -> infinity gives the causal running
//   average A_ij = 1/i (1-based). Finite form (0-based rows i, i+1 allowed):
//   along h = 2^-n (n = 0..4): 1 - A_ii <= i e^{-1/(2h^2)};
//   along h = 2^n (n = 0..16): |A_ij - 1/(i+1)| <= (e^{i^2/(2h^2)} - 1)/(i+1).
// lecture4.ex7.4.gaussian_kernel_as_dot_product (Ex. 7 / 7.4, [R]: the
//   displayed queries and keys are elided; this reconstruction uses
//   -(i-j)^2/(2h^2) = (ij - j^2/2)/h^2 - i^2/(2h^2), the last term constant
//   in each row, so softmax ignores it)
//   Statement: 2-d queries q_i = sqrt(2)(i, 1)/h^2 and keys k_j = (j, -j^2/2)
//   with scaled dot-product attention (scale 1/sqrt(d_k), d_k = 2, causal)
//   reproduce the Gaussian weights.
// lecture4.sec7.1.low_temperature_retrieval (sec 7.1 / summary)
//   Statement: at low temperature attention retrieves the value of the
//   highest-scoring key. Finite form along tau = 2^-n (n = 0..8), scores
//   <q, k_j>/tau with a unique top key j*, gap g to the next score:
//   max_l |out_l - v_{j* l}| <= 2 (T-1) e^{-g/tau} max_{j,l} |v_jl|.
// lecture4.sec7.kernel_can_be_asymmetric (sec 7, item 2)
//   Statement (existence): the attention kernel kappa(x_i, x_j) =
//   exp(<x_i W_Q, x_j W_K>/sqrt(d_k)) can be asymmetric (W_Q != W_K).
//   Witness family: X = I_d (rows x_i = e_i), W_Q, W_K on the 2^-3 grid with
//   W_Q W_K^T not symmetric; then kappa(x_i,x_j) != kappa(x_j,x_i) for a pair
//   with (W_Q W_K^T)_ij != (W_Q W_K^T)_ji, certified from the computed values.
#include <cmath>

#include "generators/regime.h"
#include "generators/scalars.h"
#include "generators/shape.h"
#include "model/attention.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

template <class S> constexpr int64_t kMaxLen = SizeBudget<S>::Pick(16, 8);

constexpr Axis kLen{"T"}, kD{"d"}, kDv{"d_v"}, kOne{"1"};
constexpr MatrixField kK{"K"}, kV{"V"}, kQuery{"q"}, kWQ{"W_Q"}, kWK{"W_K"};
constexpr IntField kT{"T"}, kLog2H{"log2 h"};

struct UniformScoresMean : ClaimId<"lecture4.sec7.1.uniform_scores_mean"> {
  // K (T x d), V (T x d_v), T, d, d_v >= 1, K any finite matrix (the
  // queries are 0, so every score is 0 whatever K is). Domain: |v| <= 2^900
  // (the sums stay finite). Drawn in every regime (|entry| <= 2^16).
  template <class S> static Domain Hypotheses() {
    const gen::Regime regime = gen::RegimeFor<S>(gen::Regime{});
    Domain d;
    d.Dim(kLen, {1, kMaxLen<S>, kMaxLen<S>}).Dim(kD, {1, 6, 6}).Dim(kDv, {1, 6, 6});
    d.Matrix(kK, kLen, kD, regime, Admit::Finite());
    d.Matrix(kV, kLen, kDv, regime, Admit::Within(0x1p900));
    return d;
  }

  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> k = in[kK], v = in[kV];
    const Eigen::Index t = k.rows();
    const Mat<S> q = Mat<S>::Zero(3, k.cols());  // three queries, all scores 0
    const Mat<S> out = Attention<S>(q, k, v, S(1)).out;
    for (Eigen::Index i = 0; i < out.rows(); ++i)
      for (Eigen::Index l = 0; l < v.cols(); ++l) {
        static const Tolerance kMean{"|out_il - mean_j v_jl|", "0 (an identity)", "certified by interval arithmetic", MetricKind::kRounding};
        ExpectWithin<S>(kMean, abs(out(i, l) - v.col(l).sum() / S(double(t))), S(0));
      }
  }
};

/// The Gaussian weights of Example 7.4 for bandwidth h (scores exact: h a
/// power of two, (i-j)^2 an integer).
template <class S>
Mat<S> GaussianWeights(Eigen::Index t, const S& h) {
  Mat<S> s(t, t);
  for (Eigen::Index i = 0; i < t; ++i)
    for (Eigen::Index j = 0; j < t; ++j) s(i, j) = -S(double((i - j) * (i - j))) / (2 * h * h);
  Mat<S> a = Mat<S>::Zero(t, t);
  for (Eigen::Index i = 0; i < t; ++i) {
    Vec<S> row = s.row(i).transpose();
    for (Eigen::Index j = i + 1; j < t; ++j) row[j] = -Infinity<S>();
    a.row(i) = Softmax<S>(row).transpose();
  }
  return a;
}

struct GaussianLimits : ClaimId<"lecture4.ex7.4.gaussian_kernel_limits"> {
  // T >= 1. Domain: T <= 256 (the check builds 22 T x T weight matrices:
  // a cost limit); the generator draws T <= 16 (MPFR 8).
  template <class S> static Domain Hypotheses() {
    Domain d;
    d.Int(kT, rc::gen::inRange<int64_t>(1, kMaxLen<S> + 1), 1, 256);
    return d;
  }

  template <class S> static void Conclusion(const In<S>& in) {
    const Eigen::Index t = in[kT];
    using std::exp;
    using std::expm1;
    static const Tolerance kExcess{"1 - A_ii (h -> 0) or |A_ij - 1/(i+1)| (h -> inf) against the rate", "the rate",
                                   "Example 7.4's limits at their rates (certified by interval arithmetic)",
                                   MetricKind::kClaim};
    for (int n = 0; n <= 4; ++n) {  // h -> 0: 1 - A_ii <= i e^{-1/(2h^2)}
      const S h = S(std::ldexp(1.0, -n));
      const Mat<S> a = GaussianWeights<S>(t, h);
      for (Eigen::Index i = 0; i < t; ++i)
        ExpectWithin<S>(kExcess, S(1 - a(i, i)), S(S(double(i)) * exp(S(-1) / (2 * h * h))));
    }
    for (int n = 0; n <= 16; ++n) {  // h -> infinity: |A_ij - 1/(i+1)| <= (e^{i^2/(2h^2)} - 1)/(i+1)
      const S h = S(std::ldexp(1.0, n));
      const Mat<S> a = GaussianWeights<S>(t, h);
      for (Eigen::Index i = 0; i < t; ++i) {
        const S rate = expm1(S(double(i * i)) / (2 * h * h)) / S(double(i + 1));
        for (Eigen::Index j = 0; j <= i; ++j) ExpectWithin<S>(kExcess, abs(a(i, j) - S(1) / S(double(i + 1))), rate);
      }
    }
  }
};

struct GaussianAsDotProduct : ClaimId<"lecture4.ex7.4.gaussian_kernel_as_dot_product"> {
  // T >= 1, h = 2^{log2 h} > 0. Domain: T <= 64 and -4 <= log2 h <= 20 (the
  // scores (ij + j^2/2)/h^2 stay below 2^20 and h^2 a normal double; the
  // generator draws T <= 16, log2 h in -2..4).
  template <class S> static Domain Hypotheses() {
    Domain d;
    d.Int(kT, rc::gen::inRange<int64_t>(1, kMaxLen<S> + 1), 1, 64);
    d.Int(kLog2H, rc::gen::inRange<int64_t>(-2, 5), -4, 20);
    return d;
  }

  template <class S> static void Conclusion(const In<S>& in) {
    using std::sqrt;
    const Eigen::Index t = in[kT];
    const double hd = std::ldexp(1.0, static_cast<int>(in[kLog2H]));
    const S h = S(hd), root2 = sqrt(S(2));
    Mat<S> q(t, 2), k(t, 2);
    for (Eigen::Index i = 0; i < t; ++i) {
      q(i, 0) = root2 * S(double(i)) / (h * h), q(i, 1) = root2 / (h * h);
      k(i, 0) = S(double(i)), k(i, 1) = -S(double(i * i)) / 2;
    }
    const Mat<S> dot = Attention<S>(q, k, Mat<S>::Zero(t, 1), S(1) / root2, Mask::Causal()).weights;
    const Mat<S> gauss = GaussianWeights<S>(t, h);
    for (Eigen::Index i = 0; i < t; ++i)
      for (Eigen::Index j = 0; j < t; ++j) {
        if (j > i) {
          ExpectThat(IsExactlyZero(dot(i, j)) && IsExactlyZero(gauss(i, j)), "weight above the diagonal");
          continue;
        }
        static const Tolerance kWeights{"|A_dot - A_gauss|", "0 (an identity)",
                                        "the dot-product scores equal the Gaussian ones up to a per-row constant, "
                                        "which softmax ignores (certified by interval arithmetic)", MetricKind::kRounding};
        ExpectWithin<S>(kWeights, abs(dot(i, j) - gauss(i, j)), S(0));
      }
  }
};

struct KernelAsymmetric : ClaimId<"lecture4.sec7.kernel_can_be_asymmetric"> {
  static bool NonSymmetric(const ExactMatrix& wq, const ExactMatrix& wk) {
    const Mat<double> m = wq.As<double>() * wk.As<double>().transpose();
    return !(m - m.transpose()).isZero(0);
  }

  // W_Q, W_K (d x d) with W_Q W_K^T not symmetric (the witness's
  // hypothesis; it needs d >= 2, a 1 x 1 product is symmetric). Domain:
  // entries on the 2^-3 grid with |entry| <= 2^3, where the tolerance's
  // products W_Q W_K^T are exact in double (NonSymmetric reads them exactly); the generator draws |entry| <= 2, d in 2..5.
  template <class S> static Domain Hypotheses() {
    const Admit grid = Admit::Within(8).Doubles().OnGrid(0x1p-3);
    Domain d;
    d.Dim(kD, {2, 5, 5});
    // A witness family (existence claim): short dyadics keep W_Q W_K^T exact for NonSymmetric.
    d.Matrix(kWQ, kD, kD, gen::Dyadic(2, 3), grid).Matrix(kWK, kD, kD, gen::Dyadic(2, 3), grid);
    d.Assume("W_Q W_K^T not symmetric (W_Q != W_K)", [](const Values& v) { return NonSymmetric(v[kWQ], v[kWK]); });
    return d;
  }

  template <class S> static void Conclusion(const In<S>& in) {
    using std::exp;
    using std::sqrt;
    const Mat<S> wq = in[kWQ], wk = in[kWK];
    const Eigen::Index d = wq.rows();
    const Mat<S> x = Mat<S>::Identity(d, d);
    const S scale = S(1) / sqrt(S(double(d)));
    const Mat<S> s = MaskedScores<S>(Mat<S>(x * wq), Mat<S>(x * wk), scale, Mask::None());
    const In<Mpfr> exact(in.value());
    const Mat<Mpfr> m = Mat<Mpfr>(exact[kWQ] * exact[kWK].transpose());
    Eigen::Index bi = 0, bj = 0;
    Mpfr best = 0;
    for (Eigen::Index i = 0; i < d; ++i)
      for (Eigen::Index j = 0; j < d; ++j)
        if (abs(Mpfr(m(i, j) - m(j, i))) > best) best = abs(Mpfr(m(i, j) - m(j, i))), bi = i, bj = j;
    // The pair is chosen on the exact products; kappa's values there must
    // differ (decided: in intervals != is certain or undecided).
    const S kij = exp(s(bi, bj)), kji = exp(s(bj, bi));
    ExpectThat(kij != kji, "kappa(x_i,x_j) == kappa(x_j,x_i) although the scores differ");
  }
};

struct LowTemperatureRetrieval : ClaimId<"lecture4.sec7.1.low_temperature_retrieval"> {
  // lhs against rhs (a claim metric): the rate is attained in the limit
  // (T = 2, v_top = -v_other = max|v|: |out - v_top| / rate = 1 / (1 +
  // e^{-g/tau}) -> 1), so the best ratio says how near the search came.

  static bool UniqueTop(const Values& v) {
    const Mat<double> s = v[kK].As<double>() * v[kQuery].As<double>().transpose();
    const double top = s.maxCoeff();
    return (s.array() == top).count() == 1;
  }

  // q (1 x d), K (T x d), V (T x d_v), T, d, d_v >= 1, a unique top score
  // (the claim's hypothesis). Domain: q and K on the 2^-10 grid with |entry|
  // <= 2^10, so the scores <q, k_j> and their power-of-two multiples are
  // exact in double (UniqueTop reads them exactly); |v| <= 2^900. The generator draws q, K on the 2^-2
  // grid, V in every regime, d <= 4, d_v <= 4.
  template <class S> static Domain Hypotheses() {
    const Admit grid = Admit::Within(0x1p10).Doubles().OnGrid(0x1p-10);
    Domain d;
    d.Dim(kLen, {1, kMaxLen<S>, kMaxLen<S>}).Dim(kD, {1, 4, 4}).Dim(kOne, {1, 1, 1}, 1).Dim(kDv, {1, 4, 4});
    // Short dyadics kept for q and K: the rate uses the score gap g, which must be exact in double (the
    // bound is evaluated at the exact gap; a rounded one could be larger than the true gap).
    d.Matrix(kQuery, kOne, kD, gen::Dyadic(2, 2), grid).Matrix(kK, kLen, kD, gen::Dyadic(2, 2), grid);
    d.Matrix(kV, kLen, kDv, gen::RegimeFor<S>(gen::Regime{}), Admit::Within(0x1p900));
    d.Assume("a unique top key", UniqueTop);
    return d;
  }

  template <class S> static void Conclusion(const In<S>& in) {
    using std::exp;
    const Mat<S> q = in[kQuery], k = in[kK], v = in[kV];
    const Eigen::Index t = k.rows();
    const In<Mpfr> exact(in.value());
    const Vec<Mpfr> sc = (exact[kK] * exact[kQuery].transpose()).col(0);
    Eigen::Index top = 0;
    for (Eigen::Index j = 1; j < t; ++j)
      if (sc[j] > sc[top]) top = j;
    Mpfr gap = -1;
    for (Eigen::Index j = 0; j < t; ++j)
      if (j != top && (gap < 0 || sc[top] - sc[j] < gap)) gap = sc[top] - sc[j];
    // The gap is exact in double (grid products), and so is vmax.
    const S g = S(ToDouble(gap)), vmax = v.cwiseAbs().maxCoeff();
    static const Tolerance kRetrieval{
        "|out - v_top|", "2 (T-1) e^{-g/tau} max|v|",
        "|out - v*| <= (1 - a*)|v*| + sum_{j != *} a_j |v_j| <= 2 (1 - a*) max|v|, 1 - a* <= (T-1) e^{-g/tau} "
        "(certified by interval arithmetic)", MetricKind::kClaim};
    // out - v_top is the attention output of the values v_j - v_top (the
    // weights sum to 1): the same number, computed without cancelling
    // v_top, so the intervals stay narrow where the rate is attained.
    Mat<S> shifted = v;
    for (Eigen::Index j = 0; j < t; ++j) shifted.row(j) -= v.row(top);
    for (int n = 0; n <= 8; ++n) {
      const S inv_tau = S(std::ldexp(1.0, n));
      const Mat<S> out = Attention<S>(q, k, shifted, inv_tau).out;
      const S rate = gap < 0 ? S(0) : S(2 * S(double(t - 1)) * exp(S(-g * inv_tau)));
      for (Eigen::Index l = 0; l < v.cols(); ++l) ExpectWithin<S>(kRetrieval, abs(out(0, l)), S(rate * vmax));
    }
  }
};

ATTNPROP_REGISTER(UniformScoresMean, double, Mpfr, Interval);
ATTNPROP_REGISTER(LowTemperatureRetrieval, double, Mpfr, Interval);
ATTNPROP_REGISTER(KernelAsymmetric, double, Mpfr, Interval);
ATTNPROP_REGISTER(GaussianLimits, double, Mpfr, Interval);
ATTNPROP_REGISTER(GaussianAsDotProduct, double, Mpfr, Interval);

}  // namespace
}  // namespace attnprop
