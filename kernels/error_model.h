// The error model of attention in floating point, once, over plain numbers.
//
// Header-only, no dependencies: the kernel tests (kernels/tests/) and the
// kernel properties (properties/operator/accuracy.cc, BoundForRow) hold
// every kernel, and attnprop's model in double and MPFR, to these bounds.
// They hold for any summation order, with or without FMA, in base e or base
// 2, for a blocked (online) softmax or a plain one, and for an exp within
// kExpUlps ulp; they assume no overflow, and no underflow other than
// weights below lambda (flushed to 0 or subnormal).
//
// Notation: u = unit roundoff of the arithmetic (2^-24 f32, 2^-53 f64, 2^-p
// for a p-bit MPFR significand); gamma_n = n u / (1 - n u) bounds the
// relative error of n roundings (Higham, Accuracy and Stability, 3.1);
// c = the scale; for query row i, smax = |c| max_j sum_l |q_il k_jl| over
// the visible keys j (>= every |s_ij|); t_k keys, d_k = query/key width;
// R = how many times one row's running sums are rescaled (an online
// softmax over key blocks: at most one per block after the first; a plain
// softmax: 0; the generic model allows R = t_k); e = kExpUlps.
//
// Derivation (row i; the bound of each step in units of u):
//  Scores: s^_ij = fl(c <q_i, k_j>), the scale itself rounded to the dtype:
//    |s^ - s| <= gamma_{d_k+2} smax =: E (d_k roundings of the dot product,
//    one of the scale, one of the product with it; any order, FMA or not).
//  Exponents: x_j = s^_j - m^ (m = the row's max) rounds by u |x_j| <=
//    2u smax; an online softmax's rescale exponents m_old - m_new telescope
//    to <= 2u smax in all; a base-2 formulation (scores times log2 e, or the
//    scale times log2 e, then exp2) adds one rounding of each exponent (or
//    of the scale: <= 2u smax); lse = m + ln Z rounds by u (smax + ln t_k)
//    (wherever it is added up; |lse| <= smax + ln t_k), and ln (within e
//    ulp) by e u ln t_k. In all
//      delta = E + u (8 smax + (e + 1)(ln t_k + 1)).
//  Weights: softmax(s + eps)_j / softmax(s)_j = exp(eps_j - (lse(s + eps)
//    - lse(s))) lies within exp(+-2 max|eps|), so score and exponent errors
//    move each normalised weight by a factor within exp(+-2 delta).
//  Sums: each term of the numerator sum_j p_j v_jc and of the denominator
//    Z = sum_j p_j carries its own exp (e u), at most R rescale factors
//    ((e + 1) u each: an exp and a product), the product with v (u), its
//    part of a sum of t_k terms (gamma_{t_k}, any order or blocking), and
//    the final division (u), with 2u to spare:
//      n = (e + 1) R + t_k + e + 4 roundings, each sum within (1 + gamma_n).
//    With R = t_k (the generic model): n = (e + 2) t_k + e + 4.
//  Output: rho = exp(2 delta) (1 + gamma_n)^2 - 1 bounds each computed
//    weight relative to the exact one, hence
//      |out^_ic - out*_ic| <= rho sum_j a*_ij |v_jc| + underflow max_j |v_jc|,
//    a*_ij = the exact weights.
//  Underflow: a weight below lambda (smallest normal; 0 where the arithmetic
//    cannot underflow) may come out as 0 or subnormal: absolute error
//    <= 2 lambda per weight (the factor 2 also covers an exp that flushes
//    below e^-87 > 2^-126, resp. e^-708 > 2^-1022), underflow = 2 t_k lambda.
//  lse: 1-Lipschitz in the max norm of the scores, so |lse^ - lse| <= delta
//    + |ln(1 + gamma_n)| <= delta + 2 gamma_n (the flushed weights change Z
//    >= 1 by < t_k lambda, far below gamma_n).
//  Gradual underflow (eta = the arithmetic's smallest subnormal; 0 unless
//    asked, AttentionRow::eta): a rounding in the subnormal range errs by
//    <= eta/2 absolute, not u relative. A score's d_k + 2 roundings add
//    <= (d_k + 2) eta to its error (in delta: the weights factor above
//    covers any score perturbation); each of a sum's n roundings adds
//    <= eta/2 absolute to the numerator, which the division by Z >= 1 does
//    not enlarge: subnormal = n eta (a factor 2 to spare), added to out's
//    bound. Needed where inputs themselves are subnormal or tiny (bf16/f16
//    storage computed in f32, ABI v2: a bf16 value of 2^-133 times a weight
//    is an f32 subnormal; an f64 v of 2^-1074, which the targeted search
//    reaches, times 1/2 rounds to 0). attnprop counts it for every operator.
// The kernel's own formulation (kernels/flash_impl.inc) spends 7u smax of
// the 8 (scale times log2 e rounded once, exponent, rescales, and m ln 2 +
// ln Z evaluated in wider precision and rounded once).
#pragma once

#include <cmath>

namespace attnprop::numerics {

/// The relative accuracy assumed of an exp (exp2) and of a log, in ulp.
/// glibc's exp and log are within 0.51 and 0.83 ulp; attnprop's kernel
/// documents (and tests, per target) its exp2 within this.
inline constexpr double kExpUlps = 4;

/// u = 2^-p for a p-bit significand (round to nearest).
inline double UnitRoundoff(int significand_bits) { return std::ldexp(1.0, -significand_bits); }
/// u of float (2^-24) and double (2^-53).
template <class T>
constexpr double UnitRoundoffOf() {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "float or double");
  return sizeof(T) == 4 ? 0x1p-24 : 0x1p-53;
}
/// Smallest normal of float and double (the model's lambda).
template <class T>
constexpr double MinNormalOf() {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "float or double");
  return sizeof(T) == 4 ? 0x1p-126 : 0x1p-1022;
}

