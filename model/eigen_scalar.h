// Makes Eigen's NumTraits complete for attnprop's multiprecision scalars, so
// that Eigen's decompositions and eigen-solvers compile and run on them.
// Boost 1.74's own eigen.hpp lacks infinity()/quiet_NaN() and returns min()
// for lowest(); these full specialisations replace it (do not include both).
#pragma once

#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <Eigen/SVD>
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

// An enclosure has no rounding tolerance. Eigen reads epsilon() and
// dummy_precision() only to decide "approximately": isApprox, isZero,
// isMuchSmallerThan, rank and deflation thresholds. None of these decides
// anything about the exact values an interval encloses (isApprox at
// precision 0 would be an exact equality the user did not mean), so on
// Interval they are Undecided, never a silent threshold.
template <>
struct NumTraits<attnprop::Interval> : RuntimePrecisionNumTraits<attnprop::Interval> {
  [[noreturn]] static Real epsilon() {
    throw attnprop::Undecided("an approximate threshold (Eigen's epsilon) read on intervals: it decides nothing");
  }
  [[noreturn]] static Real dummy_precision() {
    throw attnprop::Undecided("an approximate comparison (isApprox, isZero, ...) on intervals: it decides nothing");
  }
  static int digits10() { return static_cast<int>(attnprop::IntervalPrecisionBits() * 0.30103); }
  static int digits() { return attnprop::IntervalPrecisionBits(); }
  static int max_digits10() { return digits10() + 2; }
};

// Eigen's iterative eigen-solvers and SVDs are not enclosures on intervals
// (their deflation sets a nonzero subdiagonal to 0; NOTES.md): refused at
// compile time. Enclose a spectrum with model/spectral_enclosure.h.
namespace internal {
template <class M>
struct RefusedOnIntervals : std::false_type {};
}  // namespace internal
#define ATTNPROP_REFUSE_ON_INTERVALS(SOLVER)                                                        \
  template <int R, int C, int O, int MR, int MC>                                                   \
  class SOLVER<Matrix<attnprop::Interval, R, C, O, MR, MC>> {                                      \
    static_assert(internal::RefusedOnIntervals<Matrix<attnprop::Interval, R, C, O, MR, MC>>::value, \
                  #SOLVER " on Interval is not an enclosure: use model/spectral_enclosure.h");      \
  };
ATTNPROP_REFUSE_ON_INTERVALS(SelfAdjointEigenSolver)
ATTNPROP_REFUSE_ON_INTERVALS(EigenSolver)
ATTNPROP_REFUSE_ON_INTERVALS(ComplexEigenSolver)
ATTNPROP_REFUSE_ON_INTERVALS(RealSchur)
ATTNPROP_REFUSE_ON_INTERVALS(ComplexSchur)
ATTNPROP_REFUSE_ON_INTERVALS(BDCSVD)
#undef ATTNPROP_REFUSE_ON_INTERVALS
template <int R, int C, int O, int MR, int MC, int QRPreconditioner>
class JacobiSVD<Matrix<attnprop::Interval, R, C, O, MR, MC>, QRPreconditioner> {
  static_assert(internal::RefusedOnIntervals<Matrix<attnprop::Interval, R, C, O, MR, MC>>::value,
                "JacobiSVD on Interval is not an enclosure: use model/spectral_enclosure.h");
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
