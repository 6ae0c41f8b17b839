// Internals shared by the dispatcher (attnprop_kernel.cc) and the per-ISA
// translation units (kernel_scalar.cc, kernel_avx2.cc, kernel_avx512.cc).
// Not installed, not part of the ABI; the kernel tests use it to reach the
// vector exp of each target.
#pragma once

#include <cstddef>
#include <cstdint>

namespace attnprop::kernel {

/// Query rows per work item and keys per streamed block. Fixed for every
/// target and type, so that the block structure (and hence every rounding)
/// of a row depends only on the row, never on threads or batch layout.
inline constexpr int64_t kBlockQ = 64;
inline constexpr int64_t kBlockK = 64;

/// One validated call: dimensions >= 1, pointers non-null (lse may be null).
template <class T>
struct Problem {
  int64_t batch, t_q, t_k, d_k, d_v;
  T scale;
  bool causal;
  const T* q;
  const T* k;
  const T* v;
  T* out;
  T* lse;  // may be null
};

/// The work items of a call are (batch item, query block) pairs, numbered so
/// that the costliest (last query blocks under a causal mask) come first.
inline int64_t QueryBlocks(int64_t t_q) { return (t_q + kBlockQ - 1) / kBlockQ; }

/// One SIMD target's entry points.
struct TargetImpl {
  const char* name;
  /// Bytes of scratch one thread needs for this problem (O(kBlock * d)).
  size_t (*workspace_f32)(const Problem<float>&);
  size_t (*workspace_f64)(const Problem<double>&);
  /// Computes work items [first, last) into out/lse, using `ws` (64-byte
  /// aligned, workspace_* bytes). Item numbering: see ItemToBlock.
  void (*run_f32)(const Problem<float>&, void* ws, int64_t item);
  void (*run_f64)(const Problem<double>&, void* ws, int64_t item);
  /// The exp the kernel uses (for x <= 0), exposed for its accuracy test.
  void (*exp_f32)(const float* x, float* y, int64_t n);
  void (*exp_f64)(const double* x, double* y, int64_t n);
};

/// Maps a work item to (batch index, query block index).
inline void ItemToBlock(int64_t item, int64_t batch, int64_t n_qblocks, int64_t* b, int64_t* qb) {
  *qb = n_qblocks - 1 - item / batch;
  *b = item % batch;
}

extern const TargetImpl kScalarImpl;
extern const TargetImpl kAvx2Impl;
extern const TargetImpl kAvx512Impl;

/// The implementation for a target name ("scalar", "avx2", "avx512"), or
/// null if the name is unknown. Does not check CPU support.
const TargetImpl* FindTarget(const char* name);
/// Whether this CPU can run the target.
bool CpuSupports(const TargetImpl* impl);

/// Every target's exp returns 0 for x below these (and for -inf, NaN):
/// e^-87 > 2^-126 and e^-708 > 2^-1022, so no result is subnormal. A flushed
/// weight is off by less than e^kExpFlush* (absolute, relative to the row max).
inline constexpr float kExpFlushF32 = -87.0f;
inline constexpr double kExpFlushF64 = -708.0;

/// The documented relative error bound of each target's exp on [kExpFlush*, 0] in
/// units of the type's unit roundoff u (see flash_impl.inc).
inline constexpr double kExpErrorUnits = 4.0;

}  // namespace attnprop::kernel
