// Interval scalar: a closed interval [lo, hi] of MPFR numbers (MPFI,
// Debian libmpfi-dev) that encloses the exact real value of the expression
// that computed it. The reference model runs on it unchanged (written once
// over the scalar), so a claim's conclusion evaluated in Interval encloses
// the exact mathematics: a certified verdict needs no rounding budget.
//
// Why not Boost's mpfi_float: comparing two overlapping mpfi_floats throws
// from a noexcept function and aborts the process (shared NOTES.md), and
// the model branches on comparisons (the max it subtracts, norms). Here a
// comparison is decided only when the enclosures decide it; otherwise it
// throws Undecided, which the certifier catches (and retries at a higher
// precision). max and min need no decision: they return the enclosure of
// the max (min) of any two points of the operands.
#pragma once

#include <mpfi.h>

#include <exception>
#include <limits>
#include <string>

#include "model/scalar.h"

namespace attnprop {

/// A comparison that the operands' enclosures do not decide (they overlap),
/// or one involving NaN.
class Undecided : public std::exception {
 public:
  explicit Undecided(std::string why) : why_(std::move(why)) {}
  const char* what() const noexcept override { return why_.c_str(); }

 private:
  std::string why_;
};

/// The precision, in bits, of each Interval created from now on (this
/// thread; default 128).
int IntervalPrecisionBits();
void SetIntervalPrecisionBits(int bits);

/// The Interval precision for a scope.
using IntervalPrecisionScope = PrecisionScope<&IntervalPrecisionBits, &SetIntervalPrecisionBits>;

class Interval {
 public:
  Interval() : Interval(0L) {}
  Interval(int v) : Interval(static_cast<long>(v)) {}  // NOLINT: exact, like a double
  Interval(long v);                                     // NOLINT
  Interval(double v);                                   // NOLINT: every double is exact
  /// Exact when the working precision holds x; else the enclosing interval.
  /// (Factories, not constructors: overload resolution would otherwise ask
  /// Boost whether an Interval converts to its numbers, a hard error.)
  static Interval Enclosing(const Mpfr& x);
  static Interval Enclosing(const Rational& q);
  /// [lo, hi] rounded outward.
  static Interval Hull(const Interval& a, const Interval& b);

  Interval(const Interval& o);
  Interval(Interval&& o) noexcept;
  Interval& operator=(const Interval& o);
  Interval& operator=(Interval&& o) noexcept;
  ~Interval();

  /// The endpoints rounded outward to double (lo down, hi up), and the
  /// midpoint rounded to nearest.
  double LowerDouble() const;
  double UpperDouble() const;
  double MidDouble() const;
  /// The endpoints exactly, as MPFR numbers of the interval's precision.
  Mpfr Lower() const;
  Mpfr Upper() const;
  bool HasNan() const { return mpfi_nan_p(v_) != 0; }
  /// Both endpoints finite.
  bool Bounded() const { return mpfi_bounded_p(v_) != 0; }
  bool ContainsZero() const { return mpfi_has_zero(v_) != 0; }
  bool IsPoint() const;
  int PrecisionBits() const { return static_cast<int>(mpfi_get_prec(v_)); }
  /// "[lo, hi]" with `digits` significant decimal digits per endpoint, each
  /// rounded outward (so the printed interval still encloses the value).
  std::string ToString(int digits = 8) const;

  Interval& operator+=(const Interval& o);
  Interval& operator-=(const Interval& o);
  Interval& operator*=(const Interval& o);
  Interval& operator/=(const Interval& o);
  friend Interval operator+(Interval a, const Interval& b) { return a += b; }
  friend Interval operator-(Interval a, const Interval& b) { return a -= b; }
  friend Interval operator*(Interval a, const Interval& b) { return a *= b; }
  friend Interval operator/(Interval a, const Interval& b) { return a /= b; }
  friend Interval operator-(const Interval& a);
  friend Interval operator+(const Interval& a) { return a; }

