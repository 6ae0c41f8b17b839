#include "properties/kernel_suite/kernel_library.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cstdlib>
#include <cstring>

#include "properties/kernel_suite/sandbox.h"

namespace attnprop::ksuite {

LoadResult LoadKernel(const std::string& path, double timeout_s) {
  LoadResult r;
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    r.status = LoadStatus::kMissingFile;
    r.error = "no such file: " + path;
    return r;
  }
  // A bare name would be searched on the library path: insist on a path.
  const std::string open_path = path.find('/') == std::string::npos ? "./" + path : path;
  void* h = dlopen(open_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    r.status = LoadStatus::kNotALibrary;
    const char* e = dlerror();
    r.error = "cannot load " + path + " as a shared library: " + (e ? e : "unknown dlopen error");
    return r;
  }
  KernelLibrary lib;
  lib.path = path;
  lib.handle = h;
  std::string missing;
  auto sym = [&](const char* name, bool required) {
    void* p = dlsym(h, name);
    if (!p && required) missing += std::string(missing.empty() ? "" : ", ") + name;
    return p;
  };
  lib.abi_version = reinterpret_cast<int (*)()>(sym("attnprop_kernel_abi_version", true));
  lib.f32 = reinterpret_cast<KernelEntry>(sym("attnprop_attention_f32", true));
  lib.f64 = reinterpret_cast<KernelEntry>(sym("attnprop_attention_f64", true));
  lib.target_supported = reinterpret_cast<int (*)(const char*)>(sym("attnprop_kernel_target_supported", false));
  lib.target = reinterpret_cast<const char* (*)()>(sym("attnprop_kernel_target", false));
  if (!missing.empty()) {
    r.status = LoadStatus::kMissingSymbols;
    r.error = path + " does not implement the attnprop kernel ABI: missing symbol(s) " + missing +
              " (see kernels/attnprop_kernel.h; C++ code needs extern \"C\")";
    dlclose(h);
    return r;
  }
  const char* env = std::getenv("ATTNPROP_KERNEL_TARGET");
  r.requested_target = env ? env : "";

  struct Probe {
    int version;
    int supported;
    char target[64];
  };
  SharedBlock block(sizeof(Probe));
  auto* probe = static_cast<Probe*>(block.data());
  const ChildOutcome o = RunInChild(
      [&] {
        probe->version = lib.abi_version();
        probe->supported = -1;
        if (lib.target_supported && !r.requested_target.empty())
          probe->supported = lib.target_supported(r.requested_target.c_str());
        if (lib.target) {
          const char* t = lib.target();
          if (t) std::strncpy(probe->target, t, sizeof probe->target - 1);
        }
      },
      timeout_s);
  if (o.kind != ChildOutcome::Kind::kFinished) {
    r.status = LoadStatus::kProbeFailed;
    r.error = "asking " + path + " for its ABI version failed: " + o.Describe();
    dlclose(h);
    return r;
  }
  r.abi_version = probe->version;
  r.target = probe->target;
  r.requested_supported = probe->supported != 0;
  if (probe->version != ATTNPROP_KERNEL_ABI_VERSION) {
    r.status = LoadStatus::kWrongVersion;
    r.error = path + " implements kernel ABI version " + std::to_string(probe->version) + ", attnprop expects " +
              std::to_string(ATTNPROP_KERNEL_ABI_VERSION);
    dlclose(h);
    return r;
  }
  r.library = lib;
  return r;
}

}  // namespace attnprop::ksuite
