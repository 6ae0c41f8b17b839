// Small predicates for HypothesesHold (property.h): shapes, finiteness and
// magnitude of a case's fields. Each returns false (never throws) where the
// field is present with the wrong kind; a missing field still throws
// std::out_of_range, which the runner and the search read as "outside".
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "model/exact.h"
#include "properties/framework/case.h"

namespace attnprop::hyp {

inline bool Finite(const Exact& e) {
  if (!e.IsDouble()) return true;  // a rational is finite
  return std::isfinite(e.ToDouble());
}

/// a = b as real numbers: -0 = +0, and a double equals the rational of its
/// value. (Exact's == is identity of the written value, -0 != +0: a
/// hypothesis "v1 != v2" read with it holds for (0, -0), which the search's
/// sign flips make.) Infinities and NaN compare as Exact's ==.
inline bool SameReal(const Exact& a, const Exact& b) {
  if (!Finite(a) || !Finite(b)) return a == b;
  return a.ToRational() == b.ToRational();
}

/// Finite with |e| <= bound (bound as a double; rationals compared rounded).
inline bool Within(const Exact& e, double bound) { return Finite(e) && std::fabs(e.ToDouble()) <= bound; }

inline bool AllFinite(const ExactMatrix& m) {
  if (m.rows < 0 || m.cols < 0 || static_cast<int64_t>(m.data.size()) != m.rows * m.cols) return false;
  for (const Exact& e : m.data)
    if (!Finite(e)) return false;
  return true;
}

/// Every entry finite with |entry| <= bound.
inline bool AllWithin(const ExactMatrix& m, double bound) {
  if (!AllFinite(m)) return false;
  for (const Exact& e : m.data)
    if (std::fabs(e.ToDouble()) > bound) return false;
  return true;
}

inline bool Shape(const ExactMatrix& m, int64_t rows, int64_t cols) { return m.rows == rows && m.cols == cols; }

/// A finite rows x cols matrix field (rows or cols < 0: any).
inline bool FiniteMatrix(const Case& c, const std::string& name, int64_t rows = -1, int64_t cols = -1) {
  const ExactMatrix& m = c.GetMatrix(name);
  if (rows >= 0 && m.rows != rows) return false;
  if (cols >= 0 && m.cols != cols) return false;
  return AllFinite(m);
}

/// Exactly a double (finite): a double entry, or a rational equal to its rounding.
inline bool ExactDouble(const Exact& e) {
  if (e.IsDouble()) return std::isfinite(e.ToDouble());
  const double d = e.ToDouble();
  return std::isfinite(d) && Exact(d).ToRational() == e.ToRational();
}

/// Exactly a float (finite): a double entry that float holds unchanged.
inline bool ExactFloat(const Exact& e) {
  if (!ExactDouble(e)) return false;
  const double d = e.ToDouble();
  const float f = static_cast<float>(d);
  return std::isfinite(f) && static_cast<double>(f) == d;
}

inline bool AllExactDouble(const ExactMatrix& m) {
  if (!AllFinite(m)) return false;
  for (const Exact& e : m.data)
    if (!ExactDouble(e)) return false;
  return true;
}

inline bool AllExactFloat(const ExactMatrix& m) {
  if (!AllFinite(m)) return false;
  for (const Exact& e : m.data)
    if (!ExactFloat(e)) return false;
  return true;
}

/// Largest |entry| (0 for an empty matrix); entries assumed finite.
inline double MaxAbs(const ExactMatrix& m) {
  double r = 0;
  for (const Exact& e : m.data) r = std::fmax(r, std::fabs(e.ToDouble()));
  return r;
}

/// The scores |scale <q_i, k_j>| are at most `limit` for every row pair
/// (bounded by |scale| d max|q| max|k|, computed in logs so it cannot overflow).
inline bool ScoresWithin(const ExactMatrix& q, const ExactMatrix& k, double scale, double limit) {
  const double mq = MaxAbs(q), mk = MaxAbs(k), d = static_cast<double>(q.cols);
  if (mq == 0 || mk == 0 || scale == 0) return true;
  return std::log2(std::fabs(scale)) + std::log2(d) + std::log2(mq) + std::log2(mk) <= std::log2(limit);
}

/// Whether a + b (finite doubles) is exact in a binary format with `bits`
/// of precision: the exact sum spans at most `bits` bits (no underflow: the
/// lowest set bit of each is above the subnormal range of double).
inline bool SumExactIn(double a, double b, int bits) {
  if (!std::isfinite(a) || !std::isfinite(b)) return false;
  if (a == 0 || b == 0) return true;
  auto lsb = [](double x) {
    int e = 0;
    const double m = std::frexp(std::fabs(x), &e);  // x = m 2^e, m in [1/2, 1)
    auto mant = static_cast<uint64_t>(std::ldexp(m, 53));
    int tz = 0;
    while ((mant & 1u) == 0) mant >>= 1, ++tz;
    return e - 53 + tz;
  };
  const int top = std::max(std::ilogb(a), std::ilogb(b)) + 1;  // +1: a carry
  const int bottom = std::min(lsb(a), lsb(b));
  return top - bottom + 1 <= bits && bottom >= -1074;
}

/// Every entry finite and either 0 or with lo <= |entry| <= hi (the normal
/// range a relative rounding model needs).
inline bool InRange(const ExactMatrix& m, double lo, double hi) {
  if (!AllFinite(m)) return false;
  for (const Exact& e : m.data) {
    const double a = std::fabs(e.ToDouble());
    if (a != 0 && (a < lo || a > hi)) return false;
  }
  return true;
}

/// Significant bits of a finite double (0 for 0).
inline int SignificantBits(double x) {
  if (x == 0) return 0;
  int e = 0;
  auto mant = static_cast<uint64_t>(std::ldexp(std::frexp(std::fabs(x), &e), 53));
  int bits = 53;
  while ((mant & 1u) == 0) mant >>= 1, --bits;
  return bits;
}

}  // namespace attnprop::hyp
