// Lecture 4's claims about the attention operator, checked on a kernel
// (003_dd971a1151775776.txt; ids verbatim from shared/claims/claims.tsv).
// A fused kernel does not return the weights, but with V = [I 0] (d_v >=
// t_k) out_i is row i of the weight matrix exactly (products with 0 and 1
// and sums with zeros are exact), and lse gives each row's normaliser.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <cstring>
#include <numeric>

#include "generators/scalars.h"
#include "properties/kernel_suite/suite.h"

namespace attnprop::ksuite {
namespace {

using Lengths = ShapeSpec::Lengths;
using CausalKind = ShapeSpec::Causal;

/// "A[b=0][i=1][j=2]" (built by appending: g++ 12 warns falsely on "lit" + string).
std::string At(const char* what, int64_t b, int64_t i, int64_t j) {
  std::string s(what);
  s += "[b=";
  s += std::to_string(b);
  s += "][i=";
  s += std::to_string(i);
  s += "][j=";
  s += std::to_string(j);
  s += "]";
  return s;
}

/// "lse[b=0][i=1]".
std::string RowAt(const char* what, int64_t b, int64_t i) {
  std::string s(what);
  s += "[b=";
  s += std::to_string(b);
  s += "][i=";
  s += std::to_string(i);
  s += "]";
  return s;
}

double Out(const Problem& p, const std::vector<double>& out, int64_t b, int64_t i, int64_t c) {
  return out[static_cast<size_t>((b * p.t_q + i) * p.d_v + c)];
}

bool RowHasKey(const Problem& p, int64_t i) { return p.Visible(i, 0); }

/// sum_j a*_ij |v_jc| and max_j |v_jc| over visible keys (the scale of out's error).
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

double OutBound(const Problem& p, DType t, const AttentionResult<Mpfr>& r, int64_t b, int64_t i, int64_t c) {
  const RowBound rb = BoundForRow(p, t, b, i);
  const auto [wsum, vmax] = WeightedAbsV(p, r, b, i, c);
  return rb.rho * wsum * (1 + 1e-12) + rb.underflow * vmax;
}

/// Tracks the worst observed/bound ratio of one metric over a case and
/// records it (ExpectWithin) at the end; fails at once, naming the place,
/// when a bound is exceeded.
class Worst {
 public:
  explicit Worst(std::string metric) : metric_(std::move(metric)) {}
  void Check(double observed, double bound, const std::string& where) {
    if (!(observed <= bound)) {
      char buf[160];
      std::snprintf(buf, sizeof buf, ": observed %.6e > bound %.6e", observed, bound);
      RC_FAIL(metric_ + " at " + where + buf);
    }
    const double ratio = observed == 0 ? 0 : observed / bound;
    if (ratio > ratio_) ratio_ = ratio, observed_ = observed, bound_ = bound;
  }
  // Records the worst pair for the audit (it passed Check, so this cannot fail).
  ~Worst() {
    if (ratio_ < 0 || std::uncaught_exceptions()) return;
    try {
      ExpectWithin(metric_, observed_, bound_);
    } catch (...) {
    }
  }