  // Decided comparisons: the answer for every pair of points of the two
  // enclosures, or Undecided.
  friend bool operator<(const Interval& a, const Interval& b);
  friend bool operator<=(const Interval& a, const Interval& b);
  friend bool operator>(const Interval& a, const Interval& b) { return b < a; }
  friend bool operator>=(const Interval& a, const Interval& b) { return b <= a; }
  friend bool operator==(const Interval& a, const Interval& b);
  friend bool operator!=(const Interval& a, const Interval& b) { return !(a == b); }

  friend Interval abs(const Interval& x);
  /// x^2, tight: [-1, 2]^2 = [0, 4] (x * x would give [-2, 4]).
  friend Interval sqr(const Interval& x);
  friend Interval fabs(const Interval& x) { return abs(x); }
  friend Interval sqrt(const Interval& x);
  friend Interval exp(const Interval& x);
  friend Interval expm1(const Interval& x);
  friend Interval log(const Interval& x);
  friend Interval log1p(const Interval& x);
  friend Interval atanh(const Interval& x);
  friend Interval tanh(const Interval& x);
  friend Interval cos(const Interval& x);
  friend Interval sin(const Interval& x);
  friend Interval pow(const Interval& x, int n);
  /// x^y = exp(y log x) for x > 0 (Undecided unless x is certainly >= 0).
  friend Interval pow(const Interval& x, const Interval& y);
  friend Interval max(const Interval& a, const Interval& b);
  friend Interval min(const Interval& a, const Interval& b);
  friend bool isnan(const Interval& x) { return x.HasNan(); }
  friend bool isfinite(const Interval& x) { return !x.HasNan() && x.Bounded(); }
  friend bool isinf(const Interval& x);

  mpfi_ptr data() { return v_; }
  mpfi_srcptr data() const { return v_; }

 private:
  struct Uninit {};
  explicit Interval(Uninit, int bits);
  mpfi_t v_;
};

template <>
struct ScalarTraits<Interval> {
  static constexpr const char* kBackend = "interval";
  static constexpr bool kExact = false;
  // An enclosure needs no rounding budget: the bound of the exact value.
  static double UnitRoundoff() { return 0.0; }
  static double UnderflowUnit() { return 0.0; }
};

/// The point 0 only (a decision, never Undecided).
// Read in MPFR, not through a double: a point below double's range (1e-350,
// a bound on subnormal inputs) is not 0.
inline bool IsExactlyZero(const Interval& x) { return x.IsPoint() && !x.HasNan() && mpfr_zero_p(&x.data()->left) != 0; }
inline bool CertainlyNonzero(const Interval& x) { return !x.HasNan() && !x.ContainsZero(); }

/// The midpoint (for records and messages, never for verdicts).
inline double ToDouble(const Interval& x) { return x.MidDouble(); }

}  // namespace attnprop

// Boost's number constructors ask, in overload resolution, whether any type
// converts to them; for Interval the answer must be "no" (number_kind_unknown
// makes it a restricted conversion), not a hard error.
namespace boost::multiprecision {
template <>
struct number_category<attnprop::Interval> : std::integral_constant<int, number_kind_unknown> {};
}  // namespace boost::multiprecision

namespace std {
template <>
class numeric_limits<attnprop::Interval> {
 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static attnprop::Interval infinity() { return attnprop::Interval(numeric_limits<double>::infinity()); }
  static attnprop::Interval quiet_NaN() { return attnprop::Interval(numeric_limits<double>::quiet_NaN()); }
  static attnprop::Interval epsilon() { return attnprop::Interval(std::ldexp(1.0, 1 - attnprop::IntervalPrecisionBits())); }
  static attnprop::Interval max() { return attnprop::Interval(numeric_limits<double>::max()); }
  static attnprop::Interval lowest() { return -max(); }
  static attnprop::Interval min() { return attnprop::Interval(numeric_limits<double>::min()); }
};
}  // namespace std
