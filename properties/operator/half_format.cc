#include "properties/operator/half_format.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace attnprop::ksuite {

double HalfFormat::UnitRoundoff() const { return std::ldexp(1.0, -precision); }
double HalfFormat::MinSubnormal() const { return std::ldexp(1.0, emin - precision + 1); }
double HalfFormat::MinNormal() const { return std::ldexp(1.0, emin); }
double HalfFormat::MaxFinite() const { return std::ldexp(2.0 - std::ldexp(1.0, 1 - precision), emax); }

double RoundToHalf(const HalfFormat& f, double x) {
  if (x == 0 || !std::isfinite(x)) return x;
  // The quantum of x's binade (of the subnormals below 2^emin); x / quantum
  // and the product back are exact in double (powers of two, far from
  // double's range ends), nearbyint rounds to nearest even.
  const int e = std::max(std::ilogb(x), f.emin);
  const int q = e - f.precision + 1;
  const double r = std::ldexp(std::nearbyint(std::ldexp(x, -q)), q);
  return std::fabs(r) > f.MaxFinite() ? std::copysign(f.MaxFinite(), x) : r;
}

bool IsHalfValue(const HalfFormat& f, double x) { return std::isfinite(x) && RoundToHalf(f, x) == x; }

uint16_t EncodeHalf(const HalfFormat& f, double x) {
  if (!IsHalfValue(f, x)) throw std::logic_error(std::string("kernel suite: not a ") + f.name + " value (generator bug)");
  const int fraction_bits = f.precision - 1;
  const uint16_t sign = std::signbit(x) ? uint16_t(0x8000) : uint16_t(0);
  const double a = std::fabs(x);
  if (a == 0) return sign;
  if (a < f.MinNormal())  // subnormal: exponent field 0, fraction a / 2^(emin - fraction_bits)
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::ldexp(a, fraction_bits - f.emin)));
  const int e = std::ilogb(a);
  const int bias = (1 << (f.exponent_bits - 1)) - 1;
  const auto frac = static_cast<uint32_t>(std::ldexp(a, fraction_bits - e)) - (uint32_t{1} << fraction_bits);
  return static_cast<uint16_t>(sign | (static_cast<uint32_t>(e + bias) << fraction_bits) | frac);
}

double DecodeHalf(const HalfFormat& f, uint16_t bits) {
  const int fraction_bits = f.precision - 1;
  const int bias = (1 << (f.exponent_bits - 1)) - 1;
  const uint32_t frac = bits & ((uint32_t{1} << fraction_bits) - 1);
  const uint32_t exp_field = (bits >> fraction_bits) & ((uint32_t{1} << f.exponent_bits) - 1);
  const double sign = (bits & 0x8000) ? -1.0 : 1.0;
  if (exp_field == (uint32_t{1} << f.exponent_bits) - 1)
    return frac ? std::numeric_limits<double>::quiet_NaN() : sign * std::numeric_limits<double>::infinity();
  if (exp_field == 0) return sign * std::ldexp(static_cast<double>(frac), f.emin - fraction_bits);
  return sign * std::ldexp(static_cast<double>(frac | (uint32_t{1} << fraction_bits)),
                           static_cast<int>(exp_field) - bias - fraction_bits);
}

double HalfGapBelow(const HalfFormat& f, double x) {
  const double a = std::fabs(x);
  if (a <= f.MinNormal()) return f.MinSubnormal() / 2;
  // Below 2^e the spacing is 2^(e - p) at a power of two, 2^(e - p + 1) above it.
  const int e = std::ilogb(a);
  const bool power_of_two = a == std::ldexp(1.0, e);
  return std::ldexp(1.0, e - f.precision + (power_of_two ? 0 : 1)) / 2;
}

}  // namespace attnprop::ksuite
