// Lecture 4, section 2 "One causal self-attention head" (003_dd971a1151775776.txt):
// the score matrix and its rank.
//
// lecture4.prop2.4.score_factorization (Prop 2.4, statement reconstructed [R]
// in CATALOG.md from its proof "K^T = (X W_K)^T = W_K^T X^T")
//   Statement: S = Q K^T / sqrt(d_k) = X W_Q W_K^T X^T / sqrt(d_k).
//   Hypotheses: X (T x d), W_Q, W_K (d x d_k) real; Q = X W_Q, K = X W_K.
// lecture4.prop2.4.score_rank_le_dk (Prop 2.4)
//   Statement: rank(Q K^T) <= d_k (S factors through R^{d_k}).
//   Hypotheses: as above; checked exactly (rationals, FullPivLU rank), with
//   T and d often larger than d_k so the bound is below min(T, T).
// lecture4.rem2.5.softmax_can_raise_rank (Rem 2.5, Ex. 8)
//   Statement (existence): there are T > d_k with
//   rank softmax_row(Q K^T) > d_k.
//   Witness family: d_k = 1, T = 2, q_i = k_i = x_i with x_1 != x_2. Then
//   Q K^T = x x^T has rank <= 1 = d_k, while A = softmax_row(x x^T) has
//   det A = A_11 + A_22 - 1 = (1 - e^{-(x_1-x_2)^2}) / ((1+e^{x_1(x_2-x_1)})
//   (1+e^{x_2(x_1-x_2)})) != 0, rank 2. The property certifies det A != 0
//   from the computed weights with a derived error bound, for every drawn
//   witness (x on the 2^-3 grid, |x| <= 2, x_1 != x_2).
#include <cmath>

#include <Eigen/LU>

#include "generators/regime.h"
#include "generators/scalars.h"
#include "generators/shape.h"
#include "model/attention.h"
#include "properties/framework/hypotheses_checks.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace {

template <class S>
constexpr int64_t kMaxLen = SizeBudget<S>::Pick(12, 6);
template <class S>
constexpr int64_t kMaxWidth = SizeBudget<S>::Pick(8, 4);

/// X, W_Q, W_K in every regime (gen::Layout); d_k drawn 1..kMaxWidth-1 so
/// it is often smaller than T and d (where the rank bound says something).
template <class S>
rc::Gen<Case> ProjectionCase() {
  gen::Layout layout;
  const int len = layout.Axis({1, kMaxLen<S>, kMaxLen<S>}), width = layout.Axis({1, kMaxWidth<S>, kMaxWidth<S>}),
            dk = layout.Axis({1, kMaxWidth<S> - 1, kMaxWidth<S> - 1});
  const gen::Regime regime = gen::RegimeFor<S>(gen::Regime{});
  const int x = layout.Matrix(len, width, regime), wq = layout.Matrix(width, dk, regime),
            wk = layout.Matrix(width, dk, regime);
  return layout.Build<Case>([=](const gen::Layout::Drawn& d) {
    return Case()
        .Matrix("X", d.Matrix(x))
        .Matrix("W_Q", d.Matrix(wq))
        .Matrix("W_K", d.Matrix(wk))
        .Scalar("scale", 1.0 / std::sqrt(static_cast<double>(d.Dim(dk))));
  });
}