 private:
  std::string metric_;
  double ratio_ = -1, observed_ = 0, bound_ = 0;
};

// ---------------------------------------------------------------------------
// lecture4.prop3.1.simplex_rows (Prop 3.1): every unmasked row of A lies in
// the relative interior of the simplex: A_ij > 0, sum_j A_ij = 1.
void SimplexRows(const KernelContext& ctx, DType t, const Case& c) {
  const Problem p = Problem::FromCase(c);
  const CallResult r = CallKernel(ctx, p);
  RequireSuccess(r, "call");
  const auto ref = Reference(p);
  const double lambda = MinNormalOf(t);
  Worst sum_check(WeightSumTolerance().metric);
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t i = 0; i < p.t_q; ++i) {
      Mpfr sum = 0;
      for (int64_t j = 0; j < p.t_k; ++j) {
        const double a = Out(p, r.out[0], b, i, j);
        ExpectThat(a >= 0, At("A", b, i, j) + " = " + std::to_string(a) + " is not >= 0");
        // An exact weight >= 4 lambda is computed as >= a(1 - rho) - 2 lambda > 0 (rho < 1/2).
        if (ToDouble(ref[static_cast<size_t>(b)].weights(i, j)) >= 4 * lambda)
          ExpectThat(a > 0, At("A", b, i, j) + " = 0 but its exact value " +
                                std::to_string(ToDouble(ref[static_cast<size_t>(b)].weights(i, j))) +
                                " is far above underflow");
        sum += Mpfr(a);
      }
      const RowBound rb = BoundForRow(p, t, b, i);
      sum_check.Check(ToDouble(Mpfr(abs(sum - 1))), rb.rho + rb.underflow, RowAt("row", b, i));
    }
}

/// out_ic within [min_j v_jc, max_j v_jc] over the visible keys, up to the
/// output's error bound.
void HullCheck(const KernelContext& ctx, DType t, const Case& c) {
  const Problem p = Problem::FromCase(c);
  const CallResult r = CallKernel(ctx, p);
  RequireSuccess(r, "call");
  const auto ref = Reference(p);
  Worst w("distance of out_ic outside [min_j v_jc, max_j v_jc]");
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t i = 0; i < p.t_q; ++i) {
      if (!RowHasKey(p, i)) continue;  // the empty-row contract covers these
      for (int64_t cc = 0; cc < p.d_v; ++cc) {
        double lo = HUGE_VAL, hi = -HUGE_VAL;
        for (int64_t j = 0; j < p.t_k; ++j) {
          if (!p.Visible(i, j)) continue;
          lo = std::min(lo, p.v(b * p.t_k + j, cc).ToDouble());
          hi = std::max(hi, p.v(b * p.t_k + j, cc).ToDouble());
        }
        const double o = Out(p, r.out[0], b, i, cc);
        const double dist = std::isfinite(o) ? std::max({0.0, lo - o, o - hi}) : HUGE_VAL;
        w.Check(dist, OutBound(p, t, ref[static_cast<size_t>(b)], b, i, cc), At("out", b, i, cc));
      }
    }
}

Tolerance HullTolerance() {
  return {"distance of out_ic outside [min_j v_jc, max_j v_jc]", "rho_i sum_j a*_ij |v_jc| + 2 t_k lambda max_j |v_jc|",
          "the exact out_i is a convex combination of the visible v_j; the computed one is within the output "
          "bound of it (see |out - out*|)"};
}

// lecture4.def4.1.*: causal A is lower triangular (exact zeros above the
// shifted diagonal j > i + t_k - t_q) and row-stochastic.
void CausalLowerTriangular(const KernelContext& ctx, DType t, const Case& c) {
  const Problem p = Problem::FromCase(c);
  const CallResult r = CallKernel(ctx, p);
  RequireSuccess(r, "call");
  Worst sum_check(WeightSumTolerance().metric);
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t i = 0; i < p.t_q; ++i) {
      Mpfr sum = 0;
      for (int64_t j = 0; j < p.t_k; ++j) {
        const double a = Out(p, r.out[0], b, i, j);
        if (!p.Visible(i, j))
          ExpectThat(a == 0, At("A", b, i, j) + " = " + std::to_string(a) + " but key " + std::to_string(j) +
                                 " is in query " + std::to_string(i) + "'s future (j > i + t_k - t_q = " +
                                 std::to_string(i + p.t_k - p.t_q) + ")");
        sum += Mpfr(a);
      }
      if (!RowHasKey(p, i)) continue;
      const RowBound rb = BoundForRow(p, t, b, i);
      sum_check.Check(ToDouble(Mpfr(abs(sum - 1))), rb.rho + rb.underflow, RowAt("row", b, i));
    }
}

void CausalPositiveOnPrefix(const KernelContext& ctx, DType t, const Case& c) {
  const Problem p = Problem::FromCase(c);
  const CallResult r = CallKernel(ctx, p);
  RequireSuccess(r, "call");
  const auto ref = Reference(p);
  const double lambda = MinNormalOf(t);
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t i = 0; i < p.t_q; ++i)
      for (int64_t j = 0; j < p.t_k; ++j) {
        if (!p.Visible(i, j)) continue;
        const double a = Out(p, r.out[0], b, i, j);
        const double exact = ToDouble(ref[static_cast<size_t>(b)].weights(i, j));
        // Positive unless the exact weight is at the underflow threshold (see SimplexRows).
        if (exact >= 4 * lambda)
          ExpectThat(a > 0, At("A", b, i, j) + " = " + std::to_string(a) + " for a permitted key (j <= i + t_k - t_q = " +
                                std::to_string(i + p.t_k - p.t_q) + "), exact weight " + std::to_string(exact));
      }
}

