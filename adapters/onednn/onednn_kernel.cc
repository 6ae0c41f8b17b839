// The kernel ABI (kernels/attnprop_kernel.h) over oneDNN's attention path
// (onednn_attention.cc): `attnprop check-kernel` loads this library like any
// user's kernel; what it finds is oneDNN's behaviour under that mapping
// (findings.tsv; docs/findings-pytorch-onednn.md).
//
//  * f32: oneDNN in f32.
//  * bf16 and f16: oneDNN in that format where this CPU has the instructions
//    oneDNN 2.6 needs for it (bf16: AVX-512, natively AVX512-BF16 or AMX; f16: AVX512-FP16).
//    Elsewhere attnprop_kernel_accumulation returns 0 for the format: "not
//    implemented here", and attnprop skips its properties with that reason.
//    Where it is implemented, the declared arithmetic is
//    ATTNPROP_FORMAT_MIXED: f32 scores, max and sums, the weights P rounded
//    once to the format before P V (onednn_attention.cc). With oneDNN's
//    AVX512-BF16 code, subnormal bf16 values are read as 0, which the
//    declaration does not allow: findings-bf16.tsv.
//  * f64: the ABI requires the entry point, and oneDNN 2.6 has no f64, so it
//    returns 2 (an error) for every valid call; the check-kernel test leaves
//    kernel-f64 out (CMakeLists.txt) and says why.
//  * threads: one OpenMP thread (set on every call, in the process making
//    it): attnprop runs each call in a child of a loader process, and one
//    thread keeps both the run's summation order fixed (abi.repeatable) and
//    ctest -j's two cores uncontended.
#include "adapters/onednn/onednn_attention.h"
#include "kernels/attnprop_kernel.h"

namespace {

int Call(const attnprop_attention_args* args, attnprop::onednn::Storage storage) {
  attnprop::onednn::SetThreads(1);
  return attnprop::onednn::Attend(args, storage);
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) int attnprop_kernel_abi_version(void) { return ATTNPROP_KERNEL_ABI_VERSION; }

__attribute__((visibility("default"))) int attnprop_attention_f32(const attnprop_attention_args* args) {
  return Call(args, attnprop::onednn::Storage::kF32);
}

__attribute__((visibility("default"))) int attnprop_attention_f64(const attnprop_attention_args* args) {
  (void)args;
  return 2;  // oneDNN 2.6 has no f64 data type
}

__attribute__((visibility("default"))) int attnprop_attention_bf16(const attnprop_attention_args* args) {
  return Call(args, attnprop::onednn::Storage::kBF16);
}

__attribute__((visibility("default"))) int attnprop_attention_f16(const attnprop_attention_args* args) {
  return Call(args, attnprop::onednn::Storage::kF16);
}

__attribute__((visibility("default"))) int attnprop_kernel_accumulation(int format) {
  if (format == ATTNPROP_FORMAT_BF16)
    return attnprop::onednn::Implements(attnprop::onednn::Storage::kBF16) ? ATTNPROP_FORMAT_MIXED : 0;
  if (format == ATTNPROP_FORMAT_F16)
    return attnprop::onednn::Implements(attnprop::onednn::Storage::kF16) ? ATTNPROP_FORMAT_MIXED : 0;
  return 0;
}

}  // extern "C"
