// attend2 of the Lean library TransformerAttention (002_ea0019801d84ed2d.txt):
//   attend2(s0, s1, v0, v1) = (e^{s0} v0 + e^{s1} v1) / (e^{s0} + e^{s1}),
// for real scores s0, s1 and real values v0, v1.
#pragma once

#include <algorithm>
#include <cmath>

#include "model/scalar.h"

namespace attnprop {

/// The weighted form, for any positive weights w0, w1 (exact in rationals):
///   (w0 v0 + w1 v1) / (w0 + w1).
template <class S>
S Attend2FromWeights(const S& w0, const S& w1, const S& v0, const S& v1) {
  return (w0 * v0 + w1 * v1) / (w0 + w1);
}

/// attend2 with the exponentials scaled by e^{-max(s0,s1)} (same value, no
/// overflow).
template <class S>
S Attend2(const S& s0, const S& s1, const S& v0, const S& v1) {
  using std::exp;
  const S m = s0 > s1 ? s0 : s1;
  return Attend2FromWeights<S>(exp(s0 - m), exp(s1 - m), v0, v1);
}

}  // namespace attnprop