// lecture4.prop4.3.causal_independence: output row i does not depend on keys,
// values or queries after its position; bit-identical under such a change.
rc::Gen<Case> IndependenceGen(DType t) {
  ShapeSpec s;
  s.causal = CausalKind::kYes;
  s.min_t_k = 2;
  return rc::gen::mapcat(ProblemGen(t, s), [t](const Case& c) {
    const Problem p = Problem::FromCase(c);
    return rc::gen::apply(
        [c](int64_t cut, ExactMatrix q2, ExactMatrix k2, ExactMatrix v2) {
          Case out = c;
          return out.Int("cut", cut).Matrix("Q2", std::move(q2)).Matrix("K2", std::move(k2)).Matrix("V2", std::move(v2));
        },
        gen::Dim(0, std::max<int64_t>(0, p.t_k - 2)), gen::Matrix(p.q.rows, p.q.cols, EntryGen(t, 16)),
        gen::Matrix(p.k.rows, p.k.cols, EntryGen(t, 16)), gen::Matrix(p.v.rows, p.v.cols, EntryGen(t, 16)));
  });
}

void CausalIndependence(const KernelContext& ctx, DType t, const Case& c) {
  const Problem p = Problem::FromCase(c);
  RC_PRE(p.t_k >= 2);
  const int64_t cut = c.GetInt("cut");  // positions <= cut are the past
  Problem f = p;
  const ExactMatrix &q2 = c.GetMatrix("Q2"), &k2 = c.GetMatrix("K2"), &v2 = c.GetMatrix("V2");
  for (int64_t b = 0; b < p.batch; ++b) {
    for (int64_t j = cut + 1; j < p.t_k; ++j) {
      for (int64_t l = 0; l < p.d_k; ++l) f.k(b * p.t_k + j, l) = k2(b * p.t_k + j, l);
      for (int64_t l = 0; l < p.d_v; ++l) f.v(b * p.t_k + j, l) = v2(b * p.t_k + j, l);
    }
    for (int64_t i = 0; i < p.t_q; ++i)
      if (i + p.t_k - p.t_q > cut)
        for (int64_t l = 0; l < p.d_k; ++l) f.q(b * p.t_q + i, l) = q2(b * p.t_q + i, l);
  }
  const CallResult r = CallKernel(ctx, p), rf = CallKernel(ctx, f);
  RequireSuccess(r, "call on the original");
  RequireSuccess(rf, "call with the future perturbed");
  const size_t es = t == DType::kF32 ? 4 : 8;
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t i = 0; i < p.t_q && i + p.t_k - p.t_q <= cut; ++i) {
      const size_t row = static_cast<size_t>(b * p.t_q + i);
      const size_t off = row * static_cast<size_t>(p.d_v) * es, n = static_cast<size_t>(p.d_v) * es;
      ExpectThat(std::memcmp(r.out_bytes[0].data() + off, rf.out_bytes[0].data() + off, n) == 0,
                 RowAt("out row", b, i) + " (position " + std::to_string(i + p.t_k - p.t_q) +
                     " <= cut " + std::to_string(cut) + ") changed when only positions > cut changed");
      ExpectThat(std::memcmp(r.lse_bytes[0].data() + row * es, rf.lse_bytes[0].data() + row * es, es) == 0,
                 RowAt("lse row", b, i) + " changed when only its future changed");
    }
}

// lecture4.sec9.2.first_row_onehot: with causal masking (t_q = t_k) the
// first row of A is (1, 0, ..., 0) exactly: one visible key, exp(0) = 1.
void FirstRowOnehot(const KernelContext& ctx, DType, const Case& c) {
  const Problem p = Problem::FromCase(c);
  const CallResult r = CallKernel(ctx, p);
  RequireSuccess(r, "call");
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t j = 0; j < p.t_k; ++j) {
      const double a = Out(p, r.out[0], b, 0, j);
      ExpectThat(a == (j == 0 ? 1.0 : 0.0),
                 At("A", b, 0, j) + " = " + std::to_string(a) + ", the first causal row must be (1, 0, ..., 0)");
    }
}

