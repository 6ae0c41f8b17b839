// Softmax and log-sum-exp over any floating model scalar, max subtracted.
//
// For x in R^T (entries may be -inf, meaning "masked"):
//   LogSumExp(x) = m + log(sum_j exp(x_j - m)),  m = max_j x_j,
//   Softmax(x)_j = exp(x_j - m) / sum_k exp(x_k - m).
// An empty x, or one whose entries are all -inf, has LogSumExp = -inf and a
// Softmax of all zeros (no visible entry: nothing to average).
#pragma once

#include <cmath>

#include "model/eigen_scalar.h"

namespace attnprop {

template <class S>
S MaxOrMinusInf(const Vec<S>& x) {
  S m = -Infinity<S>();
  for (Eigen::Index j = 0; j < x.size(); ++j)
    if (x[j] > m) m = x[j];
  return m;
}

/// Intervals: the enclosure of the max, decided nowhere (LogSumExp and
/// Softmax are the same for every shift m, so any value in it will do).
inline Interval MaxOrMinusInf(const Vec<Interval>& x) {
  Interval m = -Infinity<Interval>();
  for (Eigen::Index j = 0; j < x.size(); ++j) m = max(m, x[j]);
  return m;
}

template <class S>
S LogSumExp(const Vec<S>& x) {
  using std::exp;
  using std::log;
  const S m = MaxOrMinusInf(x);
  if (m == -Infinity<S>()) return m;
  S sum = 0;
  for (Eigen::Index j = 0; j < x.size(); ++j) sum += exp(x[j] - m);
  return m + log(sum);
}

template <class S>
Vec<S> Softmax(const Vec<S>& x) {
  using std::exp;
  Vec<S> w = Vec<S>::Zero(x.size());
  const S m = MaxOrMinusInf(x);
  if (m == -Infinity<S>()) return w;
  S sum = 0;
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    w[j] = exp(x[j] - m);
    sum += w[j];
  }
  for (Eigen::Index j = 0; j < x.size(); ++j) w[j] /= sum;
  return w;
}

}  // namespace attnprop
