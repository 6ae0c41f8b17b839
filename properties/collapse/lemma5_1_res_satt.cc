// "Only Large Weights (And Not Skip Connections) Can Prevent the Perils of
// Rank Collapse" (004_fc07a226cef95160.txt), Section 5.1, Lemma 5.1.
//
// collapse.lemma5.1.res_satt_contraction
//   X in R^{n x d}, SAtt(X) = softm(X Wq Wk^T X^T) X Wv (Definition 1.1),
//   W = Wq Wk^T, E = beta Res(X) W Res(X)^T theta-balanced (Definition 3.5:
//   max_i D_ii <= theta, D_ii = max_{j,l} |E_ij - E_il|), K = (e^theta - 1)
//   ||Wv||_inf => ||Res(SAtt(X))||_inf <= K ||Res(X)||_inf.
//   beta: the lemma sets beta = 1/sqrt(d_0) with d_0 unspecified while
//   SAtt (Definition 1.1) has no beta; encoded with beta = 1 (d_0 = 1, as
//   CATALOG.md fixes for the collapse claims). This covers the reading where
//   beta enters only through E (SAtt unscaled): for d_0 >= 1, beta <= 1 and
//   E's smallest balance is beta theta_1 <= theta_1 (theta_1 that of R W R^T),
//   so K only shrinks while ||Res(SAtt X)|| does not change. That reading
//   implies the beta = 1 one, and a case refuting beta = 1 refutes it at every
//   d_0 >= 1 (a case that holds says nothing there). beta in SAtt too: .scaled
//   below. theta is the smallest one
//   for which E is theta-balanced (max_i D_ii): the strongest conclusion
//   the hypothesis allows, and the one a refutation must beat. Res: the
//   column-wise midrange selection (model/res.h); the proof works with any
//   decomposition X = 1 x^T + R, so the selection is not what fails.
//   Expected REFUTED for d >= 3: the proof bounds ||softm(r)^T R Wv||_inf by
//   ||R|| ||Wv|| (the false Fact 3.3 (2)); the true factor is d ||R|| ||Wv||.
//   Pinned: n = 2, d = 3, X = ((1,1,1),(-1,-1,-1)) (= Res X), Wq = Wk = I/8,
//   Wv = all ones: E = +-3/64, theta = 3/32, and row 1 of SAtt(X) is
//   3 tanh(3/64)(1,1,1), so ||Res SAtt(X)|| = 0.1405 > K ||Res X|| =
//   e^{3/32} - 1 = 0.0983. In general the ratio is d/(e^theta + 1) for this
//   family: d <= 2 holds there, d >= 3 refutes for small theta.
//   Generated: n up to 6, d up to 6 (MPFR 4), X and the weights in every
//   regime (tiny Wq, Wk beside large Wv; all-equal, rank-one, sign
//   structures) and, in a third of the cases, the aligned family above
//   (rows of X at +-1, Wq = Wk = 2^-t I, Wv = J). Backends double, MPFR,
//   interval (exp).
//
// collapse.lemma5.1.res_satt_contraction.scaled (NEW: the lemma's beta)
//   Our second reading: beta = 1/sqrt(d_0) scales the scores of SAtt too,
//   SAtt(X) = softm(beta X W X^T) X Wv, and E = beta Res(X) W Res(X)^T, for
//   any d_0 >= 1 (drawn in [1,16]). Expected REFUTED for d >= 3 as well
//   (beta only rescales theta; the aligned family's ratio is still
//   d/(e^theta + 1)). Same cases, with d_0.
#include <cmath>
#include <utility>

#include "properties/collapse/network_cases.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

using collapse::MaxNorm;

/// theta of E = R W R^T (beta = 1): its smallest balance (Definition 3.5).
template <class S>
S Theta(const Mat<S>& r, const Mat<S>& w) {
  return collapse::MaxBalance<S>(Mat<S>(r * w * r.transpose()));
}

constexpr Axis kN{"n"}, kD{"d"};
constexpr MatrixField kX{"X"}, kWq{"Wq"}, kWk{"Wk"}, kWv{"Wv"};
constexpr ScalarField kD0{"d0"};

/// beta = 1/sqrt(d_0) in the scaled reading, 1 otherwise.
template <bool kScaled, class S>
S Beta(const Case& c) {
  using std::sqrt;
  if constexpr (kScaled) return S(1 / sqrt(c.Get<S>(kD0.name)));
  return S(1);
}

