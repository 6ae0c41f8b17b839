// The almost-sure limits of the profile (001_4e20808ed1137a14.txt):
//
// profile.sorted_LLN_limit ("Let X > 0 a.s. with finite nonzero second
//   moment, u, v > 0, rho = u/v; alpha_n, beta_n the decreasing sortings of
//   vX_1..vX_n and uX'_1..uX'_n. Then [elided]"; reconstruction, CATALOG.md):
//   a.s. b_n = 2<alpha_n,beta_n>/(|alpha_n|^2 + |beta_n|^2) -> 2rho/(1+rho^2),
//   c_n = |(alpha_n - beta_n)_+|^2/(...) -> (1-rho)_+^2/(1+rho^2), and the
//   negative part d_n -> (rho-1)_+^2/(1+rho^2).
// profile.symmetric_limit_curve (S_n symmetric, N_n >= 2n, eigenvalues
//   vX_i, -uX'_i and zeros): a.s. pi(S_n) -> (0, b*, c*, d*) =
//   p(pi(rank-one L, t = (1-rho)/sqrt(1+rho^2))), p(a,b,c,d) = (0, a+b, c, d).
//   pi(S_n) is the model's (model/profile.h, SymmetricProfileFromSpectrum:
//   S_n, of size 2n + pad, is too large to form) from its whole spectrum,
//   the pad zeros included.
// profile.symmetric_limit_edges: rho in (0,1] traces the edge {d = 0},
//   rho in [1, inf) the edge {c = 0}.
//
// Laws: X = 2^scale Q(W), W uniform on the grid (k + 1/2) 2^-52 (k uniform
// in [0, 2^52): W = g(U) with U uniform on (0, 1), g nondecreasing), Q
// nondecreasing: uniform (Q(w) = w), U^2, the two-point law {1/4, 1}, the
// exponential (-log1p(-w): unbounded support, up to 36.7 on the grid) and
// 1 + exponential; scale in [-8, 8]. Each is > 0 with a finite nonzero
// second moment, as the claim asks (and a finite fourth, which the rate uses).
//
// Finite-n form, rigorous, with a rate. M = sum x_i^2, M' = sum x'_i^2,
// D^2 = sum (x_(i) - x'_(i))^2 (sorted), T = v^2 M + u^2 M', r = M'/M:
//   b_n = uv (M + M' - D^2)/T = uv(1 + r)/(v^2 + u^2 r) - uv D^2/T;
//   c_n = (v-u)_+^2/(v^2 + u^2 r) +- E_c/T, writing v x_(i) - u x'_(i) =
//     a_i + e_i, a_i = (v-u) x_(i), e_i = u(x_(i) - x'_(i)), and
//     |(a+e)_+^2 - a_+^2| <= |e|(2|a| + |e|): E_c = sum |e_i|(2|a_i| + |e_i|),
//     at most 2u|v-u| D sqrt(M) + u^2 D^2 (Cauchy-Schwarz) and at most
//     sum_i u w_i (2|v-u| xh_i + u w_i) (the band below, w_i = xh_i - xl_i);
//   d_n likewise with (u-v)_+ (a_i = (u-v) x_(i), the same |e_i|).
// At r = 1, D = 0 these are the limits b*, c*, d*, and each is monotone in
// r, so |b_n - b*| <= max_{r = 1 +- e} |f(r) - f(1)| + uv D^2/T with f(r) =
// uv(1+r)/(v^2+u^2 r) (c, d likewise) once |r - 1| <= e. The bound is
// computed from f, never from the claimed limit (which is what is checked).
// Two events of probability >= 1 - alpha/2 each (alpha = 1e-6 per case) give
// e and D^2:
//   |M - M'| <= t (Bernstein for the n iid X_i^2 - X'_i^2: |.| <= max X^2 =
//     X2, variance <= 2 E X^4; t = X2 L/3 + sqrt((X2 L/3)^2 + 4 n E X^4 L),
//     L = ln(4/alpha)); e = t/M. E X^4 of the continuous law bounds the
//     grid's (Q^4 convex: the cell midpoints undershoot the cell averages);
//   D^2 <= sum_i w_i^2: every x_(i), x'_(i) lies in [xl_i, xh_i] =
//     [s Q(g(lo_i)), s Q(g(hi_i))] (order_band.h, n = 2^19, both samples).
// Checks: |M - M'| <= t, D^2 <= sum w_i^2 (the events; a failure there is a
// false alarm w.p. <= alpha), and per coordinate |statistic - limit| <= the
// bound (the rate, O(n^-1/2 log n)).
// Power: a claimed limit off by more than twice the bound in b, c or d is
// refuted with probability >= 1 - alpha; twice the bound at n = 2^19 (at
// M = n E X^2), over u, v in [1/4, 4], is at most: b 0.0075, c and d 0.046
// (uniform); b 0.0094, c, d 0.068 (U^2); b 0.016, c, d 0.079 (two-point);
// b 0.020, c, d 0.155 (exponential); b 0.011, c, d 0.086 (1 + exponential).
// (n = 2^19 keeps a case near 0.05 s; the bounds shrink as n^-1/2.)
// Rounding: the sums of n <= 2^19 terms (gamma < 2^-32), X within 4u: the
// events are compared with a relative slack 2^-28, the limits with an
// absolute 2^-26 (each ratio within 2^-28, two per comparison).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "generators/regime.h"
#include "model/profile.h"
#include "properties/framework/case_edit.h"
#include "properties/framework/property.h"
#include "properties/profile/order_band.h"
#include "properties/profile/profile_checks.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

