// properties/registry.tsv: the one visible place that says, for each claim,
// what is expected (holds, or refuted as stated), its kind (the catalogue's
// claim as stated, our variant, or a claim we added) and its extra labels.
// It is compiled into every binary. Which backends run a claim is said in
// code only (ATTNPROP_REGISTER); the ctest tests come from the property
// binary's own list (`attnprop_properties --ctest-list`), not from this file.
#pragma once

#include <string>
#include <vector>

#include "properties/framework/property.h"

namespace attnprop {

enum class Expectation { kHolds, kRefuted };

/// Whose claim a row is: the catalogue's, encoded as printed; our corrected
/// variant of one (id = the catalogue id + ".ours"); or one we added (the
/// abi.* contract, a second reading of a sentence).
enum class ClaimKind { kAsStated, kOurs, kNew };
const char* ClaimKindName(ClaimKind k);  // "as-stated", "ours", "new"

struct RegistryRow {
  std::string id;
  ClaimKind kind = ClaimKind::kAsStated;
  Expectation expect = Expectation::kHolds;
  std::vector<std::string> labels;  // extra ctest labels beyond the backend
  std::string note;                 // why: why refuted, what is ours, what was chosen
  int line = 0;                     // its line in registry.tsv
  /// Label `undecided`: cases left undecided by interval arithmetic are
  /// allowed (the why column says why); without it, a claim expected to hold
  /// that leaves any case undecided is not as expected.
  bool undecided_allowed = false;
};

/// The rows of registry.tsv, in file order.
const std::vector<RegistryRow>& RegistryRows();
/// The row of a claim id, or null.
const RegistryRow* FindRow(const std::string& id);
/// Joins registry.tsv to the registered properties, once, at start-up: sets
/// each PropertyDef::row, and returns the configuration errors (a row
/// without a property, a property without its row, an as-stated id not in
/// the catalogue, an id of ours that is), each naming the row's line and
/// the property's file; empty when consistent. Idempotent.
std::vector<std::string> JoinRegistry();

/// registry.tsv's text, as compiled in (a report records its hash).
const char* RegistryTsvText();

/// Parses the TSV text (exposed for tests). Throws std::runtime_error naming
/// the line on a malformed row.
std::vector<RegistryRow> ParseRegistry(const std::string& tsv);

}  // namespace attnprop
