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
//   T and d often larger than d_k so the bound is below min(T, d).
// lecture4.rem2.5.softmax_can_raise_rank (Rem 2.5, Ex. 8)
//   Statement (existence): there are T > d_k with
//   rank softmax_row(Q K^T) > d_k.
//   Witness family: d_k = 1, T = 2, q_i = k_i = x_i with x_1 != x_2. Then
//   Q K^T = x x^T has rank <= 1 = d_k, while A = softmax_row(x x^T) has
//   det A = A_11 + A_22 - 1 = (1 - e^{-(x_1-x_2)^2}) / ((1+e^{x_1(x_2-x_1)})
//   (1+e^{x_2(x_1-x_2)})) != 0, rank 2. The property checks det A != 0 from
//   the computed weights, decided by interval arithmetic (no error bound),
//   for every drawn witness (x on the 2^-3 grid, |x| <= 2, x_1 != x_2).
#include <cmath>

#include <Eigen/LU>

#include "generators/regime.h"
#include "generators/scalars.h"
#include "generators/shape.h"
#include "model/attention.h"
#include "properties/framework/hypotheses_checks.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

constexpr Axis kT{"T"}, kD{"d"}, kDk{"d_k"};
constexpr MatrixField kX{"X"}, kWQ{"W_Q"}, kWK{"W_K"};
constexpr ScalarField kScale{"scale"};

/// Both claims of Prop 2.4 share the projections' hypotheses and cases:
/// X (T x d), W_Q, W_K (d x d_k) in every regime (gen::Regime), d_k drawn
/// 1..width-1 so that it is often smaller than T and d (where the rank
/// bound says something), and the claim's scale c = 1/sqrt(d_k) > 0 (the
/// bound is written with c, not |c|). Domain: |entries| <= 2^200 and c <=
/// 2^100, so every product of four entries and the scale stays finite in
/// double. No rounding budget: the factorization is proved exactly in
/// rationals and certified by intervals.
struct ProjectionFamily {
  template <class S> static Domain Hypotheses() {
    const int64_t len = SizeBudget<S>::Pick(12, 6), width = SizeBudget<S>::Pick(8, 4);
    const Admit entries = Admit::Within(0x1p200);
    const gen::Regime regime = gen::RegimeFor<S>(gen::Regime{});
    Domain d;
    d.Dim(kT, {1, len, len}).Dim(kD, {1, width, width}).Dim(kDk, {1, width - 1, width - 1});
    d.Matrix(kX, kT, kD, regime, entries).Matrix(kWQ, kD, kDk, regime, entries).Matrix(kWK, kD, kDk, regime, entries);
    d.Built(
        kScale, [](const Domain::Drawn& in) { return Exact(1.0 / std::sqrt(static_cast<double>(in.Dim(kDk)))); },
        Admit::Within(0x1p100).Positive());
    return d;
  }
};

struct ScoreFactorization : ProjectionFamily, ClaimId<"lecture4.prop2.4.score_factorization"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> x = in[kX], wq = in[kWQ], wk = in[kWK];
    const S scale = in[kScale];
    const Mat<S> q = x * wq, k = x * wk;
    const Mat<S> lhs = scale * Mat<S>(q * k.transpose());
    const Mat<S> g = wq * wk.transpose();
    const Mat<S> rhs = scale * Mat<S>(Mat<S>(x * g) * x.transpose());
    static const Tolerance kEntry{"|c QK^T - c X(W_Q W_K^T)X^T|_ij", "0 (an identity)",
                                  "exact in rationals; certified by interval arithmetic elsewhere", MetricKind::kRounding};
    for (Eigen::Index i = 0; i < lhs.rows(); ++i)
      for (Eigen::Index j = 0; j < lhs.cols(); ++j) ExpectWithin<S>(kEntry, abs(lhs(i, j) - rhs(i, j)), S(0));
  }
};
ATTNPROP_REGISTER(ScoreFactorization, double, Mpfr, Rational, Interval);

struct ScoreRank : ProjectionFamily, ClaimId<"lecture4.prop2.4.score_rank_le_dk"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> x = in[kX], wq = in[kWQ], wk = in[kWK];
    const Mat<S> scores = Mat<S>(x * wq) * Mat<S>(x * wk).transpose();
    const Eigen::Index rank = Eigen::FullPivLU<Mat<S>>(scores).rank();
    ExpectThat(rank <= wq.cols(), "rank(QK^T) = " + std::to_string(rank) + " > d_k = " + std::to_string(wq.cols()));
  }
};
ATTNPROP_REGISTER(ScoreRank, Rational);

constexpr Axis kTwo{"2"}, kOne{"1"};
constexpr MatrixField kWitness{"x"};

struct SoftmaxRaisesRank : ClaimId<"lecture4.rem2.5.softmax_can_raise_rank"> {
  // The witness family: x is 2 x 1 with x_1 != x_2 (T = 2 > d_k = 1), drawn
  // on the 2^-3 grid with |x| <= 2. Domain: the grid with |x| <= 2^3, where
  // the scores x_i x_j are exact in double (the minor below is compared
  // with 0 exactly).
  template <class S> static Domain Hypotheses() {
    Domain d;
    d.Dim(kTwo, {2, 2, 2}, 2).Dim(kOne, {1, 1, 1}, 1);
    // A witness family (existence claim), not an input the statement quantifies over: short dyadics keep
    // the minor x_1^2 x_2^2 - (x_1 x_2)^2 exact.
    d.Matrix(kWitness, kTwo, kOne, gen::Dyadic(2, 3), Admit::Within(8).Doubles().OnGrid(0x1p-3));
    d.Assume("x_1 != x_2", [](const Values& v) { return !hyp::SameReal(v[kWitness](0, 0), v[kWitness](1, 0)); });
    return d;
  }

  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> x = in[kWitness];
    const Eigen::Index t = x.rows(), d_k = x.cols();
    ExpectThat(t > d_k, "witness needs T > d_k");
    // rank(QK^T) <= d_k = 1: the 2x2 minor vanishes (exact: products of grid values).
    const Mat<S> scores = x * x.transpose();
    ExpectThat(scores(0, 0) * scores(1, 1) - scores(0, 1) * scores(1, 0) == 0, "rank(QK^T) > 1");
    const Mat<S> a = Attention<S>(x, x, Mat<S>::Zero(t, 1), S(1)).weights;
    // rank(A) = 2 > d_k: det A != 0 (decided: in intervals != is certain
    // or undecided).
    const S det = a(0, 0) * a(1, 1) - a(0, 1) * a(1, 0);
    ExpectThat(det != S(0), "det softmax(QK^T) = 0: rank not raised");
  }
};
ATTNPROP_REGISTER(SoftmaxRaisesRank, double, Mpfr, Interval);

}  // namespace
}  // namespace attnprop
