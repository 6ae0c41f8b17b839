/* attnprop kernel ABI, version 2 (a superset of version 1).
 *
 * The C contract between attnprop and an attention kernel: attnprop's own
 * SIMD kernel implements it, and so does any user's kernel built as a shared
 * library that `attnprop check-kernel` loads. Compiles as C11 and C++.
 *
 * Each call computes, for every batch item b and query row i,
 *   s_ij  = scale * <q_i, k_j>                     for each visible key j,
 *   out_i = sum_j exp(s_ij - lse_i) v_j,            [abi:out]
 *   lse_i = ln(sum over visible j of exp(s_ij)),    [abi:lse]
 * where key j is visible to query i always (causal = 0), or iff
 * j <= i + (t_k - t_q) (causal = 1: the queries are the last t_q positions).
 * [abi:causal] A query row with no visible key gets out_i = 0 and lse_i =
 * -inf. [abi:empty_rows] q, k and v hold any finite values of their type,
 * subnormals included, and the formulas hold for them as for any other (a
 * kernel that flushes subnormals to 0, as the FTZ and DAZ modes that
 * -ffast-math sets do, breaks them). [abi:values]
 *
 * Return 0 on success. [abi:success] Invalid arguments (NULL q, k, v or out;
 * a dimension < 1; struct_size smaller than version 1's struct; a non-finite
 * scale; causal not 0 or 1) return nonzero and write nothing.
 * [abi:invalid] Inputs are never modified, [abi:inputs_unchanged] and
 * nothing outside out and lse is written. [abi:no_writes_outside]
 *
 * Version 2 adds optional half-precision entry points, looked up by name
 * (dlsym): a kernel may export attnprop_attention_bf16, attnprop_attention_f16,
 * both or neither, and attnprop_kernel_accumulation. A version 1 kernel (which
 * exports none of them and returns 1 from attnprop_kernel_abi_version) keeps
 * working unchanged; attnprop accepts versions 1 and 2. [abi:version] Conventions of the
 * half-precision calls (the same arguments struct, the same contract as
 * above, applied to the exact values the bit patterns stand for):
 *  - q, k, v and out are uint16_t bit patterns of the storage format:
 *    bf16 = bfloat16, the upper 16 bits of an IEEE binary32 (1 sign,
 *    8 exponent, 7 fraction bits; unit roundoff 2^-8); f16 = IEEE binary16
 *    (1 sign, 5 exponent, 10 fraction bits; unit roundoff 2^-11). Subnormal
 *    inputs are values like any other (not flushed by the caller); inputs are
 *    finite. [abi:half_formats]
 *  - lse is float (IEEE binary32), never half: ln of the row's sum is wanted
 *    to more than 8 or 11 bits. An empty row: out_i = 0 (the format's zero), lse_i
 *    = -inf. [abi:half_lse]
 *  - The kernel may compute in any precision, and declares the one it uses:
 *    attnprop_kernel_accumulation(format) returns the ATTNPROP_FORMAT_* of its
 *    arithmetic (scores, softmax, sums) for storage format `format`
 *    (ATTNPROP_FORMAT_BF16 or ATTNPROP_FORMAT_F16), or 0 for a format it does
 *    not implement. Absent, the accumulation is ATTNPROP_FORMAT_F32 for both
 *    (the common case: convert to float, compute, round out once).
 *    [abi:accumulation]
 *    ATTNPROP_FORMAT_MIXED: f32 arithmetic except that each weight P_ij is
 *    rounded once, to nearest, to the storage format before it multiplies V
 *    (the row sums may use either P); nothing else is rounded to the format.
 *    [abi:mixed]
 *  - out is rounded once, to nearest (ties to even), from the accumulation
 *    format to the storage format. attnprop's bound allows exactly that much
 *    beyond the declared accumulation's error (properties/operator/
 *    accuracy.h): a kernel that rounds intermediate results (the weights P,
 *    partial sums) to the storage format must declare that format.
 *    [abi:half_rounding]
 *
 * Every [abi:...] clause is checked by the properties docs/kernels.md's
 * traceability table names (kernels/abi_trace_test.sh keeps it complete).
 */
#ifndef ATTNPROP_KERNEL_H_
#define ATTNPROP_KERNEL_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ATTNPROP_KERNEL_ABI_VERSION 2
/* The oldest version attnprop still loads (a v1 kernel has f32 and f64 only). */
#define ATTNPROP_KERNEL_ABI_VERSION_MIN 1

/* Number formats, for attnprop_kernel_accumulation (version 2). */
#define ATTNPROP_FORMAT_F32 1  /* IEEE binary32, 24-bit significand */
#define ATTNPROP_FORMAT_F64 2  /* IEEE binary64, 53-bit significand */
#define ATTNPROP_FORMAT_BF16 3 /* bfloat16, 8-bit significand */
#define ATTNPROP_FORMAT_F16 4  /* IEEE binary16, 11-bit significand */
/* f32 scores, max and sums, with the weights P rounded once to the storage
 * format before P V (FlashAttention-style half kernels, tensor-core and AMX
 * paths); for attnprop_kernel_accumulation only. */
#define ATTNPROP_FORMAT_MIXED 5

typedef struct attnprop_attention_args {
  size_t struct_size; /* sizeof(attnprop_attention_args) as the caller compiled it [abi:struct_size] */
  int64_t batch;      /* >= 1 independent problems (batch x heads), back to back [abi:batch] */
  int64_t t_q;        /* >= 1 query rows [abi:lengths] */
  int64_t t_k;        /* >= 1 key/value rows */
  int64_t d_k;        /* >= 1 query/key width [abi:widths] */
  int64_t d_v;        /* >= 1 value width */
  double scale;       /* score s_ij = scale * <q_i, k_j>, finite [abi:scale] */
  int32_t causal;     /* 0: all keys visible; 1: key j visible to query i iff j <= i + (t_k - t_q) */
  const void *q;      /* [batch][t_q][d_k] row-major, contiguous [abi:layout] */
  const void *k;      /* [batch][t_k][d_k] */
  const void *v;      /* [batch][t_k][d_v] */
  void *out;          /* [batch][t_q][d_v] */
  void *lse;          /* optional [batch][t_q]: ln(sum over visible j of exp(s_ij)); NULL = not wanted [abi:lse_optional] */
} attnprop_attention_args;

/* Returns ATTNPROP_KERNEL_ABI_VERSION of the library. */
int attnprop_kernel_abi_version(void);
/* float q, k, v, out, lse */
int attnprop_attention_f32(const attnprop_attention_args *args);
/* double q, k, v, out, lse (computed in double [abi:f64]) */
int attnprop_attention_f64(const attnprop_attention_args *args);

/* Version 2, optional (see above): uint16_t q, k, v, out in bfloat16 / IEEE
 * binary16 bit patterns; float lse. */
int attnprop_attention_bf16(const attnprop_attention_args *args);
int attnprop_attention_f16(const attnprop_attention_args *args);
/* Version 2, optional: the ATTNPROP_FORMAT_* the kernel computes in for
 * storage format ATTNPROP_FORMAT_BF16 or ATTNPROP_FORMAT_F16 (0: not
 * implemented). Absent: ATTNPROP_FORMAT_F32. */
int attnprop_kernel_accumulation(int format);

#ifdef __cplusplus
}
#endif

#endif /* ATTNPROP_KERNEL_H_ */
