// Conclusions of a property. Each check either holds or fails the current
// case (as a RapidCheck failure, with a message that says what was measured
// against what). Tolerance checks also record (observed, bound) for the
// tolerance audit.
#pragma once

#include <string>

#include "model/interval.h"
#include "model/scalar.h"

namespace attnprop {

/// A tolerance with its derivation, declared once per property and metric as
/// a named constant (`static inline const Tolerance kRowSum{...};`) that its
/// ExpectWithin calls name: the audit lists each metric with its bound and
/// reason as checked, and a misspelt metric does not compile.
/// The kind is required (a three-field Tolerance does not compile): it says
/// which audit table the metric belongs to, never how a verdict is decided.
/// In every backend, and in the certificate, the check is the inequality
/// observed <= bound as computed; an identity is |lhs - rhs| <= its rounding
/// budget, whose bound is exactly 0 in Interval (unit roundoff 0), so that
/// it is certified violated when the enclosure excludes 0, holds only when
/// it is the point 0, and is undecided otherwise (certify.h).
/// Two kinds of metric mean different things (and get their own tables):
///  - kRounding: an identity claim, |lhs - rhs| against a derived rounding
///    bound (0 in exact arithmetic and in Interval); observed/bound far
///    below 1 means the bound is loose (LOOSE).
///  - kClaim: an inequality claim, lhs against rhs (plus its rounding
///    budget); observed/bound is how tight the claim is where the search
///    went: the report gives the best ratio found (attained >= 0.999, close
///    >= 0.5, far < 0.5) and the case that reached it. Record lhs and the
///    bound as themselves (observed >= 0), never as a difference whose ratio
///    has no meaning.
enum class MetricKind { kRounding, kClaim };

struct Tolerance {
  Tolerance() = default;
  Tolerance(std::string metric_, std::string bound_, std::string reason_, MetricKind kind_)
      : metric(std::move(metric_)), bound(std::move(bound_)), reason(std::move(reason_)), kind(kind_) {}

