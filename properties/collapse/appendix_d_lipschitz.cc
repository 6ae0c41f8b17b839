// "Only Large Weights (And Not Skip Connections) Can Prevent the Perils of
// Rank Collapse" (004_fc07a226cef95160.txt), Appendix D.2-D.3, Lemmas D.5
// and D.6. softm(X) = softm(X W X^T), W = Wq Wk^T (beta = 1), softmv(X) =
// softm(X) X Wv; entrywise max norm.
//
// collapse.lemmaD.5.part1
//   ||Y - X|| <= 2||X||, K1 = 12||X|| ||W|| => ||softm(X) - softm(Y)|| <= K1 ||X - Y||.
// collapse.lemmaD.5.part2
//   same, K2 = K1 ||X|| ||Wv|| + ||Wv|| => ||softmv(X) - softmv(Y)|| <= K2 ||X - Y||.
//   Both proofs use the false Fact 3.3 (2) (the true factor is d): expected
//   REFUTED, for d >= 3.
//   Generated (PairCase): n, d up to 5 (MPFR 4), X and the weights in every
//   regime (weights at scales 2^-20..2^6), Y = X + Delta with Delta = 2||X|| r,
//   r in [-1,1]; in a third of the cases the aligned family (rows of X at +-1,
//   Wq = Wk = 2^-t J, Y = (1 + 2 rho) X), where the factor d shows.
//
// collapse.lemmaD.6.layer_lipschitz
//   X_l the l-th layer output of a network with ||X_0|| <= phi0 and all
//   weights ||.||_inf <= eta, ||Y - X_l|| <= 2||X_l||, eps_l = 2 eta phi0
//   (1+H eta)^l => ||softmv(X_l) - softmv(Y)|| <= 3 eta (eps_l^2 + 1).
//   Expected REFUTED (the bound lacks the factor ||X - Y||): n = d = 1,
//   phi0 = 16, eta = 1/64, H = 1, l = 1 with a first layer Wv = 0 (so X_1 =
//   X_0 = (16)), the head Wq = Wk = 0, Wv = (1/64), Y = (48): softmv is X Wv
//   exactly (1 token), the difference is 1/2 > 3 eta (eps_1^2 + 1) = 0.059.
//   Checked on that pinned case and on random networks (network_layers.cc:
//   l in [1,2], H in [1,3], n <= 5, d <= 4 (MPFR 4, 3), every weight within
//   eta); Delta's hypothesis is checked in 256-bit MPFR.
// Backends double, MPFR, interval (exp): no rounding budget, refutations
// certified in intervals.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "properties/collapse/collapse_cases.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

using collapse::MaxNorm;

constexpr Axis kN{"n"}, kD{"d"};
constexpr MatrixField kX{"X"}, kY{"Y"}, kWq{"Wq"}, kWk{"Wk"}, kWv{"Wv"};

