// Lecture 4, exercises (003_dd971a1151775776.txt).
//
// lecture4.ex12.causal_composition (Ex. 12)
//   Statement: a composition of two causal sequence maps is causal (output
//   row i depends only on input rows <= i).
//   Maps sampled: F = causal head (X W_Q1, X W_K1, X W_V1) and G = causal
//   head (Y W_Q2, Y W_K2, Y W_V2) followed by a causal prefix mean; the
//   composite G o F is checked: moving input row j by H leaves rows i < j of
//   G(F(X)) bitwise unchanged (each map reads only rows <= i, so the same
//   operations run on the same values). Each factor is also checked to be
//   causal on the same perturbation, so the hypothesis holds on every case.
// lecture4.ex9.lipschitz_bounded_not_global (Ex. 9)
//   Statement: X -> Attn(X) is Lipschitz on every bounded set, with no
//   global constant (the score map is bilinear).
// lecture4.ex10.query_differential (Ex. 10)
//   Statement: for fixed K, V and y(q) = sum_j softmax_j(<q,k_j>/sqrt(d_k)) v_j,
//   Dy(q)[h] = (1/sqrt(d_k)) sum_j A_j <h,k_j> (v_j - y).
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "generators/regime.h"
#include "generators/scalars.h"
#include "generators/shape.h"
#include "model/attention.h"
#include "properties/framework/hypotheses_checks.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

template <class S> constexpr int64_t kMaxLen = SizeBudget<S>::Pick(10, 5);
template <class S> constexpr int64_t kMaxWidth = SizeBudget<S>::Pick(4, 3);

constexpr Axis kT{"T"}, kD{"d"}, kDk{"d_k"}, kDv{"d_v"}, kOne{"1"};
constexpr MatrixField kX{"X"}, kY{"Y"}, kH{"H"}, kWQ{"W_Q"}, kWK{"W_K"}, kWV{"W_V"}, kK{"K"}, kV{"V"}, kQuery{"q"},
    kDir{"h"};
constexpr MatrixField kHeadWeights[] = {{"W_Q1"}, {"W_K1"}, {"W_V1"}, {"W_Q2"}, {"W_K2"}, {"W_V2"}};
constexpr IntField kJ{"j"};
constexpr ScalarField kScale{"scale"}, kC{"C"}, kStep{"t"};

struct CausalComposition : ClaimId<"lecture4.ex12.causal_composition"> {
  // X is T x d (T >= 2), the six W's d x d, H 1 x d, 1 <= j < T. Domain:
  // every entry finite with |entry| <= 2^16, so every score of both heads
  // stays far below the double and MPFR overflow threshold (the bitwise
  // conclusion compares rows with ==, which a NaN or inf would break for
  // reasons outside the claim); the generator draws every regime (default
  // gen::Regime: |entry| <= 2^6 2^10 = 2^16, the domain's bound).
  template <class S> static Domain Hypotheses() {
    const Admit entries = Admit::Within(0x1p16);
    const gen::Regime regime = gen::RegimeFor<S>(gen::Regime{});
    Domain d;
    d.Dim(kT, {2, kMaxLen<S>, kMaxLen<S>}).Dim(kD, {1, kMaxWidth<S>, kMaxWidth<S>}).Dim(kOne, {1, 1, 1}, 1);
    d.Matrix(kX, kT, kD, regime, entries);
    for (const MatrixField w : kHeadWeights) d.Matrix(w, kD, kD, regime, entries);
    d.Matrix(kH, kOne, kD, regime, entries);
    const int pick = d.ScalarParam(gen::Dyadic(64, 0));  // an integer for the index j, not an input value
    d.Built(
        kJ,
        [pick](const Domain::Drawn& in) {
          return 1 + static_cast<int64_t>(std::abs(in.ScalarParam(pick).ToDouble())) % (in.Dim(kT) - 1);
        },
        1, std::numeric_limits<int64_t>::max());
    d.Assume("1 <= j < T", [](const Values& v) { return v[kJ] < v[kX].rows; });
    return d;
  }