/// Both claims of Prop 2.4 share the projections' hypotheses and cases.
struct ProjectionFamily {
  // X (T x d), W_Q, W_K (d x d_k), T, d, d_k >= 1, finite entries, scale
  // c > 0 (the claim's 1/sqrt(d_k); the bound is written with c, not |c|).
  // Domain (double, MPFR; rationals are exact): |entries| <= 2^200 and
  // nonzero |entries| >= 2^-200, |scale| in [2^-100, 2^100] (or 0): every
  // product of four entries and the scale stays in double's normal range,
  // where the relative rounding model of the bound (Higham 3.5) holds.
  static bool HypothesesHold(const Case& c) {
    const ExactMatrix &x = c.GetMatrix("X"), &wq = c.GetMatrix("W_Q"), &wk = c.GetMatrix("W_K");
    const Exact& scale = c.GetScalar("scale");
    if (x.rows < 1 || x.cols < 1 || wq.rows != x.cols || wq.cols < 1 || !hyp::Shape(wk, wq.rows, wq.cols))
      return false;
    for (const ExactMatrix* m : {&x, &wq, &wk}) {
      if (!hyp::AllWithin(*m, 0x1p200)) return false;
      for (const Exact& e : m->data)
        if (e.ToDouble() != 0 && std::fabs(e.ToDouble()) < 0x1p-200) return false;
    }
    const double cs = std::fabs(scale.ToDouble());
    return hyp::Finite(scale) && scale.ToDouble() > 0 && cs >= 0x1p-100 && cs <= 0x1p100;
  }
  template <class S>
  static rc::Gen<Case> Hypotheses() {
    return ProjectionCase<S>();
  }
};

struct ScoreFactorization : ProjectionFamily {
  static constexpr const char* kId = "lecture4.prop2.4.score_factorization";

  static inline const Tolerance kEntry{
      "|c QK^T - c X(W_Q W_K^T)X^T|_ij", "2 gamma_{2d+d_k+1}(u) c (|X||W_Q||W_K|^T|X|^T)_ij",
      "each side is a product of four factors with inner sizes d, d_k, d (in either association) "
      "and one scaling: |fl - exact| <= gamma_{2d+d_k+1} c M entrywise (Higham 3.5); the difference "
      "of the two sides is at most twice that (0 in rationals)"};
  static std::vector<Tolerance> Tolerances() { return {kEntry}; }

  template <class S>
  static void Conclusion(const Case& c) {
    const Mat<S> x = c.GetMat<S>("X"), wq = c.GetMat<S>("W_Q"), wk = c.GetMat<S>("W_K");
    const S scale = c.Get<S>("scale");
    const Mat<S> q = x * wq, k = x * wk;
    const Mat<S> lhs = scale * Mat<S>(q * k.transpose());
    const Mat<S> g = wq * wk.transpose();
    const Mat<S> rhs = scale * Mat<S>(Mat<S>(x * g) * x.transpose());
    const Mat<Mpfr> xa = c.GetMat<Mpfr>("X").cwiseAbs(), qa = c.GetMat<Mpfr>("W_Q").cwiseAbs(),
                    ka = c.GetMat<Mpfr>("W_K").cwiseAbs();
    const Mat<Mpfr> m = Mat<Mpfr>(Mat<Mpfr>(xa * qa) * ka.transpose()) * xa.transpose();
    const double gam = Gamma(static_cast<double>(2 * x.cols() + wq.cols() + 1), ScalarTraits<S>::UnitRoundoff());
    const double cs = ToDouble(c.Get<Mpfr>("scale"));
    for (Eigen::Index i = 0; i < lhs.rows(); ++i)
      for (Eigen::Index j = 0; j < lhs.cols(); ++j)
        ExpectWithin(kEntry, ToDouble(Mpfr(abs(Mpfr(lhs(i, j)) - Mpfr(rhs(i, j))))), 2 * gam * cs * ToDouble(m(i, j)));
  }
};

struct ScoreRank : ProjectionFamily {
  static constexpr const char* kId = "lecture4.prop2.4.score_rank_le_dk";

  static std::vector<Tolerance> Tolerances() { return {}; }

  template <class S>
  static void Conclusion(const Case& c) {
    const Mat<S> x = c.GetMat<S>("X"), wq = c.GetMat<S>("W_Q"), wk = c.GetMat<S>("W_K");
    const Mat<S> scores = Mat<S>(x * wq) * Mat<S>(x * wk).transpose();
    const Eigen::Index rank = Eigen::FullPivLU<Mat<S>>(scores).rank();
    ExpectThat(rank <= wq.cols(), "rank(QK^T) = " + std::to_string(rank) + " > d_k = " + std::to_string(wq.cols()));
  }
};