/// X (n x d, up to 2) and the weights (up to 1, at scales 2^-20..2^6: the
/// bound 12||X|| ||W|| ||X - Y|| is tight only for small weights) in every
/// regime; Y = X + 2||X|| r with r in [-1,1] (half the entries +-1), handed
/// to the backend by DerivedArithFor (rounded for double: a rounding that
/// leaves ||Y - X|| <= 2||X|| discards the case).
/// The lemma's ||Y - X|| <= 2||X|| (exactly), X and Y n x d, the weights
/// d x d (n, d >= 1); domain: entries finite with |.| <= 2^60 and n, d <=
/// 64: the scores X Wq Wk^T X^T (<= d^3 2^240), K1, K2 and the budget
/// finite in double (softmax subtracts the row maximum).
template <class S>
Domain PairCase() {
  const int64_t max_n = SizeBudget<S>::Pick(5, 4), max_d = SizeBudget<S>::Pick(5, 4);
  gen::Regime xr = gen::RegimeFor<S>(gen::Regime{}), wr = xr;
  xr.max_abs = 2, xr.max_scale = 2;
  const Admit entries = Admit::Within(0x1p60);
  Domain d;
  d.Dim(kN, {1, max_n, max_n}, 64).Dim(kD, {1, max_d, max_d}, 64);
  const int xp = d.Param(kN, kD, xr);
  const int wq = d.Param(kD, kD, wr), wk = d.Param(kD, kD, wr), wv = d.Param(kD, kD, wr);
  const int r = d.Param(kN, kD, rc::gen::oneOf(rc::gen::element(Exact(-1.0), Exact(1.0)), gen::Dyadic(1, 6)));
  // A third of the cases are the aligned family, where the proofs' false
  // step (Fact 3.3 (2)) loses its factor d: rows of X at +-1 (the sign of
  // each drawn row's first entry), Wq = Wk = 2^-t J (t in [4,11]: small
  // scores, where softmax is steepest), Y = (1 + 2 rho) X (rho in {1/4, 1/2,
  // 1}: ||Y - X|| = 2 rho ||X||). There ||softm(X) - softm(Y)|| / (K1 ||X -
  // Y||) reaches about d^2/6 at rho = 1 (1.5 at d = 3).
  const int aligned = collapse::AlignedFamily(d);
  const int t = d.ScalarParam(gen::UniformInteger(4, 11));
  const int rho = d.ScalarParam(rc::gen::element(Exact(1.0), Exact(0.5), Exact(0.25)));
  const auto is_aligned = [aligned](const Domain::Drawn& in) { return collapse::InAlignedFamily(in, aligned); };
  collapse::RowsAtSignsWhenAligned(d, kX, kN, kD, xp, aligned, entries);
  d.Built(
      kY, kN, kD,
      [r, rho, is_aligned](const Domain::Drawn& in) {
        const ExactMatrix& x = in.fields()[kX];
        ExactMatrix rm = in.Param(r);
        if (is_aligned(in)) {
          const double step = in.ScalarParam(rho).ToDouble();
          for (size_t k = 0; k < rm.data.size(); ++k) rm.data[k] = Exact(x.data[k].ToDouble() < 0 ? -step : step);
        }
        Rational nx = 0;
        for (const Exact& e : x.data) nx = std::max(nx, Rational(abs(e.ToRational())));
        Mat<Rational> y(x.rows, x.cols);
        for (int64_t i = 0; i < x.rows; ++i)
          for (int64_t j = 0; j < x.cols; ++j) y(i, j) = x(i, j).ToRational() + 2 * nx * rm(i, j).ToRational();
        return gen::FromRationals(y, gen::DerivedArithFor<S>());
      },
      entries);
  for (const auto& [w, m] : {std::pair{kWq, wq}, std::pair{kWk, wk}})
    d.Built(
        w, kD, kD,
        [m = m, t, is_aligned](const Domain::Drawn& in) {
          ExactMatrix weight = in.Param(m);
          if (is_aligned(in))
            for (Exact& e : weight.data) e = Exact(std::ldexp(1.0, -static_cast<int>(in.ScalarParam(t).ToDouble())));
          return weight;
        },
        entries);
  d.Built(kWv, kD, kD, [wv](const Domain::Drawn& in) { return in.Param(wv); }, entries);
  d.Assume("||Y - X|| <= 2||X||", [](const Values& v) {
    const Mat<Rational> x = v[kX].As<Rational>(), y = v[kY].As<Rational>();
    return MaxNorm<Rational>(Mat<Rational>(y - x)) <= 2 * MaxNorm<Rational>(x);
  });
  return d;
}

template <class S>
void CheckD5(const In<S>& in, bool part2, const Tolerance& tolerance) {
  const Mat<S> x = in[kX], y = in[kY], wq = in[kWq], wk = in[kWk], wv = in[kWv];
  const Mat<S> w = wq * wk.transpose();
  const S nx = MaxNorm<S>(x), dxy = MaxNorm<S>(Mat<S>(x - y));
  const S k1 = S(12 * nx * MaxNorm<S>(w));
  const S k2 = S(k1 * nx * MaxNorm<S>(wv) + MaxNorm<S>(wv));
  const Mat<S> px = collapse::SoftmW<S>(x, wq, wk, S(1)), py = collapse::SoftmW<S>(y, wq, wk, S(1));
  const S lhs = part2 ? MaxNorm<S>(Mat<S>(px * x * wv - py * y * wv)) : MaxNorm<S>(Mat<S>(px - py));
  ExpectWithin<S>(tolerance, lhs, S((part2 ? k2 : k1) * dxy));
}

/// Both parts of Lemma D.5 share their hypotheses (||Y - X|| <= 2||X||,
/// square weights) and their cases.
struct D5Family {
  template <class S> static Domain Hypotheses() { return PairCase<S>(); }
};

struct D5Part1 : D5Family, ClaimId<"collapse.lemmaD.5.part1"> {
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kDistance{
        "||softm(X) - softm(Y)||_inf", "K1 ||X-Y||", "the lemma as stated", MetricKind::kClaim};
    CheckD5<S>(in, false, kDistance);
  }
};

struct D5Part2 : D5Family, ClaimId<"collapse.lemmaD.5.part2"> {
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kDistance{
        "||softmv(X) - softmv(Y)||_inf", "K2 ||X-Y||", "the lemma as stated", MetricKind::kClaim};
    CheckD5<S>(in, true, kDistance);
  }
};

// Certified by interval arithmetic (properties/framework/certify.h): the
// checks state the lemma with no rounding budget.
ATTNPROP_REGISTER(D5Part1, double, Mpfr, Interval);
ATTNPROP_REGISTER(D5Part2, double, Mpfr, Interval);

}  // namespace
}  // namespace attnprop
