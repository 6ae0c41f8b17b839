// "Only Large Weights (And Not Skip Connections) Can Prevent the Perils of
// Rank Collapse" (004_fc07a226cef95160.txt), Section 5.2, Lemma 5.2.
//
// collapse.lemma5.2.single_head_perturbation
//   X in R^{n x d}, A = softm_1(X), B = X + A (so d = n, as Appendix C notes),
//   ||Res(A)||_inf <= K ||Res(X)||_inf <= eps with K = (e^theta - 1)||W_v1||_inf
//   as in Lemma 5.1 (theta = max_i D_ii of E = beta Res(X) W_1 Res(X)^T, the
//   smallest theta for which E is theta-balanced; beta = 1), g(e) = 2(e^e - 1)
//   => ||softm_2(B) - softm_2(X)||_inf <= 2 g(2 eps).
//   The lemma writes softm_i(X) without saying whether the weights enter
//   (CATALOG.md): this id is the WEIGHTED reading softm_i(X) = softm(X Wq_i
//   Wk_i^T X^T); the id with suffix .plain is the PLAIN reading (row softmax
//   of the matrix itself; K still from W_1 as Lemma 5.1 defines it).
//   Res: column-wise midrange selection (model/res.h).
//   Expected REFUTED in both readings. Weighted: W_1 = 0 makes A = (1/2)11^T
//   exactly, Res(A) = 0; W_v1 = 0 makes K = 0; X = [[1,0],[0,0]], W_2 = I:
//   softm_2 row 1 goes from softmax(1,0) = (0.731,.) to softmax(2.5,1) =
//   (0.818,.), a change 0.087 > 2g(2 eps) = 0.0078 at eps = 2^-10. The proof
//   treats the column shift 1 y^T of Res as if softm were invariant to it
//   (Fact 3.2 is a row shift). Plain: X = [[0,1],[0,1]], A = softm(X) has
//   equal rows (Res(A) = 0), softm(B) row = softmax(0.269,1.731) differs from
//   softmax(0,1) by 0.08.
//   Generated: n = d in [1,4], X and the weights in every regime (Lemma52Case);
//   W_v1 = v I with v chosen so that ||Res A|| <= K||Res X|| (when Res X != 0);
//   eps = K||Res X|| (or ||Res A||) rounded up. The domain's assumption
//   evaluates the hypothesis in 256-bit MPFR. Backends double, MPFR (exp).
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "properties/collapse/collapse_cases.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

using collapse::MaxNorm;

template <class S>
Mat<S> Softm(const Mat<S>& x, const Mat<S>& wq, const Mat<S>& wk, bool weighted) {
  return weighted ? collapse::SoftmW<S>(x, wq, wk, S(1)) : collapse::RowSoftmax<S>(x);
}

constexpr Axis kN{"n"};
constexpr MatrixField kX{"X"}, kW1q{"W1q"}, kW1k{"W1k"}, kW1v{"W1v"}, kW2q{"W2q"}, kW2k{"W2k"};
constexpr ScalarField kEps{"eps"};

/// K ||Res X|| and ||Res A|| of the hypothesis.
template <class S>
std::pair<S, S> HypothesisSides(const In<S>& in, bool weighted) {
  using std::exp;
  const Mat<S> x = in[kX];
  const Mat<S> r = Res<S>(x);
  const Mat<S> e = r * (in[kW1q] * in[kW1k].transpose()) * r.transpose();
  S theta = 0;
  for (Eigen::Index i = 0; i < e.rows(); ++i) theta = std::max(theta, S(e.row(i).maxCoeff() - e.row(i).minCoeff()));
  const S k = S((exp(theta) - 1) * MaxNorm<S>(in[kW1v]));
  const Mat<S> a = Softm<S>(x, in[kW1q], in[kW1k], weighted);
  return {S(k * MaxNorm<S>(r)), MaxNorm<S>(Res<S>(a))};
}

/// v I (n x n).
ExactMatrix ScaledIdentity(int64_t n, double v) {
  ExactMatrix m(n, n);
  for (int64_t a = 0; a < n; ++a)
    for (int64_t b = 0; b < n; ++b) m(a, b) = Exact(a == b ? v : 0.0);
  return m;
}

/// The generator's choice of W_v1 = v I: the sides (in double) at v = 1,
/// from X, W1q, W1k built so far, and v the power of two that makes
/// ||Res A|| <= K ||Res X|| with margin 2 (0 when K = 0 or v >= 10^6).
struct ValueScale {
  double k_unit, res_a, v;
};
ValueScale ChooseValueScale(const Values& so_far, bool weighted) {
  Case probe = so_far.value();
  probe.Matrix("W1v", ScaledIdentity(so_far[kX].rows, 1.0));
  const auto [k_unit, res_a] = HypothesisSides<double>(In<double>(probe), weighted);
  double vscale = 0;
  if (k_unit > 0) vscale = std::ldexp(1.0, int(std::ceil(std::log2(2 * res_a / k_unit + 1e-300))) + 1);
  if (!(vscale < 1e6)) vscale = 0;
  return {k_unit, res_a, vscale};
}

