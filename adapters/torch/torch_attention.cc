// The kernel ABI (kernels/attnprop_kernel.h) over PyTorch's CPU attention:
// Debian's libtorch-dev 1.13, whose attention operator is
//   at::_scaled_dot_product_attention(query, key, value, attn_mask, dropout_p,
//                                     need_attn_weights, is_causal)
// (1.13 has no public at::scaled_dot_product_attention and no `scale`
// argument; it scales the scores by 1/sqrt(E), E = query.size(-1)).
// `attnprop check-kernel` loads this library like any user's kernel; what it
// finds is torch's behaviour under the mapping below (findings.tsv;
// docs/findings-pytorch-onednn.md).
//
// How each convention of the ABI is mapped (nothing else is added):
//  * layout: q [batch][t_q][d_k], k [batch][t_k][d_k], v [batch][t_k][d_v],
//    out [batch][t_q][d_v], row-major and contiguous: wrapped in place with
//    at::from_blob as tensors of those shapes (batch = torch's batch dim; no
//    copy of k or v, nothing written through them).
//  * the scale c (any finite double, also 0 or negative): torch has no scale
//    argument and multiplies q by 1/sqrt(E) itself. The adapter pads q and k
//    with zero columns up to E = the next power of 4 >= d_k (the zeros add
//    exact zeros to every dot product), so that 1/sqrt(E) = 2^-m is exact,
//    and hands torch q' = round(q * c * 2^m), computed in double and rounded
//    once to the storage type. Torch's q' * 2^-m is then exact (unless it
//    falls into the subnormals), and the only rounding the scale adds is the
//    one rounding of the scale folded into q that the ABI allows a kernel
//    (attnprop's own kernel folds it the same way). Without the padding the
//    adapter would add two roundings of its own (c sqrt(E), then torch's
//    1/sqrt(E)) and a finding could be the adapter's.
//  * causal = 1: key j visible to query i iff j <= i + (t_k - t_q)
//    (bottom-right: the queries are the last t_q positions). Torch's
//    is_causal=true is top-left (its mask is ones(t_q, t_k).tril(), j <= i:
//    checked on 1.13.1), the same only when t_q == t_k. So: t_q == t_k uses
//    torch's own is_causal path; t_q != t_k passes an explicit boolean mask
//    ones(t_q, t_k).tril(t_k - t_q) (true = visible), never is_causal.
//  * empty rows (causal, t_q > t_k: rows i < t_q - t_k see no key): the ABI
//    requires out_i = 0 and lse_i = -inf. Torch 1.13 returns NaN there (the
//    softmax of a row of -inf); the adapter writes 0 into those rows of out,
//    and its lse gives -inf there (below). This is a convention difference,
//    mapped here and listed in docs/findings-pytorch-onednn.md.
//  * lse_i = ln(sum over visible j of exp(s_ij)): torch 1.13's attention
//    returns no lse (need_attn_weights returns the weights, whose row sums
//    are 1 and carry no normaliser). When lse is wanted the adapter computes
//    it with torch's own ops from the same operands: s = (q' k^T) * 2^-m
//    (at::matmul in the accumulation type, f32 for f32, f64 for f64),
//    invisible entries set to -inf, then at::logsumexp over the keys (which
//    gives -inf for a row with no visible key). So the lse properties check
//    at::matmul + at::logsumexp, not the attention operator.
//  * invalid arguments (NULL q, k, v or out; a dimension < 1; struct_size
//    smaller than version 1's struct; a non-finite scale; causal not 0 or 1)
//    return 1 before anything is touched; torch never sees them.
//  * a C++ exception from torch (an allocation failure, a shape it refuses)
//    never crosses the C boundary: the call returns 2 and, since every
//    result is computed before the first byte of out or lse is written,
//    writes nothing.
//  * threads: at::set_num_threads(1) on the first call. attnprop runs each
//    kernel call in a forked child and, while a kernel leaves threads running
//    after a call, compares out and lse again 20 ms later (a thread writing
//    after the return fails the case); torch's OpenMP pool would both cost
//    that on every call and make the run compete with ctest -j for the two
//    cores. One thread also fixes the summation order, so the same call gives
//    the same bits (abi.repeatable). Torch's results do not depend on the
//    thread count for these reductions in 1.13, so this hides no behaviour
//    of a multi-threaded torch that the properties could see. (OpenBLAS,
//    libtorch's BLAS on Debian, starts its own workers when it is loaded,
//    before any code of the adapter runs: nproc - 1, seen as 1 extra thread
//    on 2 cores, and no further thread after a call. They are idle once a
//    call returns, so the recheck passes.)
#include <ATen/Parallel.h>
#include <ATen/TensorOperators.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/_scaled_dot_product_attention.h>
#include <ATen/ops/constant_pad_nd.h>
#include <ATen/ops/from_blob.h>
#include <ATen/ops/logsumexp.h>
#include <ATen/ops/matmul.h>
#include <ATen/ops/ones.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <mutex>
#include <optional>

#include "adapters/valid_args.h"
#include "kernels/attnprop_kernel.h"

