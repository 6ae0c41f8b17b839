// "Only Large Weights (And Not Skip Connections) Can Prevent the Perils of
// Rank Collapse" (004_fc07a226cef95160.txt), Appendix B, Lemmas B.1 and B.2.
// D is Definition 3.5: D_ii = max_{j,l} |E_ij - E_il|; E is theta-balanced
// iff ||D||_inf <= theta.
//
// collapse.lemmaB.1.softmax_ratio_bound
//   P = softm(A), A~ = A - E, P~ = softm(A~): for all i, j
//   e^{-D_ii} P~_ij <= P_ij <= e^{D_ii} P~_ij. Holds.
//   Generated: A, E in R^{n x n}, n in [1,5], dyadic entries (|A| <= 8,
//   |E| <= 4). Backends double, MPFR (exp).
//
// collapse.lemmaB.2.theta_balance
//   ||Wq||,||Wk||,||Wv|| <= eta, W = Wq Wk^T, E = beta Res(X) W Res(X)^T,
//   beta <= 1/(||Res(X)||^2 eta^2) => E is 1-balanced (max_i D_ii <= 1).
//   Res: column-wise midrange selection (model/res.h); the pinned case has
//   d = 1, where the argmin is unique, so it refutes every selection.
//   Expected REFUTED: the proof bounds ||E||_inf <= 1, which gives D_ii <= 2,
//   not 1 (and ||W|| <= ||Wq|| ||Wk|| uses the false Fact 3.3 (2)).
//   X = (-1, 1)^T, Wq = Wk = (1), Wv = (0), eta = beta = 1: Res(X) = X,
//   E = [[1,-1],[-1,1]], D_11 = 2 > 1.
//   Generated: X in R^{n x d}, n in [1,4], d in [1,3], entries in 1/4 Z with
//   |.| <= 4; eta in (0,2]; weights eta r, r in [-1,1]; beta = t/(||Res X||^2
//   eta^2), t in (0,1] (beta = t when Res X = 0). All rational.
//   Backends double, MPFR, rational.
#include <cmath>
#include <string>

#include "properties/collapse/collapse_cases.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace {

using collapse::MaxNorm;

/// max_i D_ii of Definition 3.5.
template <class S>
S MaxBalance(const Mat<S>& e) {
  S worst = 0;
  for (Eigen::Index i = 0; i < e.rows(); ++i) {
    const S d = S(e.row(i).maxCoeff() - e.row(i).minCoeff());
    if (d > worst) worst = d;
  }
  return worst;
}

struct SoftmaxRatioBound {
  static constexpr const char* kId = "collapse.lemmaB.1.softmax_ratio_bound";
  static constexpr const char* kSource = "004 Appendix B, Lemma B.1";
  static inline const Tolerance kRatio{
      "max_ij max(P_ij / (e^{D_ii} P~_ij), e^{-D_ii} P~_ij / P_ij)", "1 + gamma_{2n+12} (1 + 4(||A||_inf + ||E||_inf))",
      "each softmax entry errs relatively <= (2max|arg| + n + 3)u; A - E rounds (relative effect "
      "2u(|A|+|E|)); D_ii (max - min) and its exp err <= 2u||E|| + u relatively",
      MetricKind::kClaim};
  static std::vector<Tolerance> Tolerances() { return {kRatio}; }
  // A, E n x n (n >= 1; the lemma's); entries finite with |A|, |E| <= 64 and
  // n <= 64: the row spread of A - E is <= 256 and D_ii <= 128, so every P,
  // P~ entry and e^{-D} P~ (>= e^{-384}) is normal in double, the ratios
  // finite.
  static bool HypothesesHold(const Case& c) {
    const ExactMatrix& a = c.GetMatrix("A");
    const ExactMatrix& e = c.GetMatrix("E");
    return a.rows == a.cols && e.rows == a.rows && e.cols == a.cols && a.rows >= 1 && a.rows <= 64 &&
           collapse::EntriesWithin(a, 64) && collapse::EntriesWithin(e, 64);
  }
  template <class S>
  static rc::Gen<Case> Hypotheses() {
    // A (up to 8) and E (up to 4) in every regime, n up to 8 (MPFR 6).
    gen::Layout layout;
    const int64_t max_n = SizeBudget<S>::Pick(8, 6);
    const int n = layout.Axis({1, max_n, max_n});
    gen::Regime ar = gen::RegimeFor<S>(gen::Regime{});
    ar.max_abs = 8, ar.max_scale = 2;
    gen::Regime er = ar;
    er.max_abs = 4;
    const int a_m = layout.Matrix(n, n, ar), e_m = layout.Matrix(n, n, er);
    return layout.Build<Case>(
        [=](const gen::Layout::Drawn& d) { return Case().Matrix("A", d.Matrix(a_m)).Matrix("E", d.Matrix(e_m)); });
  }
  template <class S>
  static void Conclusion(const Case& c) {
    using std::exp;
    const Mat<S> a = c.GetMat<S>("A"), e = c.GetMat<S>("E");
    const Mat<S> p = collapse::RowSoftmax<S>(a), pt = collapse::RowSoftmax<S>(Mat<S>(a - e));
    double worst = 0;
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
      const S d = S(e.row(i).maxCoeff() - e.row(i).minCoeff());
      for (Eigen::Index j = 0; j < a.cols(); ++j) {
        worst = std::max(worst, ToDouble(S(p(i, j) / (exp(d) * pt(i, j)))));
        worst = std::max(worst, ToDouble(S(exp(S(-d)) * pt(i, j) / p(i, j))));
      }
    }
    const double u = ScalarTraits<S>::UnitRoundoff();
    const double n = double(a.rows());
    ExpectWithin(kRatio, worst,
                 1 + Gamma(2 * n + 12, u) * (1 + 4 * (ToDouble(MaxNorm<S>(a)) + ToDouble(MaxNorm<S>(e)))));
  }
};

