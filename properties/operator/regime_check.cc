#include "properties/operator/regime_check.h"

#include <rapidcheck.h>

#include <cmath>
#include <cstdio>

#include "properties/operator/regime_gen.h"

namespace attnprop::ksuite {
namespace {

Operator DoubleModel() {
  Operator op;
  op.kind = Operator::Kind::kModelDouble;
  op.dtype = DType::kF64;
  return op;
}

std::string Where(const std::string& what, const char* name, int64_t b, int64_t i, int64_t c) {
  char buf[96];
  std::snprintf(buf, sizeof buf, ": %s[b=%lld][i=%lld][c=%lld]", name, static_cast<long long>(b),
                static_cast<long long>(i), static_cast<long long>(c));
  return what + buf;
}

/// The double reference's outputs within their bounds of the MPFR ones
/// (kDoubleReferenceTolerance): its certification on an MPFR-checked case.
void CertifyDoubleReference(const Problem& p, const std::vector<AttentionResult<Mpfr>>& exact,
                            const std::vector<AttentionResult<double>>& approx) {
  const Operator dm = DoubleModel();
  Worst w(kDoubleReferenceTolerance);
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t i = 0; i < p.t_q; ++i) {
      if (!p.RowHasKey(i)) continue;  // the kernel's empty rows are checked against the ABI's 0 and -inf
      for (int64_t c = 0; c < p.d_v; ++c) {
        const auto& e = exact[static_cast<size_t>(b)];
        const double err = AbsDiff(Mpfr(approx[static_cast<size_t>(b)].out(i, c)), e.out(i, c));
        const double bound = OutBound(p, dm, e, b, i, c);
        w.Check(err, bound,
                err <= bound ? "" : Where("the double reference (a harness bug, not the kernel's)", "out^d", b, i, c));
      }
    }
}

}  // namespace

std::vector<AttentionResult<double>> DoubleReference(const Problem& p) {
  std::vector<AttentionResult<double>> r;
  const double scale = p.scale.ToDouble();
  for (int64_t b = 0; b < p.batch; ++b)
    r.push_back(Attention<double>(Problem::Block(p.q, b, p.t_q).As<double>(), Problem::Block(p.k, b, p.t_k).As<double>(),
                                  Problem::Block(p.v, b, p.t_k).As<double>(), scale,
                                  p.causal ? Mask::Causal() : Mask::None()));
  return r;
}

