// Lecture 4's claims about the attention operator (003_dd971a1151775776.txt;
// ids verbatim from claims/claims.tsv), checked on attnprop's model (double,
// MPFR) and on kernels through the ABI, against the MPFR reference. A fused
// kernel does not return the weights, but with V = [I 0] (d_v >= t_k) out_i
// is row i of the weight matrix exactly (products with 0 and 1 and sums with
// zeros are exact), and lse gives each row's normaliser.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "generators/scalars.h"
#include "properties/framework/hypotheses_checks.h"
#include "properties/operator/accuracy.h"
#include "properties/operator/attention_claims.h"
#include "properties/operator/kernel_backend.h"

namespace attnprop::ksuite {

using Lengths = ShapeSpec::Lengths;
using CausalKind = ShapeSpec::Causal;

namespace ATTNPROP_UNIT {

const Mpfr& Out(const Problem& p, const std::vector<Mpfr>& out, int64_t b, int64_t i, int64_t c) {
  return out[static_cast<size_t>((b * p.t_q + i) * p.d_v + c)];
}

/// A tolerance for the difference of two outputs that are each within `base`
/// of the same exact value.
Tolerance Pair(const char* metric, const Tolerance& base) {
  return {metric, "2 x (" + base.bound + ")",
          "both sides are within the bound of the same exact value (" + base.metric + ")", base.kind};
}

// The hull claims, certified by supporting directions. The exact out*_i is
// a convex combination of the visible v_j, so for every direction w,
// <w, out*_i> <= max_j <w, v_j>; the computed out_i is within
// e_c = OutBound(c) of out*_i in each coordinate, so
//   <w, out_i> - max_j <w, v_j> <= sum_c |w_c| e_c.
// A direction exceeding that (beyond the rounding of evaluating it) separates
// out_i from conv{v_j}: a certified violation. Checked directions: the 2 d_v
// signed axes (the box test) and the nearest-point direction w = out_i - x,
// x the point of the hull nearest out_i found by Frank-Wolfe (exact line
// search, 64 steps, in double: only the direction comes from it, the
// inequality is evaluated in MPFR). If out_i is outside the hull by more than
// the bound's slack, w tends to a separating direction, so an output inside
// the box but outside the hull fails.
const Tolerance kHullBoxTolerance{
    "distance of out_ic outside [min_j v_jc, max_j v_jc]", "rho_i sum_j a*_ij |v_jc| + 2 t_k lambda max_j |v_jc|",
    "the signed axes as supporting directions: the exact out_i is a convex combination of the visible v_j; "
    "the computed one is within the output bound of it (see |out - out*|)", MetricKind::kClaim};
const Tolerance kHullDirectionTolerance{
    "<w, out_i> - max_j <w, v_j>, w = out_i - (nearest hull point, Frank-Wolfe)",
    "sum_c |w_c| e_c + gamma_{d_v+1} (sum_c |w_c o_ic| + max_j sum_c |w_c v_jc|)",
    "<w, out*_i> <= max_j <w, v_j> for the exact convex combination; |out_ic - out*_ic| <= e_c (the output "
    "bound); the two inner products are evaluated in MPFR (unit u_M) with error <= gamma_{d_v+1} times their "
    "absolute sums", MetricKind::kClaim};

/// The Frank-Wolfe approximation (in double) of the point of conv{v_j : j in
/// keys} nearest o, b's item; returns w = o - x.
std::vector<double> NearestPointDirection(const Problem& p, int64_t b, const std::vector<int64_t>& keys,
                                          const std::vector<double>& o) {
  const size_t dv = static_cast<size_t>(p.d_v);
  auto vj = [&](int64_t j, size_t c) { return p.v(b * p.t_k + j, static_cast<int64_t>(c)).ToDouble(); };
  std::vector<double> x(dv), w(dv), d(dv);
  for (size_t c = 0; c < dv; ++c) x[c] = vj(keys[0], c);
  for (int it = 0; it < 64; ++it) {
    for (size_t c = 0; c < dv; ++c) w[c] = o[c] - x[c];
    int64_t best = keys[0];
    double best_dot = -HUGE_VAL;
    for (int64_t j : keys) {
      double dot = 0;
      for (size_t c = 0; c < dv; ++c) dot += w[c] * vj(j, c);
      if (dot > best_dot) best_dot = dot, best = j;
    }
    double wd = 0, dd = 0;
    for (size_t c = 0; c < dv; ++c) {
      d[c] = vj(best, c) - x[c];
      wd += w[c] * d[c];
      dd += d[c] * d[c];
    }
    if (!(wd > 0) || !(dd > 0)) break;  // x is the nearest point (to double accuracy)
    const double t = std::min(1.0, wd / dd);
    for (size_t c = 0; c < dv; ++c) x[c] += t * d[c];
  }
  for (size_t c = 0; c < dv; ++c) w[c] = o[c] - x[c];
  return w;
}

/// out_i in conv{v_j} over the visible keys, certified by supporting
/// directions (above), up to the output's error bound.
void HullCheck(const Operator& op, const Case& c) {
  const Problem p = Problem::FromCase(c);
  const CallResult r = Call(op, p);
  RequireSuccess(r, "call");
  const auto ref = Reference(op, p);
  const double u_m = ScalarTraits<Mpfr>::UnitRoundoff();
  Worst box(kHullBoxTolerance), dir(kHullDirectionTolerance);
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t i = 0; i < p.t_q; ++i) {
      if (!p.RowHasKey(i)) continue;  // the empty-row contract covers these
      std::vector<int64_t> keys;
      for (int64_t j = 0; j < p.t_k; ++j)
        if (p.Visible(i, j)) keys.push_back(j);
      std::vector<double> e(static_cast<size_t>(p.d_v)), od(static_cast<size_t>(p.d_v));
      bool finite = true;
      for (int64_t cc = 0; cc < p.d_v; ++cc) {
        Mpfr lo = HUGE_VAL, hi = -HUGE_VAL;
        for (int64_t j : keys) {
          const Mpfr vj = p.v(b * p.t_k + j, cc).As<Mpfr>();
          if (vj < lo) lo = vj;
          if (vj > hi) hi = vj;
        }
        const Mpfr& o = Out(p, r.out[0], b, i, cc);
        e[static_cast<size_t>(cc)] = OutBound(p, op, ref[static_cast<size_t>(b)], b, i, cc);
        double dist = HUGE_VAL;
        if (isfinite(o)) dist = o < lo ? ToDouble(Mpfr(lo - o)) : o > hi ? ToDouble(Mpfr(o - hi)) : 0.0;
        finite = finite && isfinite(o);
        od[static_cast<size_t>(cc)] = ToDouble(o);
        box.Check(dist, e[static_cast<size_t>(cc)], At("out", b, i, cc));
      }
      if (!finite) continue;  // failed above
      const std::vector<double> w = NearestPointDirection(p, b, keys, od);
      Mpfr wo = 0;
      double abs_o = 0, slack = 0;
      for (int64_t cc = 0; cc < p.d_v; ++cc) {
        const double wc = w[static_cast<size_t>(cc)];
        wo += Mpfr(wc) * Out(p, r.out[0], b, i, cc);
        abs_o += std::fabs(wc * od[static_cast<size_t>(cc)]);
        slack += std::fabs(wc) * e[static_cast<size_t>(cc)];
      }
      Mpfr support = -HUGE_VAL;
      double abs_v = 0;
      for (int64_t j : keys) {
        Mpfr wv = 0;
        double a = 0;
        for (int64_t cc = 0; cc < p.d_v; ++cc) {
          const double vjc = p.v(b * p.t_k + j, cc).ToDouble();
          wv += Mpfr(w[static_cast<size_t>(cc)]) * Mpfr(vjc);
          a += std::fabs(w[static_cast<size_t>(cc)] * vjc);
        }
        if (wv > support) support = wv;
        abs_v = std::max(abs_v, a);
      }
      const double n = static_cast<double>(p.d_v + 1), gamma = n * u_m / (1 - n * u_m);
      const double bound = (slack + gamma * (abs_o + abs_v)) * (1 + 1e-12);  // double sums: ~1e-16 relative
      const double gap = ToDouble(Mpfr(wo - support));
      dir.Check(std::max(gap, 0.0), bound, RowAt("out", b, i) + " against the direction out_i - (nearest hull point)");
    }
}

}  // namespace

