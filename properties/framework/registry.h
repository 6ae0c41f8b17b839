// properties/registry.tsv: the one visible place that says, for each claim,
// which backends run it and what is expected (holds, or refuted as stated).
// It is compiled into every binary; CMake reads the same file to add the
// ctest tests `<id>/<backend>` with their labels.
#pragma once

#include <string>
#include <vector>

#include "properties/framework/property.h"

namespace attnprop {

enum class Expectation { kHolds, kRefuted };

struct RegistryRow {
  std::string id;
  std::vector<std::string> backends;
  Expectation expect = Expectation::kHolds;
  std::vector<std::string> labels;  // extra ctest labels beyond the backend
  std::string note;                 // why refuted, or what is ours
  int line = 0;                     // its line in registry.tsv
};

/// The rows of registry.tsv, in file order.
const std::vector<RegistryRow>& RegistryRows();
/// The row of a claim id, or null.
const RegistryRow* FindRow(const std::string& id);
/// Joins registry.tsv to the registered properties, once, at start-up: sets
/// each PropertyDef::row, and returns the configuration errors (a row
/// without its property, a property without its row, an unknown backend, an
/// id not in the catalogue), each naming the row's line and the property's
/// file; empty when consistent. Idempotent.
std::vector<std::string> JoinRegistry();

/// registry.tsv's text, as compiled in (a report records its hash).
const char* RegistryTsvText();

/// Parses the TSV text (exposed for tests). Throws std::runtime_error naming
/// the line on a malformed row.
std::vector<RegistryRow> ParseRegistry(const std::string& tsv);

}  // namespace attnprop
