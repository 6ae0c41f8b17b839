// Everything that touches rc::detail lives in this file.
#include "properties/framework/rc_bridge.h"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include "properties/framework/token_check.h"
#include "rapidcheck/detail/Configuration.h"
#include "rapidcheck/detail/TestListener.h"

namespace attnprop {
namespace {

using CaseType = rc::detail::CaseResult::Type;

/// RapidCheck prefixes a failure with "FILE:LINE:\nRC_FAIL(expr)\n\n": the
/// harness's own source location, not the claim's. Keep only the message.
std::string CleanDescription(const std::string& d) {
  const auto nl = d.find('\n');
  if (nl == std::string::npos || nl == 0 || d[nl - 1] != ':' || d.compare(nl + 1, 3, "RC_") != 0) return d;
  const auto blank = d.find("\n\n", nl);
  return blank == std::string::npos ? d : d.substr(blank + 2);
}

/// RapidCheck's size for the i-th case (sizeFor in its src/detail/Testing.cpp,
/// which it does not export): the listener replays the search with it.
int SizeFor(const rc::detail::TestParams& params, int i) {
  const int sizes = params.maxSize + 1;
  const int regular = (params.maxSuccess / sizes) * sizes;
  if (i < regular) return i % sizes;
  const int rest = params.maxSuccess - regular;
  return rest == 1 ? 0 : ((i % sizes) * params.maxSize) / (rest - 1);
}

/// Thrown from the listener when the shrinking budget is spent: RapidCheck
/// would otherwise try every remaining candidate of its current shrink
/// level (71,199 of them, 46 s under ASan, for one kernel property).
struct ShrinkBudgetSpent {};

/// Passes RapidCheck's events on, and follows its search (searchProperty and
/// shrinkTestCase, this snapshot) so that the failing case's random state,
/// size and shrink path are known here: the reproduce token of a shrink
/// stopped at the budget, which RapidCheck never returns.
class Listener : public rc::detail::TestListener {
 public:
  Listener(CaseEvents& events, const rc::detail::TestParams& params, double shrink_budget_s)
      : events_(events), params_(params), budget_s_(shrink_budget_s), random_(params.seed) {}
  void onTestCaseFinished(const rc::detail::CaseDescription& d) override {
    failure_.size = SizeFor(params_, successes_) + recent_discards_ / 10;
    failure_.random = random_.split();
    switch (d.result.type) {
      case CaseType::Success: ++successes_, recent_discards_ = 0; break;
      case CaseType::Discard: ++recent_discards_; break;
      case CaseType::Failure:
        failed_at_ = Clock::now();
        description_ = d.result.description;
        break;
    }
    events_.CaseFinished(d.result.type == CaseType::Discard, d.result.type == CaseType::Failure);
  }
  void onShrinkTried(const rc::detail::CaseDescription& d, bool accepted) override {
    events_.ShrinkTried(accepted);
    if (accepted) {
      failure_.shrinkPath.push_back(tried_at_level_);
      tried_at_level_ = 0;
      description_ = d.result.description;
    } else {
      ++tried_at_level_;
    }
    if (std::chrono::duration<double>(Clock::now() - failed_at_).count() > budget_s_) throw ShrinkBudgetSpent{};
  }
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}

  /// The failing case as far as shrinking got, and its message.
  const rc::detail::Reproduce& failure() const { return failure_; }
  const std::string& description() const { return description_; }

