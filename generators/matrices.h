// Matrices and structured matrices whose dimensions keep shrinking.
//
// Structures are built from parameters by the shaped generator (shape.h), so
// every shrink is again a valid instance. Each structured matrix is computed
// exactly in rationals; Arith says what the caller receives:
//   kExact         the exact rationals (for the mpq backend: the structure
//                  holds exactly, e.g. Cayley-transform orthogonal matrices);
//   kRoundToDouble each entry rounded to the nearest double (for double,
//                  float, MPFR). Exact symmetry/antisymmetry survive rounding
//                  (rounding is a function of the value); metric properties
//                  hold within the bound each generator states, derived from
//                  one rounding per entry (|fl(x) - x| <= u|x|, u = 2^-53).
// Products of short dyadic factors (the default factor entries) are exact
// doubles, so rank-one, W_K^T W_Q and B B^T are exact in every backend.
#pragma once

#include <rapidcheck.h>

#include <vector>

#include "generators/scalars.h"
#include "generators/shape.h"
#include "model/exact.h"

namespace attnprop::gen {

/// kRoundToFloat: each entry rounded to the nearest float (held in a
/// double, so every backend sees the same float-representable input); the
/// bounds below then hold with u = 2^-24.
enum class Arith { kExact, kRoundToDouble, kRoundToFloat };

/// kExact for exact scalars (mpq), kRoundToFloat for float, kRoundToDouble
/// for double and MPFR.
template <class S>
constexpr Arith ArithFor() {
  if constexpr (ScalarTraits<S>::kExact) {
    return Arith::kExact;
  } else if constexpr (std::is_same_v<S, float>) {
    return Arith::kRoundToFloat;
  } else {
    return Arith::kRoundToDouble;
  }
}

/// The unit roundoff of an Arith: 0, 2^-53 or 2^-24.
double UnitRoundoffOf(Arith arith);

/// Typed conversions: a list of exact matrices (e.g. a batch) in scalar S,
/// and an n x 1 exact matrix as a vector.
template <class S>
std::vector<Mat<S>> AsMats(const std::vector<ExactMatrix>& ms) {
  std::vector<Mat<S>> out;
  out.reserve(ms.size());
  for (const ExactMatrix& m : ms) out.push_back(m.As<S>());
  return out;
}
template <class S>
Vec<S> AsVec(const ExactMatrix& column) {
  return column.As<S>().col(0);
}

/// Values of `g` rounded to the nearest float (held as doubles): inputs for
/// the float backend that every other backend sees unchanged. Rounding is
/// monotone, so a range [lo, hi] of floats is kept by every shrink.
rc::Gen<Exact> FloatValued(rc::Gen<Exact> g);
/// The float nearest d (saturating at +-FLT_MAX), as a double.
double ToFloatValue(double d);

/// Exact conversion of an ExactMatrix to rationals (throws on inf/NaN).
Mat<attnprop::Rational> ToRationals(const ExactMatrix& m);
/// Rationals to an ExactMatrix: exact (kExact) or rounded to nearest doubles.
ExactMatrix FromRationals(const Mat<attnprop::Rational>& m, Arith arith);
/// An exact value, or its nearest double.
Exact Finish(const attnprop::Rational& q, Arith arith);

/// Short dyadic factor entries k/16, |k| <= 64: a sum of n products of two is
/// an exact double for n < 2^40.
rc::Gen<Exact> ShortFactor();

/// Dense rows x cols matrix; rows and columns shrink (dropped), entries
/// shrink by `entry`.
rc::Gen<ExactMatrix> DenseMatrix(DimRange rows, DimRange cols, rc::Gen<Exact> entry);

/// Antisymmetric n x n: A_ij = x_ij (i < j), A_ji = -A_ij, zero diagonal.
/// Exact in every backend. Shrinks to the zero matrix of size n.min.
rc::Gen<ExactMatrix> Antisymmetric(DimRange n, rc::Gen<Exact> entry);

/// A permutation matrix P (P_{i, p(i)} = 1) from sort keys; shrinks toward
/// the identity (equal keys keep their order) and smaller n.
rc::Gen<ExactMatrix> Permutation(DimRange n);

/// An orthogonal matrix Q = (I - A)(I + A)^{-1} (Cayley transform of an
/// antisymmetric A with entries in {0, +-1/2, +-1}): rational and exactly
/// orthogonal. Rounded (kRoundToDouble): |Q^T Q - I|_max <= 2u + u^2 (each
/// column has norm 1; Cauchy-Schwarz bounds the cross terms). Shrinks to I.
/// The exact construction is O(n^3) in mpq: keep n <= 40 or so.
rc::Gen<ExactMatrix> Orthogonal(DimRange n, Arith arith);

/// S = Q diag(spectrum) Q^T with Q from Orthogonal.
struct SpectralCase {
  ExactMatrix s;
  ExactMatrix q;                // exact orthogonal factor (rounded if kRoundToDouble)
  std::vector<Exact> spectrum;  // the eigenvalues, exactly as prescribed
};
/// A symmetric matrix with a prescribed spectrum (entries of `eigenvalue`).
/// kExact: S Q = Q diag(spectrum) exactly. kRoundToDouble: S exactly
/// symmetric; every eigenvalue within n * u * max|lambda| of the spectrum
/// (Weyl: |dS|_2 <= |dS|_F <= n u max|S_ij| <= n u max|lambda|).
rc::Gen<SpectralCase> SymmetricWithSpectrum(DimRange n, rc::Gen<Exact> eigenvalue, Arith arith);

/// a = left * right^T with the factors it came from.
struct FactoredCase {
  ExactMatrix a;
  ExactMatrix left;
  ExactMatrix right;
};
/// Rank <= 1: a = u v^T (u rows x 1, v cols x 1).
rc::Gen<FactoredCase> RankOne(DimRange rows, DimRange cols, rc::Gen<Exact> factor = ShortFactor());
/// Rank <= r: a = W_K^T W_Q (d x d) with W_Q, W_K of shape r x d; returned
/// with left = W_K^T (d x r), right = W_Q^T (d x r).
rc::Gen<FactoredCase> LowRankProduct(DimRange rank, DimRange d, rc::Gen<Exact> factor = ShortFactor());
/// Positive semidefinite: a = B B^T, B of shape n x r (left = right = B).
rc::Gen<FactoredCase> Psd(DimRange n, DimRange rank, rc::Gen<Exact> factor = ShortFactor());

/// A vector (n x 1) in the open simplex: x_i = w_i / sum w, w_i in [1/16, 16].
/// kExact: x_i > 0, sum = 1 exactly. kRoundToDouble: x_i > 0 and
/// |sum x_i - 1| <= u (exact sum of the rounded entries). Shrinks toward
/// the uniform vector 1/n.
rc::Gen<ExactMatrix> SimplexVector(DimRange n, Arith arith);

/// A sorted unit vector in Lambda_m (2m x 1): m negative, m positive entries,
/// ascending, |x|_2 = 1 (rational, inverse stereographic projection).
/// kRoundToDouble: sorted, signs kept, |sum x_i^2 - 1| <= 2u + u^2.
/// `m` ranges over m (the vector has 2m entries).
rc::Gen<ExactMatrix> LambdaVector(DimRange m, Arith arith);

/// Entrywise max norm exactly c (c > 0): max_ij |a_ij| = c (c rounded to a
/// double first when kRoundToDouble); |a_ij| <= c for all entries.
rc::Gen<ExactMatrix> WithMaxNorm(DimRange rows, DimRange cols, Exact c, Arith arith);

/// Entrywise l1 norm c (c > 0): sum_ij |a_ij| = c exactly (kExact), within
/// u * c after rounding (kRoundToDouble).
rc::Gen<ExactMatrix> WithL1Norm(DimRange rows, DimRange cols, Exact c, Arith arith);

/// The Cayley transform (I - A)(I + A)^{-1} of an antisymmetric rational A.
Mat<attnprop::Rational> Cayley(const Mat<attnprop::Rational>& a);

}  // namespace attnprop::gen
