// The half-precision entry points of kernel ABI v2 (kernels/attnprop_kernel.h):
// bf16 / f16 bit patterns for q, k, v and out, lse in f32, the arithmetic the
// kernel declares (attnprop_kernel_accumulation). Two properties, on the
// kernel-bf16 and kernel-f16 backends (skipped for a kernel without the
// entry point):
//   abi.half_accuracy    out and lse against the exact attention of the exact
//                        half-precision inputs (MPFR), within the declared
//                        accumulation's bound plus one rounding of out to the
//                        storage format (accuracy.h, kHalfOutTolerance);
//   abi.half_single_key  one key (t_k = 1): every row with a key returns
//                        that key's value row exactly, as stored, and lse =
//                        its score; a row without a key out = 0, lse = -inf
//                        (the storage format read and written as specified).
// Inputs are half-precision values drawn in every regime (gen::Layout: scale,
// mantissa length -- full = the format's 8 or 11 bits --, structure), each
// matrix moved by a drawn exponent shift so that subnormals of the format and
// its largest exponents are reached, then rounded to the format.
#include <rapidcheck.h>

#include <cmath>
#include <string>

#include "generators/regime.h"
#include "properties/framework/hypotheses_checks.h"
#include "properties/operator/accuracy.h"
#include "properties/abi/half.h"
#include "properties/operator/half_format.h"
#include "properties/operator/kernel_backend.h"

