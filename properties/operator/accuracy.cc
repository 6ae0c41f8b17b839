#include "properties/operator/accuracy.h"

#include <rapidcheck.h>

#include <cmath>
#include <cstdio>
#include <exception>

#include "kernels/error_model.h"
#include "properties/operator/half_format.h"

namespace attnprop::ksuite {

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

// The generic error model (R = t_k rescales, an exp within
// numerics::kExpUlps ulp): kernels/error_model.h has the derivation.
RowBound BoundForRow(const Problem& p, const Operator& op, int64_t b, int64_t i) {
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
  numerics::AttentionRow row;
  row.u = op.UnitRoundoff();
  row.d_k = static_cast<double>(p.d_k);
  row.t_k = static_cast<double>(p.t_k);
  row.smax = std::fabs(p.scale.ToDouble()) * mag;
  row.lambda = op.MinNormal();
  // Gradual underflow of the arithmetic is counted for every operator
  // (error_model.h): half-precision inputs reach the subnormals of their
  // storage (bf16's are f32's), and the targeted search reaches subnormal
  // f64 inputs too (V = 2^-1074: 1/2 v rounds to 0, an error of v where a
  // relative bound allows none; abi.wide_heads/kernel-f64@avx2 from an empty
  // store, seed 1). For normal outputs the term is below any rounding.
  row.eta = op.MinNormal() * 2 * op.UnitRoundoff();
  const numerics::AttentionRowBound bound = numerics::BoundAttentionRow(row);
  RowBound r;
  r.delta = bound.delta;
  r.rho = bound.rho;
  r.lse = bound.lse;
  r.underflow = bound.underflow;
  r.subnormal = bound.subnormal;
  r.hull = numerics::Theta(3 * bound.n, row.u);
  if (op.IsKernel() && IsHalf(op.dtype) && op.accumulation == DType::kF64)
    r.lse += 0x1p-24 * (std::fabs(p.scale.ToDouble()) * mag + std::log(row.t_k)) * 2;  // lse rounded to f32 once
  if (op.IsKernel() && IsHalf(op.dtype) && op.mixed) {
    // ATTNPROP_FORMAT_MIXED: the weights P rounded once to the storage
    // format before P V (the numerator's weights only, or the denominator's
    // too): each normalised weight within a factor (1 - u_s)^-2 more, and a
    // weight in the format's subnormal range errs by eta_s / 2 absolute, over
    // t_k keys and a denominator >= 1 (its largest term is exp(0)).
    const HalfFormat& f = op.dtype == DType::kBF16 ? kBF16 : kF16;
    const double storage = -2 * std::log1p(-f.UnitRoundoff());
    r.rho = std::expm1(std::log1p(r.rho) + storage);
    r.hull = std::expm1(std::log1p(r.hull) + storage);
    r.underflow += row.t_k * f.MinSubnormal();
  }
  return r;
}

namespace {
/// The bound of a computed out element with exact value `exact` and
/// arithmetic bound `bound`, as stored: unchanged for f32/f64, one rounding
/// to the format for bf16/f16 (numerics::StoredOutBound).
double Stored(const Operator& op, double bound, double exact) {
  if (!(op.IsKernel() && IsHalf(op.dtype))) return bound;
  const HalfFormat& f = op.dtype == DType::kBF16 ? kBF16 : kF16;
  return numerics::StoredOutBound(bound, std::fabs(exact), f.UnitRoundoff(), f.MinSubnormal());
}
}  // namespace

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

namespace {
/// max_j v_jc - min_j v_jc over the visible keys (0 for none).
double VisibleSpread(const Problem& p, int64_t b, int64_t i, int64_t c) {
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  for (int64_t j = 0; j < p.t_k; ++j) {
    if (!p.Visible(i, j)) continue;
    const double vj = p.v(b * p.t_k + j, c).ToDouble();
    lo = std::min(lo, vj), hi = std::max(hi, vj);
  }
  return hi >= lo ? hi - lo : 0;
}

/// OutBound with the row's bound already computed (accuracy.h says which).
double ElementBound(const Problem& p, const Operator& op, const RowBound& rb, const AttentionResult<Mpfr>& r, int64_t b,
                    int64_t i, int64_t c) {
  const auto [wsum, vmax] = WeightedAbsV(p, r, b, i, c);
  const double absolute = rb.underflow * vmax + SubnormalTerm(rb, vmax);
  // Both computed in double from exact inputs: 1e-12 covers their own rounding.
  const double relative = rb.rho * wsum * (1 + 1e-12);  // NaN where rho = inf and wsum = 0
  const double cap = (VisibleSpread(p, b, i, c) + rb.hull * vmax) * (1 + 1e-12);
  const double arithmetic = (std::isfinite(relative) ? std::min(relative, cap) : cap) + absolute;
  return Stored(op, arithmetic, ToDouble(r.out(i, c)));
}
}  // namespace

double OutBound(const Problem& p, const Operator& op, const AttentionResult<Mpfr>& r, int64_t b, int64_t i, int64_t c) {
  return ElementBound(p, op, BoundForRow(p, op, b, i), r, b, i, c);
}

double AbsDiff(const Mpfr& x, const Mpfr& y) {
  if (!isfinite(x) || !isfinite(y)) return HUGE_VAL;
  return ToDouble(Mpfr(abs(x - y)));
}

void ExpectOutputsNearReference(const Problem& p, const Operator& op, const std::vector<AttentionResult<Mpfr>>& ref,
                                const std::vector<Mpfr>& out, const std::vector<Mpfr>* lse, const std::string& what) {
  Worst out_worst(op.IsKernel() && IsHalf(op.dtype) ? kHalfOutTolerance : kOutTolerance), lse_worst(kLseTolerance);
  for (int64_t b = 0; b < p.batch; ++b) {
    const auto& r = ref[static_cast<size_t>(b)];
    for (int64_t i = 0; i < p.t_q; ++i) {
      const RowBound rb = BoundForRow(p, op, b, i);
      const size_t row = static_cast<size_t>(b * p.t_q + i);
      for (int64_t c = 0; c < p.d_v; ++c) {
        const double wsum = WeightedAbsV(p, r, b, i, c).first;
        const double bound = ElementBound(p, op, rb, r, b, i, c);
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
  // A bound that is not a number is attnprop's failure, never the kernel's.
  if (!(bound >= 0) || std::isinf(bound))
    RC_FAIL("attnprop error (not the kernel's): the bound of " + tolerance_.metric + " at " + where + " is " +
            std::to_string(bound) + "; please report this case");
  if (!(observed <= bound)) {
    // The failing pair is the metric's worst (recorded as ExpectWithin does).
    if (ObservationSink* sink = CurrentObservationSink()) sink->Observe({tolerance_, observed, bound});
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
