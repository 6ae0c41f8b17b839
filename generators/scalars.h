// Scalar generators. Every value is an Exact (model/exact.h), so each backend
// (double, float, MPFR, mpq) sees the same input; doubles convert exactly to
// MPFR and mpq. Shrinking goes toward the simplest value in the requested
// range: the target (0, or the in-range value nearest 0 that is an integer),
// then integers, then short dyadic fractions (fewer bits after the binary
// point), then fewer significant bits; a shrink never leaves the range.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <string>
#include <vector>

#include "model/exact.h"

namespace attnprop::gen {

// ---- Foundation set (signatures kept; shrinking now reaches short values) ----

/// A dyadic value n + k/2^frac_bits with |value| <= max_abs (max_abs >= 1).
/// Shrinks toward 0, then integers, then shorter fractions (stays in range
/// and on the 2^-frac_bits grid).
rc::Gen<Exact> Dyadic(int64_t max_abs, int frac_bits);

/// A positive dyadic value in [2^-frac_bits, max_abs] on the 2^-frac_bits
/// grid; shrinks toward 1, then integers, then shorter fractions.
rc::Gen<Exact> PositiveDyadic(int64_t max_abs, int frac_bits);

/// A positive rational p/q with 1 <= p <= max_num, 1 <= q <= max_den;
/// shrinks toward 1, then integers, then smaller denominators. Most such
/// values are not dyadic (no double holds them).
rc::Gen<Exact> PositiveRational(int64_t max_num, int64_t max_den);

/// A signed rational p/q with |p| <= max_num, 1 <= q <= max_den; shrinks
/// toward 0, then integers, then smaller denominators.
rc::Gen<Exact> Rational(int64_t max_num, int64_t max_den);

/// A dimension in [lo, hi], shrinking toward lo.
rc::Gen<int64_t> Dim(int64_t lo, int64_t hi);

/// A rows x cols matrix with entries from `entry` (fixed shape; see
/// generators/matrices.h for matrices whose dimensions shrink).
rc::Gen<ExactMatrix> Matrix(int64_t rows, int64_t cols, rc::Gen<Exact> entry);

// ---- Floating values with controlled scale ----

/// Normal-like doubles: mean 0, standard deviation sigma (> 0), clamped to
/// [-8 sigma, 8 sigma]; full 53-bit significands. Shrinks to 0, integers,
/// short dyadics within the clamp.
rc::Gen<Exact> Normal(double sigma = 1.0);

/// Any finite double in [lo, hi] (lo < hi, both finite): uniform values,
/// for a range of one sign also values log-uniform across its binades (one
/// in ten: a test generator, not a sampler), the endpoints and their
/// neighbouring doubles, small integers and short dyadics. Shrinks toward
/// the simplest value in [lo, hi].
rc::Gen<Exact> Uniform(double lo, double hi);
/// A scalar parameter in every regime [lo, hi] allows (a temperature, a
/// step, a weight): magnitudes log-uniform across the range's binades (down
/// to 2^-60 of its largest when it holds 0) with full and with short (1-6
/// bit) mantissas, uniform values, the edges (endpoints, their neighbours,
/// 0, +-1 where inside), powers of two, small integers, short dyadics. What
/// gen::Regime is for matrices. Shrinks toward the simplest value in [lo, hi].
rc::Gen<Exact> RegimeScalar(double lo, double hi);

/// Wide dynamic range, |x| <= max_abs (finite, >= 1): magnitudes
/// log-uniform from the smallest subnormal up to max_abs, boundary constants
/// (0, smallest subnormal, DBL_MIN, 1 +- ulp, the thresholds of exp:
/// 709.78 overflow, -745.13 underflow, -708.4 leaving the normals), scores up
/// to max_abs. Shrinks toward 0, integers, short dyadics, fewer bits.
rc::Gen<Exact> Wide(double max_abs = 1e4);

/// Short dyadics k / 2^frac_bits with |value| <= max_abs: exact in every
/// backend, and products of two have at most 2 * (bits of max_abs +
/// frac_bits) significant bits (exact in double when that is <= 53).
/// Shrinks toward 0, integers, shorter fractions.
rc::Gen<Exact> SimpleDyadic(double max_abs, int frac_bits);

/// Simple rationals p/q (1 <= q <= max_den, |p/q| <= max_abs), mostly not
/// dyadic: exact only in the rational backend (doubles get them rounded).
/// Shrinks toward 0, integers, smaller denominators.
rc::Gen<Exact> SimpleRational(int64_t max_abs, int64_t max_den);

/// Which special values WithSpecials may add.
struct Specials {
  bool negative_zero = true;
  bool infinities = false;
  bool nan = false;
};

/// `finite` most of the time; with probability percent/100 one of the
/// requested special values (-0, +-inf, NaN). A special shrinks to 0.
rc::Gen<Exact> WithSpecials(rc::Gen<Exact> finite, Specials specials, int percent = 10);

// ---- Shrinking, exposed for the structured generators and the tests ----

/// Candidates simpler than x inside [lo, hi], simplest first (finite x).
/// Every candidate is strictly simpler by (is-target, bits after the binary
/// point, |x - target|, sign), so shrinking terminates.
std::vector<double> SimplerDoubles(double x, double lo, double hi);
/// The simplest value of [lo, hi]: 0 if inside, else the in-range integer
/// nearest 0, else the endpoint nearest 0.
double SimplestIn(double lo, double hi);
/// Candidates simpler than the rational x in [lo, hi]: 0 / the target,
/// integers, then smaller denominators.
std::vector<attnprop::Rational> SimplerRationals(const attnprop::Rational& x, const attnprop::Rational& lo,
                                                 const attnprop::Rational& hi);
/// A shrinkable double: value x, shrinks from SimplerDoubles within [lo, hi].
rc::Shrinkable<Exact> ShrinkableDouble(double x, double lo, double hi);
/// Number of bits after the binary point of a finite double (0 for integers).
int FractionBits(double x);

/// Edge classes of a scalar, for the tests' coverage assertions: "zero",
/// "-0", "subnormal", "tiny" (normal, < 1e-300), "integer", "short_dyadic"
/// (<= 8 bits after the point), "near_exp_overflow" (|x| in [700, 720]),
/// "exp_underflow" (x in [-760, -700]), "huge" (|x| >= 1e3), "inf", "nan",
/// "rational" (not a double).
std::vector<std::string> ScalarClasses(const Exact& x);

/// Rounds a rational to the nearest double (ties to even) through MPFR.
double RoundToDouble(const attnprop::Rational& q);
/// Rounds a rational to the nearest value with a `bits`-bit significand
/// (bits <= 53; 24 gives float values), returned as a double.
double RoundToPrecision(const attnprop::Rational& q, int bits);

}  // namespace attnprop::gen