namespace attnprop::ksuite {
namespace ATTNPROP_UNIT {

const HalfFormat& FormatOf(DType t) { return t == DType::kBF16 ? kBF16 : kF16; }

/// Exponent shifts per matrix, by a drawn class (shrinks toward 0: no
/// shift): classes 0-4 none, 5 into the format's subnormals (the regime's
/// scales 2^-20..2^6 moved down by |emin| + 6: subnormal, flushed-by-rounding
/// to 0, and the smallest normals), 6 toward the largest exponents (f16:
/// saturating at 65504; bf16: q, k up to 2^30, v up to 2^96 (shifts 2^20, 2^90), the numeric
/// domain of f32 arithmetic, problem_gen.h), 7 both ends apart (q large, k
/// subnormal, the scores still moderate).
constexpr int kShiftClasses = 8;
int Shift(const HalfFormat& f, int cls, bool is_v, bool is_k) {
  const int down = -(-f.emin + 6), up = &f == &kF16 ? 8 : is_v ? 90 : 20;
  switch (cls) {
    case 5: return down;
    case 6: return up;
    case 7: return is_k ? down : up;
    default: return 0;
  }
}

/// m times 2^shift, each entry rounded to the format (and |entry| <= cap).
ExactMatrix ToFormat(const HalfFormat& f, const ExactMatrix& m, int shift, double cap) {
  ExactMatrix out(m.rows, m.cols);
  for (size_t i = 0; i < m.data.size(); ++i) {
    double x = RoundToHalf(f, std::ldexp(m.data[i].ToDouble(), shift));
    if (std::fabs(x) > cap) x = std::copysign(cap, x);  // cap (2^30, 2^96 or the maximum) is a value of the format
    out.data[i] = x;
  }
  return out;
}

/// |scale <q_i, k_j>| <= 2^19 for the accuracy bounds (problem_gen.h: <= 2^20
/// is the hypothesis): K halved (and rounded to the format again) until it holds.
void FitScores(const HalfFormat& f, const ExactMatrix& q, ExactMatrix* k, double scale) {
  while (!hyp::ScoresWithin(q, *k, scale, 0x1p19)) *k = ToFormat(f, *k, -1, f.MaxFinite());
}

}  // namespace

rc::Gen<Case> HalfProblemGen(DType t, int64_t max_t_k) {
  using namespace ATTNPROP_UNIT;  // this file's helpers (property.h: ATTNPROP_UNIT)
  const HalfFormat& f = FormatOf(t);
  gen::Layout layout;
  const int batch = layout.Axis({1, 2, 2}), tq = layout.Axis({1, 8, 8}), tk = layout.Axis({1, max_t_k, max_t_k}),
            dk = layout.Axis({1, 8, 8}), dv = layout.Axis({1, 8, 8});
  gen::Regime regime;
  regime.full_bits = f.precision;  // a full mantissa is the format's
  const int q = layout.Stack({batch}, tq, dk, regime), k = layout.Stack({batch}, tk, dk, regime),
            v = layout.Stack({batch}, tk, dv, regime);
  const int q_shift = layout.Scalar(gen::UniformInteger(0, kShiftClasses - 1)),
            k_shift = layout.Scalar(gen::UniformInteger(0, kShiftClasses - 1)),
            v_shift = layout.Scalar(gen::UniformInteger(0, kShiftClasses - 1)),
            causal = layout.Scalar(gen::UniformInteger(0, 1));
  return layout.Build<Case>([=, &f](const gen::Layout::Drawn& d) {
    const int64_t nb = d.Dim(batch), nq = d.Dim(tq), nk = d.Dim(tk), ndk = d.Dim(dk), ndv = d.Dim(dv);
    const double scale = 1 / std::sqrt(static_cast<double>(ndk));
    auto cls = [&](int slot) { return static_cast<int>(d.Scalar(slot).ToDouble()); };
    const double qk_cap = std::min(f.MaxFinite(), 0x1p30), v_cap = std::min(f.MaxFinite(), 0x1p96);
    ExactMatrix Q(nb * nq, ndk), K(nb * nk, ndk), V(nb * nk, ndv);
    for (int64_t b = 0; b < nb; ++b) {
      const ExactMatrix qb = ToFormat(f, d.Matrix(q, {b}), Shift(f, cls(q_shift), false, false), qk_cap);
      const ExactMatrix kb = ToFormat(f, d.Matrix(k, {b}), Shift(f, cls(k_shift), false, true), qk_cap);
      const ExactMatrix vb = ToFormat(f, d.Matrix(v, {b}), Shift(f, cls(v_shift), true, false), v_cap);
      for (int64_t i = 0; i < nq; ++i)
        for (int64_t l = 0; l < ndk; ++l) Q(b * nq + i, l) = qb(i, l);
      for (int64_t j = 0; j < nk; ++j) {
        for (int64_t l = 0; l < ndk; ++l) K(b * nk + j, l) = kb(j, l);
        for (int64_t l = 0; l < ndv; ++l) V(b * nk + j, l) = vb(j, l);
      }
    }
    FitScores(f, Q, &K, scale);  // over the stacked matrices, as ProblemHolds reads them
    return Case()
        .Int("batch", nb)
        .Int("causal", static_cast<int64_t>(d.Scalar(causal).ToDouble()))
        .Scalar("scale", scale)
        .Matrix("Q", std::move(Q))
        .Matrix("K", std::move(K))
        .Matrix("V", std::move(V));
  });
}

namespace ATTNPROP_UNIT {

/// The hypotheses: any valid problem whose entries are values of the
/// format (ProblemHolds: the numeric domain of f32 arithmetic), and t_k = 1
/// for the single-key property.
bool HalfHolds(InputKind in, const Case& c, bool single_key) {
  ShapeSpec s;
  s.any_scale = true;
  if (!ProblemHolds(in.dtype, s, c)) return false;
  return !single_key || c.GetMatrix("K").rows == c.GetInt("batch");
}

// abi.half_accuracy: out (as stored) and lse within their bounds of the
// exact attention of the exact inputs.
struct HalfAccuracy : AttentionClaim<HalfAccuracy>, ClaimId<"abi.half_accuracy"> {
  static rc::Gen<Case> Gen(InputKind in) { return HalfProblemGen(in.dtype, 16); }
  static bool Holds(InputKind in, const Case& c) { return HalfHolds(in, c, false); }
  static void Check(const Operator& op, const Case& c) {
    const Problem p = Problem::FromCase(c);
    const CallResult r = Call(op, p);
    RequireSuccess(r, "the call");
    ExpectOutputsNearReference(p, op, Reference(op, p), r.out[0], &r.lse[0], "the call");
  }
};
ATTNPROP_REGISTER(HalfAccuracy, KernelBF16, KernelF16);

// abi.half_single_key: with one key every weight is 1, so out_i = v_0
// exactly; the computed value is within B (the arithmetic's bound,
// accuracy.h) of v_0, and when B is below half the format's gap at v_0c the
// stored value must be v_0c itself (round to nearest). lse_i = s_i0.
struct HalfSingleKey : AttentionClaim<HalfSingleKey>, ClaimId<"abi.half_single_key"> {
  static rc::Gen<Case> Gen(InputKind in) { return HalfProblemGen(in.dtype, 1); }
  static bool Holds(InputKind in, const Case& c) { return HalfHolds(in, c, true); }
  static void Check(const Operator& op, const Case& c) {
    const Problem p = Problem::FromCase(c);
    const HalfFormat& f = FormatOf(op.dtype);
    const CallResult r = Call(op, p);
    RequireSuccess(r, "the call");
    const auto ref = Reference(op, p);
    static const Tolerance kSingleKeyTolerance{
        "|out_ic - v_0c| (one key)", "0 where B_ic < half the format's gap at v_0c; else the half-storage bound",
        "one key: weight 1 exactly, out*_i = v_0; |out^ - v_0| <= B_ic = rho_i |v_0c| + 2 lambda |v_0c| + n eta "
        "(accuracy.h); a value within less than half the gap of a format value rounds to it (to nearest); "
        "otherwise kHalfOutTolerance's bound", MetricKind::kRounding};
    Worst out_worst(kSingleKeyTolerance), lse_worst(kLseTolerance);
    for (int64_t b = 0; b < p.batch; ++b)
      for (int64_t i = 0; i < p.t_q; ++i) {
        const size_t row = static_cast<size_t>(b * p.t_q + i);
        const std::string at = "[b=" + std::to_string(b) + "][i=" + std::to_string(i) + "]";
        const Mpfr& lse = r.lse[0][row];
        if (!p.RowHasKey(i)) {
          for (int64_t c2 = 0; c2 < p.d_v; ++c2)
            out_worst.Check(AbsDiff(r.out[0][row * static_cast<size_t>(p.d_v) + static_cast<size_t>(c2)], Mpfr(0)), 0,
                            "out" + at + "[c=" + std::to_string(c2) + "] of a row with no key (must be 0)");
          if (!(isinf(lse) && lse < 0)) RC_FAIL("lse" + at + " = " + Num(lse) + " for a row with no key (must be -inf)");
          continue;
        }
        const RowBound rb = BoundForRow(p, op, b, i);
        for (int64_t c2 = 0; c2 < p.d_v; ++c2) {
          const double v0 = p.v(b * p.t_k, c2).ToDouble();
          const Mpfr& got = r.out[0][row * static_cast<size_t>(p.d_v) + static_cast<size_t>(c2)];
          const double arith = (rb.rho * (1 + 1e-12) + rb.underflow) * std::fabs(v0) + SubnormalTerm(rb, std::fabs(v0));
          const double bound = arith < HalfGapBelow(f, v0) ? 0 : OutBound(p, op, ref[static_cast<size_t>(b)], b, i, c2);
          out_worst.Check(AbsDiff(got, Mpfr(v0)), bound,
                          "out" + at + "[c=" + std::to_string(c2) + "] = " + Num(got) + ", v_0 = " + Num(v0));
        }
        lse_worst.Check(AbsDiff(lse, ref[static_cast<size_t>(b)].lse[i]), rb.lse,
                        "lse" + at + " = " + Num(lse) + ", score " + Num(ref[static_cast<size_t>(b)].lse[i]));
      }
  }
};
ATTNPROP_REGISTER(HalfSingleKey, KernelBF16, KernelF16);

}  // namespace
}  // namespace attnprop::ksuite
