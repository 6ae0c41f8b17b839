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
//
// Every predicate is three-valued in the same way (CGAL's filtered
// predicates: certainly true, certainly false, or Undecided; never
// "possibly" read as "false"): isfinite, isnan, isinf, IsExactlyZero; a
// function whose domain an enclosure straddles (sqrt, log of [-1e-40, 1])
// throws Undecided rather than returning NaN or a clamped value; pow with an
// integer exponent only binds integral types (pow(x, 0.5) is x^(1/2), never
// x^0). Reading an interval as a double (ToDouble, MidDouble) inside a
// certification marks that evaluation as unable to certify a violation: a
// branch or a condition on a midpoint decides nothing.
#pragma once

#include <mpfi.h>

#include <concepts>
#include <cstdint>
#include <limits>
#include <string>

#include "model/scalar.h"

namespace attnprop {

/// A comparison that the operands' enclosures do not decide (they overlap),
/// one involving NaN, or a function evaluated where the enclosure straddles
/// the edge of its domain. Deliberately not a std::exception: a claim's own
/// `catch (const std::exception&)` must not turn "undecided" into a
/// failure. Constructing one also counts a doubt (below), so an Undecided
/// swallowed by `catch (...)` still stops the evaluation from certifying.
class Undecided {
 public:
  explicit Undecided(std::string why);
  const char* what() const noexcept { return why_.c_str(); }

 private:
  std::string why_;
};

namespace internal {
/// Doubts raised on this thread so far: each Undecided constructed and each
/// interval read as a double (ToDouble, MidDouble). The certifier compares
/// the count before and after an evaluation: a violation found after any
/// doubt is not certified.
uint64_t IntervalDoubts();
void AddIntervalDoubt();
}  // namespace internal

/// The precision, in bits, of each Interval created from now on (this
/// thread; default 128).
int IntervalPrecisionBits();
void SetIntervalPrecisionBits(int bits);

/// The Interval precision for a scope.
using IntervalPrecisionScope = PrecisionScope<&IntervalPrecisionBits, &SetIntervalPrecisionBits>;

class Interval;
/// x^n for an integral n (squaring keeps even powers >= 0).
Interval PowInteger(const Interval& x, long n);

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

  /// pi, enclosed (MPFI's mpfi_const_pi at the working precision): a
  /// claim's constants are intervals, never the double M_PI.
  static Interval Pi();
  /// p/q enclosed (0.1 as a double is not 1/10: write Ratio(1, 10)).
  static Interval Ratio(long p, long q);

