// Section 1 of the Lean-formalised paper on attention functions
// (000_b045eeb287420cf4.txt), homogenisation of QKV transformers with
// positions [CATALOG.md: C^ = C (+) R e, iota(x) = x + e, the bilinear score
// may depend on the pair (query position k, key position j)].
//
// A single-head QKV transformer T: C^l -> C^l (C = R^m) with positions p_j:
// scores sigma_k(x)_j = <Q(x_k + p_k), K(x_j + p_j)> / sqrt(m) for j <= k
// (causal), the head A(x)_k = sum_{j<=k} softmax(sigma_k(x))_j x_j, T_A(x)_i
// = x_i + V A(x)_i, T_M(y)_i = y_i + M y_i (M linear), T = T_M o T_A.
// The homogenised T^ on C^: the bilinear forms
//   B^_{kj}(u + a e, v + b e) = <Q(v + b p_k), K(u + a p_j)> / sqrt(m)
// (key u + a e, query v + b e), as an (m+1) x (m+1) matrix
// [[G, G p_k], [p_j^T G, p_j^T G p_k]] / sqrt(m) with G = K^T Q, the same
// potential (lse), V^ and M^ extended by ignoring e.
//
// formal.thm.homogenization
//   T^(iota x_1, ..., iota x_l) = iota^l(T(x_1, ..., x_l)): the first m
//   coordinates agree up to rounding (both computed, by different routes),
//   the e-coordinate is exactly 1.
// formal.thm.homogenization_scores_off_chart
//   sigma^_k(u + alpha e)_j = sigma_k(x)_j with x_j = u_j + (alpha_j - 1) p_j
//   for every u, alpha (off the chart C + e), so the homogenised weights are
//   softmax of a real vector: in the simplex everywhere.
// Generated: l in [1,5] tokens (MPFR 4), m in [1,3], X, P, Q, K, V, M, U and
// alpha in every regime (up to 2^2 x 2). Backends double, MPFR.
#include <cmath>
#include <string>
#include <vector>

#include "generators/regime.h"
#include "model/softmax.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

constexpr Axis kL{"l"}, kM{"m"}, kOne{"1"};
constexpr MatrixField kX{"X"}, kP{"P"}, kU{"U"}, kQ{"Q"}, kK{"K"}, kV{"V"}, kMap{"M"}, kAlpha{"alpha"};

template <class S>
Vec<S> RowOf(const Mat<S>& a, Eigen::Index i) {
  return a.row(i).transpose();
}

/// B^_{kj} as an (m+1) x (m+1) matrix (key index first).
template <class S>
Mat<S> Bhat(const Mat<S>& g, const Vec<S>& pk, const Vec<S>& pj, const S& beta) {
  const Eigen::Index m = g.rows();
  Mat<S> b(m + 1, m + 1);
  b.topLeftCorner(m, m) = g;
  b.topRightCorner(m, 1) = g * pk;
  b.bottomLeftCorner(1, m) = pj.transpose() * g;
  b(m, m) = S(pj.dot(g * pk));
  return Mat<S>(b * beta);
}

template <class S>
Vec<S> Hat(const Vec<S>& u, const S& a) {
  Vec<S> h(u.size() + 1);
  h.head(u.size()) = u;
  h[u.size()] = a;
  return h;
}

/// sigma_k(x)_j = <Q(x_k + p_k), K(x_j + p_j)> beta, j = 0..k.
template <class S>
Vec<S> Sigma(const Mat<S>& x, const Mat<S>& p, const Mat<S>& q, const Mat<S>& k, const S& beta, Eigen::Index kk) {
  const Vec<S> qv = q * Vec<S>(RowOf(x, kk) + RowOf(p, kk));
  Vec<S> s(kk + 1);
  for (Eigen::Index j = 0; j <= kk; ++j) s[j] = S(qv.dot(k * Vec<S>(RowOf(x, j) + RowOf(p, j))) * beta);
  return s;
}

/// T(x) (l x m).
template <class S>
Mat<S> Transformer(const In<S>& in) {
  const Mat<S> x = in[kX], p = in[kP], q = in[kQ], k = in[kK], v = in[kV], mm = in[kMap];
  const S beta = S(1 / sqrt(S(double(x.cols()))));
  Mat<S> t(x.rows(), x.cols());
  for (Eigen::Index kk = 0; kk < x.rows(); ++kk) {
    const Vec<S> w = Softmax<S>(Sigma<S>(x, p, q, k, beta, kk));
    Vec<S> a = Vec<S>::Zero(x.cols());
    for (Eigen::Index j = 0; j <= kk; ++j) a += w[j] * RowOf(x, j);
    const Vec<S> y = RowOf(x, kk) + v * a;
    t.row(kk) = (y + mm * y).transpose();
  }
  return t;
}

/// T^(iota x) (l x (m+1)).
template <class S>
Mat<S> Homogenized(const In<S>& in) {
  const Mat<S> x = in[kX], p = in[kP], q = in[kQ], k = in[kK], v = in[kV], mm = in[kMap];
  const Eigen::Index m = x.cols();
  const S beta = S(1 / sqrt(S(double(m))));
  const Mat<S> g = k.transpose() * q;
  Mat<S> vh = Mat<S>::Zero(m + 1, m + 1), mh = Mat<S>::Zero(m + 1, m + 1);
  vh.topLeftCorner(m, m) = v, mh.topLeftCorner(m, m) = mm;
  Mat<S> t(x.rows(), m + 1);
  for (Eigen::Index kk = 0; kk < x.rows(); ++kk) {
    const Vec<S> xk = Hat<S>(RowOf(x, kk), S(1));
    Vec<S> s(kk + 1);
    for (Eigen::Index j = 0; j <= kk; ++j) {
      const Vec<S> xj = Hat<S>(RowOf(x, j), S(1));
      s[j] = S(xj.dot(Bhat<S>(g, RowOf(p, kk), RowOf(p, j), beta) * xk));
    }
    const Vec<S> w = Softmax<S>(s);
    Vec<S> a = Vec<S>::Zero(m + 1);
    for (Eigen::Index j = 0; j <= kk; ++j) a += w[j] * Hat<S>(RowOf(x, j), S(1));
    const Vec<S> y = xk + vh * a;
    t.row(kk) = (y + mh * y).transpose();
  }
  return t;
}

