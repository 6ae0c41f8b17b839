/* A naive attention kernel implementing attnprop's kernel ABI
 * (<attnprop/attnprop_kernel.h>), as a kernel author would start: per query
 * row, the maximum of the visible scores, then exp(s - max) accumulated into
 * out and the normaliser z, then out /= z and lse = max + log z. It writes
 * nothing but out and lse, and validates its arguments as the ABI asks.
 *
 * MYKERNEL_PLANT_BUG=1 (CMake option MYKERNEL_PLANT_BUG) plants the naive
 * kernel's classic slip: a causal row with no visible key (t_q > t_k: the
 * queries are the last t_q positions) is computed like any other, as
 * 0/0 = NaN, where the ABI asks for out = 0 and lse = -inf. attnprop's
 * abi.empty_rows property names it (and others fail on the same rows).
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include <attnprop/attnprop_kernel.h>

#ifndef MYKERNEL_PLANT_BUG
#define MYKERNEL_PLANT_BUG 0
#endif

#define MYKERNEL_API __attribute__((visibility("default")))

static int valid(const attnprop_attention_args *a) {
  if (a == NULL || a->q == NULL || a->k == NULL || a->v == NULL || a->out == NULL) return 0;
  if (a->struct_size < sizeof(attnprop_attention_args)) return 0;
  if (a->batch < 1 || a->t_q < 1 || a->t_k < 1 || a->d_k < 1 || a->d_v < 1) return 0;
  if (!isfinite(a->scale)) return 0;
  return a->causal == 0 || a->causal == 1;
}

/* One function per element type T, computing in T (EXP, LOG: T's exp, log). */
#define MYKERNEL_ATTEND(NAME, T, EXP, LOG)                                            \
  static int NAME(const attnprop_attention_args *a) {                               \
    if (!valid(a)) return 1;                                                        \
    const int64_t bn = a->batch, tq = a->t_q, tk = a->t_k, dk = a->d_k, dv = a->d_v; \
    const T scale = (T)a->scale;                                                    \
    for (int64_t b = 0; b < bn; ++b) {                                              \
      const T *k = (const T *)a->k + b * tk * dk;                                   \
      const T *v = (const T *)a->v + b * tk * dv;                                   \
      for (int64_t i = 0; i < tq; ++i) {                                            \
        const T *qi = (const T *)a->q + (b * tq + i) * dk;                          \
        T *oi = (T *)a->out + (b * tq + i) * dv;                                    \
        T *lse = a->lse ? (T *)a->lse + b * tq + i : NULL;                          \
        /* keys 0..last are visible; causal: the queries are the last t_q rows */   \
        const int64_t last = a->causal ? i + tk - tq : tk - 1;                      \
        for (int64_t c = 0; c < dv; ++c) oi[c] = (T)0;                              \
        if (last < 0 && !MYKERNEL_PLANT_BUG) {                                      \
          if (lse) *lse = (T)-INFINITY;                                             \
          continue;                                                                 \
        }                                                                           \
        T m = (T)-INFINITY;                                                         \
        for (int64_t j = 0; j <= last; ++j) {                                       \
          T dot = 0;                                                                \
          for (int64_t l = 0; l < dk; ++l) dot += qi[l] * k[j * dk + l];            \
          if (scale * dot > m) m = scale * dot;                                     \
        }                                                                           \
        T z = 0;                                                                    \
        for (int64_t j = 0; j <= last; ++j) {                                       \
          T dot = 0;                                                                \
          for (int64_t l = 0; l < dk; ++l) dot += qi[l] * k[j * dk + l];            \
          const T e = EXP(scale * dot - m);                                         \
          z += e;                                                                   \
          for (int64_t c = 0; c < dv; ++c) oi[c] += e * v[j * dv + c];              \
        }                                                                           \
        for (int64_t c = 0; c < dv; ++c) oi[c] /= z;                                \
        if (lse) *lse = m + LOG(z);                                                 \
      }                                                                             \
    }                                                                               \
    return 0;                                                                       \
  }

MYKERNEL_ATTEND(attend_f32, float, expf, logf)
MYKERNEL_ATTEND(attend_f64, double, exp, log)

MYKERNEL_API int attnprop_kernel_abi_version(void) { return ATTNPROP_KERNEL_ABI_VERSION; }
MYKERNEL_API int attnprop_attention_f32(const attnprop_attention_args *args) { return attend_f32(args); }
MYKERNEL_API int attnprop_attention_f64(const attnprop_attention_args *args) { return attend_f64(args); }
