// Everything that touches rc::detail lives in this file (see NOTES.md: the
// snapshot's checkTestable returns a structured result without printing).
#include "properties/framework/runner.h"

#include <rapidcheck.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include "properties/framework/registry.h"
#include "rapidcheck/detail/Configuration.h"
#include "rapidcheck/detail/TestListener.h"

namespace attnprop {
namespace {

using CaseType = rc::detail::CaseResult::Type;

/// Collects observations per case; commits them only for counted cases (the
/// random cases), not for shrink steps, and tracks the current shrunk case.
class Recorder : public rc::detail::TestListener, public ObservationSink {
 public:
  Recorder(const PropertyDef& def, PropertyResult& result, double u) : result_(result), u_(u) {
    for (const auto& t : def.tolerances) {
      MetricStats m;
      m.tolerance = t;
      result_.metrics.push_back(m);
    }
  }

  void StartCase(const Case& c) {
    pending_.clear();
    current_ = c;
  }
  void Observe(const Observation& o) override { pending_.push_back(o); }

  void onTestCaseFinished(const rc::detail::CaseDescription& d) override {
    if (d.result.type == CaseType::Discard) {
      ++result_.discarded;
    } else {
      ++result_.cases;
      Commit();
      if (d.result.type == CaseType::Failure) failing_ = current_;
    }
    pending_.clear();
  }
  void onShrinkTried(const rc::detail::CaseDescription&, bool accepted) override {
    ++result_.shrink_steps;
    if (accepted) failing_ = current_;
    pending_.clear();
  }
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}

  std::optional<Case> failing_;
  const std::optional<Case>& current() const { return current_; }

 private:
  MetricStats& StatsFor(const std::string& metric) {
    for (auto& s : result_.metrics)
      if (s.tolerance.metric == metric) return s;
    // A metric with no declared tolerance: the audit flags it UNJUSTIFIED.
    MetricStats m;
    m.tolerance.metric = metric;
    result_.metrics.push_back(m);
    return result_.metrics.back();
  }

  void Commit() {
    for (const auto& o : pending_) {
      MetricStats& m = StatsFor(o.metric);
      const bool finite = std::isfinite(o.observed) && std::isfinite(o.bound);
      double ratio = o.bound > 0 ? o.observed / o.bound : (o.observed == 0 ? 0.0 : HUGE_VAL);
      if (!finite) ratio = HUGE_VAL;
      m.nonfinite = m.nonfinite || !finite;
      m.ratios.push_back(ratio);
      ++m.count;
      m.mean_ratio += (ratio - m.mean_ratio) / static_cast<double>(m.count);
      if (m.count == 1 || ratio > m.max_ratio) {
        m.max_ratio = ratio;
        if (current_) m.worst_case = current_->ToText();
      }
      if (finite) {
        ++finite_count_[o.metric];
        m.max_observed = std::max(m.max_observed, o.observed);
        m.max_bound = std::max(m.max_bound, o.bound);
        m.mean_observed += (o.observed - m.mean_observed) / static_cast<double>(finite_count_[o.metric]);
        if (u_ > 0) {
          m.max_in_u = std::max(m.max_in_u, o.observed / u_);
          m.mean_in_u = m.mean_observed / u_;
        }
      }
    }
  }

  PropertyResult& result_;
  double u_;
  std::vector<Observation> pending_;
  std::optional<Case> current_;
  std::unordered_map<std::string, int64_t> finite_count_;
};

double UnitRoundoffOf(const std::string& backend) {
  if (backend == "double") return ScalarTraits<double>::UnitRoundoff();
  if (backend == "float") return ScalarTraits<float>::UnitRoundoff();
  if (backend == "mpfr") return ScalarTraits<Mpfr>::UnitRoundoff();
  return 0;
}

/// RapidCheck prefixes a failure with "FILE:LINE:\nRC_FAIL(expr)\n\n": the
/// harness's own source location, not the claim's. Keep only the message.
std::string CleanDescription(const std::string& d) {
  const auto nl = d.find('\n');
  if (nl == std::string::npos || nl == 0 || d[nl - 1] != ':' || d.compare(nl + 1, 3, "RC_") != 0) return d;
  const auto blank = d.find("\n\n", nl);
  return blank == std::string::npos ? d : d.substr(blank + 2);
}

}  // namespace