constexpr int64_t kSamples = int64_t{1} << 19;
constexpr double kAlpha = 1e-6, kSlack = 0x1p-26, kRelSlack = 0x1p-28;

constexpr ScalarField kU{"u"}, kV{"v"};
constexpr IntField kLaw{"law"}, kScale{"scale"}, kSeed{"seed"}, kPad{"pad"};

/// u, v = k/4 (k in 1..16), the law (0 uniform, 1 U^2, 2 {1/4, 1}, 3
/// exponential, 4 1 + exponential), its scale 2^scale, a seed, padding
/// zeros. Hypotheses: u, v > 0 finite doubles (<= 2^20, >= 2^-20), law in
/// [0, 4], scale in [-16, 16] (drawn in [-8, 8]), seed >= 0, pad in [0,
/// 1000] (drawn in [0, 3]): every square and product stays normal in double.
Domain LimitDomain() {
  // Uniform at every RapidCheck size (rc::gen::inRange narrows its range at
  // small sizes: the later laws would come late and seldom).
  const rc::Gen<Exact> quarters =
      rc::gen::map(gen::UniformCount(1, 16), [](int64_t k) { return Exact(static_cast<double>(k) / 4); });
  const Admit admit = Admit::Within(0x1p20).NonzeroAtLeast(0x1p-20).Positive().Doubles();
  Domain d;
  d.Scalar(kU, quarters, admit).Scalar(kV, quarters, admit);
  d.Int(kLaw, gen::UniformCount(0, 4), 0, 4);
  d.Int(kScale, rc::gen::map(gen::UniformInteger(-8, 8), [](Exact e) { return static_cast<int64_t>(e.ToDouble()); }),
        -16, 16);
  d.Int(kSeed, rc::gen::inRange<int64_t>(0, int64_t{1} << 40), 0, std::numeric_limits<int64_t>::max());
  d.Int(kPad, gen::UniformCount(0, 3), 0, 1000);
  return d;
}

/// The law's nondecreasing Q at the grid value w (header).
double Quantile(int64_t law, double w) {
  switch (law) {
    case 0: return w;
    case 1: return w * w;
    case 2: return w <= 0.5 ? 0.25 : 1.0;
    case 3: return -std::log1p(-w);
    default: return 1 - std::log1p(-w);
  }
}
/// E X^4 of the continuous law (scale 1): 1/5, 1/9, (1/256 + 1)/2, 4!, and
/// E(1 + E)^4 = sum_k C(4,k) k! = 65.
double FourthMoment(int64_t law) {
  constexpr double kMoment[] = {1.0 / 5, 1.0 / 9, 257.0 / 512, 24, 65};
  return kMoment[law];
}

