// A statistical property's error rates (issue 13): the probability that it
// fails although the claim is true (its false-alarm rate alpha) and the
// smallest error in the claimed value it detects with a stated probability
// at the default sample size (its power). Declared once, next to the test
// that has these rates, as `static inline const Statistics kStatistics{...};`
// in the claim struct; the registry's `statistical` label and this
// declaration go together (JoinRegistry checks both ways), and every report
// prints it per property.
#pragma once

#include <string>

namespace attnprop {

struct Statistics {
  /// Upper bound on the probability of a false alarm (the check fails while
  /// the claim holds), per `alpha_scope`. 0: no sampling (exact enumeration).
  double alpha = 0;
  std::string alpha_scope;  // what alpha is per: "case", "check", "run"
  /// How alpha is bounded: the inequality or exact law ("Hoeffding",
  /// "DKW-Massart", "CLT normal approximation, z = 6.5").
  std::string basis;
  /// Whether alpha is a proven bound (false: it rests on an approximation,
  /// e.g. the normal one, which `basis` names).
  bool rigorous = false;
  /// The probability with which an error of size `detects` is caught.
  double power = 0;
  /// The smallest error in the claimed value caught with probability
  /// `power` at the default sample size, in the claim's own terms.
  std::string detects;
  /// The default sample size the rates hold for ("N = 8000 per case").
  std::string sample;
};

/// The declaration's problem, or "" when complete: alpha in [0, 1), power
/// in (0, 1], every text present; an exact enumeration (alpha 0) is rigorous.
inline std::string StatisticsProblem(const Statistics& s) {
  if (!(s.alpha >= 0 && s.alpha < 1)) return "alpha outside [0, 1)";
  if (!(s.power > 0 && s.power <= 1)) return "power outside (0, 1]";
  if (s.alpha_scope.empty() || s.basis.empty() || s.detects.empty() || s.sample.empty())
    return "a text field is empty (alpha_scope, basis, detects, sample)";
  if (s.alpha == 0 && !s.rigorous) return "alpha 0 (no sampling) must be rigorous";
  return "";
}

}  // namespace attnprop
