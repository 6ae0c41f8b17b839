// Attention with oneDNN 2.6 primitives, as a CPU inference stack composes
// them (issue 39):
//   S = scale * Q K^T (+ mask)   matmul: f32 accumulation, f32 dst; the scale
//                                as its output scale, the causal mask as a
//                                binary-add post-op;
//   P = softmax(S) along keys    softmax_v2 (accurate: max subtracted), P in
//                                the storage format;
//   O = P V                      matmul: f32 accumulation, O rounded once to
//                                the storage format.
// The ABI's conventions, and how each is mapped (nothing else is added):
//  * layout: q [batch][t_q][d_k], k [batch][t_k][d_k], v [batch][t_k][d_v],
//    row-major: oneDNN memory objects over the caller's buffers (batched
//    3-D matmuls; K^T is k read with format tag acb, no copy). q, k and v
//    are only read.
//  * the scale: oneDNN's output scale is a float, so the ABI's double scale
//    is rounded to float and multiplies the f32 dot product (one more
//    rounding). This is oneDNN's interface, kept as it is: the properties
//    judge it (attnprop's own kernel folds the scale into q instead).
//  * causal: key j visible to query i iff j <= i + (t_k - t_q). The mask is
//    a [batch][t_q][t_k] f32 tensor of 0 and -inf added by the post-op. (A
//    mask broadcast over the batch makes oneDNN 2.6 fall back to its
//    reference matmul, "ref:any"; a full one keeps "gemm:jit".)
//  * empty rows (causal, t_q > t_k: rows i < t_q - t_k see no key): the ABI
//    wants out_i = 0 and lse_i = -inf; oneDNN's softmax of a row of -inf is
//    NaN. The adapter writes 0 and -inf there (a convention difference,
//    mapped here).
//  * lse_i = ln(sum over visible j of exp(s_ij)): oneDNN's attention path
//    has no lse. When it is wanted, the adapter runs oneDNN's logsoftmax
//    (softmax_v2, softmax_log) on S and takes lse_i = s_ij - logsoftmax_ij at
//    the row's largest score (where logsoftmax is nearest 0, so the
//    subtraction, in float, loses least).
//  * bf16 and f16: q, k, v, out are the formats' bit patterns, which oneDNN
//    reads as they are. S, the softmax's max and sums are f32; P is rounded
//    once to the storage format (oneDNN's matmul takes src and weights in one
//    type) before P V, which accumulates in f32: the mixed accumulation of
//    the ABI, ATTNPROP_FORMAT_MIXED, is what the kernel declares
//    (onednn_kernel.cc).
//  * f64: oneDNN 2.6 has no f64 data type.
//  * errors: invalid arguments return 1 before oneDNN is called; a refusal
//    or exception of oneDNN returns 2. Every result is computed into buffers
//    of the adapter before the first byte of out or lse is written.
#include "adapters/onednn/onednn_attention.h"

#include <omp.h>

#include <oneapi/dnnl/dnnl.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "adapters/valid_args.h"

namespace attnprop::onednn {
namespace {

using dnnl::memory;
using Dt = memory::data_type;
using Tag = memory::format_tag;

Dt TypeOf(Storage s) {
  switch (s) {
    case Storage::kBF16: return Dt::bf16;
    case Storage::kF16: return Dt::f16;
    default: return Dt::f32;
  }
}

size_t BytesOf(Storage s) { return s == Storage::kF32 ? 4 : 2; }

dnnl::engine& Engine() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

/// The three primitives (and logsoftmax) for one shape, created through
/// oneDNN's primitive cache (a repeated shape is a cache hit).
struct Plan {
  memory::desc q, k, v, s, p, o;
  dnnl::matmul scores, weighted;
  dnnl::softmax_v2_forward softmax, log_softmax;

