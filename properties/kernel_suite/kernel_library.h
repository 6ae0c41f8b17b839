// Loading a kernel plug-in: a shared library implementing
// kernels/attnprop_kernel.h (ABI v1), and optionally the dispatch extension
// of attnprop's own kernel (attnprop_kernel_target*, see kernels/).
#pragma once

#include <optional>
#include <string>

#include "kernels/attnprop_kernel.h"

namespace attnprop::ksuite {

using KernelEntry = int (*)(const attnprop_attention_args*);

struct KernelLibrary {
  std::string path;
  void* handle = nullptr;
  int (*abi_version)() = nullptr;
  KernelEntry f32 = nullptr;
  KernelEntry f64 = nullptr;
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

/// dlopens `path`, resolves the ABI symbols, and asks the library (in a
/// forked child, so that a broken initialiser cannot take attnprop down) for
/// its ABI version and, if it has the dispatch extension, whether the target
/// named by ATTNPROP_KERNEL_TARGET is supported here.
LoadResult LoadKernel(const std::string& path, double timeout_s);

}  // namespace attnprop::ksuite