  std::string metric;  // what is measured, e.g. "|sum_j A_ij - 1|"
  std::string bound;   // the bound's formula, e.g. "gamma_{T+1}"
  std::string reason;  // why the bound holds (error analysis in one line)
  MetricKind kind = MetricKind::kRounding;
};

/// observed <= bound, both finite; records the pair under `tolerance` (the
/// audit lists each metric a property checks, with its bound and reason).
void ExpectWithin(const Tolerance& tolerance, double observed, double bound);

namespace internal {
/// Records (observed, bound) and fails unless `holds`. A pair that holds
/// but whose doubles read observed > bound (both sides rounded to double
/// from a wider backend) is recorded at ratio 1: the verdict is the
/// backend's comparison, and rounding for the record must not flag it.
void CheckWithin(const Tolerance& tolerance, double observed, double bound, bool holds);
/// ExpectWithin in Interval: the three-valued check of certify.h (certainly
/// violated, certainly holds, undecided).
void IntervalCheck(const Tolerance& tolerance, const Interval& observed, const Interval& bound);
/// ExpectWithinAtEquality in Interval on a declared equality case: as
/// IntervalCheck, but overlapping enclosures hold (the claim's exact
/// decision that the sides are equal); a certain observed > bound is still a
/// violation.
void IntervalCheckAtEquality(const Tolerance& tolerance, const Interval& observed, const Interval& bound);
/// ExpectThat(false, what) in Interval: a violation, certain only when
/// nothing in the evaluation was doubtful (certify.h).
[[noreturn]] void IntervalViolated(const std::string& what);
}  // namespace internal

/// The same, compared in S: observed <= bound exactly in the backend (MPFR,
/// rationals), so a claim attained with equality is not turned into a
/// failure by rounding both sides to double; the record is in doubles.
template <class S>
void ExpectWithin(const Tolerance& tolerance, const S& observed, const S& bound) {
  if constexpr (std::is_same_v<S, double>) {
    ExpectWithin(tolerance, observed, bound);
  } else if constexpr (std::is_same_v<S, Interval>) {
    internal::IntervalCheck(tolerance, observed, bound);
  } else {
    bool finite = true;
    if constexpr (!ScalarTraits<S>::kExact) {
      using std::isfinite;
      finite = isfinite(observed) && isfinite(bound);
    }
    internal::CheckWithin(tolerance, ToDouble(observed), ToDouble(bound), finite && observed <= bound);
  }
}


/// observed <= bound on a case where the claim has decided, exactly, that
/// the two sides are equal (an equality case: b_i = eps, every v_j the
/// same). Interval enclosures of two expressions of one real overlap at
/// every precision and so can never decide it; there the overlap holds,
/// on the claim's decision, and a certainly larger observed is still a
/// violation. Off the equality case, and in every other backend, this is
/// ExpectWithin (a rounding failure in double or MPFR is a candidate the
/// intervals then dismiss). `equality` must be decided in exact arithmetic
/// on the case's own values (In::exact, rationals), never on a backend's
/// rounded values, with the reason the sides are equal stated beside it: it
/// is the one thing the certificate takes on trust (a wrong declaration
/// hides a defect smaller than the enclosures' width, never a larger one).
template <class S>
void ExpectWithinAtEquality(const Tolerance& tolerance, const S& observed, const S& bound, bool equality) {
  if constexpr (std::is_same_v<S, Interval>) {
    if (equality) return internal::IntervalCheckAtEquality(tolerance, observed, bound);
  }
  ExpectWithin<S>(tolerance, observed, bound);
}

/// An exact conclusion (no tolerance): fails the case with `what` if false.
/// In a claim certified by intervals, `holds` computed in Interval is
/// decided when every comparison and predicate it read was (an undecided one
/// throws before it); false there is a certain violation unless the
/// evaluation had a doubt (an Undecided caught by the claim, an interval read
/// as a double): then the case is undecided and retried at more bits.
void ExpectThat(bool holds, const std::string& what);

/// gamma_n = n u / (1 - n u), the classic bound on n accumulated roundings.
/// Exact types (u = 0) get 0.
double Gamma(double n, double u);

/// One recorded tolerance check, with the tolerance it was checked against
/// (the audit learns a property's metrics from its checks).
struct Observation {
  Tolerance tolerance;
  double observed;
  double bound;
  /// The backend read observed > bound, and interval arithmetic decided that
  /// the claim holds at this case (certify.h): observed is the backend's own
  /// number (for an identity, its error against the exact value 0), the
  /// comparison counts at ratio 1.
  bool certified = false;
  /// The backend read observed > bound, and interval arithmetic left it
  /// undecided: counted apart (never "decided"), at ratio 1 like a certified
  /// pair (it is no refutation; the verdict says undecided).
  bool undecided = false;
};

/// Where ExpectWithin records (set by the runner for the current thread;
/// null: nothing is recorded).
class ObservationSink {
 public:
  virtual void Observe(const Observation& o) = 0;
  /// The case's candidate failure was neither certified nor dismissed by
  /// interval arithmetic (certify.h): `why` says what stayed undecided.
  virtual void NoteUndecided(const std::string& why) { (void)why; }
  virtual ~ObservationSink() = default;
};
void SetObservationSink(ObservationSink* sink);
/// The current thread's sink (null: none).
ObservationSink* CurrentObservationSink();

/// Sets a sink for a scope and restores the previous one after.
class ScopedObservationSink {
 public:
  explicit ScopedObservationSink(ObservationSink* sink) : saved_(CurrentObservationSink()) { SetObservationSink(sink); }
  ~ScopedObservationSink() { SetObservationSink(saved_); }
  ScopedObservationSink(const ScopedObservationSink&) = delete;
  ScopedObservationSink& operator=(const ScopedObservationSink&) = delete;

 private:
  ObservationSink* saved_;
};

/// observed/bound as the audit counts it: 0/0 = 0, x/0 = inf for x > 0; for a
/// bound < 0, |bound|/|observed| while it holds (1 when attained); inf for
/// a non-finite error or bound, and for a failed check of a bound <= 0;
/// 1 for a pair decided by intervals.
double ObservationRatio(const Observation& o);
/// The metric a failure with no magnitude is recorded under, at an infinite
/// ratio (issue 33: such a failure must not read as a ratio below 1).
const Tolerance& ConditionTolerance();

}  // namespace attnprop
