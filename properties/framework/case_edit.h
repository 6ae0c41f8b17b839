// Edits of a Case that know nothing of the claim: the moves of the targeted
// search (case_edit.cc, Mutate) and of the generic shrinker (DimensionDrops, SimplerAt).
// Whether an edited case is still an input of the claim is for the claim's
// HypothesesHold to say; the search and the shrinker ask it every time.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "properties/framework/case.h"

namespace attnprop {

/// A small deterministic generator (splitmix64): the same seed, the same edits.
class EditRng {
 public:
  explicit EditRng(uint64_t seed) : state_(seed) {}
  uint64_t Next();
  /// Uniform in [0, n) (n > 0).
  uint64_t Below(uint64_t n) { return Next() % n; }
  bool Chance(int percent) { return Below(100) < static_cast<uint64_t>(percent); }

 private:
  uint64_t state_;
};

/// Which sizes in a claim's cases are one dimension, learned from the cases
/// its generator made: two axes (a matrix's rows or columns, or an int
/// field) belong to one dimension when they were equal in every case seen.
/// Edits that change a dimension change all of its axes together, so an
/// edited case has shapes the generator could have made (X is n x d and W is
/// d x d: n and d are two dimensions, even in a case where both are 2).
/// Each layout (the case's field names and kinds: a sequence of 2 calls has
/// other fields than one of 3) is learned on its own.
class ShapeModel {
 public:
  /// Adds a generated case to what is known of its layout.
  void Learn(const Case& c);
  /// The dimensions as a claim's Domain declares them, for cases of c's
  /// layout (no learning): two axes are one dimension when field_axes
  /// (Domain::FieldAxes of c) names one axis for both; an axis it gives as
  /// -1 (none, or one whose extent cannot change) is never edited.
  static ShapeModel Declared(const Case& c, const std::vector<std::array<int, 2>>& field_axes);
  bool empty() const { return layouts_.empty(); }

  /// The dimensions of c: for each, the axes it spans and its size.
  struct Dimension {
    int64_t size = 0;
    std::vector<size_t> axes;        // the axes it spans (internal indices)
    std::vector<size_t> int_fields;  // the int fields that are this dimension's size
  };
  std::vector<Dimension> Dimensions(const Case& c) const;

  /// c with index `at` of dimension d dropped (grow: duplicated) in every
  /// axis of d; int axes of d decrease (increase) by one.
  Case Resize(const Case& c, const Dimension& d, int64_t at, bool grow) const;
  /// c with indices [at, at + count) of dimension d dropped in every axis
  /// of d; int axes of d decrease by count.
  Case Drop(const Case& c, const Dimension& d, int64_t at, int64_t count) const;

 private:
  struct Axis {
    size_t field;
    enum Kind { kRows, kCols, kInt } kind;
  };
  /// c with edit(matrix, is_rows) applied to every matrix axis of d and
  /// int_change added to every int axis of d.
  template <class Edit>
  Case EditAxes(const Case& c, const Dimension& d, int64_t int_change, const Edit& edit) const;
  static std::vector<Axis> AxesOf(const Case& c);
  static int64_t SizeOf(const Case& c, const Axis& a);
  struct Layout {
    std::vector<Axis> axes;
    std::vector<std::vector<bool>> equal;  // equal[a][b]: equal in every case of this layout seen
  };
  static std::vector<std::string> LayoutKey(const Case& c);  // field names and kinds
  const Layout* LayoutOf(const Case& c) const;               // null: a layout never seen
  std::map<std::vector<std::string>, Layout> layouts_;
};

/// One random move of the targeted search: an entry or a whole matrix scaled
/// by a power of two (2^-20 .. 2^20) or by a factor near 1 (1 +- 2^-k, k in
/// 1..6), a sign flipped, entries set to 0, +-1 or to another entry, rows or
/// columns made equal, a dimension grown (an index duplicated) or shrunk (an
/// index dropped) in every matrix axis of that size, a scalar moved one ulp,
/// every value of one absolute value (values a hypothesis ties together)
/// scaled at once. Returns the case unchanged only when it has nothing to
/// edit.
Case Mutate(const Case& c, EditRng& rng, const ShapeModel& shapes);

/// One structural candidate of the shrinker: indices [at, at + count) of
/// dimension `dimension` (an index into ShapeModel::Dimensions) dropped.
struct DimensionDrop {
  size_t dimension = 0;
  int64_t at = 0;
  int64_t count = 1;
};
/// Dimensions longer than this also lose blocks of indices at once.
inline constexpr int64_t kBlockDropsAbove = 8;

/// The shrinker's structural candidates, largest dimensions first: for a
/// dimension longer than kBlockDropsAbove, blocks of half, a quarter, ...
/// of its indices (the last block first); then, for every dimension, one
/// index (the last first). Each drops from every axis of its dimension (the
/// rows of K and V together). Descriptions, not cases: a big case's
/// candidates are made one at a time (ApplyDrop), within the budget.
std::vector<DimensionDrop> DimensionDrops(const Case& c, const ShapeModel& shapes);
Case ApplyDrop(const Case& c, const ShapeModel& shapes, const DimensionDrop& drop);

/// Candidates that repair a drop (the shrinker's, when the dropped case no
/// longer fails): `dropped` with one value field, all of them, or every
/// value of one absolute value (values a hypothesis ties together) scaled by
/// n/(n-1), (n-1)/n, 2 or 1/2, n = size_before the dimension's size before
/// the drop (n/(n-1) keeps a sum over it), then every value of one absolute
/// value set to another the case holds (signs kept). A double stays a
/// double: a factor that would make one inexact is left out.
std::vector<Case> RepairsAfterDrop(const Case& dropped, int64_t size_before);

/// The value slots of a case: every matrix entry, scalar and int that is
/// not a dimension, in field order. ValueSlots(c).size() is stable under
/// value edits (only DimensionDrops change it).
struct ValueSlot {
  size_t field = 0;
  size_t entry = 0;  // index into a matrix's data (0 for scalars and ints)
};
std::vector<ValueSlot> ValueSlots(const Case& c, const ShapeModel& shapes);

/// The candidates for one slot, simplest first: a value to 0, to an
/// integer, to fewer significant bits, to its absolute value; an int to 0,
/// half, one less.
std::vector<Case> SimplerAt(const Case& c, const ValueSlot& slot);

/// Rows plus columns summed over the case's matrices (how big a case is, for
/// shrinking and for reports).
int64_t CaseSize(const Case& c);

}  // namespace attnprop
