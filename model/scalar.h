// The scalar types the reference model is instantiated for, and what the
// properties need to know about each: its backend name, whether it is exact,
// its unit roundoff, and how the MPFR working precision is chosen.
#pragma once

#include <boost/multiprecision/gmp.hpp>
#include <boost/multiprecision/mpfr.hpp>
#include <cmath>
#include <limits>
#include <string>

namespace attnprop {

namespace bmp = boost::multiprecision;

/// MPFR float whose precision is chosen at run time (SetMpfrPrecisionBits).
/// Expression templates are off: Eigen reorders work under them.
using Mpfr = bmp::number<bmp::mpfr_float_backend<0>, bmp::et_off>;
/// Exact rationals (GMP mpq), expression templates off for Eigen.
using Rational = bmp::number<bmp::gmp_rational, bmp::et_off>;

/// The MPFR precision used when none is asked for.
inline constexpr int kDefaultMpfrBits = 256;

/// Sets the precision, in bits, of every Mpfr created from now on.
/// Boost 1.74 counts precision in decimal digits; the digits are chosen so
/// that the MPFR precision is at least `bits`. Returns the actual bits.
int SetMpfrPrecisionBits(int bits);
/// The precision, in bits, that a newly created Mpfr gets.
int MpfrPrecisionBits();
/// The precision, in bits, of one value (to catch stale low-precision inputs).
int PrecisionBitsOf(const Mpfr& x);

/// Sets a working precision (read by kGet, set by kSet) for a scope and
/// restores it afterwards.
template <int (*kGet)(), auto kSet>
class PrecisionScope {
 public:
  explicit PrecisionScope(int bits) : saved_(kGet()) { kSet(bits); }
  ~PrecisionScope() { kSet(saved_); }
  PrecisionScope(const PrecisionScope&) = delete;
  PrecisionScope& operator=(const PrecisionScope&) = delete;

 private:
  int saved_;
};

/// The MPFR precision for a scope.
using MpfrPrecisionScope = PrecisionScope<&MpfrPrecisionBits, &SetMpfrPrecisionBits>;

/// Per-scalar facts. `UnitRoundoff()` is u = 2^-p for a p-bit significand
/// (0 for exact types): the bound on the relative error of one rounding.
/// `UnderflowUnit()` is eta, the smallest positive subnormal: in gradual
/// underflow a rounding errs by up to eta/2 absolutely, so the model of one
/// operation is fl(x op y) = (x op y)(1 + d) + e, |d| <= u, |e| <= eta/2
/// (e = 0 for + and -). 0 for MPFR (its exponent range reaches 2^-(2^30):
/// no product of a case's double-sized entries comes near it) and exact types.
template <class S>
struct ScalarTraits;

template <>
struct ScalarTraits<double> {
  static constexpr const char* kBackend = "double";
  static constexpr bool kExact = false;
  static double UnitRoundoff() { return 0x1p-53; }
  static double UnderflowUnit() { return 0x1p-1074; }
};

template <>
struct ScalarTraits<float> {
  static constexpr const char* kBackend = "float";
  static constexpr bool kExact = false;
  static double UnitRoundoff() { return 0x1p-24; }
  static double UnderflowUnit() { return 0x1p-149; }
};

template <>
struct ScalarTraits<Mpfr> {
  static constexpr const char* kBackend = "mpfr";
  static constexpr bool kExact = false;
  static double UnitRoundoff() { return std::ldexp(1.0, -MpfrPrecisionBits()); }
  static double UnderflowUnit() { return 0.0; }
};

template <>
struct ScalarTraits<Rational> {
  static constexpr const char* kBackend = "rational";
  static constexpr bool kExact = true;
  static double UnitRoundoff() { return 0.0; }
  static double UnderflowUnit() { return 0.0; }
};

/// Whether x is exactly 0 (model/interval.h: for an interval, the point 0;
/// an enclosure that merely contains 0 is not).
template <class S>
bool IsExactlyZero(const S& x) {
  return x == 0;
}
/// Whether x is certainly not 0 (model/interval.h: for an interval, 0 is
/// outside the enclosure; deciding nothing, it never throws Undecided).
template <class S>
bool CertainlyNonzero(const S& x) {
  return !(x == 0);
}
/// Whether x is certainly 0 (for an interval, the point 0; never throws).
template <class S>
bool CertainlyZero(const S& x) {
  return x == 0;
}

/// Converts a scalar to double (rounding to nearest) for reporting errors.
inline double ToDouble(double x) { return x; }
inline double ToDouble(float x) { return static_cast<double>(x); }
inline double ToDouble(const Mpfr& x) { return x.convert_to<double>(); }
inline double ToDouble(const Rational& x) { return x.convert_to<double>(); }

/// Infinity of a floating scalar (Mpfr at the current precision).
template <class S>
S Infinity() {
  return std::numeric_limits<S>::infinity();
}

}  // namespace attnprop
