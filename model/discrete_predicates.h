// A rank and an argmax as a claim reads them, written once over the scalar
// and sound in Interval (CGAL's filtered predicates): the answer is the
// exact one, or the evaluation is undecided (model/interval.h: Undecided),
// never a guess. In double and MPFR they are the fast engines' answers; a
// claim that fails there is a candidate the intervals then decide.
// A conclusion that branches on them is sound for the same reason: in
// Interval each branch is taken only where it is certain.
#pragma once

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <utility>
#include <vector>

#include "model/eigen_scalar.h"
#include "model/interval.h"

namespace attnprop {

namespace internal {
/// An enclosure's endpoints as doubles, read raw: for choosing a pivot or an
/// order only, which never decides a verdict (every choice is sound), so no
/// doubt is counted (Interval::Lower and Upper count one).
inline double RawLowerDouble(const Interval& x) { return mpfr_get_d(&x.data()->left, MPFR_RNDD); }
inline double RawUpperDouble(const Interval& x) { return mpfr_get_d(&x.data()->right, MPFR_RNDU); }

/// |x| as a double, for choosing a pivot (the smallest magnitude an
/// enclosure may hold).
template <class S>
double PivotSize(const S& x) {
  if constexpr (std::is_same_v<S, Interval>) {
    if (x.ContainsZeroRaw()) return 0.0;
    return std::fmin(std::fabs(RawLowerDouble(x)), std::fabs(RawUpperDouble(x)));
  } else {
    return std::fabs(static_cast<double>(x));
  }
}
}  // namespace internal

/// Whether rank(a) >= k. Gaussian elimination with full pivoting: k pivots
/// found, or the remaining block is zero. In Interval a pivot is taken only
/// where its enclosure excludes 0 (then the exact elimination in that order
/// has a nonzero pivot there: rank >= the pivots found), and the block is
/// zero only where every entry is the point 0 (then the rank is exact);
/// otherwise Undecided. A rank deficiency that is not exactly representable
/// (two rows equal in exact arithmetic but computed) stays undecided: no
/// enclosure proves an equality.
template <class S>
bool RankAtLeast(Mat<S> a, Eigen::Index k) {
  if (k <= 0) return true;
  const Eigen::Index rows = a.rows(), cols = a.cols();
  for (Eigen::Index r = 0; r < k; ++r) {
    if (r >= rows || r >= cols) return false;
    Eigen::Index pi = -1, pj = -1;
    double best = 0;
    bool all_zero = true;
    for (Eigen::Index i = r; i < rows; ++i)
      for (Eigen::Index j = r; j < cols; ++j) {
        if constexpr (std::is_same_v<S, Interval>) {
          all_zero = all_zero && internal::CertainlyZeroRaw(a(i, j));
          if (!internal::CertainlyNonzeroRaw(a(i, j))) continue;
        } else {
          if (a(i, j) == S(0)) continue;
          all_zero = false;
        }
        const double size = internal::PivotSize(a(i, j));
        if (pi < 0 || size > best) pi = i, pj = j, best = size;
      }
    if (pi < 0) {
      if (all_zero) return false;  // the remaining block is exactly 0: rank r < k
      throw Undecided("RankAtLeast: no pivot's enclosure excludes 0, and the block is not exactly 0");
    }
    a.row(r).swap(a.row(pi));
    a.col(r).swap(a.col(pj));
    for (Eigen::Index i = r + 1; i < rows; ++i) {
      const S f = S(a(i, r) / a(r, r));
      for (Eigen::Index j = r + 1; j < cols; ++j) a(i, j) = S(a(i, j) - f * a(r, j));
      a(i, r) = S(0);  // 0 in the exact elimination, whatever an enclosure of it would say
    }
  }
  return true;
}

/// The index i with v_i - v_j >= gap for every j != i, or -1 when no index
/// has that lead. In Interval every comparison is decided or the evaluation
/// is Undecided (a tie within the enclosures); the candidates are tried in
/// the order of their largest possible value, so that a clear leader is
/// decided without touching the others.
template <class S>
Eigen::Index ArgmaxWithGap(const Vec<S>& v, const S& gap) {
  const Eigen::Index n = v.size();
  std::vector<std::pair<double, Eigen::Index>> order;
  for (Eigen::Index i = 0; i < n; ++i) {
    double top = 0;
    if constexpr (std::is_same_v<S, Interval>) top = internal::RawUpperDouble(v[i]);
    else top = static_cast<double>(v[i]);
    order.push_back({-top, i});
  }
  std::sort(order.begin(), order.end());
  for (const auto& [neg_top, i] : order) {
    bool leads = true;
    for (const auto& [neg_other, j] : order) {
      if (j == i) continue;
      if (!(S(v[i] - v[j]) >= gap)) {
        leads = false;
        break;
      }
    }
    if (leads) return i;
  }
  return -1;
}

}  // namespace attnprop