  Plan(memory::dim b, memory::dim tq, memory::dim tk, memory::dim dk, memory::dim dv, Storage storage, float scale,
       bool causal, bool want_lse) {
    const Dt t = TypeOf(storage);
    q = memory::desc({b, tq, dk}, t, Tag::abc);
    k = memory::desc({b, dk, tk}, t, Tag::acb);  // K^T over k's [t_k][d_k] rows
    v = memory::desc({b, tk, dv}, t, Tag::abc);
    s = memory::desc({b, tq, tk}, Dt::f32, Tag::abc);
    p = memory::desc({b, tq, tk}, t, Tag::abc);
    o = memory::desc({b, tq, dv}, t, Tag::abc);
    dnnl::primitive_attr attr;
    attr.set_output_scales(0, {scale});
    if (causal) {
      dnnl::post_ops ops;
      ops.append_binary(dnnl::algorithm::binary_add, s);
      attr.set_post_ops(ops);
    }
    dnnl::engine& e = Engine();
    scores = dnnl::matmul(dnnl::matmul::primitive_desc(dnnl::matmul::desc(q, k, s), attr, e));
    softmax = dnnl::softmax_v2_forward(dnnl::softmax_v2_forward::primitive_desc(
        dnnl::softmax_v2_forward::desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::softmax_accurate, s, p, 2),
        e));
    weighted = dnnl::matmul(dnnl::matmul::primitive_desc(dnnl::matmul::desc(p, v, o), e));
    if (want_lse)
      log_softmax = dnnl::softmax_v2_forward(dnnl::softmax_v2_forward::primitive_desc(
          dnnl::softmax_v2_forward::desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::softmax_log, s, s, 2),
          e));
  }
};

/// Scratch buffer `slot` of this thread, at least `bytes` long, kept for the
/// next call: oneDNN overwrites it whole, so it is neither zeroed nor
/// returned to the system between calls (a fresh 64 MiB buffer per call at
/// T = 4096 cost its page faults every time: the matmuls ran at a third of
/// their speed in the benchmark).
template <class T>
T* Scratch(int slot, size_t n) {
  thread_local std::unique_ptr<unsigned char[]> buffers[4];
  thread_local size_t sizes[4] = {0, 0, 0, 0};
  const size_t bytes = n * sizeof(T);
  if (sizes[slot] < bytes) {
    buffers[slot].reset();
    buffers[slot].reset(new unsigned char[bytes]);
    sizes[slot] = bytes;
  }
  return reinterpret_cast<T*>(buffers[slot].get());
}

/// The causal mask, [batch][t_q][t_k] of 0 (key j visible to query i: j <=
/// i + t_k - t_q) and -inf, built once per shape and kept for the next call
/// of the same shape (a stack precomputes its mask; the benchmark's repeated
/// calls find it here). One per thread.
const float* CausalMask(memory::dim b, memory::dim tq, memory::dim tk) {
  thread_local std::vector<float> mask;
  thread_local memory::dim shape[3] = {0, 0, 0};
  if (shape[0] != b || shape[1] != tq || shape[2] != tk) {
    mask.assign(static_cast<size_t>(b * tq * tk), 0.0f);
    for (memory::dim bi = 0; bi < b; ++bi)
      for (memory::dim i = 0; i < tq; ++i)
        for (memory::dim j = i + (tk - tq) + 1; j < tk; ++j)
          if (j >= 0) mask[static_cast<size_t>((bi * tq + i) * tk + j)] = -std::numeric_limits<float>::infinity();
    shape[0] = b, shape[1] = tq, shape[2] = tk;
  }
  return mask.data();
}

}  // namespace

