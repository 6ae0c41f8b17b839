// Everything that touches rc::detail lives in this file (see NOTES.md: the
// snapshot's checkTestable returns a structured result without printing).
#include "properties/framework/runner.h"

#include <rapidcheck.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>
#include <unordered_map>

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
        m.max_observed = std::max(m.max_observed, o.observed);
        if (u_ > 0) m.max_in_u = std::max(m.max_in_u, o.observed / u_);
      }
    }
  }

  PropertyResult& result_;
  double u_;
  std::vector<Observation> pending_;
  std::optional<Case> current_;
};

double UnitRoundoffOf(const std::string& backend) {
  if (backend == "double") return ScalarTraits<double>::UnitRoundoff();
  if (backend == "float") return ScalarTraits<float>::UnitRoundoff();
  if (backend == "mpfr") return ScalarTraits<Mpfr>::UnitRoundoff();
  return 0;
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
    if (r.type == CaseType::Failure) return r.description;
    return std::nullopt;  // discard: the hypotheses do not hold
  } catch (const std::exception& e) {
    return std::string("exception: ") + e.what();
  }
  return std::nullopt;
}

PropertyResult RunProperty(const PropertyDef& def, const RunOptions& options) {
  PropertyResult result;
  result.id = def.id;
  result.backend = def.backend;
  result.seed = PropertySeed(options.seed, def.Name());

  Recorder recorder(def, result, UnitRoundoffOf(def.backend));
  SetObservationSink(&recorder);

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
  const auto start = std::chrono::steady_clock::now();
  const rc::detail::TestResult r = rc::detail::checkTestable(
      [&] {
        const Case c = *gen;
        recorder.StartCase(c);
        def.conclusion(c);
      },
      metadata, params, recorder, reproduce_map);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  SetObservationSink(nullptr);

  rc::detail::SuccessResult success;
  rc::detail::FailureResult failure;
  rc::detail::GaveUpResult gave_up;
  rc::detail::Error error;
  if (r.match(success)) {
    result.verdict = Verdict::kHolds;
  } else if (r.match(failure)) {
    result.verdict = Verdict::kRefuted;
    result.message = failure.description;
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
  return result;
}

}  // namespace attnprop