// lecture4.sec5.shift_invariance: translating every key by u adds c<q_i,u>
// to row i's scores: A unchanged, lse_i + c<q_i,u>.
rc::Gen<Case> ShiftGen(DType t) {
  ShapeSpec s;
  return rc::gen::mapcat(ProblemGen(t, s), [t](const Case& c) {
    const Problem p = Problem::FromCase(c);
    return rc::gen::map(gen::Matrix(1, p.d_k, EntryGen(t, 16)), [c](ExactMatrix u) {
      Case out = c;
      return out.Matrix("u", std::move(u));
    });
  });
}

void ShiftInvariance(const KernelContext& ctx, DType t, const Case& c) {
  const Problem p = Problem::FromCase(c);
  const ExactMatrix& u = c.GetMatrix("u");
  Problem s = p;
  for (int64_t j = 0; j < s.k.rows; ++j)
    for (int64_t l = 0; l < s.d_k; ++l) s.k(j, l) = p.k(j, l).ToDouble() + u(0, l).ToDouble();  // exact: few bits
  const CallResult r = CallKernel(ctx, p), rs = CallKernel(ctx, s);
  RequireSuccess(r, "call on K");
  RequireSuccess(rs, "call on K + 1 u^T");
  const auto ref = Reference(p), ref_s = Reference(s);
  const Mpfr scale = p.scale.As<Mpfr>();
  Worst wo("|out(K + 1u^T) - out(K)|"), wl("|lse(K + 1u^T) - lse(K) - c<q_i,u>|");
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t i = 0; i < p.t_q; ++i) {
      if (!RowHasKey(p, i)) continue;
      for (int64_t cc = 0; cc < p.d_v; ++cc) {
        const double d = std::fabs(Out(p, rs.out[0], b, i, cc) - Out(p, r.out[0], b, i, cc));
        wo.Check(std::isfinite(d) ? d : HUGE_VAL,
                 OutBound(p, t, ref[static_cast<size_t>(b)], b, i, cc) +
                     OutBound(s, t, ref_s[static_cast<size_t>(b)], b, i, cc),
                 At("out", b, i, cc));
      }
      Mpfr qu = 0;
      for (int64_t l = 0; l < p.d_k; ++l) qu += p.q(b * p.t_q + i, l).As<Mpfr>() * u(0, l).As<Mpfr>();
      const size_t row = static_cast<size_t>(b * p.t_q + i);
      const bool finite = std::isfinite(rs.lse[0][row]) && std::isfinite(r.lse[0][row]);
      const double err = finite ? ToDouble(Mpfr(abs(Mpfr(rs.lse[0][row]) - Mpfr(r.lse[0][row]) - scale * qu)))
                                            : HUGE_VAL;
      wl.Check(err, BoundForRow(p, t, b, i).lse + BoundForRow(s, t, b, i).lse, RowAt("lse", b, i));
    }
}

// lecture4.thm6.1.permutation_equivariance (unmasked): permuting the tokens
// X (so the rows of Q, K and V together) permutes the output rows.
rc::Gen<Case> PermutationGen(DType t) {
  ShapeSpec s;
  s.causal = CausalKind::kNo;
  s.lengths = Lengths::kEqual;
  return rc::gen::mapcat(ProblemGen(t, s), [](const Case& c) {
    const Problem p = Problem::FromCase(c);
    return rc::gen::map(rc::gen::container<std::vector<int64_t>>(static_cast<size_t>(p.t_q), rc::gen::inRange<int64_t>(0, 1000)),
                        [c](const std::vector<int64_t>& keys) {
                          // The permutation that sorts `keys` (stable): shrinks to the identity.
                          std::vector<int64_t> perm(keys.size());
                          std::iota(perm.begin(), perm.end(), 0);
                          std::stable_sort(perm.begin(), perm.end(),
                                           [&](int64_t a, int64_t b) { return keys[static_cast<size_t>(a)] < keys[static_cast<size_t>(b)]; });
                          ExactMatrix m(1, static_cast<int64_t>(perm.size()));
                          for (size_t i = 0; i < perm.size(); ++i) m.data[i] = static_cast<double>(perm[i]);
                          Case out = c;
                          return out.Matrix("perm", std::move(m));
                        });
  });
}