  /// Head k (0: F, 1: G) on x.
  template <class S>
  static Mat<S> Head(const Mat<S>& x, const In<S>& in, int k) {
    return Attention<S>(Mat<S>(x * in[kHeadWeights[3 * k]]), Mat<S>(x * in[kHeadWeights[3 * k + 1]]),
                        Mat<S>(x * in[kHeadWeights[3 * k + 2]]), S(1), Mask::Causal())
        .out;
  }

  template <class S>
  static Mat<S> PrefixMean(const Mat<S>& y) {
    Mat<S> r = Mat<S>::Zero(y.rows(), y.cols());
    Vec<S> acc = Vec<S>::Zero(y.cols());
    for (Eigen::Index i = 0; i < y.rows(); ++i) {
      acc += y.row(i).transpose();
      r.row(i) = (acc / S(double(i + 1))).transpose();
    }
    return r;
  }

  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> x = in[kX], h = in[kH];
    const Eigen::Index j = in[kJ];
    Mat<S> moved = x;
    moved.row(j) += h.row(0);
    const Mat<S> f0 = Head<S>(x, in, 0), f1 = Head<S>(moved, in, 0);
    const Mat<S> g0 = PrefixMean<S>(Head<S>(f0, in, 1)), g1 = PrefixMean<S>(Head<S>(f1, in, 1));
    for (Eigen::Index i = 0; i < j; ++i) {
      ExpectThat(f0.row(i) == f1.row(i), "factor F is not causal on this case");
      static const Tolerance kEarlierRows{"|(G o F)(X + e_j H)_i - (G o F)(X)_i|, i < j", "0",
                                                 "bitwise: row i reads only rows <= i", MetricKind::kRounding};
      ExpectWithin(kEarlierRows, ToDouble(S((g1.row(i) - g0.row(i)).cwiseAbs().maxCoeff())), 0.0);
    }
  }
};

ATTNPROP_REGISTER(CausalComposition, double, Mpfr);


// ---------------------------------------------------------------------------
// lecture4.ex10.query_differential (Ex. 10)
//   Hypotheses: one unmasked output row y(q); K (T x d_k), V (T x d_v) in
//   every regime (gen::Regime); q (grid 2^-6, |q| <= 2) and h (grid 2^-4,
//   |h| <= 1) so that q +- t h is exact (t = 2^-13 double, 2^-30 MPFR; the
//   step is a field of the case, so the certificate evaluates the same t).
//   Check: the central difference (y(q + t h) - y(q - t h)) / (2t) against
//   the printed formula c sum_j A_j <h,k_j> (v_j - y), with c = the case's
//   scale (fl(1/sqrt(d_k)), the same c on both sides), within the
//   truncation bound: along q + t h the logits move by g_j = c<h,k_j>; with
//   G = max |g_j|, the third derivative of p_j is at most 16 G^3 p_j
//   (cumulants, sec5_softmax_calculus.cc), and y''' = sum_j p_j''' (v_j -
//   mid), so |y_l'''| <= 8 G^3 R_l (R_l the range of v_{.l}); the central
//   difference errs by <= t^2/6 max|y'''| = (4/3) t^2 G^3 R_l. Certified by
//   interval arithmetic: no rounding budget.

template <class S>
double DifferenceStep() {
  return std::is_same_v<S, double> ? std::ldexp(1.0, -13) : std::ldexp(1.0, -30);
}

