#include "generators/scalars.h"

#include <cmath>

#include "model/scalar.h"

namespace attnprop::gen {

rc::Gen<Exact> Dyadic(int64_t max_abs, int frac_bits) {
  const int64_t den = int64_t{1} << frac_bits;
  // Magnitude in units of 2^-frac_bits; integer part and fraction shrink
  // separately so that the shrink reaches integers before 0.
  return rc::gen::apply(
      [=](int64_t whole, int64_t frac, bool negative) {
        int64_t units = whole * den + frac;
        if (units > max_abs * den) units = max_abs * den;
        const double v = std::ldexp(static_cast<double>(units), -frac_bits);
        return Exact(negative ? -v : v);
      },
      rc::gen::inRange<int64_t>(0, max_abs + 1), rc::gen::inRange<int64_t>(0, den), rc::gen::arbitrary<bool>());
}

rc::Gen<Exact> PositiveDyadic(int64_t max_abs, int frac_bits) {
  const int64_t den = int64_t{1} << frac_bits;
  return rc::gen::map(rc::gen::inRange<int64_t>(0, max_abs * den), [=](int64_t k) {
    // k = 0 maps to 1: shrinks toward 1, never reaches 0.
    const int64_t units = (k + den - 1) % (max_abs * den) + 1;
    return Exact(std::ldexp(static_cast<double>(units), -frac_bits));
  });
}

rc::Gen<Exact> PositiveRational(int64_t max_num, int64_t max_den) {
  return rc::gen::apply(
      [](int64_t p, int64_t q) { return Exact(attnprop::Rational(p) / attnprop::Rational(q)); },
      rc::gen::inRange<int64_t>(1, max_num + 1), rc::gen::inRange<int64_t>(1, max_den + 1));
}

rc::Gen<Exact> Rational(int64_t max_num, int64_t max_den) {
  return rc::gen::apply(
      [](int64_t p, int64_t q, bool negative) {
        return Exact(attnprop::Rational(negative ? -p : p) / attnprop::Rational(q));
      },
      rc::gen::inRange<int64_t>(0, max_num + 1), rc::gen::inRange<int64_t>(1, max_den + 1),
      rc::gen::arbitrary<bool>());
}

rc::Gen<int64_t> Dim(int64_t lo, int64_t hi) { return rc::gen::inRange<int64_t>(lo, hi + 1); }

rc::Gen<ExactMatrix> Matrix(int64_t rows, int64_t cols, rc::Gen<Exact> entry) {
  return rc::gen::map(rc::gen::container<std::vector<Exact>>(static_cast<size_t>(rows * cols), std::move(entry)),
                      [=](std::vector<Exact> v) {
                        ExactMatrix m(rows, cols);
                        m.data = std::move(v);
                        return m;
                      });
}

}  // namespace attnprop::gen