void PermutationEquivariance(const KernelContext& ctx, DType t, const Case& c) {
  const Problem p = Problem::FromCase(c);
  const ExactMatrix& pm = c.GetMatrix("perm");
  auto pi = [&](int64_t r) { return static_cast<int64_t>(pm(0, r).ToDouble()); };
  Problem x = p;  // row r of the permuted problem is row pi(r) of p
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t r = 0; r < p.t_q; ++r) {
      for (int64_t l = 0; l < p.d_k; ++l) {
        x.q(b * p.t_q + r, l) = p.q(b * p.t_q + pi(r), l);
        x.k(b * p.t_k + r, l) = p.k(b * p.t_k + pi(r), l);
      }
      for (int64_t l = 0; l < p.d_v; ++l) x.v(b * p.t_k + r, l) = p.v(b * p.t_k + pi(r), l);
    }
  const CallResult r = CallKernel(ctx, p), rx = CallKernel(ctx, x);
  RequireSuccess(r, "call on X");
  RequireSuccess(rx, "call on P X");
  const auto ref = Reference(p);
  Worst wo("|out(PX)_r - out(X)_pi(r)|"), wl("|lse(PX)_r - lse(X)_pi(r)|");
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t row = 0; row < p.t_q; ++row) {
      const int64_t src = pi(row);
      // The permuted problem's row bound equals the original row's (same multiset of keys).
      const RowBound rb = BoundForRow(p, t, b, src);
      for (int64_t cc = 0; cc < p.d_v; ++cc) {
        const double d = std::fabs(Out(p, rx.out[0], b, row, cc) - Out(p, r.out[0], b, src, cc));
        wo.Check(std::isfinite(d) ? d : HUGE_VAL, 2 * OutBound(p, t, ref[static_cast<size_t>(b)], b, src, cc),
                 At("out", b, row, cc));
      }
      const double dl = std::fabs(rx.lse[0][static_cast<size_t>(b * p.t_q + row)] - r.lse[0][static_cast<size_t>(b * p.t_q + src)]);
      wl.Check(std::isfinite(dl) ? dl : HUGE_VAL, 2 * rb.lse, RowAt("lse", b, row));
    }
}

// lecture4.aside8.1.streaming_softmax_exact: keys split into blocks; each
// block's (out_b, lse_b) merged through lse = ln sum_b exp(lse_b),
// out = sum_b exp(lse_b - lse) out_b equals the whole call.
rc::Gen<Case> StreamingGen(DType t) {
  ShapeSpec s;
  s.causal = CausalKind::kNo;
  s.min_t_k = 2;
  return rc::gen::mapcat(ProblemGen(t, s), [](const Case& c) {
    return rc::gen::map(gen::Dim(2, 4), [c](int64_t blocks) {
      Case out = c;
      return out.Int("blocks", blocks);
    });
  });
}

