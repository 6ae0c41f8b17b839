// Kernels as backends of the one harness. A claim about the attention
// operator registers like any claim, with the kernel tags among its
// backends:
//   ATTNPROP_REGISTER(ConvexHull, double, Mpfr, KernelF32, KernelF64);
// gives the properties <id>/double, <id>/mpfr (attnprop's model, in process)
// and <id>/kernel-f32, <id>/kernel-f64. A kernel property runs against one
// kernel at a time: PropertiesFor binds it to each KernelInstance of the
// run (attnprop's own kernel once per dispatch target, "kernel-f32@avx2";
// a user's library as plain "kernel-f32").
//
// The family pattern for these claims (see property.h): derive from
// AttentionClaim<Derived> and ClaimId<"its id"> and provide
//   static ProblemClass Problems();                         // the hypotheses
//   static void Check(const Operator& op, const Case& c);   // the conclusion
// (problem_class.h: a shape class and the claim's own fields; a family
// whose problems come from a generator of its own, the regimes and the
// half formats, writes Gen(InputKind) and Holds(InputKind, const Case&)).
// Check calls Call(op, problem) for outputs and compares them with
// Reference(op, problem) within the bounds of accuracy.h; it never asks
// which backend it runs in.
#pragma once

#include <string>
#include <vector>

#include "properties/framework/property.h"
#include "properties/operator/call.h"
#include "properties/operator/kernel_library.h"
#include "properties/operator/problem_class.h"
#include "properties/operator/problem_gen.h"

namespace attnprop::ksuite {

/// Backend tags for ATTNPROP_REGISTER: the kernel's entry point for one
/// storage type, f32 and f64 and (ABI v2, optional) bf16 and f16. A kernel
/// without the optional entry point has that backend's properties skipped,
/// with the reason.
template <DType T>
struct KernelTag {
  static constexpr DType kDType = T;
  static constexpr const char* kName = T == DType::kF32    ? "kernel-f32"
                                       : T == DType::kF64  ? "kernel-f64"
                                       : T == DType::kBF16 ? "kernel-bf16"
                                                           : "kernel-f16";
};
using KernelF32 = KernelTag<DType::kF32>;
using KernelF64 = KernelTag<DType::kF64>;
using KernelBF16 = KernelTag<DType::kBF16>;
using KernelF16 = KernelTag<DType::kF16>;

template <class S> constexpr bool kIsKernel = false;
template <DType T> constexpr bool kIsKernel<KernelTag<T>> = true;

/// A kernel the kernel backends run against.
struct KernelInstance {
  std::string suffix;       // "@avx2": attnprop's own kernel on that target; "": the kernel under test
  std::string description;  // for the banner and reports ("attnprop kernel, avx2", a path)
  KernelLibrary library;
  std::string target;       // attnprop's own kernel: the dispatch target set before each property
  std::string unsupported;  // non-empty: it cannot run here (why); its properties are skipped
  double timeout_s = 5;     // per call
};

/// attnprop's own kernel (linked in), once per dispatch target it has
/// (scalar, avx2, avx512); a target this CPU lacks is marked unsupported.
std::vector<KernelInstance> OwnKernelInstances();

/// The kernel under test from a loaded library (suffix ""); unsupported when
/// it has attnprop's dispatch extension and the target named by
/// ATTNPROP_KERNEL_TARGET is missing on this CPU.
KernelInstance UserKernelInstance(const LoadResult& load, double timeout_s);

/// The kernel whose property runs on this thread now (set by PropertiesFor's
/// bindings), or null.
const KernelInstance* BoundKernel();

/// The properties of a run, in registration order: the model backends as
/// registered (when `model`), and each kernel property once per instance,
/// bound to it (its backend becomes "kernel-f32" + instance.suffix). The
/// instances must outlive the returned definitions.
std::vector<PropertyDef> PropertiesFor(const std::vector<KernelInstance>& kernels, bool model);

/// One line for the banner and reports: "none", or the instances' descriptions.
std::string KernelSummary(const std::vector<KernelInstance>& kernels);

/// The operator of one kernel storage type (the kernel bound to this thread).
Operator KernelOperator(DType t);
/// The operator of attnprop's model in double or MPFR.
Operator ModelOperator(bool mpfr);

/// The operator a backend's calls go through.
template <class S>
Operator OperatorFor() {
  if constexpr (kIsKernel<S>) return KernelOperator(S::kDType);
  else return ModelOperator(std::is_same_v<S, Mpfr>);
}
/// What entries a backend's cases hold (storage type; MPFR is costly: its
/// cases are smaller).
template <class S>
InputKind InputKindOf() {
  if constexpr (kIsKernel<S>) return {S::kDType, false};
  else return {DType::kF64, std::is_same_v<S, Mpfr>};
}

/// The base of every attention claim (family pattern, above). A claim
/// declares its class of problems once,
///   static ProblemClass Problems() { return Shape(CausalKind::kYes); }
/// and its generator and predicate both come from it.
template <class Derived>
struct AttentionClaim {
  template <class S> static rc::Gen<Case> Hypotheses() { return Derived::Gen(InputKindOf<S>()); }
  template <class S> static void Conclusion(const Case& c) { Derived::Check(OperatorFor<S>(), c); }
  /// The claim's hypotheses on a case, in the backend's storage type.
  template <class S> static bool HypothesesHold(const Case& c) { return Derived::Holds(InputKindOf<S>(), c); }

  static rc::Gen<Case> Gen(InputKind in)
    requires requires { Derived::Problems(); }
  {
    return Class().Gen(in);
  }
  static bool Holds(InputKind in, const Case& c)
    requires requires { Derived::Problems(); }
  {
    return Class().Holds(in.dtype, c);
  }
  /// The dimensions the search and the shrinker edit (case_dims.h): the
  /// problem class's, or a plain problem's.
  static CaseDims Dims(const Case& c) {
    if constexpr (requires { Derived::Problems(); }) {
      return Class().Dims(c);
    } else {
      CaseDims d(c);
      Problem::DeclareDims(d);
      return d;
    }
  }

 private:
  static const ProblemClass& Class() {
    static const ProblemClass declared = Derived::Problems();
    return declared;
  }
};

}  // namespace attnprop::ksuite

namespace attnprop {
// A kernel's refutation is confirmed by calling it again: its check already
// compares against the MPFR reference.
template <ksuite::DType T>
struct BackendOf<ksuite::KernelTag<T>> {
  static constexpr const char* kName = ksuite::KernelTag<T>::kName;
  static constexpr bool kConfirmInItself = true;
};
}  // namespace attnprop
