// Makes Eigen's NumTraits complete for attnprop's multiprecision scalars, so
// that Eigen's decompositions and eigen-solvers compile and run on them.
// Boost 1.74's own eigen.hpp lacks infinity()/quiet_NaN() and returns min()
// for lowest(); these full specialisations replace it (do not include both).
#pragma once

#include <Eigen/Core>
#include <limits>

#include "model/interval.h"
#include "model/scalar.h"

namespace Eigen {

/// What the run-time-precision scalars (Mpfr, Interval) share: heavy,
/// unvectorised, every limit read at the current precision.
template <class R>
struct RuntimePrecisionNumTraits : GenericNumTraits<R> {
  using Real = R;
  using NonInteger = R;
  using Literal = R;
  using Nested = R;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = HugeCost,
    AddCost = HugeCost,
    MulCost = HugeCost
  };
  static R epsilon() { return std::numeric_limits<R>::epsilon(); }
  static R highest() { return (std::numeric_limits<R>::max)(); }
  static R lowest() { return -(std::numeric_limits<R>::max)(); }
  static R infinity() { return std::numeric_limits<R>::infinity(); }
  static R quiet_NaN() { return std::numeric_limits<R>::quiet_NaN(); }
};

template <>
struct NumTraits<attnprop::Mpfr> : RuntimePrecisionNumTraits<attnprop::Mpfr> {
  static Real dummy_precision() { return 1000 * epsilon(); }
  static int digits10() { return static_cast<int>(Real::default_precision()); }
  static int digits() { return attnprop::MpfrPrecisionBits(); }
  static int max_digits10() { return digits10() + 2; }
};

template <>
struct NumTraits<attnprop::Rational> : GenericNumTraits<attnprop::Rational> {
  using Real = attnprop::Rational;
  using NonInteger = attnprop::Rational;
  using Literal = attnprop::Rational;
  using Nested = attnprop::Rational;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = HugeCost,
    AddCost = HugeCost,
    MulCost = HugeCost
  };
  // Exact arithmetic: Eigen's pivoting thresholds must treat only 0 as 0.
  static Real epsilon() { return Real(0); }
  static Real dummy_precision() { return Real(0); }
  static int digits10() { return 0; }
};

// An enclosure has no rounding tolerance; Eigen's algorithms that branch on
// these thresholds must not see intervals (interval.h: comparisons throw).
template <>
struct NumTraits<attnprop::Interval> : RuntimePrecisionNumTraits<attnprop::Interval> {
  static Real dummy_precision() { return Real(0); }
  static int digits10() { return static_cast<int>(attnprop::IntervalPrecisionBits() * 0.30103); }
  static int digits() { return attnprop::IntervalPrecisionBits(); }
  static int max_digits10() { return digits10() + 2; }
};

namespace internal {
// |x|^2 of an interval through its square, not x * x (which widens an
// interval around 0 below 0: norms would lose their sign).
template <>
struct abs2_impl<attnprop::Interval> {
  using RealScalar = attnprop::Interval;
  static attnprop::Interval run(const attnprop::Interval& x) { return sqr(x); }
};
}  // namespace internal

}  // namespace Eigen

namespace attnprop {

template <class S>
using Mat = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;
template <class S>
using Vec = Eigen::Matrix<S, Eigen::Dynamic, 1>;
using BoolMat = Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic>;

}  // namespace attnprop

// After the NumTraits above: the product kernels are instantiated once.
#include "model/eigen_products.h"
