#include "properties/framework/certify.h"

#include <mpfr.h>
#include <rapidcheck.h>

#include "properties/framework/rc_bridge.h"

namespace attnprop {
namespace {

int g_max_bits = kDefaultCertifyMaxBits;
thread_local CandidateScope* g_scope = nullptr;
thread_local bool g_in_interval = false;
// The first undecided check of the current interval evaluation (empty: none).
thread_local std::string g_undecided;

/// Thrown by an interval check that is certainly violated: the evaluation
/// stops there (nothing later can undo a certain violation).
struct Violation {
  std::string text;
};

class IntervalEvaluation {
 public:
  IntervalEvaluation() : saved_(g_in_interval), saved_scope_(g_scope), sink_(nullptr) {
    g_in_interval = true;
    g_scope = nullptr;
  }
  ~IntervalEvaluation() {
    g_in_interval = saved_;
    g_scope = saved_scope_;
  }
  IntervalEvaluation(const IntervalEvaluation&) = delete;
  IntervalEvaluation& operator=(const IntervalEvaluation&) = delete;

 private:
  bool saved_;
  CandidateScope* saved_scope_;
  ScopedObservationSink sink_;
};

/// The fewest significant digits (8, 16, ...) at which a > b still reads
/// as disjoint intervals once each endpoint is printed rounded outward.
int SeparatingDigits(const Interval& a, const Interval& b) {
  int digits = 8;
  for (; digits < 1240; digits *= 2) {
    mpfr_t lo, hi;
    mpfr_init2(lo, 4200);
    mpfr_init2(hi, 4200);
    char* s = nullptr;
    bool apart = false;
    if (mpfr_asprintf(&s, "%.*RDe", digits - 1, &a.data()->left) >= 0 && s) {
      mpfr_set_str(lo, s, 10, MPFR_RNDD);
      mpfr_free_str(s);
      s = nullptr;
      if (mpfr_asprintf(&s, "%.*RUe", digits - 1, &b.data()->right) >= 0 && s) {
        mpfr_set_str(hi, s, 10, MPFR_RNDU);
        mpfr_free_str(s);
        apart = mpfr_cmp(lo, hi) > 0;
      }
    }
    mpfr_clear(lo);
    mpfr_clear(hi);
    if (apart) break;
  }
  return digits;
}

}  // namespace

int CertifyMaxBits() { return g_max_bits; }
void SetCertifyMaxBits(int bits) { g_max_bits = bits < kCertifyStartBits ? kCertifyStartBits : bits; }

Certificate Certify(const std::function<void(const Case&)>& interval_conclusion, const Case& c) {
  IntervalEvaluation scope;
  std::string why = "not evaluated";
  const int cap = g_max_bits;
  int bits = kCertifyStartBits;
  for (;; bits *= 2) {
    IntervalPrecisionScope precision(bits);
    MpfrPrecisionScope mpfr_precision(bits);  // constants a conclusion makes in MPFR
    g_undecided.clear();
    std::optional<Violation> violation;
    const Outcome o = Evaluate(
        [&](const Case& k) {
          try {
            interval_conclusion(k);
          } catch (const Violation& v) {
            violation = v;
          } catch (const Undecided& u) {
            if (g_undecided.empty()) g_undecided = u.what();
          }
        },
        c);
    if (violation) return {Certainty::kViolated, bits, violation->text};
    switch (o.kind) {
      case Outcome::Kind::kPasses:
        if (g_undecided.empty()) return {Certainty::kHolds, bits, ""};
        why = g_undecided;
        if (2 * bits > cap) return {Certainty::kUndecided, bits, why};
        break;
      case Outcome::Kind::kMisfit:
        // The case lacks a field the interval conclusion reads: more
        // precision cannot help.
        return {Certainty::kUndecided, bits, "the interval evaluation cannot read the case: " + o.message};
      default:
        // A failure other than a check (RC_FAIL, an exception, a discard):
        // the evaluation did not decide; a certificate needs a decided check.
        return {Certainty::kUndecided, bits, "the interval evaluation stopped: " + o.message};
    }
  }
}

std::optional<Certificate> CertifyExactly(const std::function<void(const Case&)>& exact_conclusion, const Case& c) {
  // No sink, no candidate scope: the rational comparisons decide by
  // themselves.
  CandidateScope* const saved = g_scope;
  g_scope = nullptr;
  const Outcome o = [&] {
    ScopedObservationSink sink(nullptr);
    return Evaluate(exact_conclusion, c);
  }();
  g_scope = saved;
  switch (o.kind) {
    case Outcome::Kind::kPasses: return Certificate{Certainty::kHolds, 0, ""};
    case Outcome::Kind::kFails: return Certificate{Certainty::kViolated, 0, o.message};
    default: return std::nullopt;
  }
}

std::string CertificateLine(const Certificate& cert) {
  if (cert.bits == 0) {
    switch (cert.verdict) {
      case Certainty::kViolated: return "certified by exact rational arithmetic: " + cert.text;
      case Certainty::kHolds: return "holds in exact rational arithmetic";
      case Certainty::kUndecided: break;
    }
  }
  const std::string bits = std::to_string(cert.bits) + " bits";
  switch (cert.verdict) {
    case Certainty::kViolated: return "certified by interval arithmetic (" + bits + "): " + cert.text;
    case Certainty::kHolds: return "holds by interval arithmetic (" + bits + ")";
    case Certainty::kUndecided: return "undecided by interval arithmetic up to " + bits + ": " + cert.text;
  }
  return "";
}

CandidateScope::CandidateScope(std::function<Certificate()> certify)
    : certify_(std::move(certify)), saved_(g_scope) {
  g_scope = this;
}
CandidateScope::~CandidateScope() { g_scope = saved_; }

const Certificate& CandidateScope::Get() {
  if (!cert_) cert_ = certify_();
  return *cert_;
}

namespace internal {

CandidateScope* CurrentCandidateScope() { return g_scope; }
bool InIntervalEvaluation() { return g_in_interval; }

void IntervalViolated(const std::string& what) { throw Violation{what}; }

void IntervalCheck(const Tolerance& tolerance, const Interval& observed, const Interval& bound) {
  if (tolerance.metric.empty()) RC_FAIL("a tolerance without a metric (read before it was initialised?)");
  if (observed.HasNan() || bound.HasNan()) {
    if (g_undecided.empty()) g_undecided = tolerance.metric + ": NaN in the enclosure";
    return;
  }
  if (tolerance.kind == MetricKind::kRounding || IsExactlyZero(bound)) {
    // An identity: the observed error is 0 in exact arithmetic. So is a
    // claim whose bound is exactly 0 (observed <= 0 at equality, say a
    // difference quotient of a constant column): no enclosure can prove an
    // equality, so 0 inside the enclosure is consistent, outside a violation.
    if (mpfr_sgn(&observed.data()->left) > 0 || mpfr_sgn(&observed.data()->right) < 0)
      throw Violation{tolerance.metric + " in " + observed.ToString() + ", which excludes 0 (" +
                      (tolerance.kind == MetricKind::kRounding ? "an identity" : "the bound is exactly 0") + ")"};
    return;
  }
  if (mpfr_cmp(&observed.data()->left, &bound.data()->right) > 0) {
    const int digits = SeparatingDigits(observed, bound);
    throw Violation{tolerance.metric + " in " + observed.ToString(digits) + " > " + tolerance.bound + " in " +
                    bound.ToString(digits)};
  }
  if (mpfr_cmp(&observed.data()->right, &bound.data()->left) <= 0) return;
  if (g_undecided.empty())
    g_undecided = tolerance.metric + " in " + observed.ToString() + " overlaps " + tolerance.bound + " in " +
                  bound.ToString();
}

}  // namespace internal
}  // namespace attnprop
