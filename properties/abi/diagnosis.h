// check-kernel's diagnosis (issue 14): when a kernel fails several
// properties, which one points at the bug. Failures that share their shrunk
// counterexample are grouped; the properties are ranked by how narrow their
// hypotheses are (a property that needs t_q > t_k and causal before one
// that holds for every problem, the ABI's memory and argument contract
// before accuracy); and one line names the bug class, from the pattern of
// failing properties and the top property's minimal case.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "properties/framework/case.h"

namespace attnprop::ksuite {

/// One property that failed unexpectedly on the kernel.
struct KernelFailure {
  std::string id;       // claim id ("abi.long_kv")
  std::string backend;  // "kernel-f32" (a suffix "@avx2" is ignored)
  std::string message;  // the failure message
  std::string counterexample;       // the shrunk case as text ("" if none)
  std::optional<Case> minimal;      // the shrunk case
};

struct Diagnosis {
  std::string bug_class;            // one line ("head dim above a compiled maximum (d_k = 257)")
  std::vector<size_t> order;        // indices into the failures, most specific first
  std::vector<size_t> group_of;     // per failure: index of its group (shared counterexample text)
  size_t groups = 0;
};

/// The ranking and the bug class of a kernel's failures (empty when none).
/// `f32_ran`: the run checked the f32 entry point too; only then can "fails
/// in f64 alone" mean the f64 entry point's precision (an f64-only run, as
/// attnprop_add_kernel_tests makes, is judged on what failed).
Diagnosis Diagnose(const std::vector<KernelFailure>& failures, bool f32_ran = true);

/// Rank of a property id: lower is more specific (narrower hypotheses);
/// unknown ids (the lecture's claims on the operator) rank last.
int Specificity(const std::string& id);

}  // namespace attnprop::ksuite