struct QueryDifferential : ClaimId<"lecture4.ex10.query_differential"> {
  // K (T x d_k), V (T x d_v) in every regime (scales up to 2^2), q, h
  // (1 x d_k), T, d_k, d_v >= 1, scale = fl(1/sqrt(d_k)) in (0, 1], t the
  // step. Domain: q +- t h exact in double (q on the 2^-6 grid with |q| <=
  // 2^20, h on the 2^-4 grid with |h| <= 2^10: the sums need < 53 bits),
  // |K|, |V| entries <= 2^60 (scores and outputs finite: |c q k| <= 2^90
  // d_k). The generator draws |q| <= 2, |h| <= 1.
  template <class S> static Domain Hypotheses() {
    gen::Regime regime = gen::RegimeFor<S>(gen::Regime{});
    regime.max_scale = 2;
    Domain d;
    d.Dim(kT, {1, kMaxLen<S>, kMaxLen<S>}).Dim(kDk, {1, kMaxWidth<S>, kMaxWidth<S>});
    d.Dim(kDv, {1, kMaxWidth<S>, kMaxWidth<S>}).Dim(kOne, {1, 1, 1}, 1);
    d.Matrix(kK, kT, kDk, regime, Admit::Within(0x1p60)).Matrix(kV, kT, kDv, regime, Admit::Within(0x1p60));
    // Short dyadics kept: the central difference is about the exact points q +- t h (the case's own, which
    // the certificate re-evaluates), so q and h sit on grids that keep q +- t h exact; h is a direction and
    // Dy(q)[h] is linear in h, so its grid loses nothing; K and V carry every regime.
    d.Matrix(kQuery, kOne, kDk, gen::Dyadic(2, 6), Admit::Within(0x1p20).Doubles().OnGrid(0x1p-6));
    d.Matrix(kDir, kOne, kDk, gen::Dyadic(1, 4), Admit::Within(0x1p10).Doubles().OnGrid(0x1p-4));
    d.Built(
        kScale, [](const Domain::Drawn& in) { return Exact(1.0 / std::sqrt(static_cast<double>(in.Dim(kDk)))); },
        Admit::Within(1).Positive());
    d.Built(
        kStep, [](const Domain::Drawn&) { return Exact(DifferenceStep<S>()); },
        Admit::Within(1).Positive().Doubles().OnGrid(0x1p-30));
    return d;
  }

  template <class S> static void Conclusion(const In<S>& in) {
    using std::max;
    const Mat<S> k = in[kK], v = in[kV], q = in[kQuery], h = in[kDir];
    const S scale = in[kScale], t = in[kStep];
    const Mat<S> yp = Attention<S>(Mat<S>(q + t * h), k, v, scale).out,
                 ym = Attention<S>(Mat<S>(q - t * h), k, v, scale).out;
    // The printed differential at q.
    const AttentionResult<S> at = Attention<S>(q, k, v, scale);
    S gmax = 0;
    Mat<S> dy = Mat<S>::Zero(1, v.cols());
    for (Eigen::Index j = 0; j < k.rows(); ++j) {
      const S g = scale * h.row(0).dot(k.row(j));
      gmax = max(gmax, S(abs(g)));
      dy += at.weights(0, j) * g * (v.row(j) - at.out.row(0));
    }
    static const Tolerance kDifferential{
        "|(y(q+th) - y(q-th))/(2t) - c sum_j A_j <h,k_j> (v_j - y)|_l", "(4/3) t^2 G^3 R_l",
        "central-difference truncation through the cumulant bound |y'''| <= 8 G^3 R_l, G = c max|<h,k_j>| "
        "(certified by interval arithmetic: no rounding budget)",
        MetricKind::kClaim};
    for (Eigen::Index l = 0; l < v.cols(); ++l) {
      const S quotient = (yp(0, l) - ym(0, l)) / (2 * t);
      const S range = v.col(l).maxCoeff() - v.col(l).minCoeff();
      ExpectWithin<S>(kDifferential, abs(quotient - dy(0, l)), S(S(4) / 3 * t * t * gmax * gmax * gmax * range));
    }
  }
};

