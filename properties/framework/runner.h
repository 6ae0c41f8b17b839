// The one runner: owns the run of one property (stored cases first, then the
// random cases through RapidCheck, then the shrunk counterexample confirmed)
// and records what the audit and the reports need. ctest, `attnprop run`,
// `audit`, `reproduce` and `check-kernel` all run properties through
// RunProperty; Judge (judge.h) decides what a result means.
//   runner.cc     this orchestration
//   rc_bridge.cc  the RapidCheck loop (the only file that includes rc::detail)
//   replay.cc     the store-replay phase
//   audit_stats.cc  observed error per metric (the tolerance audit's numbers)
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "properties/framework/property.h"
#include "properties/framework/property_result.h"
#include "properties/framework/store.h"

namespace attnprop {

/// The seed used when none is given: runs are deterministic by default.
inline constexpr uint64_t kDefaultSeed = 20261129;

struct RunOptions {
  uint64_t seed = kDefaultSeed;  // mixed with the property name per property
  int max_success = 100;         // cases that must pass
  int max_size = 100;            // RapidCheck size; > 100 is UB in this snapshot
  bool shrink = true;
  /// Shrinking one failure stops after this many seconds (a kernel that hangs
  /// on every case would otherwise cost a time limit per shrink step); the
  /// smallest failing case found so far is the counterexample.
  double shrink_budget_s = 20;
  /// The targeted search after the random cases pass: at most this many
  /// candidates (search.h; 0 = none, the default until every claim's
  /// HypothesesHold states its whole domain), and at most search_seconds of
  /// wall time (a cap:
  /// when it bites, the result says so and the run is no longer
  /// reproducible to the byte).
  int search_steps = 0;
  double search_seconds = 30;
  /// search_steps scaled by how close the random cases came to a bound
  /// (their best observed/bound, s): twice the candidates for s >= 1/2,
  /// half for s < 1/100 (check-kernel: candidates go where a kernel's error
  /// is nearest its bound; deterministic, s is).
  bool search_by_closeness = false;
  /// The generic shrinker's candidates after RapidCheck's own shrinking.
  int shrink_tries = 2000;
  std::string reproduce;         // a reproduce token ("reproduce=...") or empty
  /// The counterexample store replayed before the random cases ("" = none).
  std::string store_dir;
  /// Where a new counterexample of a claim expected to hold is saved ("" =
  /// nowhere; PropertyResult::store_entry still holds the text to paste).
  std::string save_dir;
  /// save_dir is a default the user did not name (check-kernel's
  /// ./attnprop-counterexamples/...): created as a cache, with a .gitignore
  /// of `*`, so a run in a git checkout leaves `git status` clean.
  bool save_dir_is_cache = false;
  /// Where a counterexample that no store keeps (--no-save, a claim
  /// registered refuted, a store that could not be written) is written as a
  /// case file, so that every printed replay names a file that replays it
  /// from any folder ("" = DefaultReplayDir()). Absolute.
  std::string replay_dir;
};

/// ${TMPDIR:-/tmp}/attnprop-replay-<uid>: the replay files of a run that
/// names no output folder.
std::string DefaultReplayDir();

/// Runs a property: first the stored cases of options.store_dir that apply
/// to its backend, then the random cases.
///  - expect=holds: must satisfy the hypotheses and pass. One that fails
///    refutes the claim (the random search is then skipped).
///  - expect=refutes: must still fail, still satisfy the hypotheses
///    (def.hypotheses_hold) and fail again in def.confirm; then
///    pinned_refutation is set and the verdict is refuted.
/// A stored case that does not behave so makes the verdict kError. A new
/// counterexample of a claim registered `holds` is saved to options.save_dir.
/// A property whose def.skip_reason is set is not run (kSkipped).
/// Throws StoreError for a malformed store file, std::invalid_argument for a
/// bad reproduce token.
PropertyResult RunProperty(const PropertyDef& def, const RunOptions& options);

/// Replays one case as RunProperty replays a stored one (replay.cc).
ReplayOutcome ReplayCase(const PropertyDef& def, const StoredCase& stored);

/// Runs the conclusion on one given case (a stored counterexample): nullopt
/// when it holds, else the failure message; a case without the fields the
/// claim reads in this backend gives a message starting with kCaseMisfit
/// (rc_bridge.cc: it catches RapidCheck's case results).
std::optional<std::string> CheckCase(const std::function<void(const Case&)>& conclusion, const Case& c);

/// CheckCase with three outcomes (and the misfit): a case on which the fast
/// backend failed and interval arithmetic neither certified nor dismissed
/// the failure is kUndecided, never a pass. What `reproduce` and the store
/// replay read.
struct CaseCheck {
  enum class Kind { kHolds, kFails, kUndecided, kMisfit };
  Kind kind = Kind::kHolds;
  std::string detail;  // the failure, why undecided, or why it does not fit
};
CaseCheck CheckCaseDecided(const std::function<void(const Case&)>& conclusion, const Case& c);

inline constexpr const char* kCaseMisfit = "the case does not fit the claim in this backend: ";
/// Whether CheckCase's answer says the case does not fit (not a refutation).
bool IsMisfit(const std::optional<std::string>& failure);

/// The per-property seed: the base seed mixed with the property's name, so
/// adding a property never changes another's cases.
uint64_t PropertySeed(uint64_t base, const std::string& name);

}  // namespace attnprop
