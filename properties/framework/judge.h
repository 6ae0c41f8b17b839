// The one verdict policy: what a property's result means against what
// registry.tsv expects. ctest (test_main.cc), `attnprop run`, `audit`,
// `check-kernel`, the reports and JUnit all ask Judge and nothing else.
#pragma once

#include <string>

#include "properties/framework/registry.h"
#include "properties/framework/runner.h"

namespace attnprop {

struct Judgement {
  enum class Status { kAsExpected, kUnexpected, kSkipped };
  Status status = Status::kUnexpected;
  std::string why;  // one line: what was expected and what was seen

  bool as_expected() const { return status != Status::kUnexpected; }
  bool skipped() const { return status == Status::kSkipped; }
};

/// - skipped (the property could not run here): kSkipped, never a pass;
/// - error (a misbehaving stored case, a generator that gave up): unexpected;
/// - expected to hold: as expected iff it holds;
/// - registered refuted: as expected iff it is refuted by a counterexample
///   that is confirmed (a pinned case that reproduced three ways, or a found
///   one that fails again at higher precision). A refutation that does not
///   survive higher precision is a rounding artefact: unexpected.
Judgement Judge(const PropertyResult& r, Expectation expect);  // undecided not allowed unless the run allows it

/// - undecided (no refutation, some case neither certified nor dismissed):
///   as expected only for a claim expected to hold whose row has the label
///   `undecided`, or when the run allows it (SetAllowUndecided: `attnprop
///   run --allow-undecided`, ATTNPROP_ALLOW_UNDECIDED=1 for ctest); never a
///   pass otherwise, and never the expected refutation.
Judgement Judge(const PropertyResult& r, Expectation expect, bool undecided_allowed);

/// Process-wide: undecided cases allowed for every claim (default: no).
void SetAllowUndecided(bool allow);
bool AllowUndecided();

/// Judge against the property's joined registry row (holds when it has none).
Judgement Judge(const PropertyResult& r, const PropertyDef& def);

}  // namespace attnprop