/// X and the weights in every regime on one axis n = d (A = softm_1(X) is
/// n x n and B = X + A needs d = n); X up to 2 and the weights up to 1 at
/// scales 2^-20..2^2 (the domain's 2^8 caps the dominant-entry structure);
/// W_v1 = v I (ChooseValueScale), eps = max(K||Res X||, ||Res A||) rounded
/// up. The lemma's ||Res(A)|| <= K ||Res(X)|| <= eps (in 256-bit MPFR).
/// Domain where the check is computable in double: n <= 16, X, W1q, W1k,
/// W2q, W2k finite with |.| <= 2^8, W1v with |.| <= 2^20 (the generator's
/// value scale stays below 10^6), 0 <= eps <= 150: g(2 eps) = 2(e^{2eps} -
/// 1) finite, the scores (<= n^3 2^34) and budget finite. The generator
/// draws |X| <= 2, |weights| <= 1, n <= 4.
template <class S>
Domain Lemma52Case(bool weighted) {
  gen::Regime xr = gen::RegimeFor<S>(gen::Regime{}), wr = xr;
  xr.max_abs = 2, xr.max_scale = 2, wr.max_scale = 2;
  const Admit entries = Admit::Within(0x1p8);
  Domain d;
  d.Dim(kN, {1, 4, 4}, 16);
  d.Matrix(kX, kN, kN, xr, entries).Matrix(kW1q, kN, kN, wr, entries).Matrix(kW1k, kN, kN, wr, entries);
  d.Built(
      kW1v, kN, kN,
      [weighted](const Domain::Drawn& in) {
        return ScaledIdentity(in.Dim(kN), ChooseValueScale(in.fields(), weighted).v);
      },
      Admit::Within(0x1p20));
  d.Matrix(kW2q, kN, kN, wr, entries).Matrix(kW2k, kN, kN, wr, entries);
  d.Built(
      kEps,
      [weighted](const Domain::Drawn& in) {
        const ValueScale s = ChooseValueScale(in.fields(), weighted);
        const double need = std::max(s.k_unit * s.v, s.res_a);
        return Exact(need * (1 + 0x1p-20) + 0x1p-40);
      },
      Admit::Within(150).Nonnegative());
  d.Assume("||Res(A)|| <= K ||Res(X)|| <= eps", [weighted](const Values& v) {
    MpfrPrecisionScope precise(256);
    const In<Mpfr> in(v.value());
    const auto [k_res_x, res_a] = HypothesisSides<Mpfr>(in, weighted);
    return res_a <= k_res_x && k_res_x <= in[kEps];
  });
  return d;
}

template <class S>
void CheckLemma52(const In<S>& in, bool weighted, const Tolerance& tolerance) {
  const Mat<S> x = in[kX];
  const Mat<S> a = Softm<S>(x, in[kW1q], in[kW1k], weighted);
  const Mat<S> b = x + a;
  const Mat<S> w2q = in[kW2q], w2k = in[kW2k];
  const Mat<S> diff = Softm<S>(b, w2q, w2k, weighted) - Softm<S>(x, w2q, w2k, weighted);
  const S eps = in[kEps];
  // As stated; certified by interval arithmetic (properties/framework/
  // certify.h), so no rounding budget.
  ExpectWithin<S>(tolerance, MaxNorm<S>(diff), S(2 * collapse::G<S>(S(2 * eps))));
}

constexpr const char* kReason = "the lemma as stated";

/// Both readings share the hypotheses and the cases, each in its reading.
template <bool kWeighted>
struct Lemma52Family {
  template <class S> static Domain Hypotheses() { return Lemma52Case<S>(kWeighted); }
};

struct Lemma52Weighted : Lemma52Family<true>, ClaimId<"collapse.lemma5.2.single_head_perturbation"> {
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kDistance{
        "||softm_2(B) - softm_2(X)||_inf", "2 g(2 eps)", kReason, MetricKind::kClaim};
    CheckLemma52<S>(in, true, kDistance);
  }
};

struct Lemma52Plain : Lemma52Family<false>, ClaimId<"collapse.lemma5.2.single_head_perturbation.plain"> {
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kDistance{"||softm(B) - softm(X)||_inf", "2 g(2 eps)", kReason, MetricKind::kClaim};
    CheckLemma52<S>(in, false, kDistance);
  }
};

ATTNPROP_REGISTER(Lemma52Weighted, double, Mpfr, Interval);
ATTNPROP_REGISTER(Lemma52Plain, double, Mpfr, Interval);

}  // namespace
}  // namespace attnprop
