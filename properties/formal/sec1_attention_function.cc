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
//       lse(s - h e_j)) / 2h in 512-bit MPFR with h = 2^-170;
//   (2) omega is in the simplex (omega_j >= 0 exactly, sum 1 up to rounding);
//   (3) the softmax attention output (model/attention.h, values V = X) is
//       sum_j omega_j x_j, against the same sum with the difference-quotient
//       weights in 512 bits.
//   Generated: k in [1,8] tokens (MPFR 6), m in [1,4], X, Wq, Wk in every
//   regime (up to 2^2 x 2). Backends double, MPFR (exp, log).
#include <cmath>
#include <string>
#include <vector>

#include "generators/regime.h"
#include "model/attention.h"
#include "model/softmax.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace {

constexpr int kReferenceBits = 512;
constexpr double kStepLog2 = -170;  // h = 2^-170

/// max |lse'''| along a coordinate: p (1 - p)(1 - 2p) <= 1/(6 sqrt 3).
constexpr double kThirdDerivative = 0.0963;

/// v as an MPFR value (exact: a double, or an MPFR value of lower precision,
/// fits the 512 bits of the reference).
template <class S>
Mpfr ToMpfr(const S& v) {
  return Mpfr(v);
}

constexpr Axis kK{"k"}, kM{"m"};
constexpr MatrixField kX{"X"}, kWq{"Wq"}, kWk{"Wk"};

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
  // Shapes: X k x m, Wq and Wk m x m (k, m >= 1). Drawn: k up to 8 (MPFR
  // 6), m up to 4, every matrix in every regime (up to 2^2 x 2). Domain
  // where the check is computable in double: k, m <= 16, entries finite
  // with |.| <= 2^8, and max |sigma_j| <= 2^20 (checked in 256-bit MPFR):
  // the scores, budgets and exp(s - max) stay finite, lse(s +- h e_j)
  // distinguishes h at 512 bits.
  template <class S> static Domain Hypotheses() {
    const int64_t max_k = SizeBudget<S>::Pick(8, 6);
    gen::Regime r = gen::RegimeFor<S>(gen::Regime{});
    r.max_abs = 2, r.max_scale = 2;
    const Admit entries = Admit::Within(0x1p8);
    Domain d;
    d.Dim(kK, {1, max_k, max_k}, 16).Dim(kM, {1, 4, 4}, 16);
    d.Matrix(kX, kK, kM, r, entries).Matrix(kWq, kM, kM, r, entries).Matrix(kWk, kM, kM, r, entries);
    d.Assume("max_j |sigma(x)_j| <= 2^20 (where the check is computable)", [](const Values& v) {
      MpfrPrecisionScope precise(256);
      const Scores<Mpfr> s = ScoresOf<Mpfr>(In<Mpfr>(v.value()));
      for (Eigen::Index j = 0; j < s.s.size(); ++j)
        if (abs(s.s[j]) > 0x1p20) return false;
      return true;
    });
    return d;
  }
  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> x = in[kX];
    const Scores<S> sc = ScoresOf<S>(in);
    const AttentionResult<S> att = Attention<S>(sc.q, sc.k, x, S(1));
    const Eigen::Index k = x.rows(), m = x.cols();
    const double u = ScalarTraits<S>::UnitRoundoff();
    // The independent derivative, central differences of lse at 512 bits,
    // and the errors of omega and of the output against it (at 512 bits:
    // S's values convert exactly).
    std::vector<double> grad_err(static_cast<size_t>(k)), out_err(static_cast<size_t>(m)), ref_abs(static_cast<size_t>(m));
    double smax = 0, e_lse = 0;
    {
      MpfrPrecisionScope precise(kReferenceBits);
      const In<Mpfr> precise_in(in.value());
      const Scores<Mpfr> ref = ScoresOf<Mpfr>(precise_in);
      const Mpfr h = ldexp(Mpfr(1), int(kStepLog2));
      const Mat<Mpfr> xr = precise_in[kX];
      Vec<Mpfr> ref_out = Vec<Mpfr>::Zero(m);
      for (Eigen::Index j = 0; j < k; ++j) {
        Vec<Mpfr> plus = ref.s, minus = ref.s;
        plus[j] += h, minus[j] -= h;
        const Mpfr gj = (LogSumExp<Mpfr>(plus) - LogSumExp<Mpfr>(minus)) / (2 * h);
        grad_err[size_t(j)] = ToDouble(Mpfr(abs(Mpfr(ToMpfr(att.weights(0, j)) - gj))));
        for (Eigen::Index col = 0; col < m; ++col) ref_out[col] += gj * xr(j, col);
        smax = std::max(smax, std::abs(ToDouble(ref.s[j])));
      }
      for (Eigen::Index col = 0; col < m; ++col) {
        out_err[size_t(col)] = ToDouble(Mpfr(abs(Mpfr(ToMpfr(att.out(0, col)) - ref_out[col]))));
        ref_abs[size_t(col)] = std::abs(ToDouble(ref_out[col]));
      }
      e_lse = Gamma(double(k) + 8, ScalarTraits<Mpfr>::UnitRoundoff()) * (1 + 2 * smax + std::log(double(k)));
    }
    // delta_s: the scores' rounding in S (q and K each a length-m sum, the
    // dot product another): gamma_{3m+2} sum_l |x_k||Wq|_l (|X||Wk|)_jl.
    const In<double> magnitudes(in.value());
    const Mat<double> ax = magnitudes[kX].cwiseAbs(), awq = magnitudes[kWq].cwiseAbs(),
                      awk = magnitudes[kWk].cwiseAbs();
    const Mat<double> aq = Mat<double>(ax.row(k - 1)) * awq, ak = ax * awk;
    double delta_s = 0;
    for (Eigen::Index j = 0; j < k; ++j) delta_s = std::max(delta_s, (aq * ak.row(j).transpose())(0, 0));
    delta_s *= Gamma(3 * double(m) + 2, u);
    const double h = std::ldexp(1.0, int(kStepLog2));
    const double grad_bound =
        (2 * smax + double(k) + 3) * u + 2 * delta_s + kThirdDerivative / 6 * h * h + e_lse / h;
    double worst = 0;
    S total = 0;
    for (Eigen::Index j = 0; j < k; ++j) {
      ExpectThat(att.weights(0, j) >= 0, "omega_" + std::to_string(j) + " < 0: not in the simplex");
      worst = std::max(worst, grad_err[size_t(j)]);
      total += att.weights(0, j);
    }
    static const Tolerance kGradient{
        "max_j |softmax(sigma)_j - (lse(sigma + h e_j) - lse(sigma - h e_j))/2h|",
        "(2 smax + k + 3)u + 2 delta_s + 0.0161 h^2 + e_lse/h",
        "softmax entries err <= (2 max|s| + k + 3)u; the scores (x_k Wq)(X Wk)^T carry gamma_{3m+2} |x_k||Wq||X||Wk| "
        "(delta_s), which moves softmax entries by <= 2 delta_s; the difference quotient errs h^2/6 max|lse'''| "
        "(lse''' <= 1/(6 sqrt 3)) plus its 512-bit rounding e_lse/h, e_lse = gamma_{k+8}(1 + 2 smax + log k)"};
    ExpectWithin(kGradient, worst, grad_bound);
    static const Tolerance kSimplex{"|sum_j omega_j - 1|", "gamma_{k+3}",
                                           "each omega_j = e_j / sum errs (k + 2)u relative, their sum one more"};
    ExpectWithin(kSimplex, std::abs(ToDouble(S(total - 1))), Gamma(double(k) + 3, u));
    for (Eigen::Index col = 0; col < m; ++col) {
      double colsum = 0, weighted = 0;
      for (Eigen::Index j = 0; j < k; ++j) {
        colsum += std::abs(ToDouble(x(j, col)));
        weighted += std::abs(ToDouble(att.weights(0, j))) * std::abs(ToDouble(x(j, col)));
      }
      static const Tolerance kOutput{
          "max_c |attention(x)_c - sum_j g_j x_jc| (g: the difference-quotient weights)",
          "sum_j |x_jc| (gradient bound) + gamma_{k+1} sum_j omega_j |x_jc|",
          "the weights differ by at most the gradient metric's bound; the weighted sum of k terms gamma_{k+1}"};
      ExpectWithin(kOutput, out_err[size_t(col)], colsum * grad_bound + Gamma(double(k) + 1, u) * weighted);
    }
  }
};

ATTNPROP_REGISTER(AttentionFunctionSoftmax, double, Mpfr);

}  // namespace
}  // namespace attnprop
