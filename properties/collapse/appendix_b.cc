// "Only Large Weights (And Not Skip Connections) Can Prevent the Perils of
// Rank Collapse" (004_fc07a226cef95160.txt), Appendix B, Lemmas B.1 and B.2.
// D is Definition 3.5: D_ii = max_{j,l} |E_ij - E_il|; E is theta-balanced
// iff ||D||_inf <= theta.
//
// collapse.lemmaB.1.softmax_ratio_bound
//   P = softm(A), A~ = A - E, P~ = softm(A~): for all i, j
//   e^{-D_ii} P~_ij <= P_ij <= e^{D_ii} P~_ij. Holds.
//   Generated: A, E in R^{n x n}, n in [1,8] (MPFR 6), in every regime (A up
//   to 8, E up to 4, at scales 2^-20..2^2). Backends double, MPFR, interval (exp).
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
//   Generated: X in R^{n x d}, n in [1,6] (MPFR, rational 4), d in [1,4] (3),
//   X in every regime (up to 4 at scales 2^-20..2^2); eta in (0,2]; weights
//   eta r, r in [-1,1]; beta = t/(||Res X||^2 eta^2), t in (0,1] (beta = t
//   when Res X = 0).
//   Backends double, MPFR, rational, interval.
#include <cmath>
#include <string>
#include <utility>

#include "properties/collapse/collapse_cases.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

using collapse::MaxBalance;
using collapse::MaxNorm;

constexpr Axis kN{"n"}, kD{"d"};
constexpr MatrixField kA{"A"}, kE{"E"}, kX{"X"}, kWq{"Wq"}, kWk{"Wk"}, kWv{"Wv"};
constexpr ScalarField kEta{"eta"}, kBeta{"beta"};

struct SoftmaxRatioBound : ClaimId<"collapse.lemmaB.1.softmax_ratio_bound"> {
  // A, E n x n (n >= 1; the lemma's), drawn in every regime (A up to 8, E
  // up to 4, at scales 2^-20..2^2; n up to 8, MPFR 6). Domain: |A|, |E| <=
  // 64 and n <= 64 (every P, P~ entry and e^{-D} P~, >= e^{-384}, a finite
  // double).
  template <class S> static Domain Hypotheses() {
    const int64_t max_n = SizeBudget<S>::Pick(8, 6);
    gen::Regime ar = gen::RegimeFor<S>(gen::Regime{});
    ar.max_abs = 8, ar.max_scale = 2;
    gen::Regime er = ar;
    er.max_abs = 4;
    Domain d;
    d.Dim(kN, {1, max_n, max_n}, 64);
    d.Matrix(kA, kN, kN, ar, Admit::Within(64)).Matrix(kE, kN, kN, er, Admit::Within(64));
    return d;
  }
  template <class S> static void Conclusion(const In<S>& in) {
    using std::exp;
    const Mat<S> a = in[kA], e = in[kE];
    const Mat<S> p = collapse::RowSoftmax<S>(a), pt = collapse::RowSoftmax<S>(Mat<S>(a - e));
    // Certified by interval arithmetic: no rounding budget.
    static const Tolerance kUpper{"P_ij", "e^{D_ii} P~_ij", "Lemma B.1's upper bound as stated", MetricKind::kClaim};
    static const Tolerance kLower{"e^{-D_ii} P~_ij", "P_ij", "Lemma B.1's lower bound as stated", MetricKind::kClaim};
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
      const S d = S(e.row(i).maxCoeff() - e.row(i).minCoeff());  // exact entries: comparisons decide
      for (Eigen::Index j = 0; j < a.cols(); ++j) {
        ExpectWithin<S>(kUpper, p(i, j), S(exp(d) * pt(i, j)));
        ExpectWithin<S>(kLower, S(exp(S(-d)) * pt(i, j)), p(i, j));
      }
    }
  }
};

