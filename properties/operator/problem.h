// One attention problem (exact inputs, batch items stacked row-wise), as the
// attention claims and the kernel contract read it from a Case.
#pragma once

#include <cstdint>
#include <string>

#include "model/exact.h"
#include "properties/framework/case.h"
#include "properties/framework/case_dims.h"

namespace attnprop::ksuite {

/// The storage type of the inputs and outputs: f32 or f64 (the model
/// backends read f64 inputs), or (ABI v2) bf16 / f16 bit patterns for q, k,
/// v and out, with lse in f32 (half_format.h).
enum class DType { kF32, kF64, kBF16, kF16 };
inline bool IsHalf(DType t) { return t == DType::kBF16 || t == DType::kF16; }

/// batch items stacked row-wise: Q is (batch t_q) x d_k, K (batch t_k) x d_k,
/// V (batch t_k) x d_v. Every entry is exactly representable in the dtype.
struct Problem {
  int64_t batch = 1, t_q = 1, t_k = 1, d_k = 1, d_v = 1;
  int32_t causal = 0;
  Exact scale = 1.0;
  ExactMatrix q, k, v;

  /// From the case fields batch, causal, scale, Q, K, V.
  static Problem FromCase(const Case& c);
  Case ToCase() const;
  bool Visible(int64_t i, int64_t j) const { return !causal || j <= i + (t_k - t_q); }
  /// Whether query row i sees at least one key.
  bool RowHasKey(int64_t i) const { return Visible(i, 0); }
  /// Item b's block of a stacked matrix.
  static ExactMatrix Block(const ExactMatrix& m, int64_t b, int64_t rows);
  /// The stacked problem with keys [j0, j1) of every item (same queries).
  Problem KeySlice(int64_t j0, int64_t j1) const;
  /// Declares the dimensions of a problem's fields in a case (case_dims.h):
  /// batch (the int field, and the outer index of the stacked rows), t_q
  /// (Q's rows in each item), t_k (K's and V's), d_k (Q's and K's columns),
  /// d_v (V's). Fields and dimensions named with `suffix`: one of several
  /// problems in a case (the second call of a sequence: "_2").
  static void DeclareDims(CaseDims& d, const std::string& suffix = "");
  /// Q, K, V plus `suffix` (alternative inputs Q2, K2, V2) over the
  /// dimensions of the case's problem (DeclareDims with no suffix first).
  static void DeclareAlternativeDims(CaseDims& d, const std::string& suffix);
};

}  // namespace attnprop::ksuite
