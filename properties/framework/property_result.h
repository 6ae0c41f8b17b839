// What running one property produced: its verdict, the observed error per
// metric (the tolerance audit's numbers), the counterexample and how it was
// found, the stored cases replayed. The runner (runner.h) fills it; Judge
// (judge.h), the run pipeline (run.h) and the reports read it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "properties/framework/case.h"
#include "properties/framework/check.h"
#include "properties/framework/store.h"

namespace attnprop {

/// kSkipped: the property could not run here (a kernel dispatch target this
/// CPU lacks); never counted as holding. kUndecided: no case refuted the
/// claim, but some case's candidate failure was neither certified nor
/// dismissed by interval arithmetic (certify.h): never a pass, never a
/// refutation (Judge: as expected only where the claim's registry row, or
/// the run, allows undecided cases).
enum class Verdict { kHolds, kRefuted, kError, kSkipped, kUndecided };
const char* VerdictName(Verdict v);

/// Observed errors of one tolerance metric over the counted cases (shrink
/// steps are not counted).
struct MetricStats {
  Tolerance tolerance;
  int64_t count = 0;
  double max_ratio = 0;      // max observed/bound (0/0 counts as 0)
  double mean_ratio = 0;     // mean observed/bound
  double max_observed = 0;
  double max_in_u = 0;       // max observed / unit roundoff of the backend (0 if exact)
  double mean_observed = 0;  // mean of the finite observed errors
  double mean_in_u = 0;      // mean observed / unit roundoff (0 if exact)
  double max_bound = 0;      // largest finite bound seen (0: an exact check)
  bool nonfinite = false;    // some observed error or bound was NaN or inf
  int64_t finite_count = 0;  // checks with finite error and bound
  std::vector<double> ratios;  // one per case, for histograms
  std::string worst_case;      // Case::ToText of the case with max_ratio
  int64_t certified = 0;       // cases the backend failed and intervals decided hold (check.h)
  int64_t undecided = 0;       // cases the backend failed and intervals left undecided
  double search_max_ratio = 0; // the best ratio the targeted search reached
  std::string search_worst_case;  // the case that reached it
};

/// Where a refutation came from.
enum class FoundBy { kNone, kStore, kRandom, kSearch };
const char* FoundByName(FoundBy f);

/// What replaying one stored case showed.
struct ReplayOutcome {
  std::string name;
  std::string origin;  // FILE:LINE
  StoredCase::Expect expect = StoredCase::Expect::kHolds;
  bool ok = false;     // behaved as its `expect` says (see RunProperty)
  bool regression = false;  // an expect=holds (or =undecided) case that fails the claim again
  bool undecided = false;   // interval arithmetic left it undecided (counted as such)
  std::string detail;  // what was seen
};

struct PropertyResult {
  std::string id;
  std::string backend;  // full backend name ("kernel-f32@avx2")
  Verdict verdict = Verdict::kError;
  int cases = 0;       // cases run to completion (passed, or the failure)
  int discarded = 0;   // cases whose hypotheses were not met
  double seconds = 0;
  uint64_t seed = 0;   // the per-property seed actually used
  std::vector<MetricStats> metrics;
  std::string message;         // failure or error description
  std::string counterexample;  // shrunk case, exact (Case::ToText)
  std::optional<Case> counterexample_case;
  std::string reproduce;       // token for RC_PARAMS / attnprop reproduce
  int shrink_steps = 0;
  bool shrink_budget_hit = false;  // shrinking stopped at RunOptions::shrink_budget_s
  FoundBy found_by = FoundBy::kNone;  // what produced the counterexample
  int search_tried = 0;     // targeted-search candidates run
  int search_outside = 0;   // of them, outside the hypotheses (dropped)
  double search_best_score = 0;
  bool search_capped = false;  // the search stopped at its time cap
  std::string search_note;  // why the search did not run, when it did not
  /// The counterexample, re-checked in the higher-precision `confirm`: true
  /// when it fails there too (a real refutation, not a rounding artefact).
  std::optional<bool> confirmed;
  /// For a claim certified by intervals (certify.h): the certificate of the
  /// counterexample ("certified by interval arithmetic (128 bits): lhs in
  /// [..] > rhs in [..]"), or why it is not certified.
  std::string certificate;
  /// Cases whose candidate failure the intervals left undecided (not
  /// refutations, not passes): random cases, stored cases pinned
  /// expect=undecided; search candidates and shrink steps are counted apart.
  /// The first one with its reason.
  int undecided = 0;
  int search_undecided = 0;
  int shrink_undecided = 0;
  std::string undecided_example;
  std::vector<ReplayOutcome> replayed;  // stored cases, in file order
  bool pinned_refutation = false;       // some expect=refutes case reproduced fully
  std::string store_entry;  // a new counterexample as a store entry (to save or paste)
  std::string saved_to;     // the store file it was written to, if any
  /// Not saved to a store: the case file written for its replay (absolute;
  /// RunOptions::replay_dir), if any.
  std::string replay_file;
};

/// How a counterexample's confirmation reads in every output: the
/// certificate of a claim certified by intervals ("certified by interval
/// arithmetic (128 bits): ..."), else "confirmed at higher precision" or
/// "NOT confirmed at higher precision"; empty when it was not re-checked.
std::string ConfirmationText(const PropertyResult& r);

}  // namespace attnprop
