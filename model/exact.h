// Exact input values, shared by every backend.
//
// A generated input is an Exact: a double (any finite or special value; every
// double is a dyadic rational, so it converts exactly to MPFR and mpq) or a
// rational p/q (for inputs no double holds, such as Cayley-transform
// orthogonal matrices). Each backend converts the same Exact, so double, MPFR
// and rational properties see the same input, and a counterexample is stored
// and printed without loss (hexfloat or p/q, never 6 significant digits).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "model/eigen_scalar.h"

namespace attnprop {

class Exact {
 public:
  Exact() = default;
  Exact(double d) : v_(d) {}  // NOLINT: every double is exact
  explicit Exact(const Rational& q);

  bool IsDouble() const { return std::holds_alternative<double>(v_); }
  /// The value rounded to nearest double (exact when IsDouble()).
  double ToDouble() const;
  /// The exact rational value; throws std::domain_error for inf or NaN.
  Rational ToRational() const;

  /// The value in scalar S: exact for double inputs into double, MPFR (at
  /// any precision >= 53 bits) and rationals; rounded to nearest otherwise.
  template <class S>
  S As() const;

  /// Exact text that Parse reads back: hexfloat ("0x1.8p+1", "inf", "-0x0p+0",
  /// "nan") or a reduced rational ("-1/3").
  std::string ToString() const;
  /// ToString(), and for a double a decimal beside it: "0x1.8p+1 (=3)".
  std::string ToDisplay() const;
  /// Reads hexfloat, a decimal that is an exact double (as strtod rounds it),
  /// "p/q", inf, -inf, nan. Returns nullopt for anything else.
  static std::optional<Exact> Parse(std::string_view text);

  /// The representation: the same double (sign of 0 included) or rational.
  friend bool operator==(const Exact& a, const Exact& b);
  /// The values, ordered exactly (a double against a rational as the
  /// rational it is; -0 = 0; anything with NaN is false): what a domain's
  /// Assume compares (`v[kEps] < 1`), never a rounded ToDouble().
  friend bool operator<(const Exact& a, const Exact& b) { return Order(a, b) == -1; }
  friend bool operator<=(const Exact& a, const Exact& b) { const int o = Order(a, b); return o == -1 || o == 0; }
  friend bool operator>(const Exact& a, const Exact& b) { return Order(a, b) == 1; }
  friend bool operator>=(const Exact& a, const Exact& b) { const int o = Order(a, b); return o == 1 || o == 0; }
  /// -1, 0, 1 as a < b, a = b, a > b in value; 2 when either is NaN.
  static int Order(const Exact& a, const Exact& b);

 private:
  std::variant<double, Rational> v_ = 0.0;
};

template <>
inline double Exact::As<double>() const { return ToDouble(); }
template <>
inline float Exact::As<float>() const { return static_cast<float>(ToDouble()); }
template <>
Mpfr Exact::As<Mpfr>() const;
/// An enclosure: the point itself for a double input (and for a rational at
/// a precision that holds it), else the tightest interval around it.
template <>
Interval Exact::As<Interval>() const;
template <>
inline Rational Exact::As<Rational>() const { return ToRational(); }

/// A dense matrix of exact values, row-major.
struct ExactMatrix {
  int64_t rows = 0;
  int64_t cols = 0;
  std::vector<Exact> data;  // rows * cols, row-major

  ExactMatrix() = default;
  ExactMatrix(int64_t r, int64_t c) : rows(r), cols(c), data(static_cast<size_t>(r * c)) {}
  Exact& operator()(int64_t i, int64_t j) { return data[static_cast<size_t>(i * cols + j)]; }
  const Exact& operator()(int64_t i, int64_t j) const { return data[static_cast<size_t>(i * cols + j)]; }

  template <class S>
  Mat<S> As() const {
    Mat<S> m(rows, cols);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) m(i, j) = (*this)(i, j).template As<S>();
    return m;
  }
  /// From a double matrix (exact).
  static ExactMatrix FromDoubles(const Mat<double>& m);
  friend bool operator==(const ExactMatrix& a, const ExactMatrix& b) {
    return a.rows == b.rows && a.cols == b.cols && a.data == b.data;
  }
};

/// A rational matrix as exact values.
inline ExactMatrix ToExact(const Mat<Rational>& m) {
  ExactMatrix e(m.rows(), m.cols());
  for (int64_t i = 0; i < m.rows(); ++i)
    for (int64_t j = 0; j < m.cols(); ++j) e(i, j) = Exact(m(i, j));
  return e;
}

}  // namespace attnprop
