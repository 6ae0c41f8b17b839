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
//   eps = K||Res X|| (or ||Res A||) rounded up. HypothesesHold evaluates the
//   hypothesis in 256-bit MPFR. Backends double, MPFR (exp).
#include <cmath>
#include <string>

#include "properties/collapse/collapse_cases.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace {

using collapse::MaxNorm;

template <class S>
Mat<S> Softm(const Mat<S>& x, const Mat<S>& wq, const Mat<S>& wk, bool weighted) {
  return weighted ? collapse::SoftmW<S>(x, wq, wk, S(1)) : collapse::RowSoftmax<S>(x);
}

/// K ||Res X|| and ||Res A|| of the hypothesis.
template <class S>
std::pair<S, S> HypothesisSides(const Case& c, bool weighted) {
  using std::exp;
  const Mat<S> x = c.GetMat<S>("X");
  const Mat<S> r = Res<S>(x);
  const Mat<S> e = r * (c.GetMat<S>("W1q") * c.GetMat<S>("W1k").transpose()) * r.transpose();
  S theta = 0;
  for (Eigen::Index i = 0; i < e.rows(); ++i) theta = std::max(theta, S(e.row(i).maxCoeff() - e.row(i).minCoeff()));
  const S k = S((exp(theta) - 1) * MaxNorm<S>(c.GetMat<S>("W1v")));
  const Mat<S> a = Softm<S>(x, c.GetMat<S>("W1q"), c.GetMat<S>("W1k"), weighted);
  return {S(k * MaxNorm<S>(r)), MaxNorm<S>(Res<S>(a))};
}

/// The lemma's ||Res(A)|| <= K ||Res(X)|| <= eps (in 256-bit MPFR); X n x n
/// (d = n), the weights n x n. Domain where the check is computable in
/// double: n <= 16, X, W1q, W1k, W2q, W2k finite with |.| <= 2^8, W1v with
/// |.| <= 2^20 (the generator's value scale stays below 10^6), 0 <= eps <= 150:
/// g(2 eps) = 2(e^{2eps} - 1) finite, the scores (<= n^3 2^34) and budget
/// finite. The generator draws |X| <= 2, |weights| <= 1, n <= 4.
bool Lemma52HypothesesHold(const Case& c, bool weighted) {
  const int64_t n = c.GetMatrix("X").rows;
  if (n < 1 || n > 16 || c.GetMatrix("X").cols != n) return false;
  for (const char* w : {"X", "W1q", "W1k", "W2q", "W2k"})
    if (!collapse::EntriesWithin(c.GetMatrix(w), 0x1p8)) return false;
  if (!collapse::EntriesWithin(c.GetMatrix("W1v"), 0x1p20) || !collapse::ScalarWithin(c.GetScalar("eps"), 150) ||
      c.GetScalar("eps").ToDouble() < 0)
    return false;
  for (const char* w : {"W1q", "W1k", "W1v", "W2q", "W2k"})
    if (c.GetMatrix(w).rows != n || c.GetMatrix(w).cols != n) return false;
  MpfrPrecisionScope precise(256);
  const auto [k_res_x, res_a] = HypothesisSides<Mpfr>(c, weighted);
  return res_a <= k_res_x && k_res_x <= c.Get<Mpfr>("eps");
}

template <class S>
rc::Gen<Case> Lemma52Case(bool weighted) {
  // X and the weights in every regime (gen::Layout) on one axis n = d; X
  // up to 2 and the weights up to 1 at scales 2^-20..2^2 (the domain's 2^8
  // caps the dominant-entry structure).
  gen::Layout layout;
  const int n_axis = layout.Axis({1, 4, 4});
  gen::Regime xr = gen::RegimeFor<S>(gen::Regime{}), wr = xr;
  xr.max_abs = 2, xr.max_scale = 2, wr.max_scale = 2;
  const int x_m = layout.Matrix(n_axis, n_axis, xr), w1q_m = layout.Matrix(n_axis, n_axis, wr),
            w1k_m = layout.Matrix(n_axis, n_axis, wr), w2q_m = layout.Matrix(n_axis, n_axis, wr),
            w2k_m = layout.Matrix(n_axis, n_axis, wr);
  return layout.Build<Case>([=](const gen::Layout::Drawn& d) {
        const int64_t n = d.Dim(n_axis);
        Case c;
        c.Matrix("X", d.Matrix(x_m))
            .Matrix("W1q", d.Matrix(w1q_m))
            .Matrix("W1k", d.Matrix(w1k_m))
            .Matrix("W1v", ExactMatrix(n, n))
            .Matrix("W2q", d.Matrix(w2q_m))
            .Matrix("W2k", d.Matrix(w2k_m));
        // Choose ||W_v1|| = v so that ||Res A|| <= K ||Res X|| with margin 2.
        c.Scalar("eps", Exact(0.0));
        const auto [k_unit, res_a] = [&] {
          ExactMatrix v(n, n);
          for (int64_t a = 0; a < n; ++a)
            for (int64_t b = 0; b < n; ++b) v(a, b) = Exact(a == b ? 1.0 : 0.0);
          Case probe = c;
          probe.Matrix("W1v", v);
          return HypothesisSides<double>(probe, weighted);
        }();
        double vscale = 0;
        if (k_unit > 0) vscale = std::ldexp(1.0, int(std::ceil(std::log2(2 * res_a / k_unit + 1e-300))) + 1);
        if (!(vscale < 1e6)) vscale = 0;
        ExactMatrix v(n, n);
        for (int64_t a = 0; a < n; ++a)
          for (int64_t b = 0; b < n; ++b) v(a, b) = Exact(a == b ? vscale : 0.0);
        c.Matrix("W1v", v);
        const double need = std::max(k_unit * vscale, res_a);
        c.Scalar("eps", Exact(need * (1 + 0x1p-20) + 0x1p-40));
        return c;
  });
}

