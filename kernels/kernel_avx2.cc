// The AVX2 + FMA path (compiled with -mavx2 -mfma from the target table; run
// only where the CPU has both). 8 floats / 4 doubles per vector. 16 ymm
// registers: 6 x 2 register tiles (12 accumulators, 2 operand vectors, 1
// broadcast).
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
namespace avx2 {
namespace {

struct F32Ops {
  using T = float;
  using V = __m256;
  using M = __m256;  // all-ones lanes
  static constexpr int kW = 8;
  static constexpr int kR = 6;
  static constexpr int kC = 2;
  static constexpr int64_t kBlockK = 64;
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
  static M Ge(V a, V b) { return _mm256_cmp_ps(a, b, _CMP_GE_OQ); }
  static V IfThenElseZero(M m, V a) { return _mm256_and_ps(m, a); }
  // 2^n built in the exponent field (n integral: the conversion is exact).
  static V MulPow2(V a, V n) {
    const __m256i e = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
    return _mm256_mul_ps(a, _mm256_castsi256_ps(e));
  }
};

struct F64Ops {
  using T = double;
  using V = __m256d;
  using M = __m256d;
  static constexpr int kW = 4;
  static constexpr int kR = 6;
  static constexpr int kC = 2;
  static constexpr int64_t kBlockK = 64;
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
  static M Ge(V a, V b) { return _mm256_cmp_pd(a, b, _CMP_GE_OQ); }
  static V IfThenElseZero(M m, V a) { return _mm256_and_pd(m, a); }
  // 2^n: n + 1.5*2^52 holds n in its low mantissa bits; add the bias, shift.
  static V MulPow2(V a, V n) {
    const __m256i t = _mm256_castpd_si256(_mm256_add_pd(n, _mm256_set1_pd(0x1.8p52)));
    const __m256i e = _mm256_slli_epi64(_mm256_add_epi64(t, _mm256_set1_epi64x(1023)), 52);
    return _mm256_mul_pd(a, _mm256_castsi256_pd(e));
  }
};

#include "kernels/flash_impl.inc"

}  // namespace

extern const TargetImpl kImpl;
const TargetImpl kImpl = MakeImpl("avx2");

}  // namespace avx2
}  // namespace attnprop::kernel