void StreamingSoftmax(const KernelContext& ctx, DType t, const Case& c) {
  const Problem p = Problem::FromCase(c);
  RC_PRE(p.t_k >= 2);
  const int64_t nb = std::min(c.GetInt("blocks"), p.t_k);
  const CallResult whole = CallKernel(ctx, p);
  RequireSuccess(whole, "whole call");
  const auto ref = Reference(p);
  std::vector<Mat<Mpfr>> merged_num(static_cast<size_t>(p.batch), Mat<Mpfr>::Zero(p.t_q, p.d_v));
  std::vector<Vec<Mpfr>> block_lse;  // per block: batch*t_q values
  std::vector<std::vector<double>> block_out;
  double rho_blocks = 0, lse_blocks = 0, underflow_blocks = 0;
  for (int64_t blk = 0; blk < nb; ++blk) {
    const int64_t j0 = p.t_k * blk / nb, j1 = p.t_k * (blk + 1) / nb;
    Problem sub = p;
    sub.t_k = j1 - j0;
    sub.k = ExactMatrix(p.batch * sub.t_k, p.d_k);
    sub.v = ExactMatrix(p.batch * sub.t_k, p.d_v);
    for (int64_t b = 0; b < p.batch; ++b)
      for (int64_t j = j0; j < j1; ++j) {
        for (int64_t l = 0; l < p.d_k; ++l) sub.k(b * sub.t_k + j - j0, l) = p.k(b * p.t_k + j, l);
        for (int64_t l = 0; l < p.d_v; ++l) sub.v(b * sub.t_k + j - j0, l) = p.v(b * p.t_k + j, l);
      }
    const CallResult rb = CallKernel(ctx, sub);
    RequireSuccess(rb, "call on keys [" + std::to_string(j0) + ", " + std::to_string(j1) + ")");
    Vec<Mpfr> l(p.batch * p.t_q);
    for (int64_t i = 0; i < p.batch * p.t_q; ++i) l[i] = Mpfr(rb.lse[0][static_cast<size_t>(i)]);
    block_lse.push_back(l);
    block_out.push_back(rb.out[0]);
    for (int64_t b = 0; b < p.batch; ++b)
      for (int64_t i = 0; i < p.t_q; ++i) {
        const RowBound bb = BoundForRow(sub, t, b, i);
        rho_blocks = std::max(rho_blocks, bb.rho);
        lse_blocks = std::max(lse_blocks, bb.lse);
        underflow_blocks += bb.underflow;
      }
  }
  Worst wo("|merge of block outputs - out|"), wl("|merge of block lse - lse|");
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t i = 0; i < p.t_q; ++i) {
      const size_t row = static_cast<size_t>(b * p.t_q + i);
      Vec<Mpfr> ls(nb);
      for (int64_t blk = 0; blk < nb; ++blk) ls[blk] = block_lse[static_cast<size_t>(blk)][static_cast<Eigen::Index>(row)];
      for (int64_t blk = 0; blk < nb; ++blk)
        if (!isfinite(ls[blk])) RC_FAIL("block " + std::to_string(blk) + " returned a non-finite lse for " + RowAt("row", b, i));
      const Mpfr lse = LogSumExp(ls);
      const RowBound wb = BoundForRow(p, t, b, i);
      wl.Check(std::isfinite(whole.lse[0][row]) ? ToDouble(Mpfr(abs(lse - Mpfr(whole.lse[0][row])))) : HUGE_VAL,
               wb.lse + lse_blocks, RowAt("lse", b, i));
      for (int64_t cc = 0; cc < p.d_v; ++cc) {
        Mpfr m = 0;
        for (int64_t blk = 0; blk < nb; ++blk)
          m += exp(ls[blk] - lse) * Mpfr(block_out[static_cast<size_t>(blk)][row * static_cast<size_t>(p.d_v) + static_cast<size_t>(cc)]);
        const double got = Out(p, whole.out[0], b, i, cc);
        const auto [wsum, vmax] = WeightedAbsV(p, ref[static_cast<size_t>(b)], b, i, cc);
        // [rho_whole + (1 + rho_B) exp(2 L_B) - 1] sum_j a_j |v_j|: block outputs within rho_B, merge
        // weights exp(lse_b - lse) within exp(2 L_B) relative, the whole call within rho_whole.
        const double bound = (wb.rho + (1 + rho_blocks) * std::exp(2 * lse_blocks) - 1) * wsum * (1 + 1e-12) +
                             (wb.underflow + underflow_blocks) * vmax;
        const double err = std::isfinite(got) && isfinite(m) ? ToDouble(Mpfr(abs(m - Mpfr(got)))) : HUGE_VAL;
        wo.Check(err, bound, At("out", b, i, cc));
      }
    }
}

// lecture4.sec8.1.kv_cache_equivalence: decoding the last m of the first p
// positions against cached K, V (t_q = m, t_k = p, causal) equals rows
// p-m .. p-1 of the full causal computation.
rc::Gen<Case> KvCacheGen(DType t) {
  ShapeSpec s;
  s.causal = CausalKind::kYes;
  s.lengths = Lengths::kEqual;
  return rc::gen::mapcat(ProblemGen(t, s), [](const Case& c) {
    const Problem p = Problem::FromCase(c);
    return rc::gen::mapcat(gen::Dim(1, p.t_k), [c](int64_t prefix) {
      return rc::gen::map(gen::Dim(1, prefix), [c, prefix](int64_t m) {
        Case out = c;
        return out.Int("prefix", prefix).Int("new_queries", m);
      });
    });
  });
}