/// gamma_n = n u / (1 - n u); +inf when n u >= 1 (no bound).
inline double Gamma(double n, double u) { return n * u < 1 ? n * u / (1 - n * u) : HUGE_VAL; }

/// theta_n = (1 - u)^-n - 1: the relative error of n roundings, each a
/// factor (1 + d)^(+-1) with |d| <= u, for every n (a product of them lies
/// in [(1 - u)^n, (1 - u)^-n], and (1 - u)^n >= 1 - theta_n). theta_n <=
/// gamma_n (Bernoulli: (1 - u)^n >= 1 - n u), and unlike it theta_n stays
/// finite when n u >= 1: with u = 2^-8 (bf16 arithmetic) a row of a few
/// hundred keys has n u > 1, where gamma_n gave no bound at all.
inline double Theta(double n, double u) { return std::expm1(-n * std::log1p(-u)); }

/// What the bounds of one output row depend on.
struct AttentionRow {
  double u = 0;           // unit roundoff of the arithmetic
  double d_k = 1;         // query/key width
  double t_k = 1;         // keys in the softmax (visible or not: an upper bound)
  double smax = 0;        // |c| max_j sum_l |q_il k_jl| over the visible keys
  double lambda = 0;      // smallest normal (0: no underflow)
  double rescales = -1;   // R; < 0 means the generic R = t_k
  double exp_ulps = kExpUlps;
  double eta = 0;         // smallest subnormal of the arithmetic (0: gradual underflow not counted)
};

/// The bounds of one row (see the derivation above).
struct AttentionRowBound {
  double delta = 0;      // |score error| plus rounding of the exponents and of lse
  double n = 0;          // roundings per sum
  double rho = 0;        // relative bound on each computed weight: exp(2 delta)(1+gamma_n)^2 - 1
  double lse = 0;        // |lse^ - lse| <= delta + 2 gamma_n
  double theta = 0;      // theta_n (Theta): the relative error of one sum's n roundings
  double underflow = 0;  // 2 t_k lambda
  double subnormal = 0;  // n eta: absolute, added to out's bound
};

inline AttentionRowBound BoundAttentionRow(const AttentionRow& row) {
  const double e = row.exp_ulps, u = row.u, tk = row.t_k;
  const double r = row.rescales < 0 ? tk : row.rescales;
  AttentionRowBound b;
  b.delta = Theta(row.d_k + 2, u) * row.smax + u * (8 * row.smax + (e + 1) * (std::log(tk) + 1)) +
            (row.d_k + 2) * row.eta;
  b.n = (e + 1) * r + tk + e + 4;
  b.subnormal = b.n * row.eta;
  const double g = Theta(b.n, u);
  b.theta = g;
  // exp(2 delta)(1 + g)^2 - 1 without cancellation (u may be 2^-257: MPFR).
  b.rho = std::expm1(2 * b.delta + 2 * std::log1p(g));
  b.lse = b.delta + 2 * g;
  b.underflow = 2 * tk * row.lambda;
  return b;
}

/// |out^_ic - out*_ic| <= rho sum_j a*_ij |v_jc| + underflow max_j |v_jc| (+ subnormal).
inline double AttentionOutBound(const AttentionRowBound& b, double weighted_abs_v, double max_abs_v) {
  return b.rho * weighted_abs_v + b.underflow * max_abs_v + b.subnormal;
}

/// The convex-hull bound, finite for every finite input however large the
/// scores: a kernel's weights are nonnegative (exponentials, their sums and
/// quotients), so out^_ic = sum_j w_j v_jc with w_j >= 0 and sum_j w_j
/// within the numerator's and the denominator's n roundings and the
/// division's: sum_j w_j in [(1 - u)^(3n), (1 - u)^(-3n)]. With out*_ic in
/// [min_j v_jc, max_j v_jc] (visible j) and spread = max_j v_jc - min_j v_jc,
///   |out^_ic - out*_ic| <= spread + theta_{3n} max_j |v_jc| (+ subnormal).
/// Where delta is large (scores of thousands in bf16 arithmetic: exp(2
/// delta) overflows) this is the truth: the computed weights may be any
/// point of the simplex. The bound used is the smaller of the two.
inline double AttentionOutCap(const AttentionRowBound& b, double u, double spread, double max_abs_v) {
  return spread + Theta(3 * b.n, u) * max_abs_v + b.subnormal;
}

/// Storage in a narrower format after the arithmetic (ABI v2: bf16 / f16
/// out computed in f32, rounded once to nearest): with u_s the format's unit
/// roundoff and eta_s its smallest subnormal, |fl_s(x) - x| <= u_s |x| +
/// eta_s / 2 (relative in the normal range, half a subnormal step below
/// it), and |out^| <= |out*| + B for the arithmetic's bound B, so
///   |fl_s(out^) - out*| <= B + u_s (|out*| + B) + eta_s / 2.
inline double StoredOutBound(double arithmetic_bound, double abs_exact, double u_storage, double eta_storage) {
  return arithmetic_bound + u_storage * (abs_exact + arithmetic_bound) + eta_storage / 2;
}

}  // namespace attnprop::numerics
