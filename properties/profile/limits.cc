// The almost-sure limits of the profile (001_4e20808ed1137a14.txt):
//
// profile.sorted_LLN_limit ("Let X > 0 a.s. with finite nonzero second
//   moment, u, v > 0, rho = u/v; alpha_n, beta_n the decreasing sortings of
//   vX_1..vX_n and uX'_1..uX'_n. Then [elided]"; reconstruction, CATALOG.md):
//   a.s. 2<alpha_n,beta_n>/(|alpha_n|^2 + |beta_n|^2) -> 2rho/(1+rho^2),
//   |(alpha_n - beta_n)_+|^2/(...) -> (1-rho)_+^2/(1+rho^2), and the
//   negative part -> (rho-1)_+^2/(1+rho^2).
// profile.symmetric_limit_curve (S_n symmetric, N_n >= 2n, eigenvalues
//   vX_i, -uX'_i and zeros): a.s. pi(S_n) -> (0, b*, c*, d*) =
//   p(pi(rank-one L, t = (1-rho)/sqrt(1+rho^2))), p(a,b,c,d) = (0, a+b, c, d).
// profile.symmetric_limit_edges: rho in (0,1] traces the edge {d = 0},
//   rho in [1, inf) the edge {c = 0}.
//
// Finite-n form of the limits, with a rate (laws with X in (0, 1]: uniform,
// U^2, the two-point law {1/4, 1}: the claim allows any X > 0 with a finite
// second moment; the rate below uses X <= 1):
//   with m = mean X_(i)^2, m' = mean X'_(i)^2, k = mean X_(i) X'_(i) and
//   W = mean |X_(i) - X'_(i)| (sorted samples: W = W_1(F_n, F'_n)),
//   |k - m|, |k - m'| <= W (X <= 1), hence
//   |b_n - b*| <= b* W / (k - W);
//   |c_n - c*| <= [u W (2|v-u| + u) + (v-u)_+^2 2u^2 W/(u^2+v^2)] / ((A+B)/n);
//   |d_n - d*| <= [v W (2|u-v| + v) + (u-v)_+^2 2v^2 W/(u^2+v^2)] / ((A+B)/n)
//   ((x+e)_+^2 - x_+^2 <= |e|(2|x| + |e|) with x = (v-u)X_(i), e = u(X_(i) - X'_(i))).
//   W <= W_1(F_n,F) + W_1(F'_n,F) <= |F_n - F|_inf + |F'_n - F|_inf (support
//   in [0,1]), and DKW-Massart gives P(|F_n - F|_inf > eps) <= 2 exp(-2n eps^2):
//   with eps = sqrt(ln(4/alpha)/(2n)) and W_bar = 2 eps, P(W > W_bar) <=
//   alpha = 1e-6 per case (exact, no normal approximation): the bounds above
//   with W_bar are the finite-n statement, rate O(n^{-1/2}).
//   Power (n = 50000, W_bar = 0.0247): a claimed limit off by delta is
//   refuted with probability >= 1 - alpha once delta exceeds twice the bound,
//   e.g. 0.16 b* (uniform X, k ~ 1/3), 0.10 b* (two-point X).
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "model/profile.h"
#include "properties/framework/case_edit.h"
#include "properties/framework/property.h"
#include "properties/profile/profile_checks.h"

