// The kernel ABI's accuracy contract (kernels/attnprop_kernel.h: out and lse
// as defined there, for every valid argument) in the regimes real kernels
// branch on (issue 14), one property per regime so that the failing one
// names the regime: abi.long_kv (t_q <= 8 against t_k up to 4096: decoding
// paths, split-KV merges), abi.wide_heads (d_k, d_v up to 512 apart: head
// dims above a compiled maximum), abi.long_queries (t_q up to 1024, batch
// up to 4: query tiles and their tails), abi.scalar_ranges (scale negative,
// zero of both signs, subnormal, 2^60; causal with t_q <, =, > t_k; lse NULL
// and not). Kernel backends only (registry kind new).
//
// Hypotheses: any valid problem (RegimeHolds); the regimes are where the
// generators look (regime_gen.h: three cases in four small and checked
// against MPFR, one in four up to 2^21 multiply-adds and checked against the
// certified double reference, regime_check.h). Conclusion: every out_ic and
// (when asked for) lse_i within its derived bound of the reference.
#include "properties/operator/attention_claims.h"
#include "properties/operator/kernel_backend.h"
#include "properties/operator/regime_check.h"
#include "properties/operator/regime_gen.h"

namespace attnprop::ksuite {
namespace ATTNPROP_UNIT {

using enum Regime;

template <class Derived, Regime kRegime>
struct RegimeContract : AttentionClaim<Derived> {
  static rc::Gen<Case> Gen(InputKind in) { return RegimeGen(in, kRegime); }
  static bool Holds(InputKind in, const Case& c) { return RegimeHolds(in, c); }
  static void Check(const Operator& op, const Case& c) {
    const Problem p = Problem::FromCase(c);
    CallSpec spec;
    spec.want_lse = c.GetInt("lse") == 1;
    const std::string what = spec.want_lse ? "call" : "call with lse = NULL";
    const CallResult r = Call(op, p, spec);
    RequireSuccess(r, what);
    ExpectOutputsNearCertifiedReference(p, op, r.out[0], spec.want_lse ? &r.lse[0] : nullptr, what);
  }
};

// abi.long_kv: t_q in 1..8 against t_k in 1..4096 (d_k, d_v, batch cut to the budget).
struct LongKv : RegimeContract<LongKv, kLongKv>, ClaimId<"abi.long_kv"> {};

// abi.wide_heads: d_k and d_v in 1..512, independently.
struct WideHeads : RegimeContract<WideHeads, kWideHeads>, ClaimId<"abi.wide_heads"> {};

// abi.long_queries: t_q in 1..1024, t_k in 1..512, batch 1..4.
struct LongQueries : RegimeContract<LongQueries, kLongQueries>, ClaimId<"abi.long_queries"> {};

// abi.scalar_ranges: scale over its whole valid range (any finite value),
// causal with every length relation, lse NULL and not.
struct ScalarRanges : RegimeContract<ScalarRanges, kScalars>, ClaimId<"abi.scalar_ranges"> {};

ATTNPROP_REGISTER(LongKv, KernelF32, KernelF64);
ATTNPROP_REGISTER(WideHeads, KernelF32, KernelF64);
ATTNPROP_REGISTER(LongQueries, KernelF32, KernelF64);
ATTNPROP_REGISTER(ScalarRanges, KernelF32, KernelF64);

}  // namespace
}  // namespace attnprop::ksuite
