// Exact characteristic polynomial and inertia of rational matrices.
// CharPoly: Faddeev-LeVerrier (exact in Q; O(N^4), for small N):
//   det(x I - A) = sum_i c[i] x^i, c[N] = 1.
// Inertia of a symmetric A: its characteristic polynomial is real-rooted, so
// Descartes' rule of signs is exact: #positive roots = sign changes of
// (c_0, ..., c_N) (zeros skipped), #negative = those of p(-x), #zero = the
// index of the lowest nonzero coefficient.
#pragma once

#include <vector>

#include "model/eigen_scalar.h"

namespace attnprop {

inline std::vector<Rational> CharPoly(const Mat<Rational>& a) {
  const Eigen::Index n = a.rows();
  std::vector<Rational> c(static_cast<size_t>(n + 1), Rational(0));
  c[static_cast<size_t>(n)] = 1;
  Mat<Rational> m = Mat<Rational>::Zero(n, n);
  for (Eigen::Index k = 1; k <= n; ++k) {
    m = a * m;
    for (Eigen::Index i = 0; i < n; ++i) m(i, i) += c[static_cast<size_t>(n - k + 1)];
    const Mat<Rational> am = a * m;
    c[static_cast<size_t>(n - k)] = -am.trace() / Rational(k);
  }
  return c;
}

struct InertiaValue {
  int64_t positive = 0, negative = 0, zero = 0;
  bool operator==(const InertiaValue&) const = default;
};

inline int64_t SignChanges(const std::vector<Rational>& c, bool negate_odd) {
  int64_t changes = 0, last = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    Rational v = c[i];
    if (negate_odd && i % 2 == 1) v = -v;
    const int64_t s = v > 0 ? 1 : (v < 0 ? -1 : 0);
    if (s == 0) continue;
    if (last != 0 && s != last) ++changes;
    last = s;
  }
  return changes;
}

/// Inertia of a symmetric rational matrix (exact).
inline InertiaValue SymmetricInertia(const Mat<Rational>& s) {
  const std::vector<Rational> c = CharPoly(s);
  InertiaValue out;
  while (out.zero < static_cast<int64_t>(c.size()) && c[static_cast<size_t>(out.zero)] == 0) ++out.zero;
  out.positive = SignChanges(c, false);
  out.negative = SignChanges(c, true);
  return out;
}

}  // namespace attnprop