const char* VerdictName(Verdict v) {
  switch (v) {
    case Verdict::kHolds: return "holds";
    case Verdict::kRefuted: return "refuted";
    case Verdict::kError: return "error";
  }
  return "error";
}

uint64_t PropertySeed(uint64_t base, const std::string& name) {
  uint64_t h = 1469598103934665603ULL;  // FNV-1a
  for (unsigned char ch : name) h = (h ^ ch) * 1099511628211ULL;
  return base ^ h;
}

std::optional<std::string> CheckCase(const std::function<void(const Case&)>& conclusion, const Case& c) {
  try {
    conclusion(c);
  } catch (const rc::detail::CaseResult& r) {
    if (r.type == CaseType::Failure) return CleanDescription(r.description);
    return std::nullopt;  // discard: the hypotheses do not hold
  } catch (const std::out_of_range& e) {
    return std::string(kCaseMisfit) + e.what();  // Case::Get* on a missing field
  } catch (const std::exception& e) {
    return std::string("exception: ") + e.what();
  }
  return std::nullopt;
}

bool IsMisfit(const std::optional<std::string>& failure) {
  return failure && failure->rfind(kCaseMisfit, 0) == 0;
}

ReplayOutcome ReplayCase(const PropertyDef& def, const StoredCase& stored) {
  ReplayOutcome o;
  o.name = stored.name;
  o.origin = stored.origin;
  o.expect = stored.expect;
  bool hypotheses = false;
  std::string why_not;
  try {
    hypotheses = def.hypotheses_hold(stored.value);
  } catch (const std::exception& e) {
    why_not = std::string(" (") + e.what() + ")";
  }
  const auto failure = CheckCase(def.conclusion, stored.value);
  if (IsMisfit(failure)) {
    o.detail = *failure + " (restrict the entry's backends=)";
  } else if (!hypotheses) {
    o.detail = "no longer satisfies the claim's hypotheses" + why_not;
  } else if (stored.expect == StoredCase::Expect::kHolds) {
    o.ok = !failure;
    o.detail = failure ? "fails: " + *failure : "holds";
  } else if (!failure) {
    o.detail = "no longer refutes the claim (the conclusion holds on it)";
  } else {
    const auto high = CheckCase(def.confirm, stored.value);
    o.ok = high.has_value();
    o.detail = high ? "refutes: " + *failure + "; confirmed at higher precision: " + *high
                    : "refutes in " + def.backend + " (" + *failure +
                          ") but not at higher precision: a rounding artefact, not a refutation";
  }
  return o;
}

