// A naive, correct implementation of the kernel ABI (kernels/attnprop_kernel.h),
// used to prove the kernel property suite: built as is (BUG == 0) it is the
// reference plug-in that must pass; built with -DATTNPROP_BUG=<n> it carries
// exactly one deliberate bug that a named property must catch (see
// CMakeLists.txt for the list). Two passes per query row: the row max of the
// scores, then exp(s - max) accumulated into out and the normaliser; nothing
// but out and lse is written, no scratch memory.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/attnprop_kernel.h"

#ifndef ATTNPROP_BUG
#define ATTNPROP_BUG 0
#endif

// The bugs (one per build).
#define BUG_NOMAX 1             // no max subtraction: exp overflows for scores > 88 (f32)
#define BUG_LSE_LOG2 2          // lse in base 2
#define BUG_CAUSAL_TOPLEFT 3    // causal mask j <= i (misaligned when t_q != t_k)
#define BUG_BATCH_STRIDE 4      // v of item b at b * t_q * d_v (t_q/t_k mix-up)
#define BUG_TAIL8 5             // blocks of 8 keys; the tail loop stops one key short
#define BUG_OOB_WRITE 6         // out stored 4 wide: the last row writes past the end
#define BUG_MODIFIES_INPUTS 7   // folds the scale into q in place
#define BUG_NO_VALIDATION 8     // accepts invalid arguments
#define BUG_F64_AS_FLOAT 9      // the f64 entry computes in float
#define BUG_BF16_WEIGHTS 10     // weights rounded to bf16 before the product with v
#define BUG_CRUDE_EXP 11        // exp(x) ~ (1 + x/1024)^1024
#define BUG_CRASH 12            // segfault when t_k >= 6 and d_k >= 2
#define BUG_HANG 13             // never returns when t_k >= 7
#define BUG_OOB_READ 14         // reads one key row past the end of k
#define BUG_EMPTY_ROWS 15       // rows with no visible key are left unwritten
#define BUG_WRONG_VERSION 16    // reports ABI version 3 (one past the newest)
#define BUG_V_STRIDE_DK 17      // rows of v read with stride d_k (d_k/d_v mix-up)
#define BUG_NONDETERMINISTIC 18 // every other call sums the keys in reverse order
#define BUG_WRITE_BEFORE_OUT 19 // clears out[-1] (an off-by-one start index)
// Regime bugs (issue 14): each only in a regime the suite once never drew.
#define BUG_HEAD_DIM_MAX 20     // d_k > 256 (a compiled maximum): the dot product stops at 256
#define BUG_SPLIT_KV_MERGE 21   // t_q <= 8, t_k > 1024: chunks of 512 keys merged without rescaling
#define BUG_QUERY_TILE_TAIL 22  // t_q > 256: tiles of 64 queries, the last partial tile not computed
#define BUG_SCALE_ABS 23        // uses |scale| (a negative scale taken as positive)
#define BUG_VEC_TAIL16 24       // d_v > 32, d_v % 16 != 0: the last partial vector of out written as 0
// State between calls (issue 14): each right on a process's first call.
#define BUG_STALE_WORKSPACE 25  // scratch of exp(s - m) sized to the largest t_k seen; z sums all of it
#define BUG_CACHE_BY_SHAPE 26   // scale * k cached keyed on (batch, t_k, d_k) only, not the values
#define BUG_FIRST_CALL_SCALE 27 // scale read on the first call and kept for every later one
#define BUG_STRUCT_SIZE_EXACT 28 // struct_size compared for equality: a newer caller's larger struct refused
#define BUG_FLUSH_SUBNORMALS 29 // sets MXCSR's FTZ and DAZ, as -ffast-math's startup code does: subnormals read and written as 0
#define BUG_NEGATIVE_TAIL 30    // causal calls: an exp fit without its clamp, below the type's underflow it returns -5.5e-42

#if ATTNPROP_BUG == BUG_FLUSH_SUBNORMALS
#include <xmmintrin.h>  // _mm_setcsr
#endif

// ATTNPROP_ONLINE=1 (with no bug): a second correct kernel that computes
// differently: one pass over blocks of 8 keys with online-softmax rescaling
// and FMA dot products, as SIMD kernels do; the suite's bounds must admit it.
#ifndef ATTNPROP_DISPATCH_EXT
#define ATTNPROP_DISPATCH_EXT 0
#endif
#ifndef ATTNPROP_ONLINE
#define ATTNPROP_ONLINE 0
#endif

// ATTNPROP_HOSTILE=<n>: the correct kernel (or one bug) plus a hostile
// behaviour around the call or at load time (hostile_kernel.cc).
#ifndef ATTNPROP_HOSTILE
#define ATTNPROP_HOSTILE 0
#endif
#if ATTNPROP_HOSTILE
void HostileBefore(const attnprop_attention_args* args);
void HostileAfter(const attnprop_attention_args* args);
#else
static inline void HostileBefore(const attnprop_attention_args*) {}
static inline void HostileAfter(const attnprop_attention_args*) {}
#endif

