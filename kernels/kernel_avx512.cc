// The AVX-512 path (compiled with -mavx512f -mavx512vl -mavx512bw -mavx512dq
// -mfma; run only where the CPU has F, VL, BW and DQ). 16 floats / 8 doubles
// per vector; 6 x 4 register tiles (24 accumulators of 32 registers).
// GCC 12's avx512fintrin.h builds max/roundscale/scalef on _mm512_undefined_*
// and then warns about its own uninitialised value (GCC PR 105593).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "kernels/kernel_internal.h"

namespace attnprop::kernel {
namespace avx512 {
namespace {

// exp(x), x <= 0: as in kernel_avx2.cc (Cody-Waite reduction, Taylor degree
// 7 / 13 with FMA, results below e^kExpFlush* flushed to 0 so that no
// subnormal, and no microcode assist, ever arises), with 2^n applied by
// vscalef. Tested: <= 4 u relative on [kExpFlush*, 0].
struct F32Ops {
  using T = float;
  using V = __m512;
  static constexpr int kW = 16;
  static constexpr int kR = 6;
  static constexpr int kC = 4;
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
  static V Exp(V x) {
    const __mmask16 keep = _mm512_cmp_ps_mask(x, _mm512_set1_ps(kExpFlushF32), _CMP_GE_OQ);  // NaN: 0
    x = _mm512_max_ps(x, _mm512_set1_ps(kExpFlushF32));
    const V n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)),
                                     _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    V r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), x);
    r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
    V p = _mm512_set1_ps(1.0f / 5040.0f);
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 720.0f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 120.0f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 24.0f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 6.0f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0.5f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
    return _mm512_maskz_mov_ps(keep, _mm512_scalef_ps(p, n));
  }
};

struct F64Ops {
  using T = double;
  using V = __m512d;
  static constexpr int kW = 8;
  static constexpr int kR = 6;
  static constexpr int kC = 4;
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
  static V Exp(V x) {
    const __mmask8 keep = _mm512_cmp_pd_mask(x, _mm512_set1_pd(kExpFlushF64), _CMP_GE_OQ);
    x = _mm512_max_pd(x, _mm512_set1_pd(kExpFlushF64));
    const V n = _mm512_roundscale_pd(_mm512_mul_pd(x, _mm512_set1_pd(1.4426950408889634)),
                                     _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    V r = _mm512_fnmadd_pd(n, _mm512_set1_pd(6.93145751953125E-1), x);
    r = _mm512_fnmadd_pd(n, _mm512_set1_pd(1.42860682030941723212E-6), r);
    V p = _mm512_set1_pd(1.0 / 6227020800.0);
    static constexpr double kInvFact[13] = {1.0 / 479001600.0, 1.0 / 39916800.0, 1.0 / 3628800.0,
                                            1.0 / 362880.0,    1.0 / 40320.0,    1.0 / 5040.0,
                                            1.0 / 720.0,       1.0 / 120.0,      1.0 / 24.0,
                                            1.0 / 6.0,         0.5,              1.0,
                                            1.0};
    for (double c : kInvFact) p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(c));
    return _mm512_maskz_mov_pd(keep, _mm512_scalef_pd(p, n));
  }
};

#include "kernels/flash_impl.inc"

}  // namespace
}  // namespace avx512

const TargetImpl kAvx512Impl = {"avx512",       avx512::WorkspaceF32, avx512::WorkspaceF64, avx512::RunF32,
                                avx512::RunF64, avx512::ExpF32,       avx512::ExpF64};

}  // namespace attnprop::kernel
