// Internals shared by the dispatcher (attnprop_kernel.cc) and the per-target
// ops files (kernel_<target>.cc, one per line of the target table in
// kernels/CMakeLists.txt). Not installed, not part of the ABI; the kernel
// tests use it to reach each target's exp2 and block sizes.
#pragma once

#include <cstddef>
#include <cstdint>

namespace attnprop::kernel {

/// Query rows per work item, for every target and type: the work items, and
/// hence which thread computes what, never depend on the target. (A row's
/// roundings do not depend on kBlockQ at all: see flash_impl.inc.)
inline constexpr int64_t kBlockQ = 64;
/// Every target streams keys in blocks of at least this many (its own
/// Ops::kBlockK, fixed per target and type, so that a row's roundings never
/// depend on threads or batch layout). The error model counts at most
/// ceil(t_k / kMinBlockK) - 1 rescales of a row.
inline constexpr int64_t kMinBlockK = 16;

/// One validated call: dimensions >= 1, pointers non-null (lse may be null).
template <class T>
struct Problem {
  int64_t batch, t_q, t_k, d_k, d_v;
  T scale;       // the ABI's scale rounded to T
  T scale_log2;  // scale * log2(e), rounded once to T: scores are computed in base 2
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

/// Maps a work item to (batch index, query block index).
inline void ItemToBlock(int64_t item, int64_t batch, int64_t n_qblocks, int64_t* b, int64_t* qb) {
  *qb = n_qblocks - 1 - item / batch;
  *b = item % batch;
}

/// One SIMD target's entry points (each ops file defines
/// attnprop::kernel::<target>::kImpl).
struct TargetImpl {
  const char* name;
  /// Bytes of scratch one thread needs for this problem (O(kBlock * d)).
  size_t (*workspace_f32)(const Problem<float>&);
  size_t (*workspace_f64)(const Problem<double>&);
  /// Computes one work item into out/lse, using `ws` (64-byte aligned,
  /// workspace_* bytes). Item numbering: see ItemToBlock.
  void (*run_f32)(const Problem<float>&, void* ws, int64_t item);
  void (*run_f64)(const Problem<double>&, void* ws, int64_t item);
  /// The exp2 the kernel uses (for x <= 0), exposed for its accuracy test.
  void (*exp2_f32)(const float* x, float* y, int64_t n);
  void (*exp2_f64)(const double* x, double* y, int64_t n);
  /// Keys per streamed block (Ops::kBlockK) for f32 and f64.
  int64_t block_k_f32, block_k_f64;
};

/// The target table (kernels/CMakeLists.txt), in order of preference.
int TargetCount();
/// Entry i (0 <= i < TargetCount()), else null.
const TargetImpl* TargetAt(int i);
/// The implementation for a target name, or null if the name is unknown.
/// Does not check CPU support.
const TargetImpl* FindTarget(const char* name);
/// Whether this CPU can run the target.
bool CpuSupports(const TargetImpl* impl);

/// Every target's exp2 returns exactly 0 for x below these (and for -inf and
/// NaN, e.g. an empty row's -inf - -inf), so that no weight is ever
/// subnormal: 2^x >= the smallest normal (2^-126, 2^-1022) wherever it is
/// not flushed. A flushed weight is below the smallest normal relative to
/// its row's maximum (the error model's lambda, kernels/error_model.h).
inline constexpr float kExp2MinF32 = -126.0f;
inline constexpr double kExp2MinF64 = -1022.0;

/// Instrumented timings (perf counters are not available everywhere):
/// configured with -DATTNPROP_KERNEL_PROFILE=ON, each work item adds the TSC
/// cycles of its phases (pack Q, scores, softmax, P V, normalise) to
/// process-wide counters per type, printed to stderr at exit. Off by
/// default: then the macros expand to nothing.
enum Phase { kPhasePack, kPhaseScores, kPhaseSoftmax, kPhaseOut, kPhaseFinal, kPhaseCount };
#ifdef ATTNPROP_KERNEL_PROFILE
void ProfileAdd(bool f64, int phase, uint64_t cycles);
class PhaseTimer {
 public:
  explicit PhaseTimer(bool f64) : f64_(f64), t0_(__builtin_ia32_rdtsc()) {}
  void Mark(int phase) {
    const uint64_t t = __builtin_ia32_rdtsc();
    ProfileAdd(f64_, phase, t - t0_);
    t0_ = t;
  }

 private:
  bool f64_;
  uint64_t t0_;
};
#define ATTNPROP_PROFILE_START(f64) ::attnprop::kernel::PhaseTimer attnprop_phase_timer(f64)
#define ATTNPROP_PROFILE_PHASE(phase) attnprop_phase_timer.Mark(::attnprop::kernel::phase)
#else
#define ATTNPROP_PROFILE_START(f64)
#define ATTNPROP_PROFILE_PHASE(phase)
#endif

}  // namespace attnprop::kernel