constexpr const char* kScoreReason =
    "each score is the same sum of (m+1)^2 products grouped differently on the two sides (B^ from G = K^T Q "
    "and G p; Q(x+p) . K(x+p))";

struct HomogenizationFamily {
  // Shapes: X, P (and U) l x m, Q, K, V, M m x m, alpha 1 x l (l, m >= 1).
  // Drawn: l up to 5 (MPFR 4), m up to 3, every matrix in every regime (up
  // to 2^2 x 2). Domain where the check is computable in double: l, m <=
  // 16, entries finite with |.| <= 2^8 (scores <= 16^2 2^40, softmax
  // subtracts the max).
  template <class S> static Domain Hypotheses() {
    const int64_t max_l = SizeBudget<S>::Pick(5, 4);
    gen::Regime r = gen::RegimeFor<S>(gen::Regime{});
    r.max_abs = 2, r.max_scale = 2;
    const Admit entries = Admit::Within(0x1p8);
    Domain d;
    d.Dim(kL, {1, max_l, max_l}, 16).Dim(kM, {1, 3, 3}, 16).Dim(kOne, {1, 1, 1}, 1);
    for (const MatrixField f : {kX, kP, kU}) d.Matrix(f, kL, kM, r, entries);
    for (const MatrixField f : {kQ, kK, kV, kMap}) d.Matrix(f, kM, kM, r, entries);
    d.Matrix(kAlpha, kOne, kL, r, entries);
    return d;
  }
};

struct Homogenization : HomogenizationFamily, ClaimId<"formal.thm.homogenization"> {
  // Identities, certified by interval arithmetic: no rounding budget.
  template <class S> static void Conclusion(const In<S>& in) {
    using std::abs;
    const Mat<S> t = Transformer<S>(in), th = Homogenized<S>(in);
    const Eigen::Index l = t.rows(), m = t.cols();
    static const Tolerance kECoordinate{"|e-coordinate of T^(iota x)_k - 1|", "0 (an identity)",
                                        "certified by interval arithmetic", MetricKind::kRounding};
    static const Tolerance kAgree{"|T^(iota x)_kc - T(x)_kc| (c < m)", "0 (an identity)",
                                  std::string(kScoreReason) + " (certified by interval arithmetic)", MetricKind::kRounding};
    for (Eigen::Index kk = 0; kk < l; ++kk) {
      ExpectWithin<S>(kECoordinate, abs(th(kk, m) - 1), S(0));
      for (Eigen::Index col = 0; col < m; ++col) ExpectWithin<S>(kAgree, abs(th(kk, col) - t(kk, col)), S(0));
    }
  }
};

struct ScoresOffChart : HomogenizationFamily, ClaimId<"formal.thm.homogenization_scores_off_chart"> {
  // Identities, certified by interval arithmetic: no rounding budget.
  template <class S> static void Conclusion(const In<S>& in) {
    using std::abs;
    const Mat<S> uu = in[kU], p = in[kP], q = in[kQ], k = in[kK], alpha = in[kAlpha];
    const Eigen::Index l = uu.rows(), m = uu.cols();
    const S beta = S(1 / sqrt(S(double(m))));
    const Mat<S> g = k.transpose() * q;
    Mat<S> x(l, m);
    for (Eigen::Index j = 0; j < l; ++j) x.row(j) = uu.row(j) + S(alpha(0, j) - 1) * p.row(j);
    static const Tolerance kScores{"|sigma^_k(u + alpha e)_j - sigma_k(x)_j|, x_j = u_j + (alpha_j - 1) p_j",
                                   "0 (an identity)", std::string(kScoreReason) + " (certified by interval arithmetic)", MetricKind::kRounding};
    static const Tolerance kSum{"|sum_j w_j - 1| (homogenised weights off the chart)", "0 (an identity)",
                                "certified by interval arithmetic", MetricKind::kRounding};
    for (Eigen::Index kk = 0; kk < l; ++kk) {
      const Vec<S> s = Sigma<S>(x, p, q, k, beta, kk);
      const Vec<S> vk = Hat<S>(RowOf(uu, kk), alpha(0, kk));
      Vec<S> sh(kk + 1);
      for (Eigen::Index j = 0; j <= kk; ++j) {
        sh[j] = S(Hat<S>(RowOf(uu, j), alpha(0, j)).dot(Bhat<S>(g, RowOf(p, kk), RowOf(p, j), beta) * vk));
        ExpectWithin<S>(kScores, abs(S(sh[j] - s[j])), S(0));
      }
      const Vec<S> w = Softmax<S>(sh);
      S total = 0;
      for (Eigen::Index j = 0; j <= kk; ++j) {
        ExpectThat(w[j] >= S(0), "homogenised weight < 0 off the chart");
        total += w[j];
      }
      ExpectWithin<S>(kSum, abs(total - 1), S(0));
    }
  }
};

ATTNPROP_REGISTER(Homogenization, double, Mpfr, Interval);
ATTNPROP_REGISTER(ScoresOffChart, double, Mpfr, Interval);

}  // namespace
}  // namespace attnprop
