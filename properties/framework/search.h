// The targeted search and the generic shrinker (Hypothesis's target() and
// its shrinker, made systematic). Every metric a conclusion records with
// ExpectWithin is a score, observed/bound; a case's score is its largest.
//  - Climb: from the best cases of the random phase, mutate (case_edit.h)
//    and keep what raises the score, until a case fails the conclusion or
//    the budget runs out. The cases kept are an archive of niches (MAP-
//    Elites): a niche is a case's shape and how many distinct values it
//    holds, and each keeps its own best, so a regime that scores lower at
//    first (a structured case of few tied values, a shape one edit from
//    failing) is climbed from too, not crowded out by one plateau. A new
//    niche opens freely within the sizes the random phase made; a larger
//    case opens one only by scoring at least its parent (else the archive
//    would wander into ever larger, ever slower cases). A flat archive (no
//    score above 0, as for a count or a condition with no magnitude, or
//    none raised after 50 candidates) gives no direction: half the
//    candidates are then fresh draws from the hypotheses at every size.
//  - Shrink: from a failing case, in passes: drop dimensions
//    (DimensionDrops) while one still fails, then simplify each value slot
//    in turn (SimplerAt); repeat until a pass changes nothing.
// Every candidate must satisfy the claim's hypotheses before it counts; a
// candidate outside them, or one the claim cannot read, is dropped. For a
// claim over a Domain the dimensions edited are the declared ones (fixed
// axes never move) and every edited case has its derived fields computed
// again (phi0 = max |X| follows X). Both are deterministic: the same seed, the same cases.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "properties/framework/case_edit.h"
#include "properties/framework/check.h"
#include "properties/framework/property.h"

namespace attnprop {

/// How one case fares.
struct Trial {
  // kOutside: the hypotheses fail, the claim cannot read the case, or it
  // throws on it (an edited case is never reported for an exception).
  enum class Kind { kPasses, kFails, kOutside };
  Kind kind = Kind::kOutside;
  double score = 0;                     // max observed/bound (kPasses)
  std::string message;                  // the failure (kFails)
  std::vector<Observation> observations;
  /// Its candidate failure was left undecided by interval arithmetic
  /// (certify.h): it passes, but as no pass of its own.
  bool undecided = false;
};
Trial Try(const PropertyDef& def, const Case& c);

struct ScoredCase {
  double score = 0;
  Case value;
};

/// A case's niche in the search's archive: every matrix's shape, every int,
/// the number of distinct absolute values among its entries and scalars,
/// bucketed (1, 2, 3-4, 5-8, more), and whether two inputs of one shape are
/// a close pair (HasNearPair).
std::string NicheOf(const Case& c);

/// The best case of each niche, at most `max_niches` of them (a new niche
/// past that displaces the lowest-scoring one when it scores higher).
class Archive {
 public:
  explicit Archive(size_t max_niches = 64) : max_niches_(max_niches) {}
  /// Keeps c when its niche is new (and `may_open`) or c scores at least
  /// the niche's best (a plateau is walked on); true if kept.
  bool Offer(double score, const Case& c, bool may_open = true);
  /// The kept case of rank i (0: the best; ties: the niche kept first).
  const ScoredCase& operator[](size_t i) const { return elites_[i].scored; }
  size_t size() const { return elites_.size(); }
  bool empty() const { return elites_.empty(); }

 private:
  struct Elite {
    std::string niche;
    ScoredCase scored;
    uint64_t order = 0;  // when its niche was first kept (ties in the ranking)
  };
  size_t max_niches_;
  uint64_t next_order_ = 0;
  std::vector<Elite> elites_;  // ranked: score descending, then order
};

struct ClimbResult {
  std::optional<Case> failing;  // a case that fails the conclusion
  std::string message;
  int tried = 0;    // candidates run
  int outside = 0;  // candidates dropped (outside the hypotheses)
  int raised = 0;   // candidates that raised the score of the pool
  int undecided = 0;  // candidates left undecided by interval arithmetic
  double best_score = 0;
};

/// Called with each passing candidate's observations (for the audit's
/// best ratios per metric).
using ObservationsSeen = std::function<void(const std::vector<Observation>&, const Case&)>;

/// Climbs from the random phase's archive for at most `steps` candidates
/// (and `seconds`).
ClimbResult Climb(const PropertyDef& def, Archive pool, uint64_t seed, int steps, double seconds,
                  const ObservationsSeen& seen);

struct ShrinkResult {
  Case value;           // the smallest failing case found
  std::string message;  // its failure
  int tried = 0, accepted = 0;
  int undecided = 0;  // candidates left undecided by interval arithmetic
};

/// Shrinks a failing case for at most `steps` candidates (and `seconds`).
ShrinkResult Shrink(const PropertyDef& def, Case failing, std::string message, int steps, double seconds);

}  // namespace attnprop