template <class S>
void CheckLemma52(const Case& c, bool weighted, const Tolerance& tolerance) {
  const Mat<S> x = c.GetMat<S>("X");
  const Mat<S> a = Softm<S>(x, c.GetMat<S>("W1q"), c.GetMat<S>("W1k"), weighted);
  const Mat<S> b = x + a;
  const Mat<S> w2q = c.GetMat<S>("W2q"), w2k = c.GetMat<S>("W2k");
  const Mat<S> diff = Softm<S>(b, w2q, w2k, weighted) - Softm<S>(x, w2q, w2k, weighted);
  const S eps = c.Get<S>("eps");
  const double u = ScalarTraits<S>::UnitRoundoff();
  const double n = double(x.rows());
  const double scores = weighted ? ToDouble(MaxNorm<S>(Mat<S>(b * w2q * w2k.transpose() * b.transpose()))) +
                                       ToDouble(MaxNorm<S>(Mat<S>(x * w2q * w2k.transpose() * x.transpose())))
                                 : ToDouble(MaxNorm<S>(b)) + ToDouble(MaxNorm<S>(x));
  const double bound = ToDouble(S(2 * collapse::G<S>(S(2 * eps)))) + Gamma(4 * n + 12, u) * (2 + 8 * scores);
  ExpectWithin(tolerance, ToDouble(MaxNorm<S>(diff)), bound);
}

constexpr const char* kReason =
    "B = X + A rounds (abs err u||B||) and the scores carry gamma_{2n+2}|.|, moving softm by ~2x that; each "
    "softmax entry errs <= (2 max|score| + n + 3)u; 2g(2eps) carries 4u e^{2eps}";

/// Both readings share the hypotheses and the cases, each in its reading.
template <bool kWeighted>
struct Lemma52Family {
  static bool HypothesesHold(const Case& c) { return Lemma52HypothesesHold(c, kWeighted); }
  template <class S>
  static rc::Gen<Case> Hypotheses() {
    return Lemma52Case<S>(kWeighted);
  }
};

struct Lemma52Weighted : Lemma52Family<true> {
  static constexpr const char* kId = "collapse.lemma5.2.single_head_perturbation";
  static constexpr const char* kSource = "004 Section 5.2, Lemma 5.2 (weighted reading)";
  static inline const Tolerance kDistance{
      "||softm_2(B) - softm_2(X)||_inf", "2 g(2 eps) + gamma_{4n+12} (2 + 8 (max|scores_B| + max|scores_X|))",
      kReason, MetricKind::kClaim};
  static std::vector<Tolerance> Tolerances() { return {kDistance}; }
  template <class S>
  static void Conclusion(const Case& c) {
    CheckLemma52<S>(c, true, kDistance);
  }
};

struct Lemma52Plain : Lemma52Family<false> {
  static constexpr const char* kId = "collapse.lemma5.2.single_head_perturbation.plain";
  static constexpr const char* kSource = "004 Section 5.2, Lemma 5.2 (plain reading: softm_i(X) = softm(X))";
  static inline const Tolerance kDistance{"||softm(B) - softm(X)||_inf",
                                          "2 g(2 eps) + gamma_{4n+12} (2 + 8 (||B|| + ||X||))", kReason,
                                          MetricKind::kClaim};
  static std::vector<Tolerance> Tolerances() { return {kDistance}; }
  template <class S>
  static void Conclusion(const Case& c) {
    CheckLemma52<S>(c, false, kDistance);
  }
};

ATTNPROP_REGISTER(Lemma52Weighted, double, Mpfr);
ATTNPROP_REGISTER(Lemma52Plain, double, Mpfr);

}  // namespace
}  // namespace attnprop