// ---------------------------------------------------------------------------
// lecture4.ex9.lipschitz_bounded_not_global (Ex. 9)
//   Part 1 (bounded sets): for ||X||_F, ||Y||_F <= R,
//     ||Attn(X) - Attn(Y)||_F <= L(R) ||X - Y||_F,
//     L(R) = ||W_V||_F (|c| R^2 ||W_Q W_K^T||_F + sqrt(T)).
//   Derivation: Attn(X) = A(X) V(X); AV - A'V' = (A - A')V + A'(V - V');
//   ||V(X)||_2 <= R ||W_V||_F, ||A'||_2 <= ||A'||_F <= sqrt(T) (rows are
//   probability vectors), ||V - V'||_F <= ||W_V||_F ||X - Y||_F; the
//   softmax Jacobian diag(p) - pp^T has norm <= 1/2 (Var_p(u) <= 1/2 for
//   |u| = 1), so ||A - A'||_F <= ||S - S'||_F / 2; S - S' = c((X-Y) G X^T +
//   Y G (X-Y)^T), G = W_Q W_K^T, so ||S - S'||_F <= 2 |c| R ||G||_F ||X-Y||_F.
//   Checked on X and Y = X + 2^-k H (k in 1..30) in every regime, lhs
//   against L(R)||X - Y||_F as stated; certified by interval arithmetic
//   (properties/framework/certify.h), so no rounding budget.
//   Part 2 (no global constant): X_n = (n, 0)^T, Y_n = (n, 1/n)^T (T = 2,
//   d = d_k = d_v = 1, all weights 1, c = 1): the difference quotient
//   ||Attn(Y_n) - Attn(X_n)|| / ||Y_n - X_n|| >= |out_2(Y_n) - n/2| n, and
//   out_2(Y_n) - n/2 = (n - 1/n)(sigma(1 - 1/n^2) - 1/2) ~ 0.23 n: it grows
//   like n^2/4.3, past any constant C. For the drawn C (2^0..2^40) the
//   property takes n = the power of two >= 4 sqrt(C) and checks C <= the
//   quotient; and that it is below L(R_n), R_n = ||Y_n||_F (part 1 on the
//   unbounded sequence).

struct LipschitzBoundedNotGlobal : ClaimId<"lecture4.ex9.lipschitz_bounded_not_global"> {
  // X, Y (T x d), W_Q, W_K (d x d_k), W_V (d x d_v), all >= 1, in every
  // regime (scales up to 2^2; Y = X + 2^-k H, k in 1..30, rounded), scale =
  // fl(1/sqrt(d_k)) in (0, 1], C = 2^m (m in 0..40) with 1 <= C <= 2^40.
  // Domain: |entries| <= 2^60 (projections, scores and outputs finite in
  // double), C <= 2^40 so that the witness n <= 2^23 has n^2 and 1/n exact
  // and its scores (<= 2^46) finite.
  template <class S> static Domain Hypotheses() {
    gen::Regime regime = gen::RegimeFor<S>(gen::Regime{});
    regime.max_scale = 2;
    const Admit entries = Admit::Within(0x1p60);
    Domain d;
    d.Dim(kT, {1, kMaxLen<S>, kMaxLen<S>}).Dim(kD, {1, kMaxWidth<S>, kMaxWidth<S>});
    d.Dim(kDk, {1, kMaxWidth<S>, kMaxWidth<S>}).Dim(kDv, {1, kMaxWidth<S>, kMaxWidth<S>});
    const int x = d.Param(kT, kD, regime), h = d.Param(kT, kD, regime), wq = d.Param(kD, kDk, regime),
              wk = d.Param(kD, kDk, regime), wv = d.Param(kD, kDv, regime);
    const int step = d.ScalarParam(gen::UniformInteger(1, 30)), big = d.ScalarParam(gen::UniformInteger(0, 40));
    d.Built(kX, kT, kD, [x](const Domain::Drawn& in) { return in.Param(x); }, entries);
    d.Built(
        kY, kT, kD,
        [h, step](const Domain::Drawn& in) {
          const ExactMatrix& xm = in.fields()[kX];
          const ExactMatrix hm = in.Param(h);
          ExactMatrix ym(xm.rows, xm.cols);
          const double eps = std::ldexp(1.0, -static_cast<int>(in.ScalarParam(step).ToDouble()));
          for (size_t i = 0; i < ym.data.size(); ++i)
            ym.data[i] = Exact(xm.data[i].ToDouble() + eps * hm.data[i].ToDouble());
          return ym;
        },
        entries);
    d.Built(kWQ, kD, kDk, [wq](const Domain::Drawn& in) { return in.Param(wq); }, entries);
    d.Built(kWK, kD, kDk, [wk](const Domain::Drawn& in) { return in.Param(wk); }, entries);
    d.Built(kWV, kD, kDv, [wv](const Domain::Drawn& in) { return in.Param(wv); }, entries);
    d.Built(
        kScale, [](const Domain::Drawn& in) { return Exact(1.0 / std::sqrt(static_cast<double>(in.Dim(kDk)))); },
        Admit::Within(1).Positive());
    d.Built(
        kC, [big](const Domain::Drawn& in) { return Exact(std::ldexp(1.0, static_cast<int>(in.ScalarParam(big).ToDouble()))); },
        Admit::Within(0x1p40).NonzeroAtLeast(1).Positive());
    return d;
  }