struct SoftmaxRaisesRank {
  static constexpr const char* kId = "lecture4.rem2.5.softmax_can_raise_rank";

  static inline const Tolerance kDeterminant{
      "det A certified nonzero", "|det fl(A) - det A| <= 2 (2 gamma_{T+3}(u) + gamma_{T+3}(u)^2)",
      "scores are exact (products and differences of 2^-3-grid values below 2^3); each weight "
      "exp(s_j - m)/Z has relative error <= gamma_{T+3} (exp <= 1 ulp, T-term sum, one division); "
      "det = a11 a22 - a12 a21 with entries <= 1 moves by at most twice the product error", MetricKind::kClaim};
  static std::vector<Tolerance> Tolerances() { return {kDeterminant}; }

  template <class S>
  static rc::Gen<Case> Hypotheses() {
    return rc::gen::map(
        rc::gen::suchThat(rc::gen::pair(gen::Dyadic(2, 3), gen::Dyadic(2, 3)),
                          [](const std::pair<Exact, Exact>& p) { return p.first.ToDouble() != p.second.ToDouble(); }),
        [](const std::pair<Exact, Exact>& p) {
          ExactMatrix x(2, 1);
          x(0, 0) = p.first, x(1, 0) = p.second;
          return Case().Matrix("x", x);
        });
  }

  // The witness family: x is 2 x 1 with x_1 != x_2 (T = 2 > d_k = 1).
  // Domain: x on the 2^-3 grid with |x| <= 2^3, where the tolerance's reason
  // has the scores x_i x_j exact in double (the generator draws |x| <= 2).
  static bool HypothesesHold(const Case& c) {
    const ExactMatrix& x = c.GetMatrix("x");
    if (x.rows != 2 || x.cols != 1 || !hyp::AllWithin(x, 8.0)) return false;
    for (const Exact& e : x.data)
      if (!e.IsDouble() || std::ldexp(e.ToDouble(), 3) != std::floor(std::ldexp(e.ToDouble(), 3))) return false;
    return x(0, 0).ToDouble() != x(1, 0).ToDouble();
  }

  template <class S>
  static void Conclusion(const Case& c) {
    const Mat<S> x = c.GetMat<S>("x");
    const Eigen::Index t = x.rows(), d_k = x.cols();
    ExpectThat(t > d_k, "witness needs T > d_k");
    // rank(QK^T) <= d_k = 1: the 2x2 minor vanishes (exact: products of grid values).
    const Mat<S> scores = x * x.transpose();
    ExpectThat(scores(0, 0) * scores(1, 1) - scores(0, 1) * scores(1, 0) == 0, "rank(QK^T) > 1");
    const Mat<S> a = Attention<S>(x, x, Mat<S>::Zero(t, 1), S(1)).weights;
    const Mpfr det = Mpfr(a(0, 0)) * Mpfr(a(1, 1)) - Mpfr(a(0, 1)) * Mpfr(a(1, 0));
    const double g = Gamma(static_cast<double>(t + 3), ScalarTraits<S>::UnitRoundoff());
    const double err = 2 * (2 * g + g * g) + 4 * ScalarTraits<Mpfr>::UnitRoundoff();
    // The audit metric: the error bound relative to |det|, which must be < 1
    // for the sign (hence rank 2 > d_k) to be certified.
    ExpectWithin(kDeterminant, err / ToDouble(Mpfr(abs(det))), 1.0);
  }
};

ATTNPROP_REGISTER(ScoreFactorization, double, Mpfr, Rational);
ATTNPROP_REGISTER(ScoreRank, Rational);
ATTNPROP_REGISTER(SoftmaxRaisesRank, double, Mpfr);

}  // namespace
}  // namespace attnprop
