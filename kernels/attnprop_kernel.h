/* attnprop kernel ABI, version 1.
 *
 * The C contract between attnprop and an attention kernel: attnprop's own
 * SIMD kernel implements it, and so does any user's kernel built as a shared
 * library that `attnprop check-kernel` loads. Compiles as C11 and C++.
 *
 * Each call computes, for every batch item b and query row i,
 *   s_ij  = scale * <q_i, k_j>                     for each visible key j,
 *   out_i = sum_j exp(s_ij - lse_i) v_j,
 *   lse_i = ln(sum over visible j of exp(s_ij)),
 * where key j is visible to query i always (causal = 0), or iff
 * j <= i + (t_k - t_q) (causal = 1: the queries are the last t_q positions).
 * A query row with no visible key gets out_i = 0 and lse_i = -inf.
 *
 * Return 0 on success. Invalid arguments (NULL q, k, v or out; a dimension
 * < 1; struct_size smaller than version 1's struct; a non-finite scale;
 * causal not 0 or 1) return nonzero and write nothing. Inputs are never
 * modified, and nothing outside out and lse is written.
 */
#ifndef ATTNPROP_KERNEL_H_
#define ATTNPROP_KERNEL_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ATTNPROP_KERNEL_ABI_VERSION 1

typedef struct attnprop_attention_args {
  size_t struct_size; /* sizeof(attnprop_attention_args) as the caller compiled it */
  int64_t batch;      /* >= 1 independent problems (batch x heads), back to back */
  int64_t t_q;        /* >= 1 query rows */
  int64_t t_k;        /* >= 1 key/value rows */
  int64_t d_k;        /* >= 1 query/key width */
  int64_t d_v;        /* >= 1 value width */
  double scale;       /* score s_ij = scale * <q_i, k_j>, finite */
  int32_t causal;     /* 0: all keys visible; 1: key j visible to query i iff j <= i + (t_k - t_q) */
  const void *q;      /* [batch][t_q][d_k] row-major, contiguous */
  const void *k;      /* [batch][t_k][d_k] */
  const void *v;      /* [batch][t_k][d_v] */
  void *out;          /* [batch][t_q][d_v] */
  void *lse;          /* optional [batch][t_q]: ln(sum over visible j of exp(s_ij)); NULL = not wanted */
} attnprop_attention_args;

/* Returns ATTNPROP_KERNEL_ABI_VERSION of the library. */
int attnprop_kernel_abi_version(void);
/* float q, k, v, out, lse */
int attnprop_attention_f32(const attnprop_attention_args *args);
/* double q, k, v, out, lse */
int attnprop_attention_f64(const attnprop_attention_args *args);

#ifdef __cplusplus
}
#endif

#endif /* ATTNPROP_KERNEL_H_ */
