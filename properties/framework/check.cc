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
  if (o.certified || o.undecided) return 1;
  if (!std::isfinite(o.observed) || !std::isfinite(o.bound)) return HUGE_VAL;
  if (o.bound > 0) return o.observed / o.bound;
  // A bound <= 0 (lhs <= 0, lhs <= -1): no quotient means "how close". A
  // check that held is at ratio 1 where it is attained and below 1 by the
  // margin's share otherwise; one that failed is beyond 1.
  if (o.observed == o.bound) return o.bound == 0 ? 0.0 : 1.0;
  if (o.observed > o.bound) return HUGE_VAL;
  return o.bound == 0 ? 0.0 : o.bound / o.observed;  // both < 0: |bound| / |observed| < 1
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
  // Both sides printed so that they differ: 7 significant digits, 17 when
  // those read alike, and a note when even the doubles are equal (a wider
  // backend's values differ beyond double).
  char lhs[64], rhs[64];
  for (int digits : {7, 17}) {
    std::snprintf(lhs, sizeof lhs, "%.*g", digits, observed);
    std::snprintf(rhs, sizeof rhs, "%.*g", digits, bound);
    if (std::string(lhs) != rhs) break;
  }
  char buf[512];
  std::snprintf(buf, sizeof buf, "%s: observed %s > bound %s%s%s", metric.c_str(), lhs, rhs,
                observed == bound ? " (equal as doubles: the backend's values differ beyond double)" : "",
                std::isfinite(observed) && std::isfinite(bound) ? "" : " (NONFINITE)");
  if (CandidateScope* scope = CurrentCandidateScope()) {
    // A candidate: the certificate decides. When the intervals show the claim
    // holds here, the failure was this backend's rounding: recorded at ratio
    // 1 with the backend's own number (the audit's truthful error). Left
    // undecided: recorded the same way, and counted as undecided.
    const Certificate& cert = scope->Get();
    if (cert.verdict != Certainty::kViolated) {
      if (g_sink) {
        g_sink->Observe({tolerance, observed, bound, cert.verdict == Certainty::kHolds,
                         cert.verdict == Certainty::kUndecided});
        if (cert.verdict == Certainty::kUndecided) g_sink->NoteUndecided(CertificateLine(cert));
      }
      return;
    }
    if (g_sink) g_sink->Observe({tolerance, observed, bound});
    // The certificate is the refutation; it may be of another check than
    // the one this backend failed first, which is named apart.
    RC_FAIL(CertificateLine(cert) + "\n  (a candidate: in this backend " + buf + ")");
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
    RC_FAIL(CertificateLine(cert) + "\n  (a candidate: in this backend " + what + ")");
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
