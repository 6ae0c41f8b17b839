#include "properties/framework/check.h"

#include "properties/framework/certify.h"

#include <rapidcheck.h>

#include <cmath>
#include <cstdio>

namespace attnprop {
namespace {
thread_local ObservationSink* g_sink = nullptr;
}

void SetObservationSink(ObservationSink* sink) { g_sink = sink; }
ObservationSink* CurrentObservationSink() { return g_sink; }

double ObservationRatio(const Observation& o) {
  if (o.certified) return 1;
  if (!std::isfinite(o.observed) || !std::isfinite(o.bound)) return HUGE_VAL;
  return o.bound > 0 ? o.observed / o.bound : (o.observed == 0 ? 0.0 : HUGE_VAL);
}

void ExpectWithin(const Tolerance& tolerance, double observed, double bound) {
  // NaN compares false: a non-finite error or bound always fails.
  internal::CheckWithin(tolerance, observed, bound, std::isfinite(observed) && std::isfinite(bound) && observed <= bound);
}

void internal::CheckWithin(const Tolerance& tolerance, double observed, double bound, bool holds) {
  const std::string& metric = tolerance.metric;
  // The metric names the record; an empty one is the sign of a constant read
  // before it was initialised. (A blank bound or reason the audit flags
  // UNJUSTIFIED.)
  if (metric.empty()) RC_FAIL("a tolerance without a metric (read before it was initialised?)");
  // Doubles compared inside an interval evaluation certify nothing.
  if (InIntervalEvaluation()) throw Undecided(metric + ": compared in double, not in intervals");
  if (holds) {
    if (g_sink) g_sink->Observe({tolerance, observed > bound ? bound : observed, bound});
    return;
  }
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s: observed %.6e > bound %.6e%s", metric.c_str(), observed, bound,
                std::isfinite(observed) && std::isfinite(bound) ? "" : " (NONFINITE)");
  if (CandidateScope* scope = CurrentCandidateScope()) {
    // A candidate: the certificate decides. When the intervals show the claim
    // holds here, the failure was this backend's rounding: recorded at ratio
    // 1 with the backend's own number (the audit's truthful error). Left
    // undecided: recorded the same way, and counted as undecided.
    const Certificate& cert = scope->Get();
    if (cert.verdict != Certainty::kViolated) {
      if (g_sink) {
        g_sink->Observe({tolerance, observed, bound, true});
        if (cert.verdict == Certainty::kUndecided) g_sink->NoteUndecided(CertificateLine(cert));
      }
      return;
    }
    if (g_sink) g_sink->Observe({tolerance, observed, bound});
    RC_FAIL(std::string(buf) + "\n" + CertificateLine(cert));
  }
  if (g_sink) g_sink->Observe({tolerance, observed, bound});
  RC_FAIL(std::string(buf));
}

const Tolerance& ConditionTolerance() {
  static const Tolerance kCondition{
      "a stated condition (no magnitude)", "holds",
      "a condition without a magnitude (ExpectThat, a crash, a wrong return code); its failure counts as an "
      "infinite ratio",
      MetricKind::kClaim};
  return kCondition;
}

namespace {
void RecordFailedCondition() {
  if (g_sink) g_sink->Observe({ConditionTolerance(), HUGE_VAL, 0});
}
}  // namespace

void ExpectThat(bool holds, const std::string& what) {
  if (holds) return;
  if (internal::InIntervalEvaluation()) internal::IntervalViolated(what);
  if (CandidateScope* scope = internal::CurrentCandidateScope()) {
    const Certificate& cert = scope->Get();
    if (cert.verdict != Certainty::kViolated) {
      if (cert.verdict == Certainty::kUndecided && g_sink) g_sink->NoteUndecided(CertificateLine(cert));
      return;
    }
    RecordFailedCondition();
    RC_FAIL(what + "\n" + CertificateLine(cert));
  }
  RecordFailedCondition();
  RC_FAIL(what);
}

double Gamma(double n, double u) {
  if (u == 0) return 0;
  const double nu = n * u;
  return nu < 1 ? nu / (1 - nu) : HUGE_VAL;
}

}  // namespace attnprop
