// The baseline's row softmax: three passes per row (scale+mask+max, exp+sum,
// normalise), vectorised, with exp from glibc's libmvec (the vector exp a
// well-kept C library ships; <= 4 ulp). Each ISA variant is compiled through
// a target attribute and chosen at run time, so this file needs no -m flag.
#include "kernels/bench/baseline_softmax.h"

// GCC 12's avx512fintrin.h warns about its own _mm512_undefined_* (GCC PR 105593).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <limits>

extern "C" {
__m512 _ZGVeN16v_expf(__m512);
__m512d _ZGVeN8v_exp(__m512d);
__m256 _ZGVdN8v_expf(__m256);
__m256d _ZGVdN4v_exp(__m256d);
}

namespace attnprop::bench {
namespace {

#define ATTNPROP_SOFTMAX(NAME, TARGET, T, V, W, SET1, LOAD, STORE, MUL, MAX, ADD, EXP, HMAX, HSUM)   \
  __attribute__((target(TARGET))) void NAME(T* s, int64_t t, T scale, bool causal, int64_t lo,       \
                                            int64_t hi) {                                            \
    constexpr T kNegInf = -std::numeric_limits<T>::infinity();                                       \
    for (int64_t i = lo; i < hi; ++i) {                                                              \
      T* r = s + i * t;                                                                              \
      const int64_t n = causal ? i + 1 : t; /* visible entries; the rest get 0 */                    \
      const V vs = SET1(scale);                                                                      \
      V vm = SET1(kNegInf);                                                                          \
      int64_t j = 0;                                                                                 \
      for (; j + W <= n; j += W) {                                                                   \
        const V x = MUL(LOAD(r + j), vs);                                                            \
        STORE(r + j, x);                                                                             \
        vm = MAX(vm, x);                                                                             \
      }                                                                                              \
      T m = HMAX(vm);                                                                                \
      for (; j < n; ++j) {                                                                           \
        r[j] *= scale;                                                                               \
        m = r[j] > m ? r[j] : m;                                                                     \
      }                                                                                              \
      const V vmax = SET1(m);                                                                        \
      V vsum = SET1(T{0});                                                                           \
      for (j = 0; j + W <= n; j += W) {                                                              \
        const V e = EXP(LOAD(r + j) - vmax); /* GNU vector subtraction */                          \
        STORE(r + j, e);                                                                             \
        vsum = ADD(vsum, e);                                                                         \
      }                                                                                              \
      T sum = HSUM(vsum);                                                                            \
      for (; j < n; ++j) {                                                                           \
        r[j] = std::exp(r[j] - m);                                                                   \
        sum += r[j];                                                                                 \
      }                                                                                              \
      const V inv = SET1(T{1} / sum);                                                                \
      for (j = 0; j + W <= n; j += W) STORE(r + j, MUL(LOAD(r + j), inv));                           \
      for (; j < n; ++j) r[j] *= T{1} / sum;                                                         \
      for (j = n; j < t; ++j) r[j] = 0;                                                              \
    }                                                                                                \
  }

__attribute__((target("avx512f"))) float HMax16(__m512 x) { return _mm512_reduce_max_ps(x); }
__attribute__((target("avx512f"))) float HSum16(__m512 x) { return _mm512_reduce_add_ps(x); }
__attribute__((target("avx512f"))) double HMax8d(__m512d x) { return _mm512_reduce_max_pd(x); }
__attribute__((target("avx512f"))) double HSum8d(__m512d x) { return _mm512_reduce_add_pd(x); }
__attribute__((target("avx2"))) float HMax8(__m256 x) {
  alignas(32) float a[8];
  _mm256_store_ps(a, x);
  float m = a[0];
  for (float e : a) m = e > m ? e : m;
  return m;
}
__attribute__((target("avx2"))) float HSum8(__m256 x) {
  alignas(32) float a[8];
  _mm256_store_ps(a, x);
  float s = 0;
  for (float e : a) s += e;
  return s;
}
__attribute__((target("avx2"))) double HMax4d(__m256d x) {
  alignas(32) double a[4];
  _mm256_store_pd(a, x);
  double m = a[0];
  for (double e : a) m = e > m ? e : m;
  return m;
}
__attribute__((target("avx2"))) double HSum4d(__m256d x) {
  alignas(32) double a[4];
  _mm256_store_pd(a, x);
  double s = 0;
  for (double e : a) s += e;
  return s;
}

ATTNPROP_SOFTMAX(Rows512s, "avx512f", float, __m512, 16, _mm512_set1_ps, _mm512_loadu_ps, _mm512_storeu_ps,
                 _mm512_mul_ps, _mm512_max_ps, _mm512_add_ps, _ZGVeN16v_expf, HMax16, HSum16)
ATTNPROP_SOFTMAX(Rows512d, "avx512f", double, __m512d, 8, _mm512_set1_pd, _mm512_loadu_pd, _mm512_storeu_pd,
                 _mm512_mul_pd, _mm512_max_pd, _mm512_add_pd, _ZGVeN8v_exp, HMax8d, HSum8d)
ATTNPROP_SOFTMAX(Rows256s, "avx2", float, __m256, 8, _mm256_set1_ps, _mm256_loadu_ps, _mm256_storeu_ps,
                 _mm256_mul_ps, _mm256_max_ps, _mm256_add_ps, _ZGVdN8v_expf, HMax8, HSum8)
ATTNPROP_SOFTMAX(Rows256d, "avx2", double, __m256d, 4, _mm256_set1_pd, _mm256_loadu_pd, _mm256_storeu_pd,
                 _mm256_mul_pd, _mm256_max_pd, _mm256_add_pd, _ZGVdN4v_exp, HMax4d, HSum4d)

template <class T>
void ScalarRows(T* s, int64_t t, T scale, bool causal, int64_t lo, int64_t hi) {
  for (int64_t i = lo; i < hi; ++i) {
    T* r = s + i * t;
    const int64_t n = causal ? i + 1 : t;
    T m = -std::numeric_limits<T>::infinity();
    for (int64_t j = 0; j < n; ++j) m = std::max(m, r[j] *= scale);
    T sum = 0;
    for (int64_t j = 0; j < n; ++j) sum += (r[j] = std::exp(r[j] - m));
    for (int64_t j = 0; j < n; ++j) r[j] /= sum;
    for (int64_t j = n; j < t; ++j) r[j] = 0;
  }
}

bool Has512() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f");
}
bool Has256() { return __builtin_cpu_supports("avx2"); }

}  // namespace

void SoftmaxRows(float* s, int64_t t, float scale, bool causal, int64_t lo, int64_t hi) {
  if (Has512()) return Rows512s(s, t, scale, causal, lo, hi);
  if (Has256()) return Rows256s(s, t, scale, causal, lo, hi);
  ScalarRows(s, t, scale, causal, lo, hi);
}
void SoftmaxRows(double* s, int64_t t, double scale, bool causal, int64_t lo, int64_t hi) {
  if (Has512()) return Rows512d(s, t, scale, causal, lo, hi);
  if (Has256()) return Rows256d(s, t, scale, causal, lo, hi);
  ScalarRows(s, t, scale, causal, lo, hi);
}

}  // namespace attnprop::bench