/// kScaled: beta = 1/sqrt(d_0) in SAtt and E (the scaled reading); else
/// beta = 1.
template <bool kScaled>
struct Lemma51Family {
  // Shapes: X n x d, the weights d x d (n, d >= 1), all drawn in every
  // regime. Domain where the check is computable in double: n, d <= 16,
  // entries finite with |.| <= 2^8: scores and E <= d^3 2^32, but theta
  // enters e^theta, so theta <= 600 (checked in 256-bit MPFR) keeps K finite.
  template <class S> static Domain Hypotheses() {
    const int64_t max_n = SizeBudget<S>::Pick(6, 4), max_d = SizeBudget<S>::Pick(6, 4);
    gen::Regime xr = gen::RegimeFor<S>(gen::Regime{}), wr = xr;
    xr.max_abs = 2, xr.max_scale = 2;
    wr.max_scale = 2;
    const Admit entries = Admit::Within(0x1p8);
    Domain d;
    d.Dim(kN, {1, max_n, max_n}, 16).Dim(kD, {1, max_d, max_d}, 16);
    const int xp = d.Param(kN, kD, xr), wqp = d.Param(kD, kD, wr), wkp = d.Param(kD, kD, wr),
              wvp = d.Param(kD, kD, wr);
    // A third of the cases are the aligned family, where the proof's false
    // step (Fact 3.3 (2)) loses its factor d: rows of X at +-1 (the sign of
    // each drawn row's first entry), Wq = Wk = 2^-t I (t in [1,8]: small
    // theta), Wv = J. The ratio there is d/(e^theta + 1).
    const int aligned = collapse::AlignedFamily(d);
    const int t = d.ScalarParam(gen::UniformInteger(1, 8));
    const auto is_aligned = [aligned](const Domain::Drawn& in) { return collapse::InAlignedFamily(in, aligned); };
    collapse::RowsAtSignsWhenAligned(d, kX, kN, kD, xp, aligned, entries);
    for (const auto& [field, param] : {std::pair{kWq, wqp}, std::pair{kWk, wkp}})
      d.Built(
          field, kD, kD,
          [param = param, t, is_aligned](const Domain::Drawn& in) {
            ExactMatrix w = in.Param(param);
            if (!is_aligned(in)) return w;
            const double diag = std::ldexp(1.0, -static_cast<int>(in.ScalarParam(t).ToDouble()));
            for (int64_t i = 0; i < w.rows; ++i)
              for (int64_t j = 0; j < w.cols; ++j) w(i, j) = Exact(i == j ? diag : 0.0);
            return w;
          },
          entries);
    d.Built(
        kWv, kD, kD,
        [wvp, is_aligned](const Domain::Drawn& in) {
          ExactMatrix w = in.Param(wvp);
          if (is_aligned(in))
            for (Exact& e : w.data) e = Exact(1.0);
          return w;
        },
        entries);
    if (kScaled) d.Scalar(kD0, gen::UniformInteger(1, 16), Admit::Within(1024).Positive().OnGrid(1));
    d.Assume("beta theta <= 600 (computability: e^theta finite in double)", [](const Values& v) {
      MpfrPrecisionScope precise(256);
      const Mat<Mpfr> r = Res<Mpfr>(v[kX].As<Mpfr>());
      return Beta<kScaled, Mpfr>(v.value()) * Theta<Mpfr>(r, Mat<Mpfr>(v[kWq].As<Mpfr>() * v[kWk].As<Mpfr>().transpose())) <=
             600;
    });
    return d;
  }
  template <class S> static void Conclusion(const In<S>& in) {
    using std::exp;
    const Mat<S> x = in[kX], wq = in[kWq], wk = in[kWk], wv = in[kWv];
    const Mat<S> w = wq * wk.transpose();
    const Mat<S> r = Res<S>(x);
    const S beta = Beta<kScaled, S>(in.value());
    const S theta = S(beta * Theta<S>(r, w));  // E = beta R W R^T: its balance scales by beta > 0
    const S k = S((exp(theta) - 1) * MaxNorm<S>(wv));
    const Mat<S> y = collapse::Softmv<S>(x, wq, wk, wv, beta);
    const S lhs = MaxNorm<S>(Res<S>(y)), rhs = S(k * MaxNorm<S>(r));
    // As stated; certified by interval arithmetic (properties/framework/
    // certify.h), so no rounding budget.
    static const Tolerance kContraction{"||Res(SAtt X)||_inf", "K ||Res X||_inf",
                                        kScaled ? "our reading: beta = 1/sqrt(d_0) in SAtt and E" : "the lemma as stated",
                                        MetricKind::kClaim};
    ExpectWithin<S>(kContraction, lhs, rhs);
  }
};

struct Lemma51 : Lemma51Family<false>, ClaimId<"collapse.lemma5.1.res_satt_contraction"> {};
struct Lemma51Scaled : Lemma51Family<true>, ClaimId<"collapse.lemma5.1.res_satt_contraction.scaled"> {};

ATTNPROP_REGISTER(Lemma51, double, Mpfr, Interval);
ATTNPROP_REGISTER(Lemma51Scaled, double, Mpfr, Interval);

}  // namespace
}  // namespace attnprop