namespace attnprop {
namespace {

constexpr int64_t kSamples = 50000;
constexpr double kAlpha = 1e-6;

constexpr ScalarField kU{"u"}, kV{"v"};
constexpr IntField kLaw{"law"}, kSeed{"seed"}, kPad{"pad"};

/// u, v = k/4 (k in 1..16), the law of X (0 uniform, 1 U^2, 2 {1/4, 1}), a
/// seed, padding zeros. Hypotheses: u, v > 0 finite doubles (<= 2^20,
/// >= 2^-20: rho, the sums and the bounds stay normal in double), law in
/// {0, 1, 2}, seed >= 0, pad in [0, 1000] (drawn in [0, 3]).
Domain LimitDomain() {
  const rc::Gen<Exact> quarters = rc::gen::map(rc::gen::inRange<int>(1, 17), [](int k) { return Exact(k / 4.0); });
  const Admit admit = Admit::Within(0x1p20).NonzeroAtLeast(0x1p-20).Positive().Doubles();
  Domain d;
  d.Scalar(kU, quarters, admit).Scalar(kV, quarters, admit);
  d.Int(kLaw, rc::gen::inRange<int64_t>(0, 3), 0, 2);
  d.Int(kSeed, rc::gen::inRange<int64_t>(0, int64_t{1} << 40), 0, std::numeric_limits<int64_t>::max());
  d.Int(kPad, rc::gen::inRange<int64_t>(0, 4), 0, 1000);
  return d;
}

struct LimitRun {
  double b, c, d;            // the finite-n quantities
  double b_star, c_star, d_star;
  double bound_b, bound_c, bound_d;  // with W_bar
  double w, w_bar;
};

LimitRun Run(const Values& c) {
  const double u = c[kU].ToDouble(), v = c[kV].ToDouble();
  const int64_t law = c[kLaw];
  EditRng rng(static_cast<uint64_t>(c[kSeed]) * 0x2545f4914f6cdd1dULL + 3);
  auto draw = [&] {
    const double w = (static_cast<double>(rng.Next() >> 11) + 1) * 0x1p-53;  // in (0, 1]
    return law == 0 ? w : law == 1 ? w * w : (w <= 0.5 ? 0.25 : 1.0);
  };
  std::vector<double> x(kSamples), y(kSamples);
  for (double& e : x) e = draw();
  for (double& e : y) e = draw();
  std::sort(x.begin(), x.end(), std::greater<double>());
  std::sort(y.begin(), y.end(), std::greater<double>());
  double a2 = 0, b2 = 0, ab = 0, cp = 0, cm = 0, k = 0, w = 0;
  for (int64_t i = 0; i < kSamples; ++i) {
    const double al = v * x[size_t(i)], be = u * y[size_t(i)], diff = al - be;
    a2 += al * al, b2 += be * be, ab += al * be;
    if (diff > 0) cp += diff * diff;
    if (diff < 0) cm += diff * diff;
    k += x[size_t(i)] * y[size_t(i)], w += std::abs(x[size_t(i)] - y[size_t(i)]);
  }
  const double n = kSamples, total = a2 + b2;
  LimitRun r{};
  r.b = 2 * ab / total, r.c = cp / total, r.d = cm / total;
  const double rho = u / v, q = 1 + rho * rho;
  r.b_star = 2 * rho / q, r.c_star = std::pow(std::max(1 - rho, 0.0), 2) / q, r.d_star = std::pow(std::max(rho - 1, 0.0), 2) / q;
  r.w = w / n, r.w_bar = 2 * std::sqrt(std::log(4 / kAlpha) / (2 * n));
  const double wb = r.w_bar, kk = k / n, den = total / n, uv2 = u * u + v * v;
  // Sums of n terms in double: relative gamma_n on every quantity (4 of them).
  const double round = 4 * Gamma(n + 4, 0x1p-53);
  r.bound_b = kk > wb ? r.b_star * wb / (kk - wb) + round : 1.0;
  r.bound_c = (u * wb * (2 * std::abs(v - u) + u) + std::pow(std::max(v - u, 0.0), 2) * 2 * u * u * wb / uv2) / den + round;
  r.bound_d = (v * wb * (2 * std::abs(u - v) + v) + std::pow(std::max(u - v, 0.0), 2) * 2 * v * v * wb / uv2) / den + round;
  return r;
}

struct LimitFamily {
  // The header's rates: DKW-Massart for both samples; power 1 - alpha once
  // the claimed limit is off by more than twice the bound.
  static inline const Statistics kStatistics{
      kAlpha, "case", "DKW-Massart (support in [0,1])", true, 1 - kAlpha,
      "a limit off by more than twice the finite-n bound (0.16 b* uniform X, 0.10 b* two-point X)",
      "n = 50000 draws of X and of X' per case"};
  template <class S> static Domain Hypotheses() { return LimitDomain(); }
  static inline const Tolerance kDkw{"W_1 of the two sorted samples", "W_bar = 2 sqrt(ln(4/alpha)/(2n))",
                                     "DKW-Massart for each sample (support in [0,1]): false alarm <= alpha = 1e-6"};
  static inline const Tolerance kB{"|b_n - 2rho/(1+rho^2)|", "b* W_bar/(k - W_bar)",
                                   "|k - m|, |k - m'| <= W (header); holds whenever W <= W_bar"};
  static inline const Tolerance kC{"|c_n - (1-rho)_+^2/(1+rho^2)|", "[u W_bar(2|v-u|+u) + (v-u)_+^2 2u^2 W_bar/(u^2+v^2)]/((A+B)/n)",
                                   "Lipschitz bound of (.)_+^2 along the coupling (header)"};
  static inline const Tolerance kD{"|d_n - (rho-1)_+^2/(1+rho^2)|", "the same with u and v exchanged", "as kC"};
  static void CheckLimits(const LimitRun& r) {
    ExpectWithin(kDkw, r.w, r.w_bar);
    ExpectWithin(kB, std::abs(r.b - r.b_star), r.bound_b);
    ExpectWithin(kC, std::abs(r.c - r.c_star), r.bound_c);
    ExpectWithin(kD, std::abs(r.d - r.d_star), r.bound_d);
  }
};

struct SortedLlnLimit : LimitFamily, ClaimId<"profile.sorted_LLN_limit"> {
  template <class S> static void Conclusion(const In<S>& in) {
    CheckLimits(Run(Values(in.value())));
  }
};
ATTNPROP_REGISTER(SortedLlnLimit, double);

struct SymmetricLimitCurve : LimitFamily, ClaimId<"profile.symmetric_limit_curve"> {
  template <class S> static void Conclusion(const In<S>& in) {
    // pi(S_n) for S_n = diag(vX, -uX', 0_pad): a = 0 (symmetric), and b, c, d
    // from the sorted positive and negative parts padded to N_n = 2n + pad:
    // the zeros change no coordinate, so pi(S_n) = (0, b_n, c_n, d_n).
    const LimitRun r = Run(Values(in.value()));
    CheckLimits(r);
    // The limit is p(pi(rank-one L)) with t = (1 - rho)/sqrt(1 + rho^2):
    // L = x y^T, x = (1, 0), y = (t, s), t^2 + s^2 = 1 (unit norm, tr = t).
    const double u = in.exact(kU).ToDouble(), v = in.exact(kV).ToDouble(), rho = u / v;
    const double t = (1 - rho) / std::sqrt(1 + rho * rho), s = std::sqrt(std::max(0.0, 1 - t * t));
    Mat<double> l(2, 2);
    l << t, s, 0, 0;
    const auto pi = Profile<double>(l);
    ExpectThat(pi.has_value(), "eigen-solver did not converge");
    const double eu = 0x1p-53;
    const double diff = std::max({std::abs(pi->a + pi->b - r.b_star), std::abs(pi->c - r.c_star),
                                  std::abs(pi->d - r.d_star)});
    static const Tolerance kRankOne{
        "max_coord |p(pi(L_t)) - (0, b*, c*, d*)|", "2 ProfileCoordinateBound(2, u, 2u) + 4u",
        "L_t = x y^T unit norm with tr = t (2 x 2, computed in double: entries within 2u of exact), pi by the "
        "eigen-solver (ProfileCoordinateBound), the limit formula in double (4u)"};
    ExpectWithin(kRankOne, diff, 2 * ProfileCoordinateBound(2, eu, 2 * eu) + 4 * eu);
  }
};
ATTNPROP_REGISTER(SymmetricLimitCurve, double);

// profile.symmetric_limit_edges, exactly in rationals for rational rho = u/v:
// the limit point (0, b*, c*, d*) has b* + c* + d* = 1 and d* = 0 for rho <= 1
// (c* = 0 for rho >= 1): it lies on the edge; rho -> b* is strictly increasing
// on (0, 1] and strictly decreasing on [1, inf) (b*(r) < b*(r') checked for
// the drawn pair), with b*(1) = 1: the image covers the edge, each point
// (0, b, 1 - b, 0), 0 < b <= 1, being hit at rho = (1 - sqrt(1 - b^2))/b
// = b/(1 + sqrt(1 - b^2)) (the second form has no cancellation for small b:
// the targeted search found the first one losing 2 log2(1/b) bits).
// That witness is checked in MPFR: for the drawn b (= b* of the drawn rho'),
// rho computed from b gives back b* within 16 gamma_6(u_mpfr).
constexpr ScalarField kEdgeU{"u"}, kEdgeV{"v"}, kEdgeU2{"u2"};

struct SymmetricLimitEdges : ClaimId<"profile.symmetric_limit_edges"> {
  // u, v, u2 doubles in [2^-20, 2^20] (u, v > 0: rho = u/v in (0, inf);
  // the bounds keep rho, rho^2 and b* normal in double). Drawn: k/4 with k
  // in [1, 16] each.
  template <class S> static Domain Hypotheses() {
    const rc::Gen<Exact> quarters = rc::gen::map(rc::gen::inRange<int>(1, 17), [](int k) { return Exact(k / 4.0); });
    const Admit admit = Admit::Within(0x1p20).NonzeroAtLeast(0x1p-20).Positive().Doubles();
    Domain d;
    d.Scalar(kEdgeU, quarters, admit).Scalar(kEdgeV, quarters, admit).Scalar(kEdgeU2, quarters, admit);
    return d;
  }
  template <class S> static void Conclusion(const In<S>& in) {
    if constexpr (std::is_same_v<S, Rational>) {
      const Rational u = in.exact(kEdgeU).ToRational(), v = in.exact(kEdgeV).ToRational(),
                     u2 = in.exact(kEdgeU2).ToRational();
      auto point = [](const Rational& rho) {
        const Rational q = 1 + rho * rho, b = 2 * rho / q;
        const Rational cpart = rho < 1 ? Rational((1 - rho) * (1 - rho) / q) : Rational(0),
                       dpart = rho > 1 ? Rational((rho - 1) * (rho - 1) / q) : Rational(0);
        return std::array<Rational, 3>{b, cpart, dpart};
      };
      const Rational rho = u / v, rho2 = u2 / v;
      const auto p = point(rho);
      ExpectThat(p[0] + p[1] + p[2] == 1, "the limit point is not in the simplex");
      if (rho <= 1) ExpectThat(p[2] == 0, "rho <= 1 but the limit is off the edge d = 0");
      if (rho >= 1) ExpectThat(p[1] == 0, "rho >= 1 but the limit is off the edge c = 0");
      if (rho == 1) ExpectThat(p[0] == 1, "b*(1) != 1");
      // Monotone on each side of 1 (so each edge is traced once).
      const auto p2 = point(rho2);
      if (rho < rho2 && rho2 <= 1) ExpectThat(p[0] < p2[0], "b* not increasing on (0, 1]");
      if (1 <= rho && rho < rho2) ExpectThat(p[0] > p2[0], "b* not decreasing on [1, inf)");
    } else {
      using std::sqrt;
      const S b = [&] {
        const S rho = in[kEdgeU] / in[kEdgeV];
        return S(2 * rho / (1 + rho * rho));
      }();
      const S rho = b / (1 + sqrt(std::max(S(0), S(1 - b * b))));  // the witness on (0, 1]
      const S back = 2 * rho / (1 + rho * rho);
      ExpectThat(rho > 0 && rho <= 1, "the witness rho is not in (0, 1]");
      static const Tolerance kWitness{
          "|b*(rho(b)) - b|", "16 gamma_6(u)",
          "rho = b/(1 + s), s = sqrt(1 - b^2): s within u/(2s) + u (1 - b^2 within 2u absolutely), rho within "
          "rho (u/(2s) + 4u); 1 - rho^2 = 2s/(1+s), so |d b*/d rho| = 4s/((1+s)(1+rho^2)^2) <= 4s and b* moves by "
          "<= 2u rho + 16u s rho <= 18u; b*'s 3 operations add 3.01u: 22u <= 16 gamma_6"};
      ExpectWithin(kWitness, ToDouble(S(abs(back - b))), 16 * Gamma(6, ScalarTraits<S>::UnitRoundoff()));
    }
  }
};
ATTNPROP_REGISTER(SymmetricLimitEdges, Rational, Mpfr);

}  // namespace
}  // namespace attnprop
