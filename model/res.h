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

/// ||A||_inf = max_{i,j} |A_ij| (0 for an empty matrix).
template <class S>
S EntrywiseMaxNorm(const Mat<S>& a) {
  S m = 0;
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < a.cols(); ++j) {
      const S v = a(i, j) < 0 ? S(-a(i, j)) : a(i, j);
      if (v > m) m = v;
    }
  return m;
}

/// The selected minimiser: column-wise midrange (Z must have n >= 1 rows).
template <class S>
Vec<S> ResMidrange(const Mat<S>& z) {
  Vec<S> y(z.cols());
  for (Eigen::Index j = 0; j < z.cols(); ++j) {
    S lo = z(0, j), hi = z(0, j);
    for (Eigen::Index i = 1; i < z.rows(); ++i) {
      if (z(i, j) < lo) lo = z(i, j);
      if (z(i, j) > hi) hi = z(i, j);
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
  S r = 0;
  for (Eigen::Index j = 0; j < d; ++j) {
    col_max[j] = z.col(j).maxCoeff();
    col_min[j] = z.col(j).minCoeff();
    const S half_range = (col_max[j] - col_min[j]) / 2;
    if (half_range > r) r = half_range;
  }
  ResArgmin<S> box{Vec<S>(d), Vec<S>(d), r};
  for (Eigen::Index j = 0; j < d; ++j) {
    box.lo[j] = col_max[j] - r;
    box.hi[j] = col_min[j] + r;
  }
  return box;
}

}  // namespace attnprop
