#include "tools/report_diagnosis.h"

#include "properties/abi/diagnosis.h"

namespace attnprop::cli {

std::vector<size_t> UnexpectedEntries(const report::Report& r) {
  std::vector<size_t> out;
  for (size_t i = 0; i < r.entries.size(); ++i)
    if (!r.entries[i].as_expected()) out.push_back(i);
  return out;
}

report::Diagnosis DiagnoseReport(const report::Report& r) {
  const std::vector<size_t> unexpected = UnexpectedEntries(r);
  std::vector<ksuite::KernelFailure> failures;
  for (size_t i : unexpected) {
    const PropertyResult& p = r.entries[i].result;
    failures.push_back({p.id, p.backend, p.message, p.counterexample, p.counterexample_case});
  }
  // An f64-only run (attnprop_add_kernel_tests' f64 test) is judged on what
  // failed, not on the dtype.
  bool f32_ran = false;
  for (const auto& e : r.entries)
    f32_ran = f32_ran || (e.result.backend.rfind("kernel-f32", 0) == 0 && e.result.verdict != Verdict::kSkipped);
  const ksuite::Diagnosis d = ksuite::Diagnose(failures, f32_ran);
  report::Diagnosis out;
  out.bug_class = d.bug_class;
  out.groups = d.groups;
  for (size_t f : d.order) out.ranked.push_back({failures[f].id, failures[f].backend, d.group_of[f]});
  return out;
}

}  // namespace attnprop::cli
