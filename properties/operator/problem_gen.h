// Generators of attention problems for the attention claims and the kernel
// contract: shape first (so shrinking reaches the smallest shape first), then
// entries (dyadic values, shrinking toward 0 and integers), exactly
// representable in the backend's storage type.
#pragma once

#include <rapidcheck.h>

#include <cstdint>

#include "model/exact.h"
#include "properties/framework/case.h"
#include "properties/operator/problem.h"

namespace attnprop::ksuite {

/// What the entries must fit, and how much a case may cost: f32 or f64
/// storage, and a costly backend (MPFR) gets smaller shapes.
struct InputKind {
  DType dtype = DType::kF64;
  bool costly = false;
};

struct ShapeSpec {
  int64_t max_batch = 2;
  int64_t max_t = 48;  // at the largest size; see ProblemGen
  int64_t max_d = 20;
  enum class Causal { kNo, kYes, kEither } causal = Causal::kEither;
  enum class Lengths { kAny, kEqual, kQueriesFewer, kQueriesMore, kUnequal } lengths = Lengths::kAny;
  bool identity_v = false;  // V = [I 0] per item (d_v >= t_k): out is the weight matrix
  bool dk_ne_dv = false;
  bool min_batch_2 = false;
  int64_t min_t_k = 1;      // e.g. 2 where keys are split
  bool wide_f64_inputs = true;  // f64: entries with 30 fraction bits (no float holds them)
  bool any_scale = false;       // scale any finite value (negative, zero, subnormal); else > 0
};

/// A problem of the given shape class. Lengths and widths grow with
/// RapidCheck's size; a costly backend caps them at 12 and 6.
rc::Gen<Case> ProblemGen(InputKind in, ShapeSpec s);

/// Whether a case is a problem of shape class `s` whose entries the dtype
/// holds exactly (HypothesesHold of the attention claims and the contract):
/// fields batch, causal, scale, Q, K, V present; batch >= 1 (>= 2 with
/// min_batch_2); causal in {0, 1} and as the class says; Q.rows = batch t_q,
/// K.rows = V.rows = batch t_k, Q.cols = K.cols = d_k >= 1, d_v >= 1,
/// t_q >= 1, t_k >= max(1, min_t_k); the class's lengths relation, d_k != d_v
/// where asked, V = [I 0] per item where asked; every entry of Q, K, V
/// exactly representable in t (f32: a float; f64: a double; bf16, f16: a
/// value of the format, half_format.h), scale finite
/// and > 0 (any finite value with any_scale). Numeric domain (where the checks are computable in the storage
/// type, not a hypothesis of the claims): |Q|, |K| entries <= 2^30 for f32
/// (2^250 for f64; bf16 and f16 as f32) and |V| entries <= 2^100 (2^1000), so that the scores
/// scale <q_i, k_j> (at most d_k 2^60) and the outputs stay finite in the
/// storage type; beyond them the kernel's float arithmetic overflows, which
/// the accuracy model (accuracy.h) does not cover; and |scale <q_i, k_j>|
/// <= 2^20, beyond which the accuracy bounds (which exponentiate score
/// errors) are NaN. The generators draw entries of magnitude <= 64 and
/// scores below 2^17.
bool ProblemHolds(DType t, const ShapeSpec& s, const Case& c);

/// Whether a matrix's entries are exactly representable in t and finite.
bool EntriesFit(DType t, const ExactMatrix& m);

/// A value of the entries' kind for dtype t (used for perturbations).
rc::Gen<Exact> EntryGen(DType t, int64_t magnitude);

}  // namespace attnprop::ksuite