// Against the double reference out^d (attnprop's model in double, u_d =
// 2^-53, lambda_d its smallest normal): with rho_i, lambda the kernel's
// bound terms (BoundForRow for op) and rho^d_i those of the double model
// (BoundForRow for it),
//   |out - out*|   <= rho_i W*   + 2 t_k lambda   V_c     (accuracy.cc)
//   |out^d - out*| <= rho^d_i W* + 2 t_k lambda_d V_c     (the same, u = 2^-53)
// with W* = sum_j a*_ij |v_jc| and V_c = max_j |v_jc| over the visible keys,
// so |out - out^d| <= (rho_i + rho^d_i) W* + 2 t_k (lambda + lambda_d) V_c.
// W* needs the exact weights; each computed double weight a^_ij satisfies
// |a^_ij - a*_ij| <= rho^d_i a*_ij + 2 lambda_d (kWeightSumTolerance's
// reason), so a*_ij <= (a^_ij + 2 lambda_d) / (1 - rho^d_i) and
// W* <= (W^ + 2 t_k lambda_d V_c) / (1 - rho^d_i), W^ = sum_j a^_ij |v_jc|
// (rho^d_i < 1/2 in the generators' domain; (1 + 1e-12) covers the double
// rounding of W^ itself, ~t_k 2^-53 relative). lse likewise: the sum of the
// two lse bounds.
void ExpectOutputsNearCertifiedReference(const Problem& p, const Operator& op, const std::vector<Mpfr>& out,
                                         const std::vector<Mpfr>* lse, const std::string& what) {
  const auto approx = DoubleReference(p);
  if (CallWork(p) <= kMpfrWork) {
    const auto exact = Reference(op, p);
    CertifyDoubleReference(p, exact, approx);
    ExpectOutputsNearReference(p, op, exact, out, lse, what);
    return;
  }
  const Operator dm = DoubleModel();
  Worst out_worst(kOutVsDoubleTolerance), lse_worst(kLseVsDoubleTolerance);
  std::vector<double> vmax(static_cast<size_t>(p.d_v)), wsum(static_cast<size_t>(p.d_v));
  for (int64_t b = 0; b < p.batch; ++b) {
    const AttentionResult<double>& r = approx[static_cast<size_t>(b)];
    const Mat<double> v = Problem::Block(p.v, b, p.t_k).As<double>();
    for (int64_t i = 0; i < p.t_q; ++i) {
      const size_t row = static_cast<size_t>(b * p.t_q + i);
      if (!p.RowHasKey(i)) {  // the ABI's empty row: out = 0 and lse = -inf exactly
        for (int64_t c = 0; c < p.d_v; ++c) {
          const Mpfr& got = out[row * static_cast<size_t>(p.d_v) + static_cast<size_t>(c)];
          if (!(got == 0)) RC_FAIL(Where(what, "out", b, i, c) + " = " + Num(got) + " for a row with no visible key (must be 0)");
        }
        if (lse && !(isinf((*lse)[row]) && (*lse)[row] < 0))
          RC_FAIL(what + ": lse[b=" + std::to_string(b) + "][i=" + std::to_string(i) + "] = " + Num((*lse)[row]) +
                  " for a row with no visible key (must be -inf)");
        continue;
      }
      const RowBound rk = BoundForRow(p, op, b, i), rd = BoundForRow(p, dm, b, i);
      std::fill(vmax.begin(), vmax.end(), 0.0);
      std::fill(wsum.begin(), wsum.end(), 0.0);
      for (int64_t j = 0; j < p.t_k; ++j) {
        if (!p.Visible(i, j)) continue;
        const double a = r.weights(i, j);
        for (int64_t c = 0; c < p.d_v; ++c) {
          const double vj = std::fabs(v(j, c));
          wsum[static_cast<size_t>(c)] += a * vj;
          vmax[static_cast<size_t>(c)] = std::max(vmax[static_cast<size_t>(c)], vj);
        }
      }
      const double lambda_d = dm.MinNormal(), tk = static_cast<double>(p.t_k);
      for (int64_t c = 0; c < p.d_v; ++c) {
        const double vc = vmax[static_cast<size_t>(c)];
        const double w_exact = (wsum[static_cast<size_t>(c)] * (1 + 1e-12) + 2 * tk * lambda_d * vc) / (1 - rd.rho);
        const double bound = (rk.rho + rd.rho) * w_exact * (1 + 1e-12) + (rk.underflow + rd.underflow) * vc +
                             SubnormalTerm(rk, vc) + SubnormalTerm(rd, vc);
        const Mpfr& got = out[row * static_cast<size_t>(p.d_v) + static_cast<size_t>(c)];
        const double err = AbsDiff(got, Mpfr(r.out(i, c)));
        if (err <= bound) {
          out_worst.Check(err, bound, "");
          continue;
        }
        char buf[160];
        std::snprintf(buf, sizeof buf, " = %s, double reference %.17g (rho_i %.3e, rho^d_i %.3e)", Num(got).c_str(),
                      r.out(i, c), rk.rho, rd.rho);
        out_worst.Check(err, bound, Where(what, "out", b, i, c) + buf);
      }
      if (!lse) continue;
      const Mpfr& got = (*lse)[row];
      const double ref = r.lse[i];
      const std::string where = what + ": lse[b=" + std::to_string(b) + "][i=" + std::to_string(i) + "] = " + Num(got);
      if (std::isinf(ref)) {
        if (!(isinf(got) && got < 0)) RC_FAIL(where + " for a row with no visible key (must be -inf)");
        continue;
      }
      lse_worst.Check(AbsDiff(got, Mpfr(ref)), rk.lse + rd.lse, where + ", double reference " + Num(ref));
    }
  }
}

}  // namespace attnprop::ksuite
