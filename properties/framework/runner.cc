#include "properties/framework/runner.h"

#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include <sys/stat.h>
#include <unistd.h>

#include "properties/framework/atomic_file.h"
#include "properties/framework/audit_stats.h"
#include "properties/framework/backend.h"
#include "properties/framework/case_edit.h"
#include "properties/framework/certify.h"
#include "properties/framework/rc_bridge.h"
#include "properties/framework/registry.h"
#include "properties/framework/replay.h"
#include "properties/framework/search.h"

namespace attnprop {
namespace {

using Clock = std::chrono::steady_clock;

/// Counts cases, commits the observations of counted cases only (random
/// cases, not shrink steps), keeps the current shrunk case and the first
/// failing case.
class Events : public CaseEvents {
 public:
  Events(PropertyResult& result, MetricAccumulator& acc) : result_(result), acc_(acc) {}
  void CaseFinished(bool discarded, bool failed) override {
    if (discarded) {
      ++result_.discarded;
      acc_.Drop();
      return;
    }
    ++result_.cases;
    if (!failed && acc_.current()) best.Offer(acc_.PendingScore(), *acc_.current());
    acc_.Commit();
    if (failed) {
      failing = acc_.current();
      if (!unshrunk) unshrunk = failing;
    }
  }
  void ShrinkTried(bool accepted) override {
    ++result_.shrink_steps;
    if (accepted) failing = acc_.current();
    acc_.Drop();
  }

  std::optional<Case> failing;
  std::optional<Case> unshrunk;  // the first failing case, before RapidCheck's shrinking
  Archive best;                  // the random phase's best case per niche: the search starts there