 private:
  using Clock = std::chrono::steady_clock;
  CaseEvents& events_;
  const rc::detail::TestParams& params_;
  const double budget_s_;
  rc::Random random_;  // RapidCheck's: one split per case, from the seed
  int successes_ = 0;
  int recent_discards_ = 0;
  size_t tried_at_level_ = 0;
  Clock::time_point failed_at_;
  rc::detail::Reproduce failure_;
  std::string description_;
};

/// "reproduce=..." for one property's failing case (seed and size are inside).
std::string ReproduceToken(const std::string& name, const rc::detail::Reproduce& failure) {
  rc::detail::Configuration config;
  config.reproduce[name] = failure;
  std::string token = rc::detail::configToMinimalString(config);
  const auto pos = token.find("reproduce=");
  if (pos == std::string::npos) return token;
  token = token.substr(pos);
  const auto end = token.find(' ');
  if (end != std::string::npos) token.resize(end);
  return token;
}

rc::detail::Configuration ParseConfig(const std::string& text, const char* what) {
  // RapidCheck's decoder trusts a reproduce value: check its bytes first.
  if (text.find("reproduce=") != std::string::npos) CheckReproduceToken(text);
  try {
    return rc::detail::configFromString(text);
  } catch (const std::exception& e) {
    throw std::invalid_argument(std::string("malformed ") + what + ": " + e.what());
  }
}

// Limits on a decoded reproduce token, checked before RapidCheck replays it:
// a mutated token decodes to sizes, random states and shrink paths that
// crash or hang the snapshot (a size above 100 is undefined behaviour; a bit
// index past 64 reads outside the random block; a long shrink path walks
// for hours).
constexpr size_t kMaxShrinkPath = 100000;
constexpr uint64_t kMaxShrinkSteps = 1000000;

void CheckReproduce(const std::unordered_map<std::string, rc::detail::Reproduce>& map) {
  if (map.empty()) throw std::invalid_argument("malformed reproduce token: it names no property");
  for (const auto& [name, r] : map) {
    const std::string what = "malformed reproduce token (for " + name + "): ";
    if (r.size < 0 || r.size > 100) throw std::invalid_argument(what + "size " + std::to_string(r.size) + " (0 to 100)");
    if (r.shrinkPath.size() > kMaxShrinkPath) throw std::invalid_argument(what + "shrink path too long");
    uint64_t steps = 0;
    for (size_t i : r.shrinkPath) {
      steps += std::min<uint64_t>(i, kMaxShrinkSteps) + 1;
      if (steps > kMaxShrinkSteps) throw std::invalid_argument(what + "shrink path too long");
    }
    // The random state serialises as key, bits, counter (a varint), then the
    // index of the next bit. A replayed state is one RapidCheck split off, so
    // its counter is 0 (split() asserts it: a mutated token aborted here,
    // found by fuzz/token_decoder), and a bit index past 64 would read
    // outside its 64-bit block.
    std::vector<uint8_t> bytes;
    rc::serialize(r.random, std::back_inserter(bytes));
    if (bytes.size() < 2 || bytes.back() > 64 || bytes[bytes.size() - 2] != 0)
      throw std::invalid_argument(what + "random state out of range");
  }
}

}  // namespace

Outcome Evaluate(const std::function<void(const Case&)>& conclusion, const Case& c) {
  try {
    conclusion(c);
  } catch (const rc::detail::CaseResult& r) {
    if (r.type == CaseType::Failure) return {Outcome::Kind::kFails, CleanDescription(r.description)};
    return {Outcome::Kind::kDiscarded, r.description};  // the hypotheses do not hold
  } catch (const std::out_of_range& e) {
    return {Outcome::Kind::kMisfit, std::string(kCaseMisfit) + e.what()};  // Case::Get* on a missing field
  } catch (const std::exception& e) {
    return {Outcome::Kind::kException, std::string("exception: ") + e.what()};
  } catch (const Undecided& u) {
    return {Outcome::Kind::kException, std::string("undecided: ") + u.what()};
  }
  return {};
}

void RunCandidate(const std::function<void(const Case&)>& fast, const Case& c, CandidateScope& scope) {
  try {
    fast(c);
  } catch (const rc::detail::CaseResult& r) {
    if (r.type != CaseType::Failure) throw;
    const Certificate& cert = scope.Get();
    if (cert.verdict == Certainty::kViolated) {
      const std::string line = CertificateLine(cert);
      if (r.description.find(line) != std::string::npos) throw;  // an attnprop check's, already certified
      RC_FAIL(line + "\n  (a candidate: in this backend " + CleanDescription(r.description) + ")");
    }
    if (cert.verdict == Certainty::kUndecided)
      if (ObservationSink* sink = CurrentObservationSink()) sink->NoteUndecided(CertificateLine(cert));
  }
}

std::optional<std::string> CheckCase(const std::function<void(const Case&)>& conclusion, const Case& c) {
  const Outcome o = Evaluate(conclusion, c);
  switch (o.kind) {
    case Outcome::Kind::kPasses:
    case Outcome::Kind::kDiscarded: return std::nullopt;
    default: return o.message;
  }
}

void DiscardCase(const std::string& why) { throw rc::detail::CaseResult(CaseType::Discard, why); }

