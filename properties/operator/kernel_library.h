// Loading a kernel plug-in: a shared library implementing
// kernels/attnprop_kernel.h (ABI v1 or v2: v2's half-precision entry points
// and attnprop_kernel_accumulation are optional), and optionally the
// dispatch extension of attnprop's own kernel (attnprop_kernel_target*, see
// kernels/).
#pragma once

#include <optional>
#include <string>

#include "kernels/attnprop_kernel.h"

namespace attnprop::ksuite {

using KernelEntry = int (*)(const attnprop_attention_args*);

/// A kernel: attnprop's own (linked in: the entry points are set), or a
/// plug-in (`plugin`: only the path is known here). A plug-in is never loaded
/// into attnprop's process: every sandbox child that calls it dlopens it
/// itself (OpenInChild), so its constructors, destructors and calls run
/// only there.
struct KernelLibrary {
  std::string path;
  bool plugin = false;
  int (*abi_version)() = nullptr;
  KernelEntry f32 = nullptr;
  KernelEntry f64 = nullptr;
  // Optional (ABI v2): bf16 / f16 storage. In the parent, a plug-in's are
  // not resolved (it is not loaded there): has_* and the declared
  // accumulation (an ATTNPROP_FORMAT_*, from the load probe) say what it has.
  KernelEntry bf16 = nullptr;
  KernelEntry f16 = nullptr;
  bool has_bf16 = false, has_f16 = false;
  // The entry point is there, but attnprop_kernel_accumulation returned 0 for
  // its format: not implemented (on this machine); has_* is then false.
  bool declines_bf16 = false, declines_f16 = false;
  int accumulation_bf16 = ATTNPROP_FORMAT_F32, accumulation_f16 = ATTNPROP_FORMAT_F32;
  // Optional (attnprop's own kernel): the dispatch target.
  int (*target_supported)(const char*) = nullptr;
  const char* (*target)() = nullptr;
};

enum class LoadStatus { kOk, kMissingFile, kNotALibrary, kMissingSymbols, kWrongVersion, kProbeFailed };

struct LoadResult {
  LoadStatus status = LoadStatus::kOk;
  std::string error;  // one clear line when status != kOk
  std::optional<KernelLibrary> library;
  int abi_version = 0;
  std::string target;             // the kernel's active target, when it says
  std::string requested_target;   // ATTNPROP_KERNEL_TARGET, if set
  bool requested_supported = true;  // false: the CPU lacks the requested target
};

/// Checks `path` in a sandbox child (RunInChild, timeout_s): the child
/// dlopens it, resolves the ABI symbols, asks its ABI version (1 or 2), which
/// half-precision entry points it has and the accumulation it declares for
/// each (attnprop_kernel_accumulation; absent: f32; a declared value that is
/// not an ATTNPROP_FORMAT_* is a load error) and, if it has
/// the dispatch extension, whether the target named by
/// ATTNPROP_KERNEL_TARGET is supported here. A constructor that exits,
/// crashes or hangs is a load error (kProbeFailed), never attnprop's own.
/// The returned library is a plug-in: nothing of it is loaded here.
LoadResult LoadKernel(const std::string& path, double timeout_s);

/// In a sandbox child only: the library with its entry points resolved (a
/// plug-in is dlopened now; a linked-in kernel is returned as it is).
/// Throws std::runtime_error when the library cannot be opened.
KernelLibrary OpenInChild(const KernelLibrary& lib);

}  // namespace attnprop::ksuite
