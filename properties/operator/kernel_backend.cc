#include "properties/operator/kernel_backend.h"

#include "properties/operator/confine.h"

#include <stdexcept>
#include <string>
#include <tuple>

#include "kernels/attnprop_kernel.h"
#include "kernels/attnprop_kernel_ext.h"
#include "properties/framework/backend.h"

namespace attnprop::ksuite {
namespace {

thread_local const KernelInstance* g_bound = nullptr;

/// Binds a kernel to this thread for one call of a property's function.
class Binding {
 public:
  explicit Binding(const KernelInstance* k) : saved_(g_bound) {
    g_bound = k;
    // attnprop's own kernel: its dispatch target is process state, set in
    // the parent before the call's child is forked.
    if (!k->target.empty() && attnprop_kernel_set_target(k->target.c_str()) != 0)
      throw std::runtime_error("attnprop's kernel cannot run target " + k->target + " here");
  }
  ~Binding() { g_bound = saved_; }

 private:
  const KernelInstance* saved_;
};

template <class F>
F Bound(const KernelInstance* k, F f) {
  return [k, f](const Case& c) {
    Binding b(k);
    return f(c);
  };
}

const KernelInstance& RequireBound() {
  if (!g_bound) throw std::logic_error("a kernel property ran with no kernel bound (run it through PropertiesFor)");
  return *g_bound;
}

DType FormatType(int format) {
  switch (format) {
    case ATTNPROP_FORMAT_F64: return DType::kF64;
    case ATTNPROP_FORMAT_BF16: return DType::kBF16;
    case ATTNPROP_FORMAT_F16: return DType::kF16;
    default: return DType::kF32;  // ATTNPROP_FORMAT_F32 and _MIXED (LoadKernel refuses other values)
  }
}

}  // namespace

Operator KernelOperator(DType t) {
  const KernelInstance& k = RequireBound();
  Operator op;
  op.kind = Operator::Kind::kKernel;
  op.dtype = t;
  if (t == DType::kBF16) op.accumulation = FormatType(k.library.accumulation_bf16);
  if (t == DType::kF16) op.accumulation = FormatType(k.library.accumulation_f16);
  op.mixed = (t == DType::kBF16 && k.library.accumulation_bf16 == ATTNPROP_FORMAT_MIXED) ||
             (t == DType::kF16 && k.library.accumulation_f16 == ATTNPROP_FORMAT_MIXED);
  op.library = &k.library;
  op.timeout_s = k.timeout_s;
  return op;
}

std::vector<KernelInstance> OwnKernelInstances() {
  std::vector<KernelInstance> out;
  // The library's target list (the target table in kernels/CMakeLists.txt).
  for (int t = 0; t < attnprop_kernel_target_count(); ++t) {
    const char* target = attnprop_kernel_target_name(t);
    KernelInstance k;
    k.suffix = std::string("@") + target;
    k.description = std::string("attnprop kernel (") + target + ")";
    k.library.path = "attnprop kernel (linked in)";
    k.library.abi_version = &attnprop_kernel_abi_version;
    k.library.f32 = &attnprop_attention_f32;
    k.library.f64 = &attnprop_attention_f64;
    k.library.bf16 = &attnprop_attention_bf16;
    k.library.f16 = &attnprop_attention_f16;
    k.library.has_bf16 = k.library.has_f16 = true;
    k.library.accumulation_bf16 = attnprop_kernel_accumulation(ATTNPROP_FORMAT_BF16);
    k.library.accumulation_f16 = attnprop_kernel_accumulation(ATTNPROP_FORMAT_F16);
    k.library.target_supported = &attnprop_kernel_target_supported;
    k.library.target = &attnprop_kernel_target;
    k.target = target;
    if (!attnprop_kernel_target_supported(target))
      k.unsupported = std::string("this CPU cannot run attnprop's ") + target + " kernel path";
    out.push_back(std::move(k));
  }
  return out;
}

KernelInstance UserKernelInstance(const LoadResult& load, double timeout_s) {
  KernelInstance k;
  k.library = *load.library;
  k.description = load.library->path;
  if (!load.target.empty()) k.description += " (target " + load.target + ")";
  if (!load.requested_supported)
    k.unsupported = "dispatch target '" + load.requested_target +
                    "' (ATTNPROP_KERNEL_TARGET): the kernel's dispatch extension does not offer it on this CPU";
  k.timeout_s = timeout_s;
  return k;
}

const KernelInstance* BoundKernel() { return g_bound; }

std::vector<PropertyDef> PropertiesFor(const std::vector<KernelInstance>& kernels, bool model) {
  std::vector<PropertyDef> out;
  for (const PropertyDef& d : Registry()) {
    const BackendInfo* b = FindBackend(d.backend);
    if (!(b && b->kernel)) {
      if (model) out.push_back(d);
      continue;
    }
    for (const KernelInstance& k : kernels) {
      PropertyDef bound = d;
      bound.backend = d.backend + k.suffix;
      bound.skip_reason = k.unsupported;
      for (const auto& [backend, has, declines, format] :
           {std::tuple{"kernel-bf16", k.library.has_bf16, k.library.declines_bf16, "bf16"},
            std::tuple{"kernel-f16", k.library.has_f16, k.library.declines_f16, "f16"}})
        if (bound.skip_reason.empty() && d.backend == backend && !has)
          bound.skip_reason =
              declines ? std::string("the kernel does not implement ") + format +
                             " here: its attnprop_kernel_accumulation returns 0 for it (kernel ABI v2)"
                       : std::string("the kernel has no attnprop_attention_") + format + " (optional, kernel ABI v2)";
      bound.conclusion = Bound(&k, d.conclusion);
      bound.confirm = Bound(&k, d.confirm);
      bound.hypotheses_hold = Bound(&k, d.hypotheses_hold);
      out.push_back(std::move(bound));
    }
  }
  return out;
}

std::string KernelSummary(const std::vector<KernelInstance>& kernels) {
  if (kernels.empty()) return "none";
  std::string s;
  for (const auto& k : kernels) {
    if (!s.empty()) s += ", ";
    s += k.description;
    if (!k.unsupported.empty()) s += " [skipped here]";
  }
  for (const auto& k : kernels)
    if (!k.library.path.empty()) return s + " | call processes confined: " + ConfinementStatus();
  return s;
}

Operator ModelOperator(bool mpfr) {
  Operator op;
  op.kind = mpfr ? Operator::Kind::kModelMpfr : Operator::Kind::kModelDouble;
  op.dtype = DType::kF64;
  return op;
}

}  // namespace attnprop::ksuite