/// g(t) = (floor(2^52 t) + 1/2) 2^-52, the grid value of the uniform t.
double GridOf(double t) { return (std::min(std::floor(t * 0x1p52), 0x1p52 - 1) + 0.5) * 0x1p-52; }

/// n grid indices k, iid uniform in [0, 2^52), sorted ascending (LSD radix
/// sort, 4 passes of 13 bits; X = Q(grid value) is sorted with them).
std::vector<uint64_t> SortedGridKeys(EditRng& rng, int64_t n) {
  std::vector<uint64_t> a(static_cast<size_t>(n)), tmp(static_cast<size_t>(n));
  for (uint64_t& k : a) k = rng.Next() >> 12;
  for (int shift = 0; shift < 52; shift += 13) {
    std::vector<size_t> start((size_t{1} << 13) + 1, 0);
    for (const uint64_t k : a) ++start[((k >> shift) & 0x1fff) + 1];
    for (size_t i = 1; i < start.size(); ++i) start[i] += start[i - 1];
    for (const uint64_t k : a) tmp[start[(k >> shift) & 0x1fff]++] = k;
    a.swap(tmp);
  }
  return a;
}

struct LimitRun {
  double u = 0, v = 0;
  std::vector<double> x, y;        // the two samples, sorted ascending
  double m = 0, m2 = 0, d2 = 0;    // M, M', D^2 (header)
  double t = 0, d2_max = 0;        // the events' bounds: |M - M'| <= t, D^2 <= d2_max
  std::array<double, 3> limit{};   // b*, c*, d*
  std::array<double, 3> bound{};   // |b_n - b*|, |c_n - c*|, |d_n - d*| on the events
};

LimitRun Run(const Values& c) {
  LimitRun r;
  r.u = c[kU].ToDouble(), r.v = c[kV].ToDouble();
  const double u = r.u, v = r.v, s = std::ldexp(1.0, static_cast<int>(c[kScale]));
  const int64_t law = c[kLaw];
  EditRng rng(static_cast<uint64_t>(c[kSeed]) * 0x2545f4914f6cdd1dULL + 3);
  for (std::vector<double>* sample : {&r.x, &r.y}) {
    const std::vector<uint64_t> keys = SortedGridKeys(rng, kSamples);
    sample->resize(keys.size());
    for (size_t i = 0; i < keys.size(); ++i) (*sample)[i] = s * Quantile(law, (double(keys[i]) + 0.5) * 0x1p-52);
  }
  for (size_t i = 0; i < r.x.size(); ++i) {
    r.m += r.x[i] * r.x[i], r.m2 += r.y[i] * r.y[i];
    r.d2 += (r.x[i] - r.y[i]) * (r.x[i] - r.y[i]);
  }
  const double rho = u / v, q = 1 + rho * rho;
  r.limit = {2 * rho / q, std::pow(std::max(1 - rho, 0.0), 2) / q, std::pow(std::max(rho - 1, 0.0), 2) / q};
  // Bernstein for M - M'.
  const double nd = static_cast<double>(kSamples), lb = std::log(4 / kAlpha);
  const double x2 = std::pow(s * Quantile(law, (0x1p52 - 0.5) * 0x1p-52), 2) * (1 + kRelSlack);
  const double fourth = FourthMoment(law) * std::pow(s, 4);
  r.t = x2 * lb / 3 + std::sqrt(x2 * lb / 3 * (x2 * lb / 3) + 4 * nd * fourth * lb);
  // The band for D^2 and the direct bound on E_c, E_d.
  static const OrderBand band = MakeOrderBand(kSamples, 2, kAlpha / 2);
  double e_direct = 0;
  for (const OrderBand::Block& k : band.blocks) {
    const double xl = s * Quantile(law, GridOf(k.lo)) * (1 - kRelSlack),
                 xh = s * Quantile(law, GridOf(k.hi)) * (1 + kRelSlack), w = xh - xl, cnt = double(k.count);
    r.d2_max += cnt * w * w;
    e_direct += cnt * u * w * (2 * std::abs(v - u) * xh + u * w);
  }
  // The bounds of the header at r = M'/M in [1 - e, 1 + e].
  const double e = r.t / r.m, total = v * v * r.m + u * u * r.m2;
  const double e_cross =
      std::min(e_direct, 2 * u * std::abs(v - u) * std::sqrt(r.d2_max * r.m) + u * u * r.d2_max) / total;
  // The main terms as functions of r, their spread over [1 - e, 1 + e]
  // around r = 1 (never the claimed limits: those are what is checked).
  auto main_terms = [u, v](double ratio) {
    const double den = v * v + u * u * ratio;
    return std::array<double, 3>{u * v * (1 + ratio) / den, std::pow(std::max(v - u, 0.0), 2) / den,
                                 std::pow(std::max(u - v, 0.0), 2) / den};
  };
  const std::array<double, 3> at_one = main_terms(1);
  for (const double ratio : {1 - e, 1 + e}) {
    const std::array<double, 3> at = main_terms(ratio);
    for (size_t k = 0; k < 3; ++k) r.bound[k] = std::max(r.bound[k], std::abs(at[k] - at_one[k]));
  }
  r.bound[0] += u * v * r.d2_max / total, r.bound[1] += e_cross, r.bound[2] += e_cross;
  if (!(e < 1)) r.bound = {1, 1, 1};  // r's range reaches 0: only the coordinates' range [0, 1] is left
  return r;
}

