// Certified verdicts. A claim registered with `Interval` among its scalars
// (ATTNPROP_REGISTER(Claim, double, Mpfr, Interval)) is decided by interval
// arithmetic: double and MPFR stay the fast engines of the random cases and
// the search, and a case that fails there is only a candidate. The
// candidate's conclusion is evaluated again in Interval (model/interval.h)
// at the exact stored input, at 128 bits, then 256, ... up to the cap
// (CertifyMaxBits: 4,096 by default, ATTNPROP_CERTIFY_BITS), and is
//  - certainly violated: some check's enclosures are disjoint the wrong way
//    (lhs in [a, b] > rhs in [c, d], a > d): a refutation, with that text as
//    its certificate;
//  - certainly holding: every check's enclosures decide it: the fast
//    backend's failure was its own rounding, and the case passes;
//  - undecided at the cap: neither; never a refutation, never silently a
//    pass (each property counts its undecided cases, and the report lists
//    them).
// A claim registered with Rational too (algebraic) has its candidates
// decided exactly in rationals wherever its rational conclusion reads the
// case (CertifyExactly): an equality there is proved, never undecided.
// A metric of kind kRounding is an identity (its observed value is 0 in
// exact arithmetic), and so is a claim metric whose bound is exactly 0: in
// intervals it is violated when 0 is outside the enclosure of the observed
// value and consistent otherwise (no finite precision can say more; exact
// rationals prove identities).
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
Certificate Certify(const std::function<void(const Case&)>& interval_conclusion, const Case& c);

/// Decides c exactly when the claim is algebraic: `exact_conclusion` is the
/// claim's conclusion in rationals, run on the same case (bits 0 in the
/// certificate). Nullopt when it cannot read the case or stops otherwise
/// (the rational backend declares other fields, say): intervals decide then.
std::optional<Certificate> CertifyExactly(const std::function<void(const Case&)>& exact_conclusion, const Case& c);

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

 private:
  std::function<Certificate()> certify_;
  std::optional<Certificate> cert_;
  CandidateScope* saved_;
};

namespace internal {
/// The current thread's candidate scope, or null.
CandidateScope* CurrentCandidateScope();
/// True while Certify evaluates a conclusion (a check on doubles then
/// cannot certify anything and makes the case undecided).
bool InIntervalEvaluation();
}  // namespace internal

}  // namespace attnprop
