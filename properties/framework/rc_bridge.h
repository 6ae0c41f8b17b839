// The RapidCheck bridge: the one file (rc_bridge.cc) that uses rc::detail.
// The snapshot's checkTestable returns a structured result without printing
// (NOTES.md), which is how attnprop owns its reporting; reproduce tokens and
// RC_PARAMS are parsed here too.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "properties/framework/case.h"
#include "properties/framework/runner.h"

namespace attnprop {

/// What one run of a conclusion on a given case showed.
struct Outcome {
  enum class Kind { kPasses, kFails, kDiscarded, kMisfit, kException };
  Kind kind = Kind::kPasses;
  std::string message;  // the failure, the discard, the missing field or the exception
};
/// Runs `conclusion` on `c`, catching RapidCheck's case results (RC_FAIL,
/// RC_PRE), a missing Case field (misfit) and any other exception.
Outcome Evaluate(const std::function<void(const Case&)>& conclusion, const Case& c);

/// Discards the current case (RapidCheck's RC_DISCARD): its hypotheses do
/// not hold.
[[noreturn]] void DiscardCase(const std::string& why);

/// What the random phase reports as it goes (the runner counts cases and
/// keeps the shrunk case).
class CaseEvents {
 public:
  virtual void CaseFinished(bool discarded, bool failed) = 0;
  virtual void ShrinkTried(bool accepted) = 0;
  virtual ~CaseEvents() = default;
};

struct RandomPhase {
  enum class Outcome { kPassed, kFailed, kGaveUp, kError };
  Outcome outcome = Outcome::kError;
  std::string description;  // failure or error, without RapidCheck's own source location
  std::string reproduce;    // "reproduce=..." for a failure
  bool shrink_budget_hit = false;  // shrinking stopped at RunOptions::shrink_budget_s (after the first failure)
};

/// Runs `body` on cases drawn from `gen` (RapidCheck's loop with shrinking);
/// `name` is the property's id/backend (the reproduce token's key). Throws
/// std::invalid_argument when options.reproduce is malformed or for another
/// property. Shrinking stops once options.shrink_budget_s have passed since
/// the first failure; the token then replays the case shrinking had reached.
RandomPhase RunRandomPhase(const std::string& name, const rc::Gen<Case>& gen,
                           const std::function<void(const Case&)>& body, const RunOptions& options, uint64_t seed,
                           CaseEvents& events);

/// `count` cases drawn from `gen` at sizes 0..100 from `seed` (outside any
/// property: a stored case's schema, tests). Cases whose generation throws
/// are left out.
std::vector<Case> SampleCases(const rc::Gen<Case>& gen, uint64_t seed, int count);

/// The property names a reproduce token ("reproduce=..." or its value) is
/// for. Throws std::invalid_argument when it is malformed.
std::vector<std::string> ReproduceTokenProperties(const std::string& token);

/// RunOptions from an RC_PARAMS string (seed, max_success, max_size,
/// noshrink); the seed stays `defaults.seed` unless given. Throws
/// std::invalid_argument on a malformed string.
RunOptions OptionsFromRcParams(const std::string& params, RunOptions defaults);

}  // namespace attnprop