/// (b_n, c_n, d_n) of the sorted samples (the claim's statistics).
std::array<double, 3> SampleStatistics(const LimitRun& r) {
  double total = 0, ab = 0, cp = 0, cm = 0;
  for (size_t i = 0; i < r.x.size(); ++i) {
    const double al = r.v * r.x[i], be = r.u * r.y[i], diff = al - be;
    total += al * al + be * be, ab += al * be;
    if (diff > 0) cp += diff * diff;
    if (diff < 0) cm += diff * diff;
  }
  return {2 * ab / total, cp / total, cm / total};
}

struct LimitFamily {
  static inline const Statistics kStatistics{
      kAlpha, "case",
      "Bernstein for M - M' and Chernoff bounds on the uniform order statistics (order_band.h), alpha/2 each", true,
      1 - kAlpha,
      "a limit off by more than twice the bound: b 0.0075 (uniform X) .. 0.020 (exponential X), c and d 0.046 "
      "(uniform X) .. 0.155 (exponential X), u, v in [1/4, 4] (header)",
      "n = 2^19 draws of X and of X' per case"};
  template <class S> static Domain Hypotheses() { return LimitDomain(); }
  /// The events (header), then each statistic within its bound of the limit.
  static void CheckLimits(const std::array<double, 3>& stat, const LimitRun& r) {
    static const Tolerance kBernstein{
        "|M - M'|", "t = X2 L/3 + sqrt((X2 L/3)^2 + 4 n E X^4 L) (1 + 2^-28)",
        "Bernstein for n iid X^2 - X'^2 (range X2 = max X^2, variance <= 2 E X^4): false alarm <= alpha/2", MetricKind::kRounding};
    static const Tolerance kBand{"D^2 = sum (x_(i) - x'_(i))^2", "sum_i (xh_i - xl_i)^2 (1 + 2^-28)",
                                 "the order-statistics band (order_band.h): false alarm <= alpha/2", MetricKind::kRounding};
    ExpectWithin(kBernstein, std::abs(r.m - r.m2), r.t * (1 + kRelSlack));
    ExpectWithin(kBand, r.d2, r.d2_max * (1 + kRelSlack));
    static const std::array<Tolerance, 3> kLimit = {
        Tolerance{"|b_n - 2rho/(1+rho^2)|",
                  "max_{r=1+-e} |f(r) - f(1)| + uv D2max/T + 2^-26, f(r) = uv(1+r)/(v^2+u^2 r)",
                  "b_n = uv(1+r)/(v^2+u^2 r) - uv D^2/T (header), on the two events", MetricKind::kClaim},
        Tolerance{"|c_n - (1-rho)_+^2/(1+rho^2)|",
                  "max_{r=1+-e} |g(r) - g(1)| + E_c/T + 2^-26, g(r) = (v-u)_+^2/(v^2+u^2 r)",
                  "c_n = (v-u)_+^2/(v^2+u^2 r) +- E_c/T (header), on the two events", MetricKind::kClaim},
        Tolerance{"|d_n - (rho-1)_+^2/(1+rho^2)|", "as c with (u-v)_+",
                  "as c with u, v exchanged in (.)_+", MetricKind::kClaim}};
    for (size_t k = 0; k < 3; ++k) ExpectWithin(kLimit[k], std::abs(stat[k] - r.limit[k]), r.bound[k] + kSlack);
  }
};

