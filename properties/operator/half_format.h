// The half-precision storage formats of ABI v2 (kernels/attnprop_kernel.h):
// bfloat16 and IEEE binary16 values as uint16_t bit patterns, their exact
// values (every one is a double), and rounding to them. attnprop's own
// conversions, independent of any kernel's: the harness encodes the exact
// inputs and decodes the kernel's outputs with these.
#pragma once

#include <cstdint>

namespace attnprop::ksuite {

/// A binary floating-point storage format with gradual underflow.
struct HalfFormat {
  const char* name;  // "bf16", "f16"
  int precision;     // significand bits p (implicit bit included): u = 2^-p
  int emin, emax;    // exponent range of the normal numbers: [2^emin, 2^(emax+1))
  int exponent_bits;
  /// u = 2^-p, the unit roundoff of round to nearest.
  double UnitRoundoff() const;
  /// Smallest positive (subnormal) value 2^(emin - p + 1): the spacing below 2^emin.
  double MinSubnormal() const;
  double MinNormal() const;
  double MaxFinite() const;
};

/// bfloat16: p = 8, exponents of binary32 (2^-126 .. 2^127; subnormals to 2^-133).
inline constexpr HalfFormat kBF16{"bf16", 8, -126, 127, 8};
/// IEEE binary16: p = 11, 2^-14 .. 2^15 (max 65504; subnormals to 2^-24).
inline constexpr HalfFormat kF16{"f16", 11, -14, 15, 5};

/// x rounded to the format, to nearest with ties to even, with gradual
/// underflow; beyond the largest finite value: that value (saturated, so a
/// generator's draw stays finite). x must be finite.
double RoundToHalf(const HalfFormat& f, double x);
/// Whether x is a finite value of the format (RoundToHalf(f, x) == x).
bool IsHalfValue(const HalfFormat& f, double x);
/// The bit pattern of x, which must be a value of the format (-0 keeps its sign).
uint16_t EncodeHalf(const HalfFormat& f, double x);
/// The exact value of a bit pattern (NaN for NaN patterns, +-inf).
double DecodeHalf(const HalfFormat& f, uint16_t bits);
/// Half the distance from x (a value of the format) to its nearest neighbour
/// of the format below in magnitude (or to the next subnormal): a computed
/// value within less than this of x rounds to x.
double HalfGapBelow(const HalfFormat& f, double x);

}  // namespace attnprop::ksuite