struct ThetaBalance {
  static constexpr const char* kId = "collapse.lemmaB.2.theta_balance";
  static constexpr const char* kSource = "004 Appendix B, Lemma B.2";
  static inline const Tolerance kBalance{
      "max_i D_ii of E = beta Res(X) W Res(X)^T", "1 + gamma_{2d+4} 2 beta d^3 ||Res X||^2 eta^2; exact: 1",
      "X has 2 fraction bits and |X| <= 4, so Res(X) (midrange) is exact in double; E's entries are sums "
      "of d^2 products of 4 factors, |E_ij| <= beta d^3 ||Res X||^2 eta^2, each with gamma_{2d+3} "
      "relative error; the difference max - min adds one rounding",
      MetricKind::kClaim};
  static std::vector<Tolerance> Tolerances() { return {kBalance}; }
  // The lemma's norms ||Wq||, ||Wk||, ||Wv|| <= eta and beta <= 1/(||Res X||^2
  // eta^2) (any beta when the bound is +inf), beta > 0; X n x d, the weights
  // d x d (n, d >= 1). The budget's premise, Res(X) exact in double: X in
  // 1/4 Z with |X| <= 2^40 (then the midrange and Res(X) lie in 1/8 Z below
  // 2^42); weights, eta and beta each 0 or in [2^-100, 2^100], n, d <= 64:
  // E and the budget finite and normal (the generator draws X in 1/4 Z,
  // |X| <= 4, eta in (0,2], n <= 4, d <= 3).
  static bool HypothesesHold(const Case& c) {
    for (const Exact& v : c.GetMatrix("X").data)
      if (!collapse::ScalarWithin(v, 0x1p40) || std::ldexp(v.ToDouble(), 2) != std::floor(std::ldexp(v.ToDouble(), 2)) ||
          !v.IsDouble())
        return false;
    for (const char* w : {"Wq", "Wk", "Wv"})
      if (!collapse::EntriesWithin(c.GetMatrix(w), 0x1p100, 0x1p-100)) return false;
    for (const char* s : {"eta", "beta"}) {
      const double v = std::abs(c.GetScalar(s).ToDouble());
      if (!(v <= 0x1p100) || (v != 0 && v < 0x1p-100)) return false;
    }
    if (c.GetMatrix("X").rows > 64 || c.GetMatrix("X").cols > 64) return false;
    const Mat<Rational> x = c.GetMat<Rational>("X"), wq = c.GetMat<Rational>("Wq"), wk = c.GetMat<Rational>("Wk"),
                        wv = c.GetMat<Rational>("Wv");
    const Rational eta = c.Get<Rational>("eta"), beta = c.Get<Rational>("beta");
    const Eigen::Index d = x.cols();
    if (x.rows() < 1 || d < 1 || wq.rows() != d || wq.cols() != d || wk.rows() != d || wk.cols() != d ||
        wv.rows() != d || wv.cols() != d)
      return false;
    if (MaxNorm<Rational>(wq) > eta || MaxNorm<Rational>(wk) > eta || MaxNorm<Rational>(wv) > eta) return false;
    if (!(beta > 0)) return false;
    const Rational r = MaxNorm<Rational>(Res<Rational>(x));
    if (r == 0 || eta == 0) return true;  // the bound 1/0 is +inf: any beta
    return beta <= Rational(1) / (r * r * eta * eta);
  }
  template <class S>
  static rc::Gen<Case> Hypotheses() {
    // X (n x d, up to 4) in every regime; the weights eta r with r in
    // [-1,1] (+-1 in half the entries of rq, rk), on shared axes.
    gen::Layout layout;
    const int64_t max_n = SizeBudget<S>::Pick(6, 4), max_d = SizeBudget<S>::Pick(4, 3);
    const int n_axis = layout.Axis({1, max_n, max_n}), d_axis = layout.Axis({1, max_d, max_d});
    gen::Regime xr = gen::RegimeFor<S>(gen::Regime{});
    xr.max_abs = 4, xr.max_scale = 2;
    const int x_m = layout.Matrix(n_axis, d_axis, xr);
    const auto signs = rc::gen::oneOf(rc::gen::element(Exact(-1.0), Exact(1.0)), gen::Dyadic(1, 4));
    const int rq_m = layout.Raw(d_axis, d_axis, signs), rk_m = layout.Raw(d_axis, d_axis, signs),
              rv_m = layout.Raw(d_axis, d_axis, gen::Dyadic(1, 4));
    const int eta_s = layout.Scalar(gen::PositiveDyadic(2, 4)),
              t_s = layout.Scalar(rc::gen::oneOf(rc::gen::just(Exact(1.0)), gen::PositiveDyadic(1, 8)));
    return layout.Build<Case>([=](const gen::Layout::Drawn& dr) {
          const ExactMatrix x = dr.Matrix(x_m), rq = dr.Matrix(rq_m), rk = dr.Matrix(rk_m), rv = dr.Matrix(rv_m);
          const Exact eta = dr.Scalar(eta_s), t = dr.Scalar(t_s);
          const int64_t d = x.cols;
          auto scaled = [&](const ExactMatrix& r) {
            ExactMatrix w(d, d);
            for (int64_t i = 0; i < d; ++i)
              for (int64_t j = 0; j < d; ++j) w(i, j) = Exact(eta.ToRational() * r(i, j).ToRational());
            return w;
          };
          const Rational res = MaxNorm<Rational>(Res<Rational>(x.As<Rational>()));
          const Rational beta = res == 0 ? t.ToRational()
                                         : Rational(t.ToRational() / (res * res * eta.ToRational() * eta.ToRational()));
          return Case()
              .Matrix("X", x)
              .Matrix("Wq", scaled(rq))
              .Matrix("Wk", scaled(rk))
              .Matrix("Wv", scaled(rv))
              .Scalar("eta", eta)
              .Scalar("beta", Exact(beta));
    });
  }
  template <class S>
  static void Conclusion(const Case& c) {
    const Mat<S> x = c.GetMat<S>("X"), wq = c.GetMat<S>("Wq"), wk = c.GetMat<S>("Wk");
    const S beta = c.Get<S>("beta"), eta = c.Get<S>("eta");
    const Mat<S> r = Res<S>(x);
    const Mat<S> e = Mat<S>(beta * (r * (wq * wk.transpose()) * r.transpose()));
    const S balance = MaxBalance<S>(e);
    if constexpr (ScalarTraits<S>::kExact) {
      ExpectThat(balance <= 1, "E is not 1-balanced: max_i D_ii = " + balance.str());
    }
    const double u = ScalarTraits<S>::UnitRoundoff();
    const double d = double(x.cols());
    const double rn = ToDouble(MaxNorm<S>(r)), et = ToDouble(eta);
    ExpectWithin(kBalance, ToDouble(balance),
                 1 + Gamma(2 * d + 4, u) * 2 * ToDouble(beta) * d * d * d * rn * rn * et * et);
  }
};

ATTNPROP_REGISTER(SoftmaxRatioBound, double, Mpfr);
ATTNPROP_REGISTER(ThetaBalance, double, Mpfr, Rational);

}  // namespace
}  // namespace attnprop