 private:
  PropertyResult& result_;
  MetricAccumulator& acc_;
};

void SetCounterexample(PropertyResult& r, const Case& c) {
  r.counterexample_case = c;
  r.counterexample = c.ToText();
}

/// Whether the counterexample survives the claim's confirmation: certified
/// by interval arithmetic when the claim is (certify.h), else re-checked at
/// higher precision.
void Confirm(const PropertyDef& def, const Case& c, PropertyResult& r) {
  if (def.certify) {
    const Certificate cert = def.certify(c);
    r.confirmed = cert.verdict == Certainty::kViolated;
    r.certificate = CertificateLine(cert);
    return;
  }
  r.confirmed = CheckCase(def.confirm, c).has_value();
}

/// After RapidCheck's shrinking (which can only follow its generators'
/// shrink trees), the generic shrinker: rows and columns dropped, values
/// simplified, every candidate inside the hypotheses. RapidCheck simplifies
/// values before it drops dimensions, and a simpler value can be what keeps
/// a narrower case from failing; the generic shrinker drops dimensions
/// first, so it also starts from `unshrunk` (the first failing case) and the
/// smaller of the two results is kept (ties: the first).
void ShrinkFurther(const PropertyDef& def, const RunOptions& options, PropertyResult& result,
                   const std::optional<Case>& unshrunk = std::nullopt) {
  if (!def.checks_hypotheses || !options.shrink || !result.counterexample_case) return;
  if (!def.hypotheses_hold(*result.counterexample_case)) return;  // reported as it is; Judge sees it
  const auto start = Clock::now();
  ShrinkResult s =
      Shrink(def, *result.counterexample_case, result.message, options.shrink_tries, options.shrink_budget_s);
  result.shrink_steps += s.tried;
  result.shrink_undecided += s.undecided;
  // The second start shares the first's budget (tries and seconds): what it left.
  const double seconds_left =
      options.shrink_budget_s - std::chrono::duration<double>(Clock::now() - start).count();
  if (unshrunk && CaseSize(*unshrunk) > CaseSize(s.value) && s.tried < options.shrink_tries && seconds_left > 0 &&
      def.hypotheses_hold(*unshrunk)) {
    ShrinkResult from_start =
        Shrink(def, *unshrunk, result.message, options.shrink_tries - s.tried, seconds_left);
    result.shrink_steps += from_start.tried;
    result.shrink_undecided += from_start.undecided;
    if (from_start.accepted > 0 && CaseSize(from_start.value) < CaseSize(s.value)) s = std::move(from_start);
  }
  if (s.accepted == 0) return;
  // The reproduce token replays the search before this shrinking, which is
  // deterministic: the same token leads to the same case.
  SetCounterexample(result, s.value);
  result.message = s.message;
}

/// The targeted search, after the random cases passed: climb from their
/// best cases; a failing case found refutes the claim and is shrunk.
void Search(const PropertyDef& def, const RunOptions& options, PropertyResult& result, Archive seeds,
            MetricAccumulator& acc) {
  if (options.search_steps <= 0) return;
  if (!def.checks_hypotheses) {
    result.search_note = "no targeted search: the claim has no HypothesesHold";
    return;
  }
  int steps = options.search_steps;
  if (options.search_by_closeness) {
    const double closest = seeds.empty() ? 0 : seeds[0].score;
    steps = closest >= 0.5 ? 2 * steps : closest < 0.01 ? std::max(1, steps / 2) : steps;
  }
  const auto start = Clock::now();
  ClimbResult climb = Climb(def, std::move(seeds), result.seed ^ 0x7a26e7ed5ea2c4ULL, steps,
                            options.search_seconds,
                            [&](const std::vector<Observation>& seen, const Case& c) { acc.ObserveSearch(seen, c); });
  result.search_tried = climb.tried;
  result.search_outside = climb.outside;
  result.search_best_score = climb.best_score;
  result.search_undecided = climb.undecided;
  result.search_capped = !climb.failing && climb.tried < steps &&
                         std::chrono::duration<double>(Clock::now() - start).count() >= options.search_seconds;
  if (!climb.failing) return;
  result.verdict = Verdict::kRefuted;
  result.found_by = FoundBy::kSearch;
  result.message = climb.message;
  SetCounterexample(result, *climb.failing);
  ShrinkFurther(def, options, result);
}

/// The random phase: cases drawn from the hypotheses, shrinking on failure.
void RandomCases(const PropertyDef& def, const RunOptions& options, PropertyResult& result) {
  MetricAccumulator acc(UnitRoundoffOf(def.backend));
  Events events(result, acc);
  const rc::Gen<Case> gen = def.hypotheses();
  RandomPhase phase;
  {
    ScopedObservationSink sink(&acc);
    phase = RunRandomPhase(
        def.Name(), gen,
        [&](const Case& c) {
          acc.StartCase(c);
          // A generator that falls back outside the claim's hypotheses makes
          // no case: the runner checks them on every case, shrink steps too.
          if (def.checks_hypotheses && !def.hypotheses_hold(c)) DiscardCase("outside the claim's hypotheses");
          def.conclusion(c);
        },
        options, result.seed, events);
  }
  if (phase.outcome == RandomPhase::Outcome::kPassed) {
    result.verdict = Verdict::kHolds;
    Search(def, options, result, std::move(events.best), acc);
    result.metrics = std::move(acc.stats());
    result.undecided = acc.undecided();
    result.undecided_example = acc.undecided_example();
    return;
  }
  result.metrics = std::move(acc.stats());
  result.undecided = acc.undecided();
  result.undecided_example = acc.undecided_example();
  switch (phase.outcome) {
    case RandomPhase::Outcome::kPassed: break;
    case RandomPhase::Outcome::kFailed: {
      result.verdict = Verdict::kRefuted;
      result.found_by = FoundBy::kRandom;
      result.message = phase.description;
      result.reproduce = phase.reproduce;
      result.shrink_budget_hit = phase.shrink_budget_hit;
      // Replaying a reproduce token runs the failing case alone, without the
      // case events: the last case run is then the counterexample.
      const std::optional<Case> c = events.failing ? events.failing : acc.current();
      if (!c) break;
      SetCounterexample(result, *c);
      // The final case's own message (RapidCheck's may be a shrink step's).
      const auto again = CheckCase(def.conclusion, *c);
      if (again) result.message = *again;
      else result.message += " (the shrunk case passed when run again: a flaky check?)";
      if (result.shrink_budget_hit) result.message += " [shrinking stopped at the time budget]";
      ShrinkFurther(def, options, result, events.unshrunk);
      break;
    }
    case RandomPhase::Outcome::kGaveUp:
    case RandomPhase::Outcome::kError:
      result.verdict = Verdict::kError;
      result.message = phase.description;
      break;
  }
}

/// The refuting case's own observations enter its metrics (issue 33: a
/// failing property read "worst err/bound 0", from the cases that passed
/// before the failure, or nothing at all): its ratio (> 1, inf where the
/// output is not finite) is the metric's worst.
void RecordRefutingCase(const PropertyDef& def, PropertyResult& result) {
  if (!result.counterexample_case) return;
  MetricAccumulator acc(UnitRoundoffOf(def.backend));
  {
    ScopedObservationSink sink(&acc);
    acc.StartCase(*result.counterexample_case);
    const std::optional<std::string> failure = CheckCase(def.conclusion, *result.counterexample_case);
    // A failure that recorded no failing ratio (a crash, a return code, a
    // condition checked without a magnitude) is one at an infinite ratio.
    // (A ratio of exactly 1 is a failure whose sides are equal as doubles.)
    if (failure && !(acc.PendingScore() >= 1)) acc.Observe({ConditionTolerance(), HUGE_VAL, 0});
  }
  acc.Commit();
  for (const MetricStats& seen : acc.stats()) {
    auto it = std::find_if(result.metrics.begin(), result.metrics.end(),
                           [&](const MetricStats& m) { return m.tolerance.metric == seen.tolerance.metric; });
    if (it == result.metrics.end()) {
      result.metrics.push_back(seen);
      continue;
    }
    MetricStats& m = *it;
    m.count += seen.count;
    m.ratios.insert(m.ratios.end(), seen.ratios.begin(), seen.ratios.end());
    m.mean_ratio += (seen.mean_ratio - m.mean_ratio) * static_cast<double>(seen.count) / static_cast<double>(m.count);
    if (seen.max_ratio > m.max_ratio) m.max_ratio = seen.max_ratio, m.worst_case = seen.worst_case;
    m.nonfinite = m.nonfinite || seen.nonfinite;
    m.max_observed = std::max(m.max_observed, seen.max_observed);
    m.max_bound = std::max(m.max_bound, seen.max_bound);
  }
}

/// The counterexample as a case file (Case text, which `reproduce ID FILE`
/// checks: exit 1 when it refutes) in options.replay_dir, named for the
/// property and the case (FNV-1a of its text: the same case, the same file).
void WriteReplayFile(const PropertyDef& def, const RunOptions& options, PropertyResult& result) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (const unsigned char ch : result.counterexample) h = (h ^ ch) * 0x100000001b3ULL;
  char tag[24];
  std::snprintf(tag, sizeof tag, "%016llx", static_cast<unsigned long long>(h));
  std::string name = def.Name() + "." + tag + ".case";
  for (char& ch : name)
    if (ch == '/' || ch == '@') ch = '.';
  const std::string dir = options.replay_dir.empty() ? DefaultReplayDir() : options.replay_dir;
  try {
    // Private to this user: a shared /tmp folder another user made (or a
    // link planted there) is not written through.
    if (std::filesystem::create_directories(dir)) ::chmod(dir.c_str(), 0700);
    struct stat st {};
    if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid())
      throw std::runtime_error("not a folder of this user");
    const std::string path = std::filesystem::absolute(std::filesystem::path(dir) / name).lexically_normal().string();
    WriteFileAtomically(path, result.counterexample);
    result.replay_file = path;
  } catch (const std::exception& e) {
    result.message += "\n(could not write the counterexample's replay file in " + dir + ": " + e.what() + ")";
  }
}

