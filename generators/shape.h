// Dimensions and the shaped-parameter generator that every matrix,
// structured matrix, sequence and weight set is built on.
//
// A shaped generator draws a few named axes (dimensions) and arrays of exact
// parameters indexed by them, then builds its value from the parameters.
// Shrinking works on the parameters, not on the built value: it drops
// indices of an axis (removing the matching slices of every array indexed by
// that axis: rows, columns, heads, tokens), then shrinks single entries. The
// candidates are recomputed from the current state after every successful
// step, so dimensions keep shrinking after entries have shrunk (which
// gen::mapcat cannot do). A structure built from its parameters (symmetric,
// orthogonal, ...) keeps its structure in every shrink.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "model/exact.h"
#include "model/scalar.h"

namespace attnprop::gen {

/// The dimensions a generator may draw: [min, max], and from which value on a
/// dimension counts as "large". RapidCheck's size (0..100; never more, see
/// NOTES.md) scales the cap: at size s the largest dimension drawn is
/// min + (max - min) * min(1, (s + 1) / 50).
struct DimRange {
  int64_t min = 1;
  int64_t max = 320;
  int64_t large_from = 160;
  /// When > min: dimensions are drawn from [draw_min, max] but still shrink
  /// down to min (e.g. start at 256 x 256, shrink to 1 x 1).
  int64_t draw_min = 0;
  /// A count of variants (1 or 2 heads), not a size: drawn uniformly in
  /// [min, max] at every RapidCheck size, so each has its share of a run.
  bool uniform = false;
};

/// Default dimension ranges per backend (MPFR costs ~10^3 x double per
/// matrix product, mpq more: NOTES.md). double/float: [1, 320], large from
/// 160; MPFR: [1, 33]; rational: [1, 17]. The caps keep 31/32/33 (MPFR) and
/// 15/16/17 (rational) reachable.
template <class S>
DimRange DefaultDims() {
  if constexpr (std::is_same_v<S, Mpfr>) {
    return {1, 33, 33};
  } else if constexpr (ScalarTraits<S>::kExact) {
    return {1, 17, 17};
  } else {
    return {1, 320, 160};
  }
}

/// A range with its max lowered to `cap` (and min, large_from kept <= cap).
DimRange Capped(DimRange r, int64_t cap);

/// Draws a dimension from its edge classes: 1; small (2..7); odd; not a
/// multiple of 8 (or a multiple of 8 but not of 16); just below, at and just
/// above a block size (15/16/17, 31/32/33, 63/64/65, 127/128/129); large
/// (>= large_from). Classes outside the (size-scaled) range are skipped.
/// A uniform range: uniformly in [max(min, draw_min), max].
int64_t DrawDim(rc::Random& r, int size, const DimRange& range);

/// The edge classes n belongs to: "one", "small", "odd", "not_mult8",
/// "mult8_not16", "below_block", "at_block", "above_block", "large".
std::vector<std::string> DimClasses(int64_t n, const DimRange& range);

/// A dimension drawn by DrawDim, shrinking toward range.min.
rc::Gen<int64_t> EdgeDim(DimRange range);

/// One axis of a shaped generator.
struct Axis {
  DimRange range;
};

/// One array of parameters: indexed by `axes` (indices into the axis list;
/// an axis may repeat, e.g. {0, 0} for a square matrix), entries drawn from
/// `entry`. Rank 0 (no axes) is a single scalar.
struct ParamArray {
  std::vector<int> axes;
  rc::Gen<Exact> entry;
};

/// What a builder sees: the current dimensions and every array's entries,
/// row-major over its axes.
struct Params {
  std::vector<int64_t> dims;
  std::vector<std::vector<Exact>> arrays;
  std::vector<std::vector<int64_t>> shapes;  // per array, its current extents

  /// Array `a` (rank 2) as a matrix.
  ExactMatrix Matrix(size_t a) const;
  /// Slice i of array `a` (rank 3: i along its first axis) as a matrix.
  ExactMatrix Slice(size_t a, int64_t i) const;
};

/// A predicate on the dimensions that every drawn shape and every shrink
/// keeps (e.g. t_q != t_k); empty means none.
using DimsOk = std::function<bool(const std::vector<int64_t>&)>;

/// The shaped generator of parameters (see the file comment). Shrinks, in
/// order: per axis, keep the first k indices (k from min upward), then drop
/// one index; then per array, shrink one entry by its own generator.
rc::Gen<Params> ShapedParams(std::vector<Axis> axes, std::vector<ParamArray> arrays, DimsOk ok = {});

/// A shaped generator whose value is build(params).
template <class T, class Build>
rc::Gen<T> Shaped(std::vector<Axis> axes, std::vector<ParamArray> arrays, Build build, DimsOk ok = {}) {
  return rc::gen::map(ShapedParams(std::move(axes), std::move(arrays), std::move(ok)),
                      [build](const Params& p) -> T { return build(p); });
}

}  // namespace attnprop::gen
