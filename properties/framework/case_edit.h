// Edits of a Case that know nothing of the claim: the moves of the targeted
// search (case_edit.cc, Mutate) and of the generic shrinker (DimensionDrops, SimplerAt).
// Whether an edited case is still an input of the claim is for the claim's
// HypothesesHold to say; the search and the shrinker ask it every time.
#pragma once

#include <cstdint>
#include <vector>

#include "properties/framework/case.h"
#include "properties/framework/case_dims.h"

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

/// One random move of the targeted search: an entry or a whole matrix scaled
/// by a power of two (2^-20 .. 2^20) or by a factor near 1 (1 +- 2^-k, k in
/// 1..6), a sign flipped, entries set to 0, +-1 or to another entry, rows or
/// columns made equal, a whole matrix scaled into the subnormals of f32,
/// f64 or f16 (its largest entry just below the smallest normal), a
/// dimension grown (an index duplicated) or shrunk (an
/// index dropped) in every matrix axis of that size, a scalar moved one ulp,
/// every value of one absolute value (values a hypothesis ties together)
/// scaled at once, or one input made near another of its shape (B := A +
/// delta, delta = 2^-k (k in 1..40) at A's scale, in every entry or one:
/// the witnesses of a Lipschitz bound or a monotonicity are close pairs,
/// which independent draws almost never are), or two such inputs changed
/// as one (the same factor at one entry or all, their gap kept: a close
/// pair climbs as a point). Returns the case unchanged only when it has
/// nothing to edit.
Case Mutate(const Case& c, EditRng& rng, const CaseDims& dims);

/// Two inputs of one shape near each other (every entry within a quarter
/// of its value, not all equal): the witness of a local bound. A niche of
/// the search's archive of its own (search.h).
bool HasNearPair(const Case& c);

/// One structural candidate of the shrinker: indices [at, at + count) of
/// dimension `dimension` (an index into CaseDims::Dimensions) dropped.
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
std::vector<DimensionDrop> DimensionDrops(const CaseDims& dims);
Case ApplyDrop(const CaseDims& dims, const DimensionDrop& drop);

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
std::vector<ValueSlot> ValueSlots(const Case& c, const CaseDims& dims);

/// The candidates for one slot, simplest first: a value to 0, to an
/// integer, to fewer significant bits, to its absolute value; an int to 0,
/// half, one less. Where another input of the slot's shape is near it at
/// that entry (within a quarter of its value), also the two moved together
/// (the gap kept) and the gap made simpler: a close pair stays a pair.
std::vector<Case> SimplerAt(const Case& c, const ValueSlot& slot);

/// The shrinker's scale candidates: every value of the case, then of each
/// value field alone, times the power of two that brings its largest finite
/// magnitude into [1, 2) (none where that is already so, or where a double
/// would underflow or overflow): a counterexample at 2^-127 that also
/// refutes at O(1) reads better there.
std::vector<Case> TowardUnitScale(const Case& c);

/// Rows plus columns summed over the case's matrices (how big a case is, for
/// shrinking and for reports).
int64_t CaseSize(const Case& c);

}  // namespace attnprop
