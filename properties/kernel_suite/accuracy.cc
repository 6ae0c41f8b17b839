#include "properties/kernel_suite/accuracy.h"

#include <rapidcheck.h>

#include <cmath>
#include <cstdio>
#include <exception>

namespace attnprop::ksuite {
namespace {

/// The accuracy assumed of an exp (and of a log, for lse), in units of u.
/// glibc's expf/exp are within 0.51 ulp; vectorised exps are usually within
/// 1-3 ulp. A "crude" exp (worse than this) is a bug.
constexpr double kExpUlps = 4;

}  // namespace

std::vector<AttentionResult<Mpfr>> Reference(const Operator& op, const Problem& p) {
  // The MPFR model's own outputs are compared against twice its precision.
  MpfrPrecisionScope precision(op.kind == Operator::Kind::kModelMpfr ? 2 * MpfrPrecisionBits() : MpfrPrecisionBits());
  std::vector<AttentionResult<Mpfr>> r;
  const Mpfr scale = p.scale.As<Mpfr>();
  for (int64_t b = 0; b < p.batch; ++b)
    r.push_back(Attention<Mpfr>(Problem::Block(p.q, b, p.t_q).As<Mpfr>(), Problem::Block(p.k, b, p.t_k).As<Mpfr>(),
                                Problem::Block(p.v, b, p.t_k).As<Mpfr>(), scale,
                                p.causal ? Mask::Causal() : Mask::None()));
  return r;
}

// The error analysis (u = unit roundoff of the arithmetic, gamma_n = nu/(1-nu)).
//  Scores: s^_ij = fl(c <q_i,k_j>) with the scale itself rounded to the
//    dtype: |s^ - s| <= gamma_{d_k+2} |c| sum_l |q_il k_jl| =: E (any
//    summation order, with or without FMA).
//  Exponents: s^_j - m^ (m = row max) rounds with error <= u |s_j - m|
//    <= 2u smax; an online softmax's rescale exponents telescope to the same
//    range (<= 2u smax in all); a base-2 formulation (scores times log2 e,
//    then exp2) adds one rounding of each exponent (<= 2u smax); lse = m +
//    ln Z rounds by u (smax + ln t_k), and ln (within kExpUlps) by
//    kExpUlps u ln t_k. delta = E + u (8 smax + (kExpUlps + 1)(ln t_k + 1)),
//    with smax <= |c| max_j sum_l |q_il k_jl|.
//  Weights: softmax(s + e)_j / softmax(s)_j = exp(e_j - (lse(s+e) - lse(s)))
//    lies within exp(+-2 max|e|), so score and exponent errors give a factor
//    exp(2 delta). Each term then carries its own exp (kExpUlps u), a chain
//    of at most t_k rescale factors ((kExpUlps + 1) u each), the product with
//    v (u); numerator and denominator sums of t_k terms (gamma_{t_k}), the
//    division (u): n = (kExpUlps + 2) t_k + kExpUlps + 4 roundings bound the
//    relative error of numerator and denominator, each (1 + gamma_n).
//    rho = exp(2 delta) (1 + gamma_n)^2 - 1 bounds each weight relative to
//    the exact weight, hence |out^ - out*| <= rho sum_j a_j |v_j|.
//  Underflow: a weight below lambda (smallest normal) may come out as 0 or
//    subnormal: absolute error <= 2 lambda per weight, 2 t_k lambda max|v|.
//  lse: |lse^ - lse| <= delta + |ln(1 + gamma_n)| + ... <= delta + 2 gamma_n.
RowBound BoundForRow(const Problem& p, const Operator& op, int64_t b, int64_t i) {
  const double u = op.UnitRoundoff();
  const double c = std::fabs(p.scale.ToDouble());
  double mag = 0;
  for (int64_t j = 0; j < p.t_k; ++j) {
    if (!p.Visible(i, j)) continue;
    double m = 0;
    for (int64_t l = 0; l < p.d_k; ++l)
      m += std::fabs(p.q(b * p.t_q + i, l).ToDouble() * p.k(b * p.t_k + j, l).ToDouble());
    mag = std::max(mag, m);
  }
  // Computed in double: its own rounding (~1e-16 relative) is far below any of these terms.
  mag *= 1 + 1e-12;
  const double tk = static_cast<double>(p.t_k);
  RowBound r;
  const double smax = c * mag;
  r.delta = Gamma(static_cast<double>(p.d_k + 2), u) * smax + u * (8 * smax + (kExpUlps + 1) * (std::log(tk) + 1));
  const double g = Gamma((kExpUlps + 2) * tk + kExpUlps + 4, u);
  // exp(2 delta)(1 + g)^2 - 1, without cancellation (u may be 2^-257: MPFR).
  r.rho = std::expm1(2 * r.delta + 2 * std::log1p(g));
  r.lse = r.delta + 2 * g;
  r.underflow = 2 * tk * op.MinNormal();
  return r;
}

std::pair<double, double> WeightedAbsV(const Problem& p, const AttentionResult<Mpfr>& r, int64_t b, int64_t i,
                                       int64_t c) {
  double wsum = 0, vmax = 0;
  for (int64_t j = 0; j < p.t_k; ++j) {
    if (!p.Visible(i, j)) continue;
    const double vj = std::fabs(p.v(b * p.t_k + j, c).ToDouble());
    wsum += ToDouble(r.weights(i, j)) * vj;
    vmax = std::max(vmax, vj);
  }
  return {wsum, vmax};
}

double OutBound(const Problem& p, const Operator& op, const AttentionResult<Mpfr>& r, int64_t b, int64_t i, int64_t c) {
  const RowBound rb = BoundForRow(p, op, b, i);
  const auto [wsum, vmax] = WeightedAbsV(p, r, b, i, c);
  return rb.rho * wsum * (1 + 1e-12) + rb.underflow * vmax;
}

double AbsDiff(const Mpfr& x, const Mpfr& y) {
  if (!isfinite(x) || !isfinite(y)) return HUGE_VAL;
  return ToDouble(Mpfr(abs(x - y)));
}

void ExpectOutputsNearReference(const Problem& p, const Operator& op, const std::vector<AttentionResult<Mpfr>>& ref,
                                const std::vector<Mpfr>& out, const std::vector<Mpfr>* lse, const std::string& what) {
  Worst out_worst(kOutTolerance), lse_worst(kLseTolerance);
  for (int64_t b = 0; b < p.batch; ++b) {
    const auto& r = ref[static_cast<size_t>(b)];
    for (int64_t i = 0; i < p.t_q; ++i) {
      const RowBound rb = BoundForRow(p, op, b, i);
      const size_t row = static_cast<size_t>(b * p.t_q + i);
      for (int64_t c = 0; c < p.d_v; ++c) {
        const auto [wsum, vmax] = WeightedAbsV(p, r, b, i, c);
        const double bound = rb.rho * wsum * (1 + 1e-12) + rb.underflow * vmax;
        const Mpfr& got = out[row * static_cast<size_t>(p.d_v) + static_cast<size_t>(c)];
        const double err = AbsDiff(got, r.out(i, c));
        char buf[512];
        std::snprintf(buf, sizeof buf, "%s: out[b=%lld][i=%lld][c=%lld] = %s, exact %.17g (rho_i %.3e, sum_j a_ij|v_jc| %.3e)",
                      what.c_str(), static_cast<long long>(b), static_cast<long long>(i), static_cast<long long>(c),
                      Num(got).c_str(), ToDouble(r.out(i, c)), rb.rho, wsum);
        out_worst.Check(err, bound, buf);
      }
      if (!lse) continue;
      const Mpfr& got = (*lse)[row];
      const Mpfr& exact = r.lse[i];
      const std::string where = what + ": lse[b=" + std::to_string(b) + "][i=" + std::to_string(i) + "] = " + Num(got);
      if (isinf(exact)) {
        if (!(isinf(got) && got < 0)) RC_FAIL(where + " for a row with no visible key (must be -inf)");
        continue;
      }
      lse_worst.Check(AbsDiff(got, exact), rb.lse, where + ", exact " + Num(exact));
    }
  }
}

void Worst::Check(double observed, double bound, const std::string& where) {
  if (!(observed <= bound)) {
    char buf[160];
    std::snprintf(buf, sizeof buf, ": |error| %.6e > bound %.6e", observed, bound);
    RC_FAIL(tolerance_.metric + " at " + where + buf);
  }
  const double ratio = observed == 0 ? 0 : observed / bound;
  if (ratio > ratio_) ratio_ = ratio, observed_ = observed, bound_ = bound;
}

Worst::~Worst() {
  if (ratio_ < 0 || std::uncaught_exceptions()) return;
  try {
    ExpectWithin(tolerance_, observed_, bound_);
  } catch (...) {
  }
}

}  // namespace attnprop::ksuite
