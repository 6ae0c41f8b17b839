// The AVX-512 path (compiled with -mavx512f -mavx512vl -mavx512bw -mavx512dq
// -mavx2 -mfma from the target table; run only where the CPU has them all).
// 16 floats / 8 doubles per vector. 32 zmm registers: 6 x 4 register tiles
// (24 accumulators, 4 operand vectors, 1 broadcast).
// GCC 12's avx512fintrin.h builds max/roundscale/scalef on _mm512_undefined_*
// and then warns about its own uninitialised value (GCC PR 105593; scalef
// triggers -Wuninitialized, the others -Wmaybe-uninitialized).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "kernels/kernel_internal.h"

namespace attnprop::kernel {
namespace avx512 {
namespace {

struct F32Ops {
  using T = float;
  using V = __m512;
  using M = __mmask16;
  static constexpr int kW = 16;
  static constexpr int kR = 6;
  static constexpr int kC = 4;
  static constexpr int64_t kBlockK = 64;
  static V Zero() { return _mm512_setzero_ps(); }
  static V Set1(T x) { return _mm512_set1_ps(x); }
  static V Load(const T* p) { return _mm512_loadu_ps(p); }
  static void Store(T* p, V x) { _mm512_storeu_ps(p, x); }
  static V Add(V a, V b) { return _mm512_add_ps(a, b); }
  static V Sub(V a, V b) { return _mm512_sub_ps(a, b); }
  static V Mul(V a, V b) { return _mm512_mul_ps(a, b); }
  static V Fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  static V Max(V a, V b) { return _mm512_max_ps(a, b); }  // NaN in a: returns b
  static V MaskFirst(V x, int n) {
    const __mmask16 hide = static_cast<__mmask16>((1u << n) - 1u);
    return _mm512_mask_mov_ps(x, hide, _mm512_set1_ps(-std::numeric_limits<T>::infinity()));
  }
  static M Ge(V a, V b) { return _mm512_cmp_ps_mask(a, b, _CMP_GE_OQ); }
  static V IfThenElseZero(M m, V a) { return _mm512_maskz_mov_ps(m, a); }
  static V MulPow2(V a, V n) { return _mm512_scalef_ps(a, n); }
};

struct F64Ops {
  using T = double;
  using V = __m512d;
  using M = __mmask8;
  static constexpr int kW = 8;
  static constexpr int kR = 6;
  static constexpr int kC = 4;
  static constexpr int64_t kBlockK = 64;
  static V Zero() { return _mm512_setzero_pd(); }
  static V Set1(T x) { return _mm512_set1_pd(x); }
  static V Load(const T* p) { return _mm512_loadu_pd(p); }
  static void Store(T* p, V x) { _mm512_storeu_pd(p, x); }
  static V Add(V a, V b) { return _mm512_add_pd(a, b); }
  static V Sub(V a, V b) { return _mm512_sub_pd(a, b); }
  static V Mul(V a, V b) { return _mm512_mul_pd(a, b); }
  static V Fma(V a, V b, V c) { return _mm512_fmadd_pd(a, b, c); }
  static V Max(V a, V b) { return _mm512_max_pd(a, b); }
  static V MaskFirst(V x, int n) {
    const __mmask8 hide = static_cast<__mmask8>((1u << n) - 1u);
    return _mm512_mask_mov_pd(x, hide, _mm512_set1_pd(-std::numeric_limits<T>::infinity()));
  }
  static M Ge(V a, V b) { return _mm512_cmp_pd_mask(a, b, _CMP_GE_OQ); }
  static V IfThenElseZero(M m, V a) { return _mm512_maskz_mov_pd(m, a); }
  static V MulPow2(V a, V n) { return _mm512_scalef_pd(a, n); }
};

#include "kernels/flash_impl.inc"

}  // namespace

extern const TargetImpl kImpl;
const TargetImpl kImpl = MakeImpl("avx512");

}  // namespace avx512
}  // namespace attnprop::kernel
