// The one runner: owns the RapidCheck loop for a property and records what
// the audit and the reports need. The ctest tests and the attnprop command
// both run properties through RunProperty.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "properties/framework/property.h"

namespace attnprop {

/// The seed used when none is given: runs are deterministic by default.
inline constexpr uint64_t kDefaultSeed = 20261129;

struct RunOptions {
  uint64_t seed = kDefaultSeed;  // mixed with the property name per property
  int max_success = 100;         // cases that must pass
  int max_size = 100;            // RapidCheck size; > 100 is UB in this snapshot
  bool shrink = true;
  std::string reproduce;         // a reproduce token ("reproduce=...") or empty
};

enum class Verdict { kHolds, kRefuted, kError };
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
  bool nonfinite = false;    // some observed error or bound was NaN or inf
  std::vector<double> ratios;  // one per case, for histograms
  std::string worst_case;      // Case::ToText of the case with max_ratio
};

struct PropertyResult {
  std::string id;
  std::string backend;
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
};

PropertyResult RunProperty(const PropertyDef& def, const RunOptions& options);

/// Runs the conclusion on one given case (a stored counterexample): nullopt
/// when it holds, else the failure message.
std::optional<std::string> CheckCase(const std::function<void(const Case&)>& conclusion, const Case& c);

/// The per-property seed: the base seed mixed with the property's name, so
/// adding a property never changes another's cases.
uint64_t PropertySeed(uint64_t base, const std::string& name);

}  // namespace attnprop
