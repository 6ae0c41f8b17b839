// Rigorous enclosures of the spectrum of a symmetric matrix, for the
// Interval scalar (Eigen's iterative solvers are refused on it:
// eigen_scalar.h). The method is the classic a-posteriori one (Weyl's
// perturbation theorem with Ostrowski's theorem for congruences; see Rump,
// "Verification methods", Acta Numerica 2010, section 13):
//   1. eigenvectors X of the midpoint matrix, computed in MPFR at the
//      interval's precision (any X will do: only step 2 must be rigorous);
//   2. in interval arithmetic, G = X^T A X and E = X^T X - I;
//   3. with eps >= ||E||_2 (Frobenius) < 1, X is nonsingular and, by
//      Ostrowski, lambda_k(G) = theta_k lambda_k(A), theta_k in [1-eps, 1+eps];
//   4. by Weyl, lambda_k(G) is within r >= ||offdiag(G)||_2 (Frobenius) of
//      the k-th smallest diagonal entry of G, enclosed by the k-th smallest
//      lower and upper endpoints.
// The enclosures hold for every symmetric matrix inside the interval
// matrix (A is read as hull(A_ij, A_ji)), need no gap between eigenvalues
// (multiple eigenvalues are enclosed like simple ones) and tighten with the
// precision. Why not Arb (libflint-arb-dev 2.23): it has no symmetric
// eigen-solver; acb_mat_eig_multiple_rump works on complex matrices and
// gives up on clusters, which attnprop's spectra have (rank-one L: N - 2 zero
// eigenvalues).
#pragma once

#include <optional>
#include <type_traits>
#include <vector>

#include <Eigen/Eigenvalues>

#include "model/eigen_scalar.h"

namespace attnprop {

/// The k-th smallest of each endpoint, k = 0..n-1: encloses the k-th smallest
/// of any choice of points in the intervals (sorting enclosures without a
/// comparison that could be undecided).
Vec<Interval> EncloseOrderStatistics(const std::vector<Interval>& x);

/// Enclosures of the eigenvalues of the symmetric matrix enclosed by `a`,
/// in increasing order (Eigen's order). Throws Undecided when the computed
/// eigenvectors are too far from orthogonal to conclude (eps >= 1), or when
/// the midpoint solver does not converge.
Vec<Interval> EncloseSymmetricEigenvalues(const Mat<Interval>& a);

/// An enclosure of ||a||_2 = sqrt(lambda_max(a^T a)).
Interval EncloseOperatorTwoNorm(const Mat<Interval>& a);

/// A rigorous bound on the error of a floating solver's eigenvalues, relative
/// to ||s||_F: max_k |computed_k - lambda_k(s)| <= bound ||s||_F, for the
/// eigenvalues `computed` (increasing, as SymmetricEigenvalues gives them) of
/// the symmetric s, taken exactly as stored. Measured, not assumed: each
/// lambda_k(s) is enclosed as above at max(128, 2p) bits for entries of p
/// bits, so the bound is the solver's actual error plus the enclosure's width
/// (about 2^-120 relative), rounded up. +inf when no enclosure could be had;
/// 0 for s = 0 with computed = 0.
double RelativeEigenvalueError(const Mat<double>& s, const Vec<double>& computed);
double RelativeEigenvalueError(const Mat<Mpfr>& s, const Vec<Mpfr>& computed);

/// Eigenvalues of a symmetric matrix, increasing (floating scalars); nullopt
/// when the solver reports no convergence. In Interval, rigorous enclosures
/// (model/spectral_enclosure.h; Undecided where they cannot be had).
/// (The one entry point a claim over any scalar uses; in <attnprop/claim.h>.)
template <class S>
std::optional<Vec<S>> SymmetricEigenvalues(const Mat<S>& s) {
  if constexpr (std::is_same_v<S, Interval>) {
    return EncloseSymmetricEigenvalues(s);
  } else {
    Eigen::SelfAdjointEigenSolver<Mat<S>> solver(s, Eigen::EigenvaluesOnly);
    if (solver.info() != Eigen::Success) return std::nullopt;
    return Vec<S>(solver.eigenvalues());
  }
}


}  // namespace attnprop
