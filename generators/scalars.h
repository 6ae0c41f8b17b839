// Scalar and shape generators (foundation set; the generators issue extends
// them). Every value is an Exact, so each backend sees the same input.
#pragma once

#include <rapidcheck.h>

#include <cstdint>

#include "model/exact.h"

namespace attnprop::gen {

/// A dyadic value n + k/2^frac_bits with |value| <= max_abs (max_abs >= 1).
/// Shrinks toward 0, then toward integers (the fraction shrinks to 0).
rc::Gen<Exact> Dyadic(int64_t max_abs, int frac_bits);

/// A positive dyadic value in [2^-frac_bits, max_abs]; shrinks toward 1.
rc::Gen<Exact> PositiveDyadic(int64_t max_abs, int frac_bits);

/// A positive rational p/q with 1 <= p <= max_num, 1 <= q <= max_den;
/// shrinks toward 1. Most such values are not dyadic (no double holds them).
rc::Gen<Exact> PositiveRational(int64_t max_num, int64_t max_den);

/// A signed rational p/q with |p| <= max_num, 1 <= q <= max_den; shrinks to 0.
rc::Gen<Exact> Rational(int64_t max_num, int64_t max_den);

/// A dimension in [lo, hi], shrinking toward lo.
rc::Gen<int64_t> Dim(int64_t lo, int64_t hi);

/// A rows x cols matrix with entries from `entry`.
rc::Gen<ExactMatrix> Matrix(int64_t rows, int64_t cols, rc::Gen<Exact> entry);

}  // namespace attnprop::gen
