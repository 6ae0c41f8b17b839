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
// AttentionClaim<Derived> and provide
//   static constexpr const char* kId;
//   static std::vector<Tolerance> Tolerances();
//   static rc::Gen<Case> Gen(InputKind in);                 // the hypotheses
//   static void Check(const Operator& op, const Case& c);   // the conclusion
//   static bool Holds(InputKind in, const Case& c);         // HypothesesHold
// Check calls Call(op, problem) for outputs and compares them with
// Reference(op, problem) within the bounds of accuracy.h; it never asks
// which backend it runs in.
#pragma once

#include <string>
#include <vector>

#include "properties/framework/property.h"
#include "properties/operator/call.h"
#include "properties/operator/kernel_library.h"
#include "properties/operator/problem_gen.h"

namespace attnprop::ksuite {

/// Backend tags for ATTNPROP_REGISTER: the kernel's f32 and f64 entry points,
/// and (ABI v2, optional) its bf16 and f16 ones. A kernel without the
/// optional entry point has that backend's properties skipped, with the reason.
struct KernelF32 {};
struct KernelF64 {};
struct KernelBF16 {};
struct KernelF16 {};

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

/// The operator a backend's calls go through.
template <class S>
Operator OperatorFor();
/// What entries a backend's cases hold (storage type, costly or not).
template <class S>
InputKind InputKindOf();

template <> Operator OperatorFor<double>();
template <> Operator OperatorFor<Mpfr>();
template <> Operator OperatorFor<KernelF32>();
template <> Operator OperatorFor<KernelF64>();
template <> Operator OperatorFor<KernelBF16>();
template <> Operator OperatorFor<KernelF16>();
template <> InputKind InputKindOf<double>();
template <> InputKind InputKindOf<Mpfr>();
template <> InputKind InputKindOf<KernelF32>();
template <> InputKind InputKindOf<KernelF64>();
template <> InputKind InputKindOf<KernelBF16>();
template <> InputKind InputKindOf<KernelF16>();

/// The base of every attention claim (family pattern, above).
template <class Derived>
struct AttentionClaim {
  template <class S>
  static rc::Gen<Case> Hypotheses() {
    return Derived::Gen(InputKindOf<S>());
  }
  template <class S>
  static void Conclusion(const Case& c) {
    Derived::Check(OperatorFor<S>(), c);
  }
  /// The claim's hypotheses on a case, in the backend's storage type:
  /// Derived::Holds(in, c) (ProblemHolds of its shape class, problem_gen.h,
  /// and its own fields).
  template <class S>
  static bool HypothesesHold(const Case& c) {
    return Derived::Holds(InputKindOf<S>(), c);
  }
};

}  // namespace attnprop::ksuite

namespace attnprop {
// A kernel's refutation is confirmed by calling it again: its check already
// compares against the MPFR reference.
template <>
struct BackendOf<ksuite::KernelF32> {
  static constexpr const char* kName = "kernel-f32";
  static constexpr bool kConfirmInItself = true;
};
template <>
struct BackendOf<ksuite::KernelF64> {
  static constexpr const char* kName = "kernel-f64";
  static constexpr bool kConfirmInItself = true;
};
template <>
struct BackendOf<ksuite::KernelBF16> {
  static constexpr const char* kName = "kernel-bf16";
  static constexpr bool kConfirmInItself = true;
};
template <>
struct BackendOf<ksuite::KernelF16> {
  static constexpr const char* kName = "kernel-f16";
  static constexpr bool kConfirmInItself = true;
};
}  // namespace attnprop
