// The AVX2 + FMA path (compiled with -mavx2 -mfma; run only where the CPU
// has both). 8 floats / 4 doubles per vector, 6 x 2 register tiles.
#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "kernels/kernel_internal.h"

namespace attnprop::kernel {
namespace avx2 {
namespace {

// exp(x), x <= 0: x = n ln2 + r, |r| <= ln2/2 (Cody-Waite split of ln2, the
// high part exact in n*C1), exp(r) by its Taylor polynomial (degree 7 for
// float: truncation <= 0.35^8/8! < 0.13 u; degree 13 for double: < 0.01 u),
// Horner with FMA, times 2^n built in the exponent field. Results below
// e^kExpFlushF32 (e^kExpFlushF64), just above the smallest normal, are
// flushed to 0 (no subnormal arithmetic: it costs microcode assists); x =
// -inf or NaN gives exactly 0. Tested: <= 4 u relative on [kExpFlush*, 0].
struct F32Ops {
  using T = float;
  using V = __m256;
  static constexpr int kW = 8;
  static constexpr int kR = 6;
  static constexpr int kC = 2;
  static V Zero() { return _mm256_setzero_ps(); }
  static V Set1(T x) { return _mm256_set1_ps(x); }
  static V Load(const T* p) { return _mm256_loadu_ps(p); }
  static void Store(T* p, V x) { _mm256_storeu_ps(p, x); }
  static V Add(V a, V b) { return _mm256_add_ps(a, b); }
  static V Sub(V a, V b) { return _mm256_sub_ps(a, b); }
  static V Mul(V a, V b) { return _mm256_mul_ps(a, b); }
  static V Fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
  static V Max(V a, V b) { return _mm256_max_ps(a, b); }  // NaN in a: returns b
  static V MaskFirst(V x, int n) {
    const __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i hide = _mm256_cmpgt_epi32(_mm256_set1_epi32(n), iota);
    return _mm256_blendv_ps(x, _mm256_set1_ps(-std::numeric_limits<T>::infinity()), _mm256_castsi256_ps(hide));
  }
  static V Exp(V x) {
    const V keep = _mm256_cmp_ps(x, _mm256_set1_ps(kExpFlushF32), _CMP_GE_OQ);  // NaN: 0
    x = _mm256_max_ps(x, _mm256_set1_ps(kExpFlushF32));
    const V n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(1.44269504088896341f)),
                                _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    V r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), x);
    r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), r);
    V p = _mm256_set1_ps(1.0f / 5040.0f);
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 720.0f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 120.0f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 24.0f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 6.0f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(0.5f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f));
    const __m256i e = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
    return _mm256_and_ps(keep, _mm256_mul_ps(p, _mm256_castsi256_ps(e)));
  }
};

struct F64Ops {
  using T = double;
  using V = __m256d;
  static constexpr int kW = 4;
  static constexpr int kR = 6;
  static constexpr int kC = 2;
  static V Zero() { return _mm256_setzero_pd(); }
  static V Set1(T x) { return _mm256_set1_pd(x); }
  static V Load(const T* p) { return _mm256_loadu_pd(p); }
  static void Store(T* p, V x) { _mm256_storeu_pd(p, x); }
  static V Add(V a, V b) { return _mm256_add_pd(a, b); }
  static V Sub(V a, V b) { return _mm256_sub_pd(a, b); }
  static V Mul(V a, V b) { return _mm256_mul_pd(a, b); }
  static V Fma(V a, V b, V c) { return _mm256_fmadd_pd(a, b, c); }
  static V Max(V a, V b) { return _mm256_max_pd(a, b); }
  static V MaskFirst(V x, int n) {
    const __m256i iota = _mm256_setr_epi64x(0, 1, 2, 3);
    const __m256i hide = _mm256_cmpgt_epi64(_mm256_set1_epi64x(n), iota);
    return _mm256_blendv_pd(x, _mm256_set1_pd(-std::numeric_limits<T>::infinity()), _mm256_castsi256_pd(hide));
  }
  static V Exp(V x) {
    const V keep = _mm256_cmp_pd(x, _mm256_set1_pd(kExpFlushF64), _CMP_GE_OQ);
    x = _mm256_max_pd(x, _mm256_set1_pd(kExpFlushF64));
    const V n = _mm256_round_pd(_mm256_mul_pd(x, _mm256_set1_pd(1.4426950408889634)),
                                _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    V r = _mm256_fnmadd_pd(n, _mm256_set1_pd(6.93145751953125E-1), x);
    r = _mm256_fnmadd_pd(n, _mm256_set1_pd(1.42860682030941723212E-6), r);
    V p = _mm256_set1_pd(1.0 / 6227020800.0);
    static constexpr double kInvFact[13] = {1.0 / 479001600.0, 1.0 / 39916800.0, 1.0 / 3628800.0,
                                            1.0 / 362880.0,    1.0 / 40320.0,    1.0 / 5040.0,
                                            1.0 / 720.0,       1.0 / 120.0,      1.0 / 24.0,
                                            1.0 / 6.0,         0.5,              1.0,
                                            1.0};
    for (double c : kInvFact) p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(c));
    // 2^n: n + 1.5*2^52 holds n in its low mantissa bits; add the bias, shift.
    const __m256i t = _mm256_castpd_si256(_mm256_add_pd(n, _mm256_set1_pd(0x1.8p52)));
    const __m256i e = _mm256_slli_epi64(_mm256_add_epi64(t, _mm256_set1_epi64x(1023)), 52);
    return _mm256_and_pd(keep, _mm256_mul_pd(p, _mm256_castsi256_pd(e)));
  }
};

#include "kernels/flash_impl.inc"

}  // namespace
}  // namespace avx2

const TargetImpl kAvx2Impl = {"avx2",       avx2::WorkspaceF32, avx2::WorkspaceF64, avx2::RunF32,
                              avx2::RunF64, avx2::ExpF32,       avx2::ExpF64};

}  // namespace attnprop::kernel