namespace {

// The storage type of q, k, v and out, and the type the adapter's lse
// scores are accumulated and lse is stored in.
struct Types {
  at::ScalarType storage;
  at::ScalarType lse;
};

// The width torch scales by: the smallest power of 4 >= d_k, so that
// 1/sqrt(E) is the power of two 2^-m; returns E and sets m.
int64_t PaddedWidth(int64_t d_k, int* m) {
  int64_t e = 1;
  *m = 0;
  while (e < d_k) e *= 4, ++*m;
  return e;
}

void SetUpOnce() {
  static std::once_flag once;
  std::call_once(once, [] { at::set_num_threads(1); });
}

int Attend(const attnprop_attention_args* a, Types types) {
  if (!attnprop::adapters::ValidArgs(a)) return 1;
  SetUpOnce();
  try {
    const int64_t bn = a->batch, tq = a->t_q, tk = a->t_k, dk = a->d_k, dv = a->d_v;
    const auto in = at::TensorOptions().dtype(types.storage);
    // from_blob wants non-const pointers; the tensors over q, k and v are only read.
    const at::Tensor q = at::from_blob(const_cast<void*>(a->q), {bn, tq, dk}, in);
    at::Tensor k = at::from_blob(const_cast<void*>(a->k), {bn, tk, dk}, in);
    const at::Tensor v = at::from_blob(const_cast<void*>(a->v), {bn, tk, dv}, in);

    int m = 0;
    const int64_t e = PaddedWidth(dk, &m);
    const double two_m = std::ldexp(1.0, m);
    // q' = round(q * c * 2^m): the product in double (exact for f32 and
    // bf16 entries times a double c up to one rounding, then one rounding
    // to the storage type; for f64 one rounding), padded with zero columns.
    at::Tensor qs = (q.to(at::kDouble) * (a->scale * two_m)).to(types.storage);
    if (e > dk) {
      qs = at::constant_pad_nd(qs, {0, e - dk});
      k = at::constant_pad_nd(k, {0, e - dk});
    }

    std::optional<at::Tensor> visible;  // [t_q][t_k], true = key visible (causal, t_q != t_k)
    if (a->causal && tq != tk) visible = at::ones({tq, tk}, at::TensorOptions().dtype(at::kBool)).tril(tk - tq);
    const bool torch_causal = a->causal && tq == tk;

    at::Tensor out = std::get<0>(at::_scaled_dot_product_attention(
        qs, k, v, visible ? c10::optional<at::Tensor>(*visible) : c10::nullopt, 0.0, false, torch_causal));
    const int64_t empty_rows = a->causal && tq > tk ? tq - tk : 0;
    if (empty_rows > 0) out.narrow(1, 0, empty_rows).zero_();  // torch: NaN; the ABI: 0

    at::Tensor lse;
    if (a->lse) {
      at::Tensor s = at::matmul(qs.to(types.lse), k.to(types.lse).transpose(-2, -1)) * std::ldexp(1.0, -m);
      if (a->causal) {
        const at::Tensor vis =
            visible ? *visible : at::ones({tq, tk}, at::TensorOptions().dtype(at::kBool)).tril(tk - tq);
        s = s.masked_fill(vis.logical_not(), -std::numeric_limits<double>::infinity());
      }
      lse = at::logsumexp(s, {-1}, false);
    }
    // Everything is computed: now, and only now, out and lse are written.
    at::from_blob(a->out, {bn, tq, dv}, in).copy_(out);
    if (a->lse) at::from_blob(a->lse, {bn, tq}, at::TensorOptions().dtype(types.lse)).copy_(lse);
    return 0;
  } catch (...) {
    return 2;
  }
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) int attnprop_kernel_abi_version(void) { return ATTNPROP_KERNEL_ABI_VERSION; }

__attribute__((visibility("default"))) int attnprop_attention_f32(const attnprop_attention_args* args) {
  return Attend(args, {at::kFloat, at::kFloat});
}

__attribute__((visibility("default"))) int attnprop_attention_f64(const attnprop_attention_args* args) {
  return Attend(args, {at::kDouble, at::kDouble});
}

#if ATTNPROP_KERNEL_ABI_VERSION >= 2
// Version 2: bf16 q, k, v, out (c10::BFloat16 is the same bit pattern, the
// upper half of a binary32), lse in f32. The operator runs on kBFloat16
// tensors, as a bf16 model calls it. Torch 1.13's CPU attention keeps its
// intermediates in the input dtype: the scores q' k^T and the weights P are
// bf16 tensors (_scaled_dot_product_attention_math: matmul, softmax, matmul,
// each result a bf16 tensor), so the declared accumulation is bf16, not f32.
// The scale folded into q' is a bf16 rounding too (torch's own 1/sqrt(E) is
// one as well, for an E not a power of 4). No f16 entry point: torch 1.13 on
// CPU refuses half (bmm: not implemented for 'Half'; checked on 1.13.1).
__attribute__((visibility("default"))) int attnprop_attention_bf16(const attnprop_attention_args* args) {
  return Attend(args, {at::kBFloat16, at::kFloat});
}

// ATTNPROP_TORCH_DECLARE_F32 (the attnprop_torch_declared_f32 build): the
// same computation declared as f32 accumulation, what a bf16 kernel with
// float accumulators (P kept in float) would declare; its verdicts are
// findings_declared_f32.tsv: how far torch's bf16 path is from such a kernel.
#ifndef ATTNPROP_TORCH_DECLARE_F32
#define ATTNPROP_TORCH_DECLARE_F32 0
#endif
__attribute__((visibility("default"))) int attnprop_kernel_accumulation(int format) {
  if (format != ATTNPROP_FORMAT_BF16) return 0;
  return ATTNPROP_TORCH_DECLARE_F32 ? ATTNPROP_FORMAT_F32 : ATTNPROP_FORMAT_BF16;
}
#endif

}  // extern "C"