// ---------------------------------------------------------------------------
// lecture4.prop3.1.simplex_rows (Prop 3.1), on the operator: every unmasked
// row of A lies in the relative interior of the simplex: A_ij >= 0, > 0 above
// underflow, sum_j A_ij = 1 (A read as out with V = [I 0]). The claim's model
// backends are in properties/lecture4/sec3_attention_as_averaging.cc.
ShapeSpec SimplexRowsProblems() {
  using namespace ATTNPROP_UNIT;
  return Shape(CausalKind::kNo, Lengths::kAny, true);
}

void SimplexRowsOnOperator(const Operator& op, const Case& c) {
  using namespace ATTNPROP_UNIT;  // this file's helpers (property.h: ATTNPROP_UNIT)
  const Problem p = Problem::FromCase(c);
  const CallResult r = Call(op, p);
  RequireSuccess(r, "call");
  const auto ref = Reference(op, p);
  const double lambda = op.MinNormal();
  Worst sum_check(kWeightSumTolerance);
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t i = 0; i < p.t_q; ++i) {
      Mpfr sum = 0;
      for (int64_t j = 0; j < p.t_k; ++j) {
        const Mpfr& a = Out(p, r.out[0], b, i, j);
        ExpectThat(a >= 0, At("A", b, i, j) + " = " + Num(a) + " is not >= 0");
        // An exact weight >= 4 lambda is computed as >= a(1 - rho) - 2 lambda > 0 (rho < 1/2).
        const Mpfr& exact = ref[static_cast<size_t>(b)].weights(i, j);
        if (exact >= 4 * lambda && exact > 0)
          ExpectThat(a > 0, At("A", b, i, j) + " = 0 but its exact value " + Num(exact) + " is far above underflow");
        sum += a;
      }
      const RowBound rb = BoundForRow(p, op, b, i);
      sum_check.Check(AbsDiff(sum, Mpfr(1)), rb.rho + rb.underflow, RowAt("row", b, i));
    }
}

