// Res of "Only Large Weights (And Not Skip Connections) Can Prevent the
// Perils of Rank Collapse" (004_fc07a226cef95160.txt, Definition 3.4):
//   Res(Z) = Z - 1_n y^T,  y in argmin_{y in R^d} ||Z - 1_n y^T||_inf,
// with ||A||_inf = max_{i,j} |A_ij| (entrywise, Section 3.1).
//
// The argmin is a set. Column j of Z - 1 y^T has max-deviation
// max_i |Z_ij - y_j| >= r_j = (max_i Z_ij - min_i Z_ij) / 2, with equality
// only at the column midrange, so the minimum value is R = max_j r_j and the
// minimisers are exactly the box
//   y_j in [max_i Z_ij - R, min_i Z_ij + R]   (j = 1..d),
// a single point iff every column has range 2R (or n = 1).
// The SELECTION this model uses: y = column-wise midrange
//   y_j = (max_i Z_ij + min_i Z_ij) / 2,
// which lies in the box (it is its centre). ResArgminBox gives the whole set,
// so a claim can be checked for the selection or for every minimiser.
#pragma once

#include "model/eigen_scalar.h"

namespace attnprop {

/// ||A||_inf = max_{i,j} |A_ij| (0 for an empty matrix). Through abs and
/// max, which decide nothing on intervals (model/interval.h); NaN entries
/// are skipped (std::max(m, NaN) is m).
template <class S>
S EntrywiseMaxNorm(const Mat<S>& a) {
  using std::abs;
  using std::max;
  S m = 0;
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < a.cols(); ++j) m = max(m, S(abs(a(i, j))));
  return m;
}

/// The selected minimiser: column-wise midrange (Z must have n >= 1 rows).
template <class S>
Vec<S> ResMidrange(const Mat<S>& z) {
  Vec<S> y(z.cols());
  for (Eigen::Index j = 0; j < z.cols(); ++j) {
    using std::max;
    using std::min;
    S lo = z(0, j), hi = z(0, j);
    for (Eigen::Index i = 1; i < z.rows(); ++i) {
      lo = min(lo, S(z(i, j)));
      hi = max(hi, S(z(i, j)));
    }
    y[j] = (hi + lo) / 2;
  }
  return y;
}

/// Z - 1_n y^T.
template <class S>
Mat<S> SubtractRowVector(const Mat<S>& z, const Vec<S>& y) {
  Mat<S> r = z;
  for (Eigen::Index i = 0; i < z.rows(); ++i)
    for (Eigen::Index j = 0; j < z.cols(); ++j) r(i, j) = z(i, j) - y[j];
  return r;
}

/// Res(Z) with the midrange selection.
template <class S>
Mat<S> Res(const Mat<S>& z) {
  return SubtractRowVector<S>(z, ResMidrange<S>(z));
}

/// The objective ||Z - 1 y^T||_inf of a candidate y.
template <class S>
S ResObjective(const Mat<S>& z, const Vec<S>& y) {
  return EntrywiseMaxNorm<S>(SubtractRowVector<S>(z, y));
}

/// The full argmin set of Definition 3.4: the box [lo, hi] and the minimum
/// value R (see the header for the derivation).
template <class S>
struct ResArgmin {
  Vec<S> lo, hi;
  S value;
};

template <class S>
ResArgmin<S> ResArgminBox(const Mat<S>& z) {
  const Eigen::Index d = z.cols();
  Vec<S> col_max(d), col_min(d);
  using std::max;
  S r = 0;
  for (Eigen::Index j = 0; j < d; ++j) {
    col_max[j] = z.col(j).maxCoeff();
    col_min[j] = z.col(j).minCoeff();
    r = max(r, S((col_max[j] - col_min[j]) / 2));
  }
  ResArgmin<S> box{Vec<S>(d), Vec<S>(d), r};
  for (Eigen::Index j = 0; j < d; ++j) {
    box.lo[j] = col_max[j] - r;
    box.hi[j] = col_min[j] + r;
  }
  return box;
}

}  // namespace attnprop