/// A new counterexample: confirmed, and kept for the store (or, when no
/// store keeps it, as a replay file).
void KeepCounterexample(const PropertyDef& def, const RunOptions& options, PropertyResult& result) {
  Confirm(def, *result.counterexample_case, result);
  const bool expect_refuted = def.row && def.row->expect == Expectation::kRefuted;
  StoredCase entry;
  char name[96];
  std::snprintf(name, sizeof name, "found-%s-seed%llu", std::string(BaseBackend(def.backend)).c_str(),
                static_cast<unsigned long long>(options.seed));
  entry.name = name;
  entry.expect = expect_refuted ? StoredCase::Expect::kRefutes : StoredCase::Expect::kHolds;
  entry.backends = {def.backend};
  entry.value = *result.counterexample_case;
  result.store_entry = FormatStoredCase(entry);
  if (!expect_refuted && !options.save_dir.empty()) {
    try {
      if (SaveToStore(options.save_dir, def.id, entry, options.save_dir_is_cache ? StoreKind::kCache : StoreKind::kNamed)) result.saved_to = StorePath(options.save_dir, def.id);
    } catch (const StoreError& e) {
      result.message += "\n(could not save the counterexample: " + std::string(e.what()) + ")";
    }
  }
  if (result.saved_to.empty()) WriteReplayFile(def, options, result);
}

}  // namespace

std::string DefaultReplayDir() {
  const char* tmp = std::getenv("TMPDIR");
  const std::string base = tmp && *tmp ? tmp : "/tmp";
  return std::filesystem::absolute(base + "/attnprop-replay-" + std::to_string(::getuid())).lexically_normal().string();
}