void KvCache(const KernelContext& ctx, DType t, const Case& c) {
  const Problem p = Problem::FromCase(c);
  const int64_t prefix = c.GetInt("prefix"), m = c.GetInt("new_queries");
  Problem d = p;
  d.t_q = m;
  d.t_k = prefix;
  d.q = ExactMatrix(p.batch * m, p.d_k);
  d.k = ExactMatrix(p.batch * prefix, p.d_k);
  d.v = ExactMatrix(p.batch * prefix, p.d_v);
  for (int64_t b = 0; b < p.batch; ++b) {
    for (int64_t i = 0; i < m; ++i)
      for (int64_t l = 0; l < p.d_k; ++l) d.q(b * m + i, l) = p.q(b * p.t_q + prefix - m + i, l);
    for (int64_t j = 0; j < prefix; ++j) {
      for (int64_t l = 0; l < p.d_k; ++l) d.k(b * prefix + j, l) = p.k(b * p.t_k + j, l);
      for (int64_t l = 0; l < p.d_v; ++l) d.v(b * prefix + j, l) = p.v(b * p.t_k + j, l);
    }
  }
  const CallResult full = CallKernel(ctx, p), dec = CallKernel(ctx, d);
  RequireSuccess(full, "full causal call");
  RequireSuccess(dec, "cached decoding call");
  const auto ref = Reference(p), ref_d = Reference(d);
  Worst wo("|out(cached) - out(full)|"), wl("|lse(cached) - lse(full)|");
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t i = 0; i < m; ++i) {
      const int64_t fi = prefix - m + i;
      for (int64_t cc = 0; cc < p.d_v; ++cc) {
        const double x = Out(d, dec.out[0], b, i, cc), y = Out(p, full.out[0], b, fi, cc);
        const double diff = std::isfinite(x) && std::isfinite(y) ? std::fabs(x - y) : HUGE_VAL;
        wo.Check(diff, OutBound(p, t, ref[static_cast<size_t>(b)], b, fi, cc) + OutBound(d, t, ref_d[static_cast<size_t>(b)], b, i, cc),
                 At("decoded row", b, i, cc) + " vs full row " + std::to_string(fi));
      }
      const double x = dec.lse[0][static_cast<size_t>(b * m + i)], y = full.lse[0][static_cast<size_t>(b * p.t_q + fi)];
      wl.Check(std::isfinite(x) && std::isfinite(y) ? std::fabs(x - y) : HUGE_VAL,
               BoundForRow(p, t, b, fi).lse + BoundForRow(d, t, b, i).lse, RowAt("lse", b, i));
    }
}

// lecture4.prop7.2.nadaraya_watson_form: out_i = sum_j k(q_i,k_j) v_j /
// sum_l k(q_i,k_l), k = exp(c<q,k>) over the visible keys (causal version
// too): the kernel's output against the exact value of that formula.
void NadarayaWatson(const KernelContext& ctx, DType t, const Case& c) {
  const Problem p = Problem::FromCase(c);
  const CallResult r = CallKernel(ctx, p);
  RequireSuccess(r, "call");
  ExpectOutputsNearReference(p, t, Reference(p), r.out[0], nullptr, "call");
}

ShapeSpec Shape(CausalKind causal, Lengths lengths = Lengths::kAny, bool identity_v = false) {
  ShapeSpec s;
  s.causal = causal;
  s.lengths = lengths;
  s.identity_v = identity_v;
  return s;
}

std::function<rc::Gen<Case>(DType)> Gen(ShapeSpec s) {
  return [s](DType t) { return ProblemGen(t, s); };
}

}  // namespace

