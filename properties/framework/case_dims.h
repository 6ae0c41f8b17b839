// The dimensions of a case, as its claim declares them: which extents of
// its fields are one dimension (X is n x d and W is d x d: n and d), so
// that the search and the shrinker change a dimension in every field it
// spans at once, and an edited case has shapes the claim's generator could
// have made. Declared, never learned from samples: a claim over a Domain
// gets them from its axes (Domain::Dims), an attention claim from its
// problem class (batch x t stacked rows), any other claim states them:
//   static CaseDims Dims(const Case& c) { return CaseDims(c).Rows("A", "m").Cols("A", "n"); }
// A dimension is edited only where it spans a matrix extent; an int field
// declared as a dimension's size (Size) changes with it. A declaration that
// does not fit the case (a missing field, a stacked extent not a multiple of
// its outer dimension, two sizes for one dimension) declares nothing: the
// case is then edited value by value only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "properties/framework/case.h"

namespace attnprop {

class CaseDims {
 public:
  /// No dimensions yet (a claim that declares none: values are edited, shapes
  /// never). Refers to c, which must outlive it (Drop and Grow copy from it).
  explicit CaseDims(const Case& c);

  /// Field `field`'s rows (columns) are dimension `dim`.
  CaseDims& Rows(const std::string& field, const std::string& dim) { return Extent(field, false, "", dim); }
  CaseDims& Cols(const std::string& field, const std::string& dim) { return Extent(field, true, "", dim); }
  /// Stacked: rows = size(outer) x size(inner), outer-major (batch x t_q:
  /// the rows of item b are b t_q .. b t_q + t_q - 1). outer's size must be
  /// declared before (Size, or an extent of its own).
  CaseDims& Rows(const std::string& field, const std::string& outer, const std::string& inner) {
    return Extent(field, false, outer, inner);
  }
  /// The int field `field` is dimension `dim`'s size.
  CaseDims& Size(const std::string& field, const std::string& dim);

  /// One editable dimension of the case.
  struct Dimension {
    size_t id = 0;    // internal
    int64_t size = 0;
    std::vector<size_t> int_fields;  // the int fields that are its size
  };
  /// The dimensions that span a matrix extent, in the order first met in
  /// the case's fields (rows, then columns, then ints), the largest first
  /// (a stable sort: ties keep that order). Empty when the declaration did
  /// not fit.
  std::vector<Dimension> Dimensions() const;

  /// The case with indices [at, at + count) of d dropped from every extent
  /// d spans (in a stacked extent: from every block, or whole blocks), and
  /// its size fields lowered by count.
  Case Drop(const Dimension& d, int64_t at, int64_t count) const;
  /// The case with index `at` of d duplicated (appended after the last
  /// index) in every extent d spans, its size fields raised by one.
  Case Grow(const Dimension& d, int64_t at) const;

 private:
  struct Span {
    int outer = -1, inner = -1;  // dimension ids; outer -1: a plain extent
  };
  struct FieldDims {
    Span rows, cols;
    int size_of = -1;  // an int field: the dimension whose size it is
  };
  CaseDims& Extent(const std::string& field, bool cols, const std::string& outer, const std::string& inner);
  int DimNamed(const std::string& name);
  /// The field's value if it is a T (its index in *index), else null and the declaration does not fit.
  template <class T>
  const T* FieldOf(const std::string& field, size_t* index);
  bool SetSize(int dim, int64_t size);
  /// The case with each extent's indices along d replaced by `along` (source
  /// indices of d, in order) and d's size fields set to along.size().
  Case Reindexed(const Dimension& d, const std::vector<int64_t>& along) const;

  const Case* case_;
  bool fits_ = true;
  std::vector<std::string> names_;
  std::vector<int64_t> sizes_;  // -1: not known yet
  std::vector<FieldDims> fields_;  // per field of the case, in its order
};

}  // namespace attnprop