const char* FoundByName(FoundBy f) {
  switch (f) {
    case FoundBy::kNone: return "none";
    case FoundBy::kStore: return "store";
    case FoundBy::kRandom: return "random";
    case FoundBy::kSearch: return "search";
  }
  return "none";
}

std::string ConfirmationText(const PropertyResult& r) {
  if (!r.confirmed) return "";
  if (!r.certificate.empty()) return *r.confirmed ? r.certificate : "NOT certified: " + r.certificate;
  // An exact backend's comparison is itself the proof.
  if (const BackendInfo* b = FindBackend(r.backend); b && b->exact)
    return *r.confirmed ? "certified by exact rational arithmetic" : "NOT confirmed in exact arithmetic";
  return *r.confirmed ? "confirmed at higher precision" : "NOT confirmed at higher precision";
}

const char* VerdictName(Verdict v) {
  switch (v) {
    case Verdict::kHolds: return "holds";
    case Verdict::kRefuted: return "refuted";
    case Verdict::kError: return "error";
    case Verdict::kSkipped: return "skipped";
    case Verdict::kUndecided: return "undecided";
  }
  return "error";
}

uint64_t PropertySeed(uint64_t base, const std::string& name) {
  uint64_t h = 1469598103934665603ULL;  // FNV-1a
  for (unsigned char ch : name) h = (h ^ ch) * 1099511628211ULL;
  return base ^ h;
}

bool IsMisfit(const std::optional<std::string>& failure) {
  return failure && failure->rfind(kCaseMisfit, 0) == 0;
}

PropertyResult RunProperty(const PropertyDef& def, const RunOptions& options) {
  PropertyResult result;
  result.id = def.id;
  result.backend = def.backend;
  result.seed = PropertySeed(options.seed, def.Name());
  const auto start = Clock::now();
  auto finish = [&] {
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return result;
  };
  if (!def.skip_reason.empty()) {
    result.verdict = Verdict::kSkipped;
    result.message = def.skip_reason;
    return finish();
  }

  // 1. The stored cases, before any random case.
  StorePhase store = ReplayStore(def, options.store_dir);
  result.replayed = store.outcomes;
  result.pinned_refutation = store.pinned.has_value();
  auto add_store_problems = [&] {
    if (store.problems.empty()) return;
    std::string all;
    for (const auto& p : store.problems) all += p + "\n";
    result.verdict = Verdict::kError;
    result.message = all + result.message;
  };
  if (store.regression) {
    // A regression case fails again: the claim is refuted, no search needed.
    const StoredCase& sc = store.cases[*store.regression];
    result.verdict = Verdict::kRefuted;
    result.found_by = FoundBy::kStore;
    result.message = "stored case " + sc.name + " (" + sc.origin + ") " + store.outcomes[*store.regression].detail;
    SetCounterexample(result, sc.value);
    Confirm(def, sc.value, result);
    RecordRefutingCase(def, result);
    add_store_problems();
    return finish();
  }

  // 2. The random cases; 3. a new counterexample confirmed and kept.
  RandomCases(def, options, result);
  if (result.verdict == Verdict::kRefuted && result.counterexample_case) {
    KeepCounterexample(def, options, result);
    RecordRefutingCase(def, result);
  }

  // 4. The verdict, with what the store showed. Undecided cases (random,
  // search candidates, stored) leave a claim that nothing refuted
  // undecided, never holding.
  result.undecided += store.undecided;
  if (result.undecided_example.empty()) result.undecided_example = store.undecided_example;
  if (result.verdict == Verdict::kHolds && !store.pinned && (result.undecided > 0 || result.search_undecided > 0))
    result.verdict = Verdict::kUndecided;
  if ((result.verdict == Verdict::kHolds || result.verdict == Verdict::kUndecided) && store.pinned) {
    const StoredCase& sc = store.cases[*store.pinned];
    result.verdict = Verdict::kRefuted;
    result.found_by = FoundBy::kStore;
    result.message = "pinned counterexample " + sc.name + " (" + sc.origin + ") refutes the claim";
    SetCounterexample(result, sc.value);
    result.confirmed = true;  // replayed in full by ReplayStore
    if (def.certify) Confirm(def, sc.value, result);
    RecordRefutingCase(def, result);
  }
  add_store_problems();
  return finish();
}

}  // namespace attnprop