struct ThetaBalance : ClaimId<"collapse.lemmaB.2.theta_balance"> {
  // The lemma's norms ||Wq||, ||Wk||, ||Wv|| <= eta and beta <= 1/(||Res X||^2
  // eta^2) (any beta when the bound is +inf), beta > 0; X n x d, the weights
  // d x d (n, d >= 1). Drawn: X (n x d, up to 4) in every regime, the
  // weights eta r with r in [-1,1] (+-1 in half the entries of rq, rk),
  // beta = t/(||Res X||^2 eta^2) with t in (0, 1]. Domain where E is
  // computable in double: X doubles (in double; any rationals in MPFR and
  // rationals) with |X| <= 2^40; weights, eta and beta
  // each 0 or in [2^-100, 2^100], n, d <= 64: E finite and normal. (No grid
  // on X: the verdict is exact in rationals and certified by intervals.)
  template <class S> static Domain Hypotheses() {
    const int64_t max_n = SizeBudget<S>::Pick(6, 4), max_d = SizeBudget<S>::Pick(4, 3);
    gen::Regime xr = gen::RegimeFor<S>(gen::Regime{});
    xr.max_abs = 4, xr.max_scale = 2;
    const Admit normal = Admit::Within(0x1p100).NonzeroAtLeast(0x1p-100);
    const auto signs = rc::gen::oneOf(rc::gen::element(Exact(-1.0), Exact(1.0)), gen::Dyadic(1, 4));
    Domain d;
    d.Dim(kN, {1, max_n, max_n}, 64).Dim(kD, {1, max_d, max_d}, 64);
    // Doubles only where E is computed in double: MPFR's regimes draw longer
    // mantissas, its domain admits them (a double-only admit discarded a
    // third of its draws).
    const Admit x_admit = std::is_same_v<S, double> ? Admit::Within(0x1p40).Doubles() : Admit::Within(0x1p40);
    d.Matrix(kX, kN, kD, xr, x_admit);
    const int rq = d.Param(kD, kD, signs), rk = d.Param(kD, kD, signs), rv = d.Param(kD, kD, gen::Dyadic(1, 4));
    const int eta = d.ScalarParam(gen::PositiveDyadic(2, 4));
    const int t = d.ScalarParam(rc::gen::oneOf(rc::gen::just(Exact(1.0)), gen::PositiveDyadic(1, 8)));
    for (const auto& [w, r] : {std::pair{kWq, rq}, std::pair{kWk, rk}, std::pair{kWv, rv}})
      d.Built(
          w, kD, kD,
          [eta, r = r](const Domain::Drawn& in) {
            ExactMatrix m = in.Param(r);
            for (Exact& x : m.data) x = Exact(in.ScalarParam(eta).ToRational() * x.ToRational());
            return m;
          },
          normal);
    d.Built(kEta, [eta](const Domain::Drawn& in) { return in.ScalarParam(eta); }, normal);
    d.Built(
        kBeta,
        [eta, t](const Domain::Drawn& in) {
          const Rational res = MaxNorm<Rational>(Res<Rational>(in.fields()[kX].As<Rational>()));
          const Rational e = in.ScalarParam(eta).ToRational(), tt = in.ScalarParam(t).ToRational();
          return Exact(res == 0 ? tt : Rational(tt / (res * res * e * e)));
        },
        normal.Positive());
    d.Assume("||Wq||, ||Wk||, ||Wv|| <= eta", [](const Values& v) {
      const Rational e = v[kEta].ToRational();
      for (const MatrixField w : {kWq, kWk, kWv})
        if (MaxNorm<Rational>(v[w].As<Rational>()) > e) return false;
      return true;
    });
    d.Assume("beta <= 1/(||Res X||^2 eta^2)", [](const Values& v) {
      const Rational r = MaxNorm<Rational>(Res<Rational>(v[kX].As<Rational>())), e = v[kEta].ToRational();
      if (r == 0 || e == 0) return true;  // the bound 1/0 is +inf: any beta
      return v[kBeta].ToRational() <= Rational(1) / (r * r * e * e);
    });
    return d;
  }
  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> x = in[kX], wq = in[kWq], wk = in[kWk];
    const S beta = in[kBeta];
    const Mat<S> r = Res<S>(x);
    const Mat<S> e = Mat<S>(beta * (r * (wq * wk.transpose()) * r.transpose()));
    const S balance = MaxBalance<S>(e);
    if constexpr (ScalarTraits<S>::kExact) {
      ExpectThat(balance <= 1, "E is not 1-balanced: max_i D_ii = " + balance.str());
    }
    // As stated: exact in rationals, certified by interval arithmetic
    // otherwise (properties/framework/certify.h), so no rounding budget.
    static const Tolerance kBalance{"max_i D_ii of E = beta Res(X) W Res(X)^T", "1", "the lemma as stated",
                                    MetricKind::kClaim};
    ExpectWithin<S>(kBalance, balance, S(1));
  }
};

ATTNPROP_REGISTER(SoftmaxRatioBound, double, Mpfr, Interval);
ATTNPROP_REGISTER(ThetaBalance, double, Mpfr, Rational, Interval);

}  // namespace
}  // namespace attnprop