void AddClaimProperties(std::vector<KernelProperty>* out) {
  const Tolerance sum_tol = WeightSumTolerance(), out_tol = OutTolerance(), lse_tol = LseTolerance();
  auto pair = [](const std::string& what, const Tolerance& base, int copies) {
    return Tolerance{what, std::to_string(copies) + " x (" + base.bound + ")",
                     "both sides are within the bound of the same exact value (" + base.metric + ")"};
  };
  out->push_back({"lecture4.prop3.1.simplex_rows",
                  "unmasked rows of A (out with V = [I 0]) are >= 0, > 0 above underflow, and sum to 1",
                  false, {sum_tol}, Gen(Shape(CausalKind::kNo, Lengths::kAny, true)), SimplexRows});
  out->push_back({"lecture4.prop3.1.convex_hull", "unmasked out_i lies in conv{v_1..v_T} (coordinate-wise box)", false,
                  {HullTolerance()}, Gen(Shape(CausalKind::kNo)), HullCheck});
  out->push_back({"lecture4.sec4.prefix_convex_hull", "causal out_i lies in conv{v_j : j <= i + t_k - t_q}", false,
                  {HullTolerance()}, Gen(Shape(CausalKind::kYes)), HullCheck});
  out->push_back({"lecture4.def4.1.causal_lower_triangular_row_stochastic",
                  "causal A is exactly 0 for j > i + t_k - t_q and its non-empty rows sum to 1", false, {sum_tol},
                  Gen(Shape(CausalKind::kYes, Lengths::kAny, true)), CausalLowerTriangular});
  out->push_back({"lecture4.def4.1.causal_positive_on_prefix", "causal A_ij > 0 for every permitted j (above underflow)",
                  false, {}, Gen(Shape(CausalKind::kYes, Lengths::kAny, true)), CausalPositiveOnPrefix});
  out->push_back({"lecture4.prop4.3.causal_independence",
                  "causal rows at positions <= p are bit-identical when keys, values and queries after p change",
                  false, {}, IndependenceGen, CausalIndependence});
  out->push_back({"lecture4.sec9.2.first_row_onehot", "causal (t_q = t_k) first row of A is exactly (1, 0, ..., 0)",
                  false, {}, Gen(Shape(CausalKind::kYes, Lengths::kEqual, true)), FirstRowOnehot});
  out->push_back({"lecture4.sec5.shift_invariance", "K + 1u^T leaves out unchanged and adds c<q_i,u> to lse_i", false,
                  {pair("|out(K + 1u^T) - out(K)|", out_tol, 2), pair("|lse(K + 1u^T) - lse(K) - c<q_i,u>|", lse_tol, 2)},
                  ShiftGen, ShiftInvariance});
  out->push_back({"lecture4.thm6.1.permutation_equivariance", "permuting the rows of Q, K, V together permutes out (unmasked)",
                  false, {pair("|out(PX)_r - out(X)_pi(r)|", out_tol, 2), pair("|lse(PX)_r - lse(X)_pi(r)|", lse_tol, 2)},
                  PermutationGen, PermutationEquivariance});
  out->push_back({"lecture4.aside8.1.streaming_softmax_exact",
                  "per-block (out_b, lse_b) merged through lse equal the whole call (unmasked)", false,
                  {{"|merge of block outputs - out|", "(rho_i + (1 + rho_B) exp(2 L_B) - 1) sum_j a*_ij |v_jc| + underflow",
                    "block outputs within rho_B (max block rho), merge weights exp(lse_b - lse) within exp(2 L_B) "
                    "relative (L_B = max block lse bound), the whole call within rho_i; sum_b w_b sum_{j in b} a^b_j |v_j| "
                    "= sum_j a_j |v_j|"},
                   {"|merge of block lse - lse|", "L_whole + L_B", "each lse within its bound; the merge is exact (MPFR)"}},
                  StreamingGen, StreamingSoftmax});
  out->push_back({"lecture4.sec8.1.kv_cache_equivalence",
                  "decoding m new queries against the cached first p keys equals the full causal rows p-m..p-1", false,
                  {pair("|out(cached) - out(full)|", out_tol, 2), pair("|lse(cached) - lse(full)|", lse_tol, 2)},
                  KvCacheGen, KvCache});
  out->push_back({"lecture4.prop7.2.nadaraya_watson_form",
                  "out_i = sum_j exp(c<q_i,k_j>) v_j / sum_l exp(c<q_i,k_l>) over visible keys, within the derived bound",
                  false, {out_tol}, Gen(Shape(CausalKind::kEither)), NadarayaWatson});
}

}  // namespace attnprop::ksuite