int Attend(const attnprop_attention_args* a, Storage storage) {
  if (!attnprop::adapters::ValidArgs(a)) return 1;
  try {
    const memory::dim b = a->batch, tq = a->t_q, tk = a->t_k, dv = a->d_v;
    const bool causal = a->causal == 1;
    const Plan plan(b, tq, tk, a->d_k, dv, storage, static_cast<float>(a->scale), causal, a->lse != nullptr);
    dnnl::engine& e = Engine();
    dnnl::stream stream(e);
    const size_t rows = static_cast<size_t>(b * tq), scores = rows * static_cast<size_t>(tk);
    float* const s = Scratch<float>(0, scores);
    float* const ls = a->lse ? Scratch<float>(1, scores) : nullptr;
    unsigned char* const p = Scratch<unsigned char>(2, scores * BytesOf(storage));
    unsigned char* const o = Scratch<unsigned char>(3, rows * static_cast<size_t>(dv) * BytesOf(storage));
    const float* mask = causal ? CausalMask(b, tq, tk) : nullptr;

    // oneDNN's memory objects take void*; q, k and v are only read.
    memory q_mem(plan.q, e, const_cast<void*>(a->q)), k_mem(plan.k, e, const_cast<void*>(a->k)),
        v_mem(plan.v, e, const_cast<void*>(a->v)), s_mem(plan.s, e, s), p_mem(plan.p, e, p),
        o_mem(plan.o, e, o);
    if (causal) {
      memory mask_mem(plan.s, e, const_cast<float*>(mask));
      plan.scores.execute(stream, {{DNNL_ARG_SRC, q_mem}, {DNNL_ARG_WEIGHTS, k_mem}, {DNNL_ARG_DST, s_mem},
                                   {DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, mask_mem}});
    } else {
      plan.scores.execute(stream, {{DNNL_ARG_SRC, q_mem}, {DNNL_ARG_WEIGHTS, k_mem}, {DNNL_ARG_DST, s_mem}});
    }
    plan.softmax.execute(stream, {{DNNL_ARG_SRC, s_mem}, {DNNL_ARG_DST, p_mem}});
    plan.weighted.execute(stream, {{DNNL_ARG_SRC, p_mem}, {DNNL_ARG_WEIGHTS, v_mem}, {DNNL_ARG_DST, o_mem}});
    if (a->lse) {
      memory ls_mem(plan.s, e, ls);
      plan.log_softmax.execute(stream, {{DNNL_ARG_SRC, s_mem}, {DNNL_ARG_DST, ls_mem}});
    }
    stream.wait();

    // lse_i = s_ij - logsoftmax_ij at the row's largest score; -inf for a row
    // with no visible key.
    std::vector<float> lse(a->lse ? rows : 0);
    for (size_t r = 0; r < lse.size(); ++r) {
      const float* row = s + r * static_cast<size_t>(tk);
      size_t best = 0;
      for (size_t j = 1; j < static_cast<size_t>(tk); ++j)
        if (row[j] > row[best]) best = j;
      lse[r] = row[best] == -std::numeric_limits<float>::infinity()
                   ? row[best]
                   : row[best] - ls[r * static_cast<size_t>(tk) + best];
    }
    // Everything is computed: now, and only now, out and lse are written.
    const memory::dim empty_rows = causal && tq > tk ? tq - tk : 0;
    const size_t row_bytes = static_cast<size_t>(dv) * BytesOf(storage);
    auto* out = static_cast<unsigned char*>(a->out);
    for (size_t r = 0; r < rows; ++r) {
      const bool empty = static_cast<memory::dim>(r % static_cast<size_t>(tq)) < empty_rows;
      if (empty) std::memset(out + r * row_bytes, 0, row_bytes);  // oneDNN: NaN; the ABI: 0
      else std::memcpy(out + r * row_bytes, o + r * row_bytes, row_bytes);
    }
    if (a->lse) std::memcpy(a->lse, lse.data(), rows * sizeof(float));
    return 0;
  } catch (...) {
    return 2;
  }
}

bool Implements(Storage storage) {
  static std::once_flag once;
  static bool implemented[3] = {false, false, false};
  std::call_once(once, [] {
    for (Storage st : {Storage::kF32, Storage::kBF16, Storage::kF16}) {
      try {
        const Plan plan(1, 2, 2, 2, 2, st, 1.0f, true, true);
        implemented[static_cast<int>(st)] = true;
      } catch (...) {
        implemented[static_cast<int>(st)] = false;
      }
    }
  });
  return implemented[static_cast<int>(storage)];
}

const char* Describe() {
  static std::once_flag once;
  static char text[96];
  std::call_once(once, [] {
    const dnnl::version_t* v = dnnl::version();
    const char* isa = "older than avx2";
    switch (dnnl::get_effective_cpu_isa()) {
      case dnnl::cpu_isa::avx2: isa = "avx2"; break;
      case dnnl::cpu_isa::avx2_vnni: isa = "avx2_vnni"; break;
      case dnnl::cpu_isa::avx512_core: isa = "avx512_core"; break;
      case dnnl::cpu_isa::avx512_core_vnni: isa = "avx512_core_vnni"; break;
      case dnnl::cpu_isa::avx512_core_bf16: isa = "avx512_core_bf16"; break;
      case dnnl::cpu_isa::avx512_core_amx: isa = "avx512_core_amx"; break;
      default: break;
    }
    std::snprintf(text, sizeof text, "oneDNN %d.%d.%d, %s", v->major, v->minor, v->patch, isa);
  });
  return text;
}

void SetThreads(int threads) { omp_set_num_threads(threads); }

}  // namespace attnprop::onednn
