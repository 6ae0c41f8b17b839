// What a claim's cases look like, learned from its own generator: the field
// names and kinds, the range of every int and matrix dimension, and which
// dimensions are always equal (the rows of K and V, the columns of Q and K).
// A case read from a file (a store entry, `attnprop reproduce ID FILE`) is
// checked against it before the property runs: a case the claim cannot read
// (a missing field, a matrix 1x2 where the claim multiplies by a 1x3, a
// dimension or int far beyond anything generated) is rejected with a
// message, never handed to code that would crash, divide by zero, allocate
// gigabytes or loop for hours on it, and never blamed on a kernel.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "properties/framework/case.h"

namespace attnprop {

class CaseSchema {
 public:
  /// From cases of the claim's generator (at least one). Ranges are widened:
  /// an int may lie up to 3 spans plus 16 beyond what was seen (a search may
  /// grow cases), a dimension up to 4 times the largest seen plus 16.
  static CaseSchema Learn(const std::vector<Case>& samples);

  /// nullopt when `c` fits; otherwise why not (one line).
  std::optional<std::string> Misfit(const Case& c) const;

  bool empty() const { return fields_.empty(); }

 private:
  struct Field {
    std::string name;
    size_t kind = 0;       // Case::Value's index: int, scalar, matrix
    int64_t lo = 0, hi = 0;  // int: allowed range
    int64_t max_rows = 0, max_cols = 0;  // matrix
  };
  std::vector<Field> fields_;
  // Pairs of axes (2 * field index + 0 for rows, + 1 for cols) equal in every sample.
  std::vector<std::pair<size_t, size_t>> equal_axes_;
};

}  // namespace attnprop