struct SortedLlnLimit : LimitFamily, ClaimId<"profile.sorted_LLN_limit"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const LimitRun r = Run(Values(in.value()));
    CheckLimits(SampleStatistics(r), r);
  }
};
ATTNPROP_REGISTER(SortedLlnLimit, double);

struct SymmetricLimitCurve : LimitFamily, ClaimId<"profile.symmetric_limit_curve"> {
  template <class S> static void Conclusion(const In<S>& in) {
    // S_n's spectrum: vX_i, -uX'_i and pad zeros (N_n = 2n + pad), in
    // decreasing order; pi(S_n) by the model.
    const LimitRun r = Run(Values(in.value()));
    std::vector<double> spectrum;
    spectrum.reserve(r.x.size() + r.y.size() + static_cast<size_t>(in[kPad]));
    for (auto it = r.x.rbegin(); it != r.x.rend(); ++it) spectrum.push_back(r.v * *it);
    spectrum.insert(spectrum.end(), static_cast<size_t>(in[kPad]), 0.0);
    for (const double y : r.y) spectrum.push_back(-r.u * y);
    const ProfileValue<double> pi = SymmetricProfileFromSpectrum<double>(spectrum);
    ExpectThat(pi.a == 0, "a(S_n) != 0 for the symmetric S_n");
    CheckLimits({pi.b, pi.c, pi.d}, r);
    // The limit is p(pi(rank-one L)) with t = (1 - rho)/sqrt(1 + rho^2):
    // L = x y^T, x = (1, 0), y = (t, s), t^2 + s^2 = 1 (unit norm, tr = t).
    const double rho = r.u / r.v;
    const double t = (1 - rho) / std::sqrt(1 + rho * rho), s = std::sqrt(std::max(0.0, 1 - t * t));
    Mat<double> l(2, 2);
    l << t, s, 0, 0;
    const auto measured = ProfileMeasured<double>(l);
    ExpectThat(measured.has_value(), "eigen-solver did not converge");
    const ProfileValue<double>& rank_one = measured->value;
    const double eu = 0x1p-53;
    const double diff = std::max({std::abs(rank_one.a + rank_one.b - r.limit[0]), std::abs(rank_one.c - r.limit[1]),
                                  std::abs(rank_one.d - r.limit[2])});
    static const Tolerance kRankOne{
        "max_coord |p(pi(L_t)) - (0, b*, c*, d*)|", "2 ProfileCoordinateBound(2, u, shift, 2u) + 4u",
        "L_t = x y^T unit norm with tr = t (2 x 2, computed in double: entries within 2u of exact), pi by the "
        "eigen-solver with its error measured (ProfileCoordinateBound), the limit formula in double (4u)",
        MetricKind::kRounding};
    ExpectWithin(kRankOne, diff, 2 * ProfileCoordinateBound(2, eu, measured->eig_shift, 2 * eu) + 4 * eu);
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
          "<= 2u rho + 16u s rho <= 18u; b*'s 3 operations add 3.01u: 22u <= 16 gamma_6", MetricKind::kRounding};
      ExpectWithin(kWitness, ToDouble(S(abs(back - b))), 16 * Gamma(6, ScalarTraits<S>::UnitRoundoff()));
    }
  }
};
ATTNPROP_REGISTER(SymmetricLimitEdges, Rational, Mpfr);

}  // namespace
}  // namespace attnprop
