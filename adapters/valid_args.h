// The ABI's argument checks (kernels/attnprop_kernel.h: invalid arguments
// return nonzero and write nothing), for the adapters over other libraries
// (adapters/torch, adapters/onednn), which know nothing of the ABI's struct:
// checked before the library is called.
#pragma once

#include <cmath>

#include "kernels/attnprop_kernel.h"

namespace attnprop::adapters {

inline bool ValidArgs(const attnprop_attention_args* a) {
  if (!a || !a->q || !a->k || !a->v || !a->out) return false;
  if (a->struct_size < sizeof(attnprop_attention_args)) return false;
  if (a->batch < 1 || a->t_q < 1 || a->t_k < 1 || a->d_k < 1 || a->d_v < 1) return false;
  if (!std::isfinite(a->scale)) return false;
  return a->causal == 0 || a->causal == 1;
}

}  // namespace attnprop::adapters