  /// Attn(X) = softmax(c (X W_Q)(X W_K)^T) X W_V.
  template <class S>
  static Mat<S> Attn(const Mat<S>& x, const In<S>& in) {
    return Attention<S>(Mat<S>(x * in[kWQ]), Mat<S>(x * in[kWK]), Mat<S>(x * in[kWV]), in[kScale]).out;
  }

  // The mathematics only: certified by interval arithmetic (a failure in
  // double or MPFR is a candidate the intervals decide), so no rounding
  // budget (issue 31: the old budget allowed nothing for subnormal outputs).
  template <class S> static void Conclusion(const In<S>& in) {
    using std::max;
    using std::sqrt;
    // Part 1: bounded sets, R = max(||X||_F, ||Y||_F).
    const Mat<S> x = in[kX], y = in[kY];
    const S r = max(S(x.norm()), S(y.norm()));
    const Mat<S> g = in[kWQ] * in[kWK].transpose();
    const S lip = in[kWV].norm() * (abs(in[kScale]) * r * r * g.norm() + sqrt(S(static_cast<double>(x.rows()))));
    static const Tolerance kBounded{"||Attn(X) - Attn(Y)||_F", "L(R) ||X - Y||_F",
                                    "L(R) derived above (softmax Jacobian norm <= 1/2, bilinear scores, "
                                    "||A||_2 <= sqrt T)",
                                    MetricKind::kClaim};
    ExpectWithin<S>(kBounded, S(Mat<S>(Attn<S>(x, in) - Attn<S>(y, in)).norm()), S(lip * Mat<S>(x - y).norm()));
    // Part 2: the witness sequence passes the drawn constant C (n a power
    // of two, so n and 1/n are exact).
    const double cc = in.exact(kC).ToDouble();
    const double n = std::ldexp(1.0, static_cast<int>(std::ceil(std::log2(4 * std::sqrt(cc)))));
    Mat<S> xn(2, 1), yn(2, 1);
    xn << S(n), S(0);
    yn << S(n), S(1 / n);
    const Mat<S> a = Attention<S>(xn, xn, xn, S(1)).out, b = Attention<S>(yn, yn, yn, S(1)).out;
    const S quotient = S(Mat<S>(b - a).norm()) * S(n);  // ||Y_n - X_n|| = 1/n exactly
    static const Tolerance kUnbounded{"C", "||Attn(Y_n) - Attn(X_n)|| / ||Y_n - X_n|| at X_n = (n,0), Y_n = (n,1/n)",
                                      "the quotient is >= n |out_2(Y_n) - n/2| ~ 0.23 n^2", MetricKind::kClaim};
    ExpectWithin<S>(kUnbounded, S(cc), quotient);
    // And part 1 on the unbounded sequence: the quotient is below L(R_n).
    const S rn = Mat<S>(yn).norm();
    static const Tolerance kWitnessBounded{"the witness quotient", "L(R_n) = R_n^2 + sqrt 2 (all weights 1, c = 1)",
                                           "part 1's constant on the witness pair", MetricKind::kClaim};
    ExpectWithin<S>(kWitnessBounded, quotient, S(rn * rn + sqrt(S(2))));
  }
};

ATTNPROP_REGISTER(QueryDifferential, double, Mpfr, Interval);
ATTNPROP_REGISTER(LipschitzBoundedNotGlobal, double, Mpfr, Interval);

}  // namespace
}  // namespace attnprop