namespace ATTNPROP_UNIT {

/// The two hull claims: out_i in the convex hull of the visible v_j,
/// certified by supporting directions (HullCheck).
template <class Derived>
struct HullFamily : AttentionClaim<Derived> {
  static void Check(const Operator& op, const Case& c) { HullCheck(op, c); }
};

// lecture4.prop3.1.convex_hull: unmasked out_i lies in conv{v_1..v_T}.
struct ConvexHull : HullFamily<ConvexHull>, ClaimId<"lecture4.prop3.1.convex_hull"> {
  static ShapeSpec Problems() { return Shape(CausalKind::kNo); }
};
ATTNPROP_REGISTER(ConvexHull, double, Mpfr, KernelF32, KernelF64);

// lecture4.sec4.prefix_convex_hull: causal out_i lies in conv{v_j : j <= i + t_k - t_q}.
struct PrefixConvexHull : HullFamily<PrefixConvexHull>, ClaimId<"lecture4.sec4.prefix_convex_hull"> {
  static ShapeSpec Problems() { return Shape(CausalKind::kYes); }
};
ATTNPROP_REGISTER(PrefixConvexHull, double, Mpfr, KernelF32, KernelF64);

// lecture4.def4.1.causal_lower_triangular_row_stochastic: causal A is exactly
// 0 for j > i + t_k - t_q, its permitted entries are nonnegative (the
// definition: "its entries are nonnegative"; exact, no rounding excuses a
// negative weight), and its non-empty rows sum to 1.
struct CausalLowerTriangular : AttentionClaim<CausalLowerTriangular>,
                               ClaimId<"lecture4.def4.1.causal_lower_triangular_row_stochastic"> {
  static ShapeSpec Problems() { return Shape(CausalKind::kYes, Lengths::kAny, true); }
  static void Check(const Operator& op, const Case& c) {
    const Problem p = Problem::FromCase(c);
    const CallResult r = Call(op, p);
    RequireSuccess(r, "call");
    Worst sum_check(kWeightSumTolerance);
    for (int64_t b = 0; b < p.batch; ++b)
      for (int64_t i = 0; i < p.t_q; ++i) {
        Mpfr sum = 0;
        for (int64_t j = 0; j < p.t_k; ++j) {
          const Mpfr& a = Out(p, r.out[0], b, i, j);
          if (!p.Visible(i, j))
            ExpectThat(a == 0, At("A", b, i, j) + " = " + Num(a) + " but key " + std::to_string(j) +
                                   " is in query " + std::to_string(i) + "'s future (j > i + t_k - t_q = " +
                                   std::to_string(i + p.t_k - p.t_q) + ")");
          else
            ExpectThat(a >= 0, At("A", b, i, j) + " = " + Num(a) + " < 0: a permitted weight is negative");
          sum += a;
        }
        if (!p.RowHasKey(i)) continue;
        const RowBound rb = BoundForRow(p, op, b, i);
        sum_check.Check(AbsDiff(sum, Mpfr(1)), rb.rho + rb.underflow, RowAt("row", b, i));
      }
  }
};
ATTNPROP_REGISTER(CausalLowerTriangular, double, Mpfr, KernelF32, KernelF64);

// lecture4.def4.1.causal_positive_on_prefix: causal A_ij > 0 for every
// permitted key (above underflow).
struct CausalPositiveOnPrefix : AttentionClaim<CausalPositiveOnPrefix>,
                                ClaimId<"lecture4.def4.1.causal_positive_on_prefix"> {
  static ShapeSpec Problems() { return Shape(CausalKind::kYes, Lengths::kAny, true); }
  static void Check(const Operator& op, const Case& c) {
    const Problem p = Problem::FromCase(c);
    const CallResult r = Call(op, p);
    RequireSuccess(r, "call");
    const auto ref = Reference(op, p);
    const double lambda = op.MinNormal();
    for (int64_t b = 0; b < p.batch; ++b)
      for (int64_t i = 0; i < p.t_q; ++i)
        for (int64_t j = 0; j < p.t_k; ++j) {
          if (!p.Visible(i, j)) continue;
          const Mpfr& a = Out(p, r.out[0], b, i, j);
          const Mpfr& exact = ref[static_cast<size_t>(b)].weights(i, j);
          // Positive unless the exact weight is at the underflow threshold (see SimplexRowsOnOperator).
          if (exact >= 4 * lambda && exact > 0)
            ExpectThat(a > 0, At("A", b, i, j) + " = " + Num(a) + " for a permitted key (j <= i + t_k - t_q = " +
                                  std::to_string(i + p.t_k - p.t_q) + "), exact weight " + Num(exact));
        }
  }
};
ATTNPROP_REGISTER(CausalPositiveOnPrefix, double, Mpfr, KernelF32, KernelF64);

// lecture4.prop4.3.causal_independence: output row i does not depend on keys,
// values or queries after its position; bit-identical under such a change.
struct CausalIndependence : AttentionClaim<CausalIndependence>, ClaimId<"lecture4.prop4.3.causal_independence"> {
  // The causal problem (t_k >= 2), 0 <= cut <= t_k - 2 (a nonempty future),
  // and Q2, K2, V2 of the shapes of Q, K, V, entries as the problem's.
  static ProblemClass Problems() {
    ShapeSpec s;
    s.causal = CausalKind::kYes;
    s.min_t_k = 2;
    return ProblemClass(s).Int("cut", Const(0), Plus(TK, -2)).Alternative("2", 16);
  }
  static void Check(const Operator& op, const Case& c) {
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
    const CallResult r = Call(op, p), rf = Call(op, f);
    RequireSuccess(r, "call on the original");
    RequireSuccess(rf, "call with the future perturbed");
    const size_t es = op.ElementBytes(), dv = static_cast<size_t>(p.d_v);
    for (int64_t b = 0; b < p.batch; ++b)
      for (int64_t i = 0; i < p.t_q && i + p.t_k - p.t_q <= cut; ++i) {
        const size_t row = static_cast<size_t>(b * p.t_q + i);
        ExpectThat(SameOut(r, row * dv, rf, row * dv, dv, es),
                   RowAt("out row", b, i) + " (position " + std::to_string(i + p.t_k - p.t_q) + " <= cut " +
                       std::to_string(cut) + ") changed when only positions > cut changed");
        ExpectThat(SameLse(r, row, rf, row, 1, es), RowAt("lse row", b, i) + " changed when only its future changed");
      }
  }
};
ATTNPROP_REGISTER(CausalIndependence, double, Mpfr, KernelF32, KernelF64);

// lecture4.sec9.2.first_row_onehot: with causal masking (t_q = t_k) the
// first row of A is (1, 0, ..., 0) exactly: one visible key, exp(0) = 1.
struct FirstRowOnehot : AttentionClaim<FirstRowOnehot>, ClaimId<"lecture4.sec9.2.first_row_onehot"> {
  static ShapeSpec Problems() { return Shape(CausalKind::kYes, Lengths::kEqual, true); }
  static void Check(const Operator& op, const Case& c) {
    const Problem p = Problem::FromCase(c);
    const CallResult r = Call(op, p);
    RequireSuccess(r, "call");
    for (int64_t b = 0; b < p.batch; ++b)
      for (int64_t j = 0; j < p.t_k; ++j) {
        const Mpfr& a = Out(p, r.out[0], b, 0, j);
        ExpectThat(a == (j == 0 ? 1 : 0),
                   At("A", b, 0, j) + " = " + Num(a) + ", the first causal row must be (1, 0, ..., 0)");
      }
  }
};
ATTNPROP_REGISTER(FirstRowOnehot, double, Mpfr, KernelF32, KernelF64);

// lecture4.sec5.shift_invariance: translating every key by u adds c<q_i,u>
// to row i's scores: softmax unchanged (A(K + 1u^T) = A(K)), lse_i +
// c<q_i,u>. The call on K + 1u^T is compared with the exact result on K
// (its reference, shifted), within the shifted call's own bound (not a
// bound for both calls' rounding: two computed outputs agree exactly
// whenever the max subtraction cancels the shift exactly, MPFR on short
// inputs, so such a bound would never be approached). Three observations:
// out = A V, lse, and A itself (a third call with V = I, d_v = t_k, whose
// out is A: out = A V alone cannot see a change of A that V hides, e.g.
// equal rows of V).
struct ShiftInvariance : AttentionClaim<ShiftInvariance>, ClaimId<"lecture4.sec5.shift_invariance"> {
  // Any problem, u (1 x d_k) of the entries' kind, and K + 1 u^T exact in
  // the storage type (the check forms it in double and stores it: a rounded
  // shift would not be the claim's shift), within the problem's domain.
  static ProblemClass Problems() {
    return ProblemClass(ShapeSpec{}).Matrix("u", Const(1), DK, 16).Assume("K + 1 u^T exact, a problem too", ShiftExact);
  }
  static bool ShiftExact(DType t, const Case& c) {
    const Problem p = Problem::FromCase(c);
    const ExactMatrix& u = c.GetMatrix("u");
    ExactMatrix shifted = p.k;
    for (int64_t j = 0; j < p.k.rows; ++j)
      for (int64_t l = 0; l < p.d_k; ++l) {
        const double a = p.k(j, l).ToDouble(), b = u(0, l).ToDouble(), sum = a + b;
        if (sum - a != b || sum - b != a) return false;  // the double sum is inexact
        shifted(j, l) = sum;
      }
    Case moved = c;
    moved.Matrix("K", shifted);
    return ProblemHolds(t, ShapeSpec{}, moved);
  }
  static void Check(const Operator& op, const Case& c) {
    const Problem p = Problem::FromCase(c);
    const ExactMatrix& u = c.GetMatrix("u");
    Problem s = p;
    for (int64_t j = 0; j < s.k.rows; ++j)
      for (int64_t l = 0; l < s.d_k; ++l) s.k(j, l) = p.k(j, l).ToDouble() + u(0, l).ToDouble();  // exact: few bits
    const CallResult rs = Call(op, s);
    RequireSuccess(rs, "call on K + 1 u^T");
    const auto ref = Reference(op, p), ref_s = Reference(op, s);
    const Mpfr scale = p.scale.As<Mpfr>();
    static const Tolerance kOut{"|out(K + 1u^T) - out*(K)|", kOutTolerance.bound,
                                "the exact outputs agree (the claim); the computed one is within the shifted "
                                "call's output bound of it (" + kOutTolerance.metric + ")", MetricKind::kRounding};
    static const Tolerance kLse{"|lse(K + 1u^T) - lse*(K) - c<q_i,u>|", kLseTolerance.bound,
                                "the exact lse moves by c<q_i,u> (the claim); the computed one is within the "
                                "shifted call's lse bound of it (" + kLseTolerance.metric + ")", MetricKind::kRounding};
    Worst wo(kOut), wl(kLse);
    for (int64_t b = 0; b < p.batch; ++b)
      for (int64_t i = 0; i < p.t_q; ++i) {
        if (!p.RowHasKey(i)) continue;
        for (int64_t cc = 0; cc < p.d_v; ++cc)
          wo.Check(AbsDiff(Out(p, rs.out[0], b, i, cc), ref[static_cast<size_t>(b)].out(i, cc)),
                   OutBound(s, op, ref_s[static_cast<size_t>(b)], b, i, cc), At("out", b, i, cc));
        Mpfr qu = 0;
        for (int64_t l = 0; l < p.d_k; ++l) qu += p.q(b * p.t_q + i, l).As<Mpfr>() * u(0, l).As<Mpfr>();
        const size_t row = static_cast<size_t>(b * p.t_q + i);
        wl.Check(AbsDiff(rs.lse[0][row], Mpfr(ref[static_cast<size_t>(b)].lse[i] + scale * qu)),
                 BoundForRow(s, op, b, i).lse, RowAt("lse", b, i));
      }
    CheckWeights(op, p, s, ref);
  }
  /// softmax(s + c1) = softmax(s) observed on A itself: a call on K + 1u^T
  /// with V = I (d_v = t_k), whose out is A(K + 1u^T) (products with 0 and 1,
  /// sums with zeros: exact), against the reference weights A*(K) of the
  /// unshifted problem, each within the weights call's own output bound.
  static void CheckWeights(const Operator& op, const Problem& p, const Problem& s,
                           const std::vector<AttentionResult<Mpfr>>& ref) {
    Problem w = s;
    w.d_v = p.t_k;
    w.v = ExactMatrix(p.batch * p.t_k, p.t_k);
    for (int64_t b = 0; b < p.batch; ++b)
      for (int64_t j = 0; j < p.t_k; ++j) w.v(b * p.t_k + j, j) = 1.0;
    const CallResult rw = Call(op, w);
    RequireSuccess(rw, "call on K + 1 u^T with V = I");
    const auto ref_w = Reference(op, w);
    static const Tolerance kWeights{
        "|A(K + 1u^T) - A*(K)| (A read as out with V = I)", kOutTolerance.bound,
        "the exact weights agree (softmax(s + c1) = softmax(s), the claim); the computed A(K + 1u^T) is within "
        "the output bound of the call with V = I (d_v = t_k) of its exact value (" + kOutTolerance.metric + ")", MetricKind::kRounding};
    Worst ww(kWeights);
    for (int64_t b = 0; b < p.batch; ++b)
      for (int64_t i = 0; i < p.t_q; ++i) {
        if (!p.RowHasKey(i)) continue;
        for (int64_t j = 0; j < p.t_k; ++j)
          ww.Check(AbsDiff(Out(w, rw.out[0], b, i, j), ref[static_cast<size_t>(b)].weights(i, j)),
                   OutBound(w, op, ref_w[static_cast<size_t>(b)], b, i, j), At("A", b, i, j));
      }
  }
};
ATTNPROP_REGISTER(ShiftInvariance, double, Mpfr, KernelF32, KernelF64);

// lecture4.thm6.1.permutation_equivariance (unmasked): permuting the tokens
// X (so the rows of Q, K and V together) permutes the output rows.
struct PermutationEquivariance : AttentionClaim<PermutationEquivariance>,
                                 ClaimId<"lecture4.thm6.1.permutation_equivariance"> {
  // An unmasked problem with t_q = t_k, and perm (1 x t_q) a permutation of
  // 0..t_q-1 (integer entries, each once).
  static ProblemClass Problems() {
    return ProblemClass(Shape(CausalKind::kNo, Lengths::kEqual)).Permutation("perm", TQ);
  }
  static void Check(const Operator& op, const Case& c) {
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
    const CallResult r = Call(op, p), rx = Call(op, x);
    RequireSuccess(r, "call on X");
    RequireSuccess(rx, "call on P X");
    const auto ref = Reference(op, p);
    static const Tolerance kOut = Pair("|out(PX)_r - out(X)_pi(r)|", kOutTolerance);
    static const Tolerance kLse = Pair("|lse(PX)_r - lse(X)_pi(r)|", kLseTolerance);
    Worst wo(kOut), wl(kLse);
    for (int64_t b = 0; b < p.batch; ++b)
      for (int64_t row = 0; row < p.t_q; ++row) {
        const int64_t src = pi(row);
        // The permuted problem's row bound equals the original row's (same multiset of keys).
        const RowBound rb = BoundForRow(p, op, b, src);
        for (int64_t cc = 0; cc < p.d_v; ++cc)
          wo.Check(AbsDiff(Out(p, rx.out[0], b, row, cc), Out(p, r.out[0], b, src, cc)),
                   2 * OutBound(p, op, ref[static_cast<size_t>(b)], b, src, cc), At("out", b, row, cc));
        wl.Check(AbsDiff(rx.lse[0][static_cast<size_t>(b * p.t_q + row)], r.lse[0][static_cast<size_t>(b * p.t_q + src)]),
                 2 * rb.lse, RowAt("lse", b, row));
      }
  }
};
ATTNPROP_REGISTER(PermutationEquivariance, double, Mpfr, KernelF32, KernelF64);

// lecture4.aside8.1.streaming_softmax_exact: keys split into blocks; each
// block's (out_b, lse_b) merged through lse = ln sum_b exp(lse_b),
// out = sum_b exp(lse_b - lse) out_b equals the whole call.
struct StreamingSoftmax : AttentionClaim<StreamingSoftmax>, ClaimId<"lecture4.aside8.1.streaming_softmax_exact"> {
  // An unmasked problem with t_k >= 2 and 2 <= blocks <= 4 (the check
  // splits into min(blocks, t_k) blocks).
  static ProblemClass Problems() {
    ShapeSpec s;
    s.causal = CausalKind::kNo;
    s.min_t_k = 2;
    return ProblemClass(s).Int("blocks", Const(2), Const(4));
  }
  static void Check(const Operator& op, const Case& c) {
    const Problem p = Problem::FromCase(c);
    RC_PRE(p.t_k >= 2);
    const int64_t nb = std::min(c.GetInt("blocks"), p.t_k);
    const CallResult whole = Call(op, p);
    RequireSuccess(whole, "whole call");
    const auto ref = Reference(op, p);
    std::vector<std::vector<Mpfr>> block_lse, block_out;  // per block: batch*t_q values, outputs
    double rho_blocks = 0, lse_blocks = 0, underflow_blocks = 0, subnormal_blocks = 0;
    for (int64_t blk = 0; blk < nb; ++blk) {
      const int64_t j0 = p.t_k * blk / nb, j1 = p.t_k * (blk + 1) / nb;
      const Problem sub = p.KeySlice(j0, j1);
      const CallResult rb = Call(op, sub);
      RequireSuccess(rb, "call on keys [" + std::to_string(j0) + ", " + std::to_string(j1) + ")");
      block_lse.push_back(rb.lse[0]);
      block_out.push_back(rb.out[0]);
      for (int64_t b = 0; b < p.batch; ++b)
        for (int64_t i = 0; i < p.t_q; ++i) {
          const RowBound bb = BoundForRow(sub, op, b, i);
          rho_blocks = std::max(rho_blocks, bb.rho);
          lse_blocks = std::max(lse_blocks, bb.lse);
          underflow_blocks += bb.underflow;
          subnormal_blocks += bb.subnormal;  // (0 below when the column of V is 0: SubnormalTerm)
        }
    }
    static const Tolerance kOut{
        "|merge of block outputs - out|", "(rho_i + (1 + rho_B) exp(2 L_B) - 1) sum_j a*_ij |v_jc| + underflow + n eta",
        "block outputs within rho_B (max block rho), merge weights exp(lse_b - lse) within exp(2 L_B) "
        "relative (L_B = max block lse bound), the whole call within rho_i; sum_b w_b sum_{j in b} a^b_j |v_j| "
        "= sum_j a_j |v_j|", MetricKind::kRounding};
    static const Tolerance kLse{"|merge of block lse - lse|", "L_whole + L_B",
                                       "each lse within its bound; the merge is exact (MPFR)", MetricKind::kRounding};
    Worst wo(kOut), wl(kLse);
    for (int64_t b = 0; b < p.batch; ++b)
      for (int64_t i = 0; i < p.t_q; ++i) {
        const size_t row = static_cast<size_t>(b * p.t_q + i);
        Vec<Mpfr> ls(nb);
        for (int64_t blk = 0; blk < nb; ++blk) {
          ls[blk] = block_lse[static_cast<size_t>(blk)][row];
          if (!isfinite(ls[blk])) RC_FAIL("block " + std::to_string(blk) + " returned a non-finite lse for " + RowAt("row", b, i));
        }
        const Mpfr lse = LogSumExp(ls);
        const RowBound wb = BoundForRow(p, op, b, i);
        wl.Check(AbsDiff(lse, whole.lse[0][row]), wb.lse + lse_blocks, RowAt("lse", b, i));
        for (int64_t cc = 0; cc < p.d_v; ++cc) {
          Mpfr m = 0;
          for (int64_t blk = 0; blk < nb; ++blk)
            m += exp(ls[blk] - lse) * block_out[static_cast<size_t>(blk)][row * static_cast<size_t>(p.d_v) + static_cast<size_t>(cc)];
          const auto [wsum, vmax] = WeightedAbsV(p, ref[static_cast<size_t>(b)], b, i, cc);
          // [rho_whole + (1 + rho_B) exp(2 L_B) - 1] sum_j a_j |v_j|: block outputs within rho_B, merge
          // weights exp(lse_b - lse) within exp(2 L_B) relative, the whole call within rho_whole.
          const double bound = (wb.rho + std::expm1(std::log1p(rho_blocks) + 2 * lse_blocks)) * wsum * (1 + 1e-12) +
                               (wb.underflow + underflow_blocks) * vmax + (vmax > 0 ? wb.subnormal + subnormal_blocks : 0);
          wo.Check(AbsDiff(m, Out(p, whole.out[0], b, i, cc)), bound, At("out", b, i, cc));
        }
      }
  }
};
ATTNPROP_REGISTER(StreamingSoftmax, double, Mpfr, KernelF32, KernelF64);

// lecture4.sec8.1.kv_cache_equivalence: decoding the last m of the first p
// positions against cached K, V (t_q = m, t_k = p, causal) equals rows
// p-m .. p-1 of the full causal computation. The decoded rows are compared
// with the exact full computation (its reference), within the decoded
// call's own bound: comparing the two computed outputs is 0 for any kernel
// that visits the same keys in the same order (attnprop's model and kernel
// do), so a bound for both calls' rounding would never be approached.
struct KvCache : AttentionClaim<KvCache>, ClaimId<"lecture4.sec8.1.kv_cache_equivalence"> {
  // A causal problem with t_q = t_k, 1 <= prefix <= t_k, 1 <= new_queries
  // <= prefix.
  static ProblemClass Problems() {
    return ProblemClass(Shape(CausalKind::kYes, Lengths::kEqual))
        .Int("prefix", Const(1), TK)
        .Int("new_queries", Const(1), Field("prefix"));
  }
  static void Check(const Operator& op, const Case& c) {
    const Problem p = Problem::FromCase(c);
    const int64_t prefix = c.GetInt("prefix"), m = c.GetInt("new_queries");
    Problem d = p.KeySlice(0, prefix);
    d.t_q = m;
    d.q = ExactMatrix(p.batch * m, p.d_k);
    for (int64_t b = 0; b < p.batch; ++b)
      for (int64_t i = 0; i < m; ++i)
        for (int64_t l = 0; l < p.d_k; ++l) d.q(b * m + i, l) = p.q(b * p.t_q + prefix - m + i, l);
    const CallResult dec = Call(op, d);
    RequireSuccess(dec, "cached decoding call");
    const auto ref = Reference(op, p), ref_d = Reference(op, d);
    static const Tolerance kOut = Pair("|out(cached) - out*(full)|", kOutTolerance);
    static const Tolerance kLse = Pair("|lse(cached) - lse*(full)|", kLseTolerance);
    Worst wo(kOut), wl(kLse);
    for (int64_t b = 0; b < p.batch; ++b)
      for (int64_t i = 0; i < m; ++i) {
        const int64_t fi = prefix - m + i;
        for (int64_t cc = 0; cc < p.d_v; ++cc)
          wo.Check(AbsDiff(Out(d, dec.out[0], b, i, cc), ref[static_cast<size_t>(b)].out(fi, cc)),
                   OutBound(d, op, ref_d[static_cast<size_t>(b)], b, i, cc),
                   At("decoded row", b, i, cc) + " vs exact full row " + std::to_string(fi));
        wl.Check(AbsDiff(dec.lse[0][static_cast<size_t>(b * m + i)], ref[static_cast<size_t>(b)].lse[fi]),
                 BoundForRow(d, op, b, i).lse, RowAt("lse", b, i));
      }
  }
};
ATTNPROP_REGISTER(KvCache, double, Mpfr, KernelF32, KernelF64);

// lecture4.prop7.2.nadaraya_watson_form: out_i = sum_j k(q_i,k_j) v_j /
// sum_l k(q_i,k_l), k = exp(c<q,k>) over the visible keys (causal version
// too). The reference is computed differently from the operator and from
// Reference(): with the completed square, c<q,k_j> = c||k_j||^2/2 - c||q -
// k_j||^2/2 + c||q||^2/2, so k(q_i,k_j) = exp(c||q_i||^2/2) g_j with the
// Gaussian-kernel weight (bandwidth h^2 = 1/c) times the key-norm factor,
//   g_j = exp(-c||q_i - k_j||^2/2) exp(c||k_j||^2/2),
// normalised directly (no max shift: MPFR's exponent range holds every
// generated case; a case where it does not is discarded). The same sum gives
// the operator's lse independently: lse_i = c||q_i||^2/2 + ln sum_j g_j.
// Precision: that of Reference() (2x for the MPFR model).
//
// The reference's own error (unit u_M = 2^-P): ||k_j||^2 and ||q - k_j||^2
// are within gamma_{d_k+2} of their values relative, so the exponent y_j =
// c(||k_j||^2 - ||q - k_j||^2)/2 is within delta_R = gamma_{d_k+4} |c|
// max_j (||k_j||^2 + ||q - k_j||^2) (with its own rounding), exp adds u_M:
// each g_j within a factor exp(+-(delta_R + u_M)); normalised weights move
// by exp(2(delta_R + u_M)); the two sums of t_k terms and the division add
// (1 + u_M)^{2 t_k + 2}: rho_R = exp(2 delta_R + 2 u_M + (2 t_k + 2) u_M) - 1,
// |out_R - out*| <= rho_R sum_j a_j |v_jc|. ln of the sum: |error| <= delta_R
// + u_M + (t_k + 1) u_M + u_M |ln S| and c||q||^2/2 plus the final add:
// gamma_{d_k+3} (|c| ||q||^2 + |lse|).
struct NwRow {
  std::vector<Mpfr> out;     // the formula's value, d_v entries
  std::vector<double> wabs;  // sum_j a_j |v_jc|
  std::vector<double> vmax_c;  // max_j |v_jc| (the underflow term)
  Mpfr lse;
  double rho = 0, lse_err = 0;  // the reference's own error bounds (above)
};

NwRow NwReference(const Problem& p, int64_t b, int64_t i) {
  NwRow row;
  const double u = ScalarTraits<Mpfr>::UnitRoundoff();
  auto gamma = [u](double n) { return n * u / (1 - n * u); };
  const Mpfr c = p.scale.As<Mpfr>();
  Mpfr qq = 0;
  for (int64_t l = 0; l < p.d_k; ++l) {
    const Mpfr q = p.q(b * p.t_q + i, l).As<Mpfr>();
    qq += q * q;
  }
  std::vector<Mpfr> g;
  std::vector<int64_t> keys;
  double ymag = 0;
  for (int64_t j = 0; j < p.t_k; ++j) {
    if (!p.Visible(i, j)) continue;
    Mpfr kk = 0, dd = 0;
    for (int64_t l = 0; l < p.d_k; ++l) {
      const Mpfr k = p.k(b * p.t_k + j, l).As<Mpfr>();
      const Mpfr diff = p.q(b * p.t_q + i, l).As<Mpfr>() - k;
      kk += k * k;
      dd += diff * diff;
    }
    ymag = std::max(ymag, ToDouble(Mpfr(kk + dd)));
    g.push_back(exp(Mpfr(c * Mpfr(kk - dd) / 2)));
    keys.push_back(j);
  }
  Mpfr sum = 0;
  for (const Mpfr& x : g) sum += x;
  RC_PRE(isfinite(sum) && sum > 0);  // within MPFR's exponent range
  row.out.assign(static_cast<size_t>(p.d_v), Mpfr(0));
  row.wabs.assign(static_cast<size_t>(p.d_v), 0.0);
  row.vmax_c.assign(static_cast<size_t>(p.d_v), 0.0);
  for (int64_t cc = 0; cc < p.d_v; ++cc) {
    Mpfr num = 0;
    double wabs = 0, vmax = 0;
    for (size_t n = 0; n < keys.size(); ++n) {
      const Mpfr v = p.v(b * p.t_k + keys[n], cc).As<Mpfr>();
      num += g[n] * v;
      wabs += ToDouble(Mpfr(g[n] / sum)) * std::fabs(ToDouble(v));
      vmax = std::max(vmax, std::fabs(ToDouble(v)));
    }
    row.out[static_cast<size_t>(cc)] = num / sum;
    row.wabs[static_cast<size_t>(cc)] = wabs * (1 + 1e-12);  // double sum of t_k terms: ~1e-14 relative
    row.vmax_c[static_cast<size_t>(cc)] = vmax;
  }
  const Mpfr lnsum = log(sum);
  row.lse = c * qq / 2 + lnsum;
  const double tk = static_cast<double>(keys.size()), dk = static_cast<double>(p.d_k);
  const double delta = gamma(dk + 4) * std::fabs(ToDouble(c)) * ymag * (1 + 1e-12);
  row.rho = std::expm1(2 * delta + 2 * u + (2 * tk + 2) * u) * (1 + 1e-12);
  row.lse_err = (delta + (tk + 3) * u + u * std::fabs(ToDouble(lnsum)) +
                 gamma(dk + 3) * (std::fabs(ToDouble(Mpfr(c * qq))) + std::fabs(ToDouble(row.lse)))) *
                (1 + 1e-12);
  return row;
}

struct NadarayaWatson : AttentionClaim<NadarayaWatson>, ClaimId<"lecture4.prop7.2.nadaraya_watson_form"> {
  static ShapeSpec Problems() { return ShapeSpec{}; }
  static void Check(const Operator& op, const Case& c) {
    const Problem p = Problem::FromCase(c);
    const CallResult r = Call(op, p);
    RequireSuccess(r, "call");
    // The operator's bounds, at its own unit roundoff (before the scope below).
    std::vector<RowBound> bounds;
    for (int64_t b = 0; b < p.batch; ++b)
      for (int64_t i = 0; i < p.t_q; ++i) bounds.push_back(BoundForRow(p, op, b, i));
    // The reference's precision: as Reference() (the MPFR model against twice its own).
    MpfrPrecisionScope precision(op.kind == Operator::Kind::kModelMpfr ? 2 * MpfrPrecisionBits()
                                                                        : MpfrPrecisionBits());
    static const Tolerance kOut{
        "|out - NW_R|", "(rho_i + rho_R) sum_j a_ij |v_jc| + 2 t_k lambda max_j |v_jc| + n eta",
        "the operator's output bound (|out - out*|, accuracy.cc) plus the Gaussian-form reference's own error "
        "rho_R (derivation in claims.cc beside NwReference)", MetricKind::kRounding};
    static const Tolerance kLse{
        "|lse - (c||q_i||^2/2 + ln sum_j g_j)|", "delta_i + 2 gamma_n + lse error of the reference",
        "the operator's lse bound (|lse - lse*|) plus the Gaussian-form normaliser's own error (claims.cc)", MetricKind::kRounding};
    Worst wo(kOut), wl(kLse);
    for (int64_t b = 0; b < p.batch; ++b)
      for (int64_t i = 0; i < p.t_q; ++i) {
        if (!p.RowHasKey(i)) continue;  // the formula needs a key (abi.empty_rows covers these)
        const NwRow nw = NwReference(p, b, i);
        const RowBound& rb = bounds[static_cast<size_t>(b * p.t_q + i)];
        for (int64_t cc = 0; cc < p.d_v; ++cc) {
          const size_t k = static_cast<size_t>(cc);
          const double bound =
              (rb.rho + nw.rho) * nw.wabs[k] * (1 + 1e-12) + rb.underflow * nw.vmax_c[k] + SubnormalTerm(rb, nw.vmax_c[k]);
          wo.Check(AbsDiff(Out(p, r.out[0], b, i, cc), nw.out[k]), bound,
                   At("out", b, i, cc) + " = " + Num(Out(p, r.out[0], b, i, cc)) + ", Gaussian form " + Num(nw.out[k]));
        }
        const Mpfr& l = r.lse[0][static_cast<size_t>(b * p.t_q + i)];
        wl.Check(AbsDiff(l, nw.lse), rb.lse + nw.lse_err, RowAt("lse", b, i) + " = " + Num(l) + ", ln of the Gaussian-form normaliser " + Num(nw.lse));
      }
  }
};
ATTNPROP_REGISTER(NadarayaWatson, double, Mpfr, KernelF32, KernelF64);

}  // namespace ATTNPROP_UNIT
}  // namespace attnprop::ksuite
