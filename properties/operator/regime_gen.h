// Generators of attention problems in the regimes real kernels branch on
// (issue 14): long KV with few queries (decoding, split-KV merges), head
// dims up to 512 (d_k and d_v apart, above any compiled maximum), long query
// blocks with batch up to 4, and every scalar argument over its valid range
// (scale negative, zero, subnormal, huge; entries ordinary or subnormal;
// causal with t_q <, =, > t_k; lse NULL and not). Shapes are drawn before entries, each dimension log-uniform
// over its range with the block and vector boundaries (2^e - 1, 2^e,
// 2^e + 1) drawn often, so RapidCheck's shrinking ends at the smallest
// failing shape (a tail bug at d = 257 shrinks to exactly 257). Entries come
// from a hash of a drawn seed and the element's position, so a shape that
// shrinks keeps the values of the rows and columns that remain, and a big
// case costs no RapidCheck shrink tree per entry.
#pragma once

#include <rapidcheck.h>

#include <cstdint>

#include "properties/framework/case.h"
#include "properties/operator/problem.h"
#include "properties/operator/problem_gen.h"

namespace attnprop::ksuite {

enum class Regime {
  kLongKv,       // t_q in 1..8 against t_k in 1..4096, d_k, d_v in 1..128, batch 1..4
  kWideHeads,    // d_k, d_v in 1..512 independently, t_q, t_k in 1..64, batch 1..2
  kLongQueries,  // t_q in 1..1024, t_k in 1..512, d_k, d_v in 1..64, batch 1..4
  kScalars,      // small shapes; scale from its boundary values; subnormal entries; t_q <, =, > t_k
};
const char* RegimeName(Regime r);

/// Work of one call, batch t_q t_k (d_k + d_v) multiply-adds: what the
/// generators cap and what picks the reference (regime_check.h).
int64_t CallWork(const Problem& p);

/// A regime's largest call: kBigWork multiply-adds (a few ms for the double
/// reference) and kBigEntries input entries; dimensions above are cut
/// (batch, d_v, d_k, t_q, then t_k: the regime's long dimension last).
inline constexpr int64_t kBigWork = int64_t{1} << 21;
inline constexpr int64_t kBigEntries = int64_t{1} << 18;

/// The share of a regime's cases drawn big (full ranges, checked against the
/// double reference): one in four; the others have every dimension cut to
/// at most 8 (t_k 16) and are checked against MPFR (and certify the double
/// reference, regime_check.h).
inline constexpr int kBigShareOutOf4 = 1;

/// A problem of the regime. Fields: batch, causal, scale, Q, K, V (as
/// ProblemGen) and lse (1: the call passes an lse buffer; 0: NULL).
rc::Gen<Case> RegimeGen(InputKind in, Regime r);

/// A problem of the given shape and arguments with entries hashed from
/// `seed` (as RegimeGen draws them; q and k times 2^qk_shift, v times
/// 2^v_shift).
Case SeededProblem(DType t, int64_t batch, int64_t t_q, int64_t t_k, int64_t d_k, int64_t d_v, int64_t causal,
                   double scale, int64_t lse, uint64_t seed, int qk_shift = 0, int v_shift = 0);

/// HypothesesHold of the regime properties: any valid problem (ProblemHolds
/// with any finite scale, of any sign, zero and subnormal included) and
/// lse in {0, 1}. The regime's ranges are where the search looks, not a
/// hypothesis: a case shrunk out of them is still a case of the claim.
bool RegimeHolds(InputKind in, const Case& c);

/// The shape class RegimeHolds checks (any causal, any lengths, any finite scale).
ShapeSpec RegimeShape();

}  // namespace attnprop::ksuite
