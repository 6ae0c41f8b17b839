// The store-replay phase of a run (replay.cc): a property's stored cases,
// replayed before any random case.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "properties/framework/runner.h"

namespace attnprop {

struct StorePhase {
  std::vector<StoredCase> cases;        // the entries that apply to the backend, in file order
  std::vector<ReplayOutcome> outcomes;  // one per entry of `cases`
  std::vector<std::string> problems;    // entries that misbehave (make the verdict kError)
  std::optional<size_t> pinned;         // first expect=refutes entry that reproduced fully
  std::optional<size_t> regression;     // first expect=holds entry that fails the claim again
  int undecided = 0;                    // entries left undecided by interval arithmetic
  std::string undecided_example;        // the first, with why
};

/// Whether `c` is a case def's claim can read (CaseSchema, learned from def's
/// generator and kept per property, and the hypotheses check not throwing):
/// nullopt when it fits, otherwise a message starting with kCaseMisfit. A
/// case from a file is checked with this before any code of the property
/// runs on it.
std::optional<std::string> CaseDoesNotFit(const PropertyDef& def, const Case& c);

/// Replays the cases of def's claim in `dir` that apply to def's backend
/// ("" = none). Throws StoreError for a malformed store file.
StorePhase ReplayStore(const PropertyDef& def, const std::string& dir);

}  // namespace attnprop
