// The kernel property suite: the lecture's claims about the attention
// operator and the kernel ABI's contract, checked against any library that
// implements kernels/attnprop_kernel.h, in f32 and f64, with the MPFR model
// on the same inputs as the reference. `attnprop check-kernel` and the
// CMake function attnprop_add_kernel_tests run it.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "properties/framework/runner.h"
#include "properties/kernel_suite/kernel_library.h"
#include "properties/kernel_suite/problem.h"

namespace attnprop::ksuite {

/// One property of the suite; it runs once per dtype as "<id>/kernel-f32",
/// "<id>/kernel-f64".
struct KernelProperty {
  std::string id;         // claim id verbatim from claims.tsv, or abi.<name>
  std::string statement;  // one line: what must hold
  bool f64_only = false;
  std::vector<Tolerance> tolerances;
  std::function<rc::Gen<Case>(DType)> hypotheses;
  std::function<void(const KernelContext&, DType, const Case&)> conclusion;
};

/// Every property, claims first, then the ABI contract.
const std::vector<KernelProperty>& KernelProperties();
void AddClaimProperties(std::vector<KernelProperty>* out);     // claims.cc
void AddContractProperties(std::vector<KernelProperty>* out);  // contract.cc

struct SuiteOptions {
  std::string path;                 // the plug-in
  int cases = 100;                  // random cases per property
  uint64_t seed = kDefaultSeed;
  std::string filter = "*";         // glob over "<id>/<dtype>"
  double timeout_s = 5;             // per kernel call (a child process)
  double budget_s = 20;             // shrinking one failure stops after this long
  std::string save_dir = "attnprop-counterexamples";  // where shrunk cases are written ("" = nowhere)
  std::string replay_file;          // run this one case (needs a filter naming one property)
};

struct PropertyOutcome {
  std::string name;       // "<id>/<dtype>"
  std::string statement;
  PropertyResult result;  // verdict, cases, counterexample, metrics
  std::string case_file;  // the shrunk counterexample, written for replay
  std::string replay;     // a command that replays it
  std::string rerun;      // a command that reruns the property from its seed
};

struct SuiteReport {
  LoadResult load;
  std::vector<PropertyOutcome> properties;
  double seconds = 0;
  bool skipped = false;   // the requested dispatch target is not supported here
  bool AllHold() const;
};

/// Loads the plug-in and runs the selected properties. Progress lines go to
/// `log` (one per property, as it finishes). Never throws for a bad kernel.
SuiteReport RunSuite(const SuiteOptions& o, std::ostream& log);

/// The report as JSON (one object; properties with verdict, cases, metrics,
/// counterexample text, replay command).
void WriteJson(const SuiteReport& r, const SuiteOptions& o, std::ostream& os);

}  // namespace attnprop::ksuite
