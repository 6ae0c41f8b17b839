#include "properties/operator/kernel_library.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <tuple>

#include "properties/operator/sandbox.h"

namespace attnprop::ksuite {
namespace {

// A bare name would be searched on the library path: insist on a path.
std::string OpenPath(const std::string& path) { return path.find('/') == std::string::npos ? "./" + path : path; }

// What the probe child reports (shared memory).
struct Probe {
  int opened;  // 0: dlopen failed (error holds dlerror)
  int version;
  int has_bf16, has_f16;
  int accumulation_bf16, accumulation_f16;  // ATTNPROP_FORMAT_* declared (or F32 by default)
  int supported;
  char target[64];
  char error[768];
  char missing[256];
};

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g s", s);
  return buf;
}

void Copy(char* dst, size_t n, const char* src) {
  std::strncpy(dst, src ? src : "", n - 1);
  dst[n - 1] = 0;
}

}  // namespace

KernelLibrary OpenInChild(const KernelLibrary& lib) {
  if (!lib.plugin) return lib;
  void* h = dlopen(OpenPath(lib.path).c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* e = dlerror();
    throw std::runtime_error("cannot load " + lib.path + ": " + (e ? e : "unknown dlopen error"));
  }
  KernelLibrary out = lib;
  out.abi_version = reinterpret_cast<int (*)()>(dlsym(h, "attnprop_kernel_abi_version"));
  out.f32 = reinterpret_cast<KernelEntry>(dlsym(h, "attnprop_attention_f32"));
  out.f64 = reinterpret_cast<KernelEntry>(dlsym(h, "attnprop_attention_f64"));
  out.bf16 = reinterpret_cast<KernelEntry>(dlsym(h, "attnprop_attention_bf16"));
  out.f16 = reinterpret_cast<KernelEntry>(dlsym(h, "attnprop_attention_f16"));
  out.target_supported = reinterpret_cast<int (*)(const char*)>(dlsym(h, "attnprop_kernel_target_supported"));
  out.target = reinterpret_cast<const char* (*)()>(dlsym(h, "attnprop_kernel_target"));
  return out;
}

LoadResult LoadKernel(const std::string& path, double timeout_s) {
  LoadResult r;
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    r.status = LoadStatus::kMissingFile;
    r.error = "no such file: " + path;
    return r;
  }
  if (!S_ISREG(st.st_mode)) {
    r.status = LoadStatus::kNotALibrary;
    r.error = "cannot load " + path + " as a shared library: not a regular file";
    return r;
  }
  const char* env = std::getenv("ATTNPROP_KERNEL_TARGET");
  r.requested_target = env ? env : "";

  SharedBlock block(sizeof(Probe));
  auto* probe = static_cast<Probe*>(block.data());
  const std::string open_path = OpenPath(path);
  const ChildOutcome o = RunInChild(
      [&] {
        void* h = dlopen(open_path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!h) {
          Copy(probe->error, sizeof probe->error, dlerror());
          return;
        }
        probe->opened = 1;
        std::string missing;
        for (const char* name : {"attnprop_kernel_abi_version", "attnprop_attention_f32", "attnprop_attention_f64"})
          if (!dlsym(h, name)) missing += std::string(missing.empty() ? "" : ", ") + name;
        Copy(probe->missing, sizeof probe->missing, missing.c_str());
        if (!missing.empty()) return;
        KernelLibrary lib;
        lib.path = path;
        lib.plugin = true;
        lib = OpenInChild(lib);
        probe->version = lib.abi_version();
        probe->has_bf16 = lib.bf16 != nullptr;
        probe->has_f16 = lib.f16 != nullptr;
        probe->accumulation_bf16 = probe->accumulation_f16 = ATTNPROP_FORMAT_F32;
        if (const auto acc = reinterpret_cast<int (*)(int)>(dlsym(h, "attnprop_kernel_accumulation"))) {
          if (lib.bf16) probe->accumulation_bf16 = acc(ATTNPROP_FORMAT_BF16);
          if (lib.f16) probe->accumulation_f16 = acc(ATTNPROP_FORMAT_F16);
        }
        probe->supported = -1;
        if (lib.target_supported && !r.requested_target.empty())
          probe->supported = lib.target_supported(r.requested_target.c_str());
        if (lib.target) Copy(probe->target, sizeof probe->target, lib.target());
      },
      timeout_s);
  if (o.kind != ChildOutcome::Kind::kFinished || o.left_processes) {
    r.status = LoadStatus::kProbeFailed;
    r.error = "loading " + path + " (its initialisers, then asking its ABI version) failed: " +
              (o.kind == ChildOutcome::Kind::kTimeout
                   ? "timed out after " + Seconds(timeout_s) + " (killed)"
                   : o.kind == ChildOutcome::Kind::kFinished ? std::string("it left processes running (killed)")
                                                             : o.Describe());
    return r;
  }
  if (!probe->opened) {
    r.status = LoadStatus::kNotALibrary;
    r.error = "cannot load " + path + " as a shared library: " +
              (probe->error[0] ? std::string(probe->error) : std::string("unknown dlopen error"));
    return r;
  }
  if (probe->missing[0]) {
    r.status = LoadStatus::kMissingSymbols;
    r.error = path + " does not implement the attnprop kernel ABI: missing symbol(s) " + probe->missing +
              " (see kernels/attnprop_kernel.h; C++ code needs extern \"C\")";
    return r;
  }
  r.abi_version = probe->version;
  r.target = probe->target;
  r.requested_supported = probe->supported != 0;
  if (probe->version < ATTNPROP_KERNEL_ABI_VERSION_MIN || probe->version > ATTNPROP_KERNEL_ABI_VERSION) {
    r.status = LoadStatus::kWrongVersion;
    r.error = path + " implements kernel ABI version " + std::to_string(probe->version) + ", attnprop expects " +
              std::to_string(ATTNPROP_KERNEL_ABI_VERSION_MIN) + " to " + std::to_string(ATTNPROP_KERNEL_ABI_VERSION);
    return r;
  }
  // 0: the kernel has the entry point but does not implement the format
  // (here: a library that needs instructions this CPU lacks); its properties
  // are skipped with that reason.
  const bool declines_bf16 = probe->has_bf16 && probe->accumulation_bf16 == 0;
  const bool declines_f16 = probe->has_f16 && probe->accumulation_f16 == 0;
  for (const auto& [has, acc, name] : {std::tuple{probe->has_bf16 && !declines_bf16, probe->accumulation_bf16, "BF16"},
                                       std::tuple{probe->has_f16 && !declines_f16, probe->accumulation_f16, "F16"}})
    if (has && (acc < ATTNPROP_FORMAT_F32 || acc > ATTNPROP_FORMAT_MIXED)) {
      r.status = LoadStatus::kProbeFailed;
      r.error = path + ": attnprop_kernel_accumulation(ATTNPROP_FORMAT_" + std::string(name) +
                ") returned " + std::to_string(acc) + ", not an ATTNPROP_FORMAT_* (kernels/attnprop_kernel.h)";
      return r;
    }
  KernelLibrary lib;
  lib.path = path;
  lib.plugin = true;
  lib.has_bf16 = probe->has_bf16 && !declines_bf16;
  lib.has_f16 = probe->has_f16 && !declines_f16;
  lib.declines_bf16 = declines_bf16;
  lib.declines_f16 = declines_f16;
  lib.accumulation_bf16 = probe->accumulation_bf16;
  lib.accumulation_f16 = probe->accumulation_f16;
  r.library = lib;
  return r;
}

}  // namespace attnprop::ksuite