PropertyResult RunProperty(const PropertyDef& def, const RunOptions& options) {
  PropertyResult result;
  result.id = def.id;
  result.backend = def.backend;
  result.seed = PropertySeed(options.seed, def.Name());
  const auto start = std::chrono::steady_clock::now();
  auto finish = [&] {
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
  };

  // 1. The stored cases, before any random case.
  std::vector<std::string> store_problems;
  const StoredCase* pinned = nullptr;
  std::vector<StoredCase> stored;
  if (!options.store_dir.empty()) stored = LoadStore(options.store_dir, def.id);
  const StoredCase* regression = nullptr;  // a holds-case that fails again
  std::string regression_detail;
  for (const auto& sc : stored) {
    if (!sc.AppliesTo(def.backend)) continue;
    ReplayOutcome o = ReplayCase(def, sc);
    if (sc.expect == StoredCase::Expect::kHolds && !o.ok && o.detail.rfind("fails: ", 0) == 0) {
      if (!regression) {
        regression = &sc;
        regression_detail = o.detail;
      }
    } else if (!o.ok) {
      store_problems.push_back("stored case " + sc.name + " (" + sc.origin + ") " + o.detail);
    }
    if (o.ok && sc.expect == StoredCase::Expect::kRefutes && !pinned) pinned = &sc;
    result.replayed.push_back(std::move(o));
  }
  result.pinned_refutation = pinned != nullptr;
  auto add_store_problems = [&] {
    if (store_problems.empty()) return;
    std::string all;
    for (const auto& p : store_problems) all += p + "\n";
    result.verdict = Verdict::kError;
    result.message = all + result.message;
  };
  if (regression) {
    // A regression case fails again: the claim is refuted, no search needed.
    result.verdict = Verdict::kRefuted;
    result.message = "stored case " + regression->name + " (" + regression->origin + ") " + regression_detail;
    result.counterexample_case = regression->value;
    result.counterexample = regression->value.ToText();
    result.confirmed = CheckCase(def.confirm, regression->value).has_value();
    add_store_problems();
    return finish();
  }

  // 2. The random cases.
  Recorder recorder(def, result, UnitRoundoffOf(def.backend));

  rc::detail::TestParams params;
  params.seed = result.seed;
  params.maxSuccess = options.max_success;
  params.maxSize = std::min(options.max_size, 100);
  params.disableShrinking = !options.shrink;

  rc::detail::TestMetadata metadata;
  metadata.id = def.Name();
  metadata.description = def.Name();

  std::unordered_map<std::string, rc::detail::Reproduce> reproduce_map;
  if (!options.reproduce.empty()) {
    // Throws rc::detail::ConfigurationException on a malformed token.
    const auto config = rc::detail::configFromString(options.reproduce);
    reproduce_map = config.reproduce;
    if (!reproduce_map.count(metadata.id))
      throw std::invalid_argument("the reproduce token is for another property, not " + metadata.id);
  }

  const rc::Gen<Case> gen = def.hypotheses();
  SetObservationSink(&recorder);
  struct SinkReset {
    ~SinkReset() { SetObservationSink(nullptr); }
  } sink_reset;
  const rc::detail::TestResult r = rc::detail::checkTestable(
        [&] {
          const Case c = *gen;
          recorder.StartCase(c);
          def.conclusion(c);
        },
        metadata, params, recorder, reproduce_map);
  SetObservationSink(nullptr);

  rc::detail::SuccessResult success;
  rc::detail::FailureResult failure;
  rc::detail::GaveUpResult gave_up;
  rc::detail::Error error;
  if (r.match(success)) {
    result.verdict = Verdict::kHolds;
  } else if (r.match(failure)) {
    result.verdict = Verdict::kRefuted;
    result.message = CleanDescription(failure.description);
    // Replaying a reproduce token runs the failing case alone, without the
    // listener's case events: the last case run is then the counterexample.
    result.counterexample_case = recorder.failing_ ? recorder.failing_ : recorder.current();
    if (result.counterexample_case) result.counterexample = result.counterexample_case->ToText();
    rc::detail::Configuration config;
    config.reproduce[metadata.id] = failure.reproduce;
    result.reproduce = rc::detail::configToMinimalString(config);
    // Keep only the reproduce=... part: seed and sizes are inside it.
    const auto pos = result.reproduce.find("reproduce=");
    if (pos != std::string::npos) {
      result.reproduce = result.reproduce.substr(pos);
      const auto end = result.reproduce.find(' ');
      if (end != std::string::npos) result.reproduce.resize(end);
    }
  } else if (r.match(gave_up)) {
    result.verdict = Verdict::kError;
    result.message = "gave up: " + gave_up.description;
  } else if (r.match(error)) {
    result.verdict = Verdict::kError;
    result.message = error.description;
  }

  // 3. A new counterexample: confirm it, and keep it for the store.
  if (result.counterexample_case) {
    result.confirmed = CheckCase(def.confirm, *result.counterexample_case).has_value();
    const RegistryRow* row = FindRow(def.id);
    const bool expect_refuted = row && row->expect == Expectation::kRefuted;
    StoredCase entry;
    char name[64];
    std::snprintf(name, sizeof name, "found-%s-seed%llu", def.backend.c_str(),
                  static_cast<unsigned long long>(options.seed));
    entry.name = name;
    entry.expect = expect_refuted ? StoredCase::Expect::kRefutes : StoredCase::Expect::kHolds;
    entry.backends = {def.backend};
    entry.value = *result.counterexample_case;
    result.store_entry = FormatStoredCase(entry);
    if (!expect_refuted && !options.save_dir.empty()) {
      try {
        if (SaveToStore(options.save_dir, def.id, entry)) result.saved_to = StorePath(options.save_dir, def.id);
      } catch (const StoreError& e) {
        result.message += "\n(could not save the counterexample: " + std::string(e.what()) + ")";
      }
    }
  }

  // 4. The verdict, with what the store showed.
  if (result.verdict == Verdict::kHolds && pinned) {
    result.verdict = Verdict::kRefuted;
    result.message = "pinned counterexample " + pinned->name + " (" + pinned->origin + ") refutes the claim";
    result.counterexample_case = pinned->value;
    result.counterexample = pinned->value.ToText();
    result.confirmed = true;
  }
  add_store_problems();
  return finish();
}

}  // namespace attnprop
