// Certified verdicts. A claim registered with `Interval` among its scalars
// (ATTNPROP_REGISTER(Claim, double, Mpfr, Interval)) is decided by interval
// arithmetic: double and MPFR stay the fast engines of the random cases and
// the search, and a case that fails there is only a candidate. The
// candidate's conclusion is evaluated again in Interval (model/interval.h)
// at the exact stored input, at 128 bits, then 256, ... up to the cap
// (CertifyMaxBits: 4,096 by default, ATTNPROP_CERTIFY_BITS), and is
//  - certainly violated: some check's enclosures are disjoint the wrong way
//    (observed in [a, b] > bound in [c, d], a > d), or an ExpectThat read
//    false, in an evaluation with no doubt (no Undecided raised, even one
//    the claim caught; no interval read as a double): a refutation, with
//    that check's enclosures as its certificate, at the precision that
//    decided it;
//  - certainly holding: every check decided, each observed.hi <= bound.lo,
//    with no doubt: the fast backend's failure was its own rounding;
//  - undecided at the cap: neither; never a refutation, never a pass (a
//    verdict of its own: the runner, Judge, ctest, the reports and
//    `reproduce` all say "undecided").
// The rule is one for every metric (check.h: the kind never changes it):
// an identity's bound is exactly 0 in Interval, so it is violated when the
// enclosure of |lhs - rhs| excludes 0, holds only when it is the point 0,
// and is undecided otherwise: no finite precision proves an equality.
// A claim registered with Rational too (algebraic) is decided exactly when
// the first interval evaluation leaves it undecided (CertifyExactly, in a
// child process within a time and memory budget): an equality there is
// proved.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "model/interval.h"
#include "properties/framework/case.h"
#include "properties/framework/check.h"

namespace attnprop {

enum class Certainty { kHolds, kViolated, kUndecided };

struct Certificate {
  Certainty verdict = Certainty::kUndecided;
  int bits = 0;      // the precision that decided it (the cap when undecided; 0: exact rationals)
  std::string text;  // violated: the enclosures of the violated check; undecided: why
};

inline constexpr int kCertifyStartBits = 128;
inline constexpr int kDefaultCertifyMaxBits = 4096;
/// The cap of the doubling (process-wide; set once at start-up).
int CertifyMaxBits();
void SetCertifyMaxBits(int bits);

/// Evaluates `interval_conclusion` (a claim's conclusion in Interval) on c
/// at doubling precisions until its checks decide, with no observation sink.
/// `exact_fallback` (may be null) is asked once, after the first evaluation
/// left the case undecided; an answer it gives is the certificate.
Certificate Certify(const std::function<void(const Case&)>& interval_conclusion, const Case& c,
                    const std::function<std::optional<Certificate>()>& exact_fallback);
Certificate Certify(const std::function<void(const Case&)>& interval_conclusion, const Case& c);

/// The exact route's budget: CPU seconds and megabytes of address space
/// (ATTNPROP_EXACT_SECONDS, default 2; ATTNPROP_EXACT_MB, default 1024).
struct ExactBudget {
  double seconds = 2;
  double megabytes = 1024;
};
ExactBudget DefaultExactBudget();

/// Decides c exactly when the claim is algebraic: `exact_conclusion` is the
/// claim's conclusion in rationals, run on the same case (bits 0 in the
/// certificate) in a child process within `budget`. Nullopt when it cannot
/// read the case, stops otherwise (the rational backend declares other
/// fields, say) or exceeds its budget: intervals decide then.
std::optional<Certificate> CertifyExactly(const std::function<void(const Case&)>& exact_conclusion, const Case& c,
                                          const ExactBudget& budget = DefaultExactBudget());

/// "certified by interval arithmetic (128 bits): <text>" (for messages);
/// "certified by exact rational arithmetic: <text>" for an exact one.
std::string CertificateLine(const Certificate& cert);

/// While alive, failures of the fast backend's checks on this thread are
/// candidates decided by `certify` (run at most once, on the first failure).
class CandidateScope {
 public:
  explicit CandidateScope(std::function<Certificate()> certify);
  ~CandidateScope();
  CandidateScope(const CandidateScope&) = delete;
  CandidateScope& operator=(const CandidateScope&) = delete;

  /// The certificate, computed on first use.
  const Certificate& Get();
  bool consulted() const { return cert_.has_value(); }

 private:
  std::function<Certificate()> certify_;
  std::optional<Certificate> cert_;
  CandidateScope* saved_;
};

/// Runs a certified claim's fast conclusion under `scope` (certify.h): its
/// ExpectWithin and ExpectThat failures consult the scope themselves; a
/// failure raised by RC_ASSERT or RC_FAIL in the claim's own code is a
/// candidate the same way: a refutation only when the intervals certify it
/// (its message then carries the certificate), dismissed when they show the
/// claim holds here, counted undecided otherwise.
void RunCandidate(const std::function<void(const Case&)>& fast, const Case& c, CandidateScope& scope);

namespace internal {
/// The current thread's candidate scope, or null.
CandidateScope* CurrentCandidateScope();
/// True while Certify evaluates a conclusion (a check on doubles then
/// cannot certify anything and makes the case undecided).
bool InIntervalEvaluation();
}  // namespace internal

}  // namespace attnprop
