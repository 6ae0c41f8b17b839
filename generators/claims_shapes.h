// Shape helpers for the design-card claims (properties/formal, collapse,
// profile): matrices whose dimensions shrink independently of their entries.
//
// RapidCheck's mapcat (dimensions, then entries) cannot shrink a dimension
// again once an entry shrank (NOTES.md). Here the entries are drawn for the
// largest shape and the case keeps the top-left block, so dimensions and
// entries shrink independently and a shrunk counterexample is small in both.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <vector>

#include "generators/scalars.h"
#include "model/exact.h"

namespace attnprop::gen {

/// The top-left rows x cols block of m (rows <= m.rows, cols <= m.cols).
inline ExactMatrix Crop(const ExactMatrix& m, int64_t rows, int64_t cols) {
  ExactMatrix r(rows, cols);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) r(i, j) = m(i, j);
  return r;
}

}  // namespace attnprop::gen

namespace attnprop::gen {

/// A dimension in [lo, hi] drawn uniformly at every RapidCheck size (gen::Dim
/// scales with size, so early cases are 1 x 1); shrinks toward lo. For claims
/// expected to be refuted, whose counterexamples need a few rows.
inline rc::Gen<int64_t> UniformDim(int64_t lo, int64_t hi) {
  std::vector<int64_t> dims;
  for (int64_t d = lo; d <= hi; ++d) dims.push_back(d);
  return rc::gen::elementOf(dims);
}

}  // namespace attnprop::gen