RandomPhase RunRandomPhase(const std::string& name, const rc::Gen<Case>& gen,
                           const std::function<void(const Case&)>& body, const RunOptions& options, uint64_t seed,
                           CaseEvents& events) {
  rc::detail::TestParams params;
  params.seed = seed;
  params.maxSuccess = options.max_success;
  params.maxSize = std::min(options.max_size, 100);  // > 100 is UB in this snapshot
  params.disableShrinking = !options.shrink;

  rc::detail::TestMetadata metadata;
  metadata.id = name;
  metadata.description = name;

  std::unordered_map<std::string, rc::detail::Reproduce> reproduce_map;
  if (!options.reproduce.empty()) {
    reproduce_map = ParseConfig(options.reproduce, "reproduce token").reproduce;
    CheckReproduce(reproduce_map);
    if (!reproduce_map.count(name))
      throw std::invalid_argument("the reproduce token is for another property, not " + name);
  }

  Listener listener(events, params, options.shrink_budget_s);
  RandomPhase out;
  std::optional<rc::detail::TestResult> r;
  try {
    r.emplace(rc::detail::checkTestable(
        [&] {
          const Case c = *gen;
          body(c);
        },
        metadata, params, listener, reproduce_map));
  } catch (const ShrinkBudgetSpent&) {
    out.outcome = RandomPhase::Outcome::kFailed;
    out.description = CleanDescription(listener.description());
    out.reproduce = ReproduceToken(name, listener.failure());
    out.shrink_budget_hit = true;
    return out;
  }

  rc::detail::SuccessResult success;
  rc::detail::FailureResult failure;
  rc::detail::GaveUpResult gave_up;
  rc::detail::Error error;
  if (r->match(success)) {
    out.outcome = RandomPhase::Outcome::kPassed;
  } else if (r->match(failure)) {
    out.outcome = RandomPhase::Outcome::kFailed;
    out.description = CleanDescription(failure.description);
    out.reproduce = ReproduceToken(name, failure.reproduce);
    // The listener's copy of the search must agree with RapidCheck's, or a
    // token for a shrink stopped at the budget would replay another case.
    if (reproduce_map.empty() && listener.failure() != failure.reproduce)
      throw std::logic_error("rc_bridge: the listener's replay of RapidCheck's search disagrees with its token " +
                             out.reproduce);
  } else if (r->match(gave_up)) {
    out.outcome = RandomPhase::Outcome::kGaveUp;
    out.description = "gave up: " + gave_up.description;
  } else if (r->match(error)) {
    out.outcome = RandomPhase::Outcome::kError;
    out.description = error.description;
  }
  return out;
}

std::vector<Case> SampleCases(const rc::Gen<Case>& gen, uint64_t seed, int count) {
  std::vector<Case> out;
  rc::Random random(seed);
  for (int i = 0; i < count; ++i) {
    try {
      out.push_back(gen(random.split(), i * 100 / std::max(1, count - 1)).value());
    } catch (...) {
      // A generator that gives up (RapidCheck's GenerationFailure) makes no case.
    }
  }
  return out;
}

std::vector<std::string> ReproduceTokenProperties(const std::string& token) {
  const std::string text = token.rfind("reproduce=", 0) == 0 ? token : "reproduce=" + token;
  const auto map = ParseConfig(text, "reproduce token").reproduce;
  CheckReproduce(map);
  std::vector<std::string> names;
  for (const auto& [k, v] : map) names.push_back(k);
  return names;
}

/// RC_PARAMS as strictly as attnprop's own options: only RapidCheck's keys,
/// and a number where one is wanted (RapidCheck reads "max_success=1e3" as 1
/// and ignores a key it does not know: a run that silently checks less).
void CheckRcParams(const std::string& params) {
  static const std::set<std::string> kNumbers = {"seed", "max_success", "max_size", "max_discard_ratio"};
  static const std::set<std::string> kFlags = {"noshrink", "verbose_progress", "verbose_shrinking"};
  std::istringstream in(params);
  for (std::string item; in >> item;) {
    const size_t eq = item.find('=');
    const std::string key = item.substr(0, eq), value = eq == std::string::npos ? "" : item.substr(eq + 1);
    if (key == "reproduce") continue;  // checked by ParseConfig
    if (kNumbers.count(key)) {
      const size_t digits = value.find_first_not_of("0123456789", value[0] == '-' ? 1 : 0);
      if (value.empty() || value == "-" || digits != std::string::npos || value.size() > 19)
        throw std::invalid_argument("RC_PARAMS: " + key + "=" + value + " is not a whole number");
    } else if (!kFlags.count(key) || (eq != std::string::npos && value != "0" && value != "1")) {
      throw std::invalid_argument("RC_PARAMS: unknown setting '" + item +
                                  "' (seed, max_success, max_size, max_discard_ratio, noshrink, verbose_progress, "
                                  "verbose_shrinking, reproduce)");
    }
  }
}

RunOptions OptionsFromRcParams(const std::string& params, RunOptions o) {
  if (params.empty()) return o;
  CheckRcParams(params);
  const rc::detail::Configuration config = ParseConfig(params, "RC_PARAMS");
  if (params.find("seed=") != std::string::npos) o.seed = config.testParams.seed;
  o.max_success = config.testParams.maxSuccess;
  o.max_size = config.testParams.maxSize;
  // A run of no case would report every property as holding: refuse it.
  if (params.find("max_success") != std::string::npos && o.max_success <= 0)
    throw std::invalid_argument("RC_PARAMS: max_success=" + std::to_string(o.max_success) +
                                " runs no case, so nothing would be checked (at least 1)");
  if (o.max_size < 0) throw std::invalid_argument("RC_PARAMS: max_size=" + std::to_string(o.max_size) + " (0 to 100)");
  o.shrink = !config.testParams.disableShrinking;
  return o;
}

}  // namespace attnprop