  // The enclosure's geometry. Each of these is a fact about the interval,
  // not about the value it encloses, so each counts a doubt
  // (internal::IntervalDoubts) whenever its answer does not also decide the
  // value: a midpoint or an endpoint read as a number, a NaN or unbounded
  // enclosure, 0 inside an enclosure that is not the point 0, a non-point.
  // A conclusion that branches or concludes on them then certifies no
  // violation. (attnprop's own decisions read the Raw forms.)
  /// The endpoints rounded outward to double (lo down, hi up), and the
  /// midpoint rounded to nearest: for messages and records only.
  double LowerDouble() const;
  double UpperDouble() const;
  double MidDouble() const;
  /// The endpoints exactly, as MPFR numbers of the interval's precision.
  Mpfr Lower() const;
  Mpfr Upper() const;
  bool HasNan() const { return Doubt(NanRaw()); }
  /// Both endpoints finite.
  bool Bounded() const { return !Doubt(!BoundedRaw()); }
  bool ContainsZero() const { return Doubt(ContainsZeroRaw() && !(IsPointRaw() && !NanRaw())); }
  bool IsPoint() const { return !Doubt(!IsPointRaw()); }
  // The same without counting a doubt (the certifier's and the Interval
  // functions' own reads).
  bool NanRaw() const { return mpfi_nan_p(v_) != 0; }
  bool BoundedRaw() const { return mpfi_bounded_p(v_) != 0; }
  bool ContainsZeroRaw() const { return mpfi_has_zero(v_) != 0; }
  bool IsPointRaw() const;
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
  // Functions with a restricted domain: certainly inside it, the enclosure;
  // certainly outside, NaN (undefined); straddling its edge, Undecided.
  /// Domain x >= 0. Where the true argument cannot be negative (a variance
  /// computed as a difference, say), SqrtOfNonnegative says so.
  friend Interval sqrt(const Interval& x);
  friend Interval exp(const Interval& x);
  friend Interval expm1(const Interval& x);
  friend Interval exp2(const Interval& x);
  /// Domain x > 0 (log of [0, a] is [-inf, log a]: an unbounded enclosure).
  friend Interval log(const Interval& x);
  friend Interval log2(const Interval& x);
  friend Interval log10(const Interval& x);
  /// Domain x > -1.
  friend Interval log1p(const Interval& x);
  /// Domain |x| < 1.
  friend Interval atanh(const Interval& x);
  friend Interval tanh(const Interval& x);
  friend Interval sinh(const Interval& x);
  friend Interval cosh(const Interval& x);
  friend Interval cos(const Interval& x);
  friend Interval sin(const Interval& x);
  friend Interval tan(const Interval& x);
  friend Interval atan(const Interval& x);
  /// Domain |x| <= 1.
  friend Interval asin(const Interval& x);
  friend Interval acos(const Interval& x);
  friend Interval atan2(const Interval& y, const Interval& x);
  friend Interval cbrt(const Interval& x);
  /// x^y: for a point integer y (|y| < 2^31) the integer power (any x);
  /// else exp(y log x), which needs x > 0 (x certainly 0 with y certainly
  /// > 0 gives 0). pow(x, 0.5) binds here: the integer overload below only
  /// takes integral exponents.
  friend Interval pow(const Interval& x, const Interval& y);
  /// x^n for an integral n. A template constrained to integral types, so
  /// that a double exponent (pow(x, 0.5)) can never convert to int; a hidden
  /// friend (found by argument-dependent lookup only), so that it never
  /// hides ::pow from unqualified calls on doubles.
  template <std::integral I>
  friend Interval pow(const Interval& x, I n) {
    return PowInteger(x, static_cast<long>(n));
  }
  friend Interval max(const Interval& a, const Interval& b);
  friend Interval min(const Interval& a, const Interval& b);
  // Three-valued predicates: true and false are certain; else Undecided.
  /// Certainly NaN cannot be said of an enclosure (NaN there means an
  /// operation left its domain somewhere in it): true throws Undecided.
  friend bool isnan(const Interval& x);
  /// Both endpoints finite: true; the point +-inf (an infinite input): false.
  friend bool isfinite(const Interval& x);
  friend bool isinf(const Interval& x);

  mpfi_ptr data() { return v_; }
  mpfi_srcptr data() const { return v_; }

 private:
  static bool Doubt(bool doubtful);
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


/// sqrt(x) where the true x is known to be >= 0 (a sum of squares computed
/// by differences, a Gram eigenvalue): the enclosure's part below 0 is
/// dropped. Undecided when the enclosure is certainly negative.
Interval SqrtOfNonnegative(const Interval& x);
/// The enclosure intersected with [0, inf) (the true value is known to be
/// >= 0); Undecided when it is certainly negative.
Interval ClampNonnegative(const Interval& x);

/// Whether x is the point 0: true for the point 0, false when 0 is
/// certainly outside the enclosure, else Undecided.
// Read in MPFR, not through a double: a point below double's range (1e-350,
// a bound on subnormal inputs) is not 0.
bool IsExactlyZero(const Interval& x);
/// Two-valued "certainly" tests, which never throw: 0 certainly outside the
/// enclosure / the enclosure is the point 0. Use them where "not certain"
/// has a sound meaning of its own (skip a term only when it is certainly 0).
/// An answer "not certain" counts a doubt (an ExpectThat on it certifies
/// nothing).
bool CertainlyNonzero(const Interval& x);
bool CertainlyZero(const Interval& x);
namespace internal {
inline bool CertainlyNonzeroRaw(const Interval& x) { return !x.NanRaw() && !x.ContainsZeroRaw(); }
inline bool CertainlyZeroRaw(const Interval& x) {
  return x.IsPointRaw() && !x.NanRaw() && mpfr_zero_p(&x.data()->left) != 0;
}
}  // namespace internal

/// The midpoint (for records and messages, never for verdicts: a doubt).
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