namespace {

template <class C>
C Exp(C x) {
#if ATTNPROP_BUG == BUG_CRUDE_EXP
  if (x < C(-1024)) return C(0);
  C y = C(1) + x / C(1024);
  for (int i = 0; i < 10; ++i) y *= y;
  return y;
#else
  return std::exp(x);
#endif
}

#if ATTNPROP_BUG == BUG_NEGATIVE_TAIL
// The causal path's own exp (causal kernels often have a masked loop of
// their own): where exp(x) underflows to 0 (x < -87.4 in f32, -745.2 in
// f64) its minimax fit of the bottom of the range, left unclamped, is
// slightly negative, so a far key's weight is -5.5e-42 (an f32 subnormal).
template <class C>
C CausalExp(bool causal, C x) {
  const C underflow = sizeof(C) == 4 ? C(-87.4) : C(-745.2);
  if (causal && x < underflow) return C(-5.5e-42);
  return Exp(x);
}
#endif

template <class C>
C RoundWeight(C w) {
#if ATTNPROP_BUG == BUG_BF16_WEIGHTS
  // Round to nearest bf16 (8 significant bits).
  float f = static_cast<float>(w);
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  bits = (bits + 0x7FFFu + ((bits >> 16) & 1u)) & 0xFFFF0000u;
  std::memcpy(&f, &bits, 4);
  return static_cast<C>(f);
#else
  return w;
#endif
}

bool Valid(const attnprop_attention_args* a) {
  if (!a || !a->q || !a->k || !a->v || !a->out) return false;
#if ATTNPROP_BUG == BUG_NO_VALIDATION
  return true;
#else
#if ATTNPROP_BUG == BUG_STRUCT_SIZE_EXACT
  if (a->struct_size != sizeof(attnprop_attention_args)) return false;
#else
  if (a->struct_size < sizeof(attnprop_attention_args)) return false;
#endif
  if (a->batch < 1 || a->t_q < 1 || a->t_k < 1 || a->d_k < 1 || a->d_v < 1) return false;
  if (!std::isfinite(a->scale)) return false;
  return a->causal == 0 || a->causal == 1;
#endif
}

// T: the element type of the buffers; C: the type computed in.
template <class T, class C>
int Attend(const attnprop_attention_args* a) {
  if (!Valid(a)) return 1;
#if ATTNPROP_BUG == BUG_FLUSH_SUBNORMALS
  _mm_setcsr(_mm_getcsr() | 0x8040);  // FTZ (bit 15) and DAZ (bit 6)
#endif
  const int64_t bn = a->batch, tq = a->t_q, tk = a->t_k, dk = a->d_k, dv = a->d_v;
  const T* q_all = static_cast<const T*>(a->q);
  const T* k_all = static_cast<const T*>(a->k);
  const T* v_all = static_cast<const T*>(a->v);
  T* out_all = static_cast<T*>(a->out);
  T* lse_all = static_cast<T*>(a->lse);
  C scale = static_cast<C>(a->scale);
#if ATTNPROP_BUG == BUG_SCALE_ABS
  scale = std::fabs(scale);
#endif
#if ATTNPROP_BUG == BUG_FIRST_CALL_SCALE
  static bool have_scale = false;
  static C first_scale = 0;
  if (!have_scale) first_scale = scale, have_scale = true;
  scale = first_scale;
#endif
#if ATTNPROP_BUG == BUG_CACHE_BY_SHAPE
  // "Pre-packed" scale * k, recomputed only when the shape changes.
  static int64_t cached_shape[3] = {-1, -1, -1};
  static C* packed = nullptr;
  if (cached_shape[0] != bn || cached_shape[1] != tk || cached_shape[2] != dk) {
    delete[] packed;
    packed = new C[static_cast<size_t>(bn * tk * dk)];
    for (int64_t x = 0; x < bn * tk * dk; ++x) packed[x] = scale * static_cast<C>(static_cast<const T*>(a->k)[x]);
    cached_shape[0] = bn, cached_shape[1] = tk, cached_shape[2] = dk;
  }
#endif
#if ATTNPROP_BUG == BUG_STALE_WORKSPACE
  static C* ws = nullptr;
  static int64_t ws_size = 0;
  if (ws_size < tk) {
    delete[] ws;
    ws = new C[static_cast<size_t>(tk)]();
    ws_size = tk;
  }
#endif
#if ATTNPROP_BUG == BUG_MODIFIES_INPUTS
  T* q_mut = const_cast<T*>(q_all);
  for (int64_t x = 0; x < bn * tq * dk; ++x) q_mut[x] = static_cast<T>(q_mut[x] * static_cast<T>(scale));
  scale = C(1);
#endif
#if ATTNPROP_BUG == BUG_CRASH
  if (tk >= 6 && dk >= 2) *static_cast<volatile int*>(nullptr) = 1;
#endif
#if ATTNPROP_BUG == BUG_HANG
  if (tk >= 7) {
    volatile int spin = 0;
    for (;;) spin = 1 - spin;
  }
#endif
#if ATTNPROP_BUG == BUG_WRITE_BEFORE_OUT
  out_all[-1] = T(0);
#endif
  for (int64_t b = 0; b < bn; ++b) {
    const T* k = k_all + b * tk * dk;
#if ATTNPROP_BUG == BUG_V_STRIDE_DK
    const int64_t v_stride = dk;
#else
    const int64_t v_stride = dv;
#endif
#if ATTNPROP_BUG == BUG_BATCH_STRIDE
    const T* v = v_all + b * tq * dv;
#else
    const T* v = v_all + b * tk * dv;
#endif
#if ATTNPROP_BUG == BUG_OOB_READ
    if (b == bn - 1) {
      volatile T past = k[tk * dk];  // one row past the last key
      (void)past;
    }
#endif
    for (int64_t i = 0; i < tq; ++i) {
#if ATTNPROP_BUG == BUG_QUERY_TILE_TAIL
      if (tq > 256 && i >= tq / 64 * 64) break;  // the partial tile at the end is skipped
#endif
      const T* qi = q_all + (b * tq + i) * dk;
      T* oi = out_all + (b * tq + i) * dv;
#if ATTNPROP_BUG == BUG_CAUSAL_TOPLEFT
      int64_t last = a->causal ? i : tk - 1;
      if (last > tk - 1) last = tk - 1;
#else
      const int64_t last = a->causal ? i + tk - tq : tk - 1;  // last visible key
#endif
      if (last < 0) {  // no visible key
#if ATTNPROP_BUG != BUG_EMPTY_ROWS
        for (int64_t c = 0; c < dv; ++c) oi[c] = T(0);
        if (lse_all) lse_all[b * tq + i] = -INFINITY;
#endif
        continue;
      }
      int64_t n = last + 1;
#if ATTNPROP_BUG == BUG_TAIL8
      if (n % 8 != 0) n -= 1;  // the tail loop's bound is off by one
#endif
#if ATTNPROP_BUG == BUG_HEAD_DIM_MAX
      const int64_t dk_used = dk > 256 ? 256 : dk;
#else
      const int64_t dk_used = dk;
#endif
      auto score = [&](int64_t j) {
        C dot = 0;
#if ATTNPROP_BUG == BUG_CACHE_BY_SHAPE
        (void)dk_used, (void)k;
        for (int64_t l = 0; l < dk; ++l) dot += static_cast<C>(qi[l]) * packed[(b * tk + j) * dk + l];
        return dot;
#else
        for (int64_t l = 0; l < dk_used; ++l) dot += static_cast<C>(qi[l]) * static_cast<C>(k[j * dk + l]);
        return scale * dot;
#endif
      };
      C m = -INFINITY;
      for (int64_t j = 0; j < n; ++j) m = std::fmax(m, score(j));
#if ATTNPROP_BUG == BUG_NOMAX
      m = 0;
#endif
      C acc[4096];  // a row of out; this test plug-in supports d_v <= 4096
      if (dv > 4096) return 2;
      for (int64_t c = 0; c < dv; ++c) acc[c] = 0;
      C z = 0;
#if ATTNPROP_ONLINE
      // Blocks of 8 keys; the running max m, sum z and acc are rescaled by
      // exp(m_old - m_new) when a block raises the max.
      m = -INFINITY;
      for (int64_t j0 = 0; j0 < n; j0 += 8) {
        const int64_t j1 = j0 + 8 < n ? j0 + 8 : n;
        C s[8], bm = -INFINITY;
        for (int64_t j = j0; j < j1; ++j) {
          C dot = 0;
          for (int64_t l = 0; l < dk; ++l) dot = std::fma(static_cast<C>(qi[l]), static_cast<C>(k[j * dk + l]), dot);
          s[j - j0] = scale * dot;
          bm = std::fmax(bm, s[j - j0]);
        }
        const C m_new = std::fmax(m, bm);
        const C r = Exp(m - m_new);  // exp(-inf) = 0 on the first block
        z *= r;
        for (int64_t c = 0; c < dv; ++c) acc[c] *= r;
        for (int64_t j = j0; j < j1; ++j) {
          const C e = Exp(s[j - j0] - m_new);
          z += e;
          for (int64_t c = 0; c < dv; ++c) acc[c] = std::fma(e, static_cast<C>(v[j * v_stride + c]), acc[c]);
        }
        m = m_new;
      }
#else
#if ATTNPROP_BUG == BUG_NONDETERMINISTIC
      static int calls = 0;
      const bool reverse = (calls++ / (tq * bn)) % 2 == 1;
#else
      const bool reverse = false;
#endif
#if ATTNPROP_BUG == BUG_SPLIT_KV_MERGE
      if (tq <= 8 && n > 1024) {
        // Split-KV: chunks of 512 keys, each with its own max; the partial
        // sums are added as if they shared one max (the rescale is missing).
        for (int64_t j0 = 0; j0 < n; j0 += 512) {
          const int64_t j1 = j0 + 512 < n ? j0 + 512 : n;
          C cm = -INFINITY;
          for (int64_t j = j0; j < j1; ++j) cm = std::fmax(cm, score(j));
          for (int64_t j = j0; j < j1; ++j) {
            const C e = Exp(score(j) - cm);
            z += e;
            for (int64_t c = 0; c < dv; ++c) acc[c] += e * static_cast<C>(v[j * v_stride + c]);
          }
        }
        n = 0;  // done
      }
#endif
      for (int64_t jj = 0; jj < n; ++jj) {
        const int64_t j = reverse ? n - 1 - jj : jj;
#if ATTNPROP_BUG == BUG_NEGATIVE_TAIL
        const C e = CausalExp(a->causal != 0, score(j) - m);
#else
        const C e = Exp(score(j) - m);
#endif
#if ATTNPROP_BUG == BUG_STALE_WORKSPACE
        ws[j] = e;
        (void)z;
#else
        z += e;
#endif
        const C w = RoundWeight(e);
        for (int64_t c = 0; c < dv; ++c) acc[c] += w * static_cast<C>(v[j * v_stride + c]);
      }
#if ATTNPROP_BUG == BUG_STALE_WORKSPACE
      // Clears what this call's t_k covers, then sums the whole workspace:
      // entries from a larger earlier call are still there.
      for (int64_t j = n; j < tk; ++j) ws[j] = 0;
      for (int64_t j = 0; j < ws_size; ++j) z += ws[j];
#endif
#endif
#if ATTNPROP_BUG == BUG_OOB_WRITE
      // "Vector" stores of 4: the last chunk of a row spills into the next row, and past the end.
      for (int64_t c = 0; c < dv; c += 4)
        for (int64_t x = 0; x < 4; ++x) oi[c + x] = static_cast<T>(c + x < dv ? acc[c + x] / z : C(0));
#else
      for (int64_t c = 0; c < dv; ++c) oi[c] = static_cast<T>(acc[c] / z);
#endif
#if ATTNPROP_BUG == BUG_VEC_TAIL16
      if (dv > 32 && dv % 16 != 0)
        for (int64_t c = dv / 16 * 16; c < dv; ++c) oi[c] = T(0);
#endif
      if (lse_all) {
#if ATTNPROP_BUG == BUG_LSE_LOG2
        lse_all[b * tq + i] = static_cast<T>((m + std::log(z)) / std::log(C(2)));
#else
        lse_all[b * tq + i] = static_cast<T>(m + std::log(z));
#endif
      }
    }
  }
  return 0;
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) int attnprop_kernel_abi_version(void) {
#if ATTNPROP_BUG == BUG_WRONG_VERSION
  return ATTNPROP_KERNEL_ABI_VERSION + 1;  // one past the newest
#else
  return ATTNPROP_KERNEL_ABI_VERSION;
#endif
}

__attribute__((visibility("default"))) int attnprop_attention_f32(const attnprop_attention_args* args) {
  HostileBefore(args);
  const int rc = Attend<float, float>(args);
  HostileAfter(args);
  return rc;
}

__attribute__((visibility("default"))) int attnprop_attention_f64(const attnprop_attention_args* args) {
  HostileBefore(args);
#if ATTNPROP_BUG == BUG_F64_AS_FLOAT
  const int rc = Attend<double, float>(args);
#else
  const int rc = Attend<double, double>(args);
#endif
  HostileAfter(args);
  return rc;
}

#if ATTNPROP_DISPATCH_EXT
// The dispatch extension of attnprop's own kernel (kernels/attnprop_kernel_ext.h),
// faked: only "scalar" (and "auto", which picks it) exist here. It lets the
// suite's tests see a dispatch target reported as skipped.
__attribute__((visibility("default"))) int attnprop_kernel_target_supported(const char* target) {
  return target && (std::strcmp(target, "scalar") == 0 || std::strcmp(target, "auto") == 0);
}
__attribute__((visibility("default"))) const char* attnprop_kernel_target(void) { return "scalar"; }
#endif

}  // extern "C"
