// Attention as oneDNN computes it (Debian's libdnnl-dev 2.6.3): three
// primitives, the way a CPU inference stack composes them (onednn_attention.cc
// says how each ABI convention is mapped). Used by the kernel plug-in
// (onednn_kernel.cc, checked by `attnprop check-kernel`) and by the kernel
// benchmark (kernels/bench, its oneDNN column), so the code that is checked
// is the code that is timed.
#pragma once

#include "kernels/attnprop_kernel.h"

namespace attnprop::onednn {

/// The storage formats oneDNN can be asked for (it has no f64 at all in 2.6).
enum class Storage { kF32, kBF16, kF16 };

/// Computes one ABI call in `storage` (q, k, v, out in that format; lse in
/// float). Returns the ABI's status: 0, 1 for invalid arguments (nothing
/// written), 2 when oneDNN refuses or throws (nothing written).
int Attend(const attnprop_attention_args* args, Storage storage);

/// Whether oneDNN implements every primitive of Attend for `storage` on this
/// CPU (bf16 needs AVX-512, natively AVX512-BF16 or AMX; f16 needs AVX512-FP16), checked once
/// by creating them for a small shape.
bool Implements(Storage storage);

/// oneDNN's version and the instruction set it dispatches to here
/// ("oneDNN 2.6.3, avx2"), for reports.
const char* Describe();

/// Sets the OpenMP threads oneDNN runs on (Debian's build uses OpenMP).
void SetThreads(int threads);

}  // namespace attnprop::onednn
