// The half-precision formats and generator of ABI v2 (half_format.h, half.h):
// every bit pattern decodes and encodes back; rounding to nearest-even with
// gradual underflow and saturation at the edges; the generator's entries are
// values of the format, satisfy the properties' hypotheses, and reach every
// class of bit pattern (subnormals, the largest exponents, full mantissas).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "properties/abi/half.h"
#include "properties/operator/half_format.h"
#include "properties/operator/problem_gen.h"

namespace attnprop::ksuite {
namespace {

TEST(HalfFormat, EveryBitPatternRoundTrips) {
  for (const HalfFormat* f : {&kBF16, &kF16})
    for (uint32_t b = 0; b < 65536; ++b) {
      const auto bits = static_cast<uint16_t>(b);
      const double x = DecodeHalf(*f, bits);
      if (!std::isfinite(x)) continue;
      ASSERT_TRUE(IsHalfValue(*f, x)) << f->name << " " << b;
      ASSERT_EQ(EncodeHalf(*f, x), bits) << f->name << " " << b;
    }
}

TEST(HalfFormat, Bf16IsTheUpperHalfOfBinary32) {
  for (uint32_t b = 0; b < 65536; ++b) {
    const uint32_t x = b << 16;
    float f;
    std::memcpy(&f, &x, 4);
    if (std::isnan(f)) continue;
    ASSERT_EQ(DecodeHalf(kBF16, static_cast<uint16_t>(b)), static_cast<double>(f)) << b;
  }
}

TEST(HalfFormat, RoundsToNearestEvenWithGradualUnderflowAndSaturates) {
  EXPECT_EQ(kF16.MaxFinite(), 65504.0);
  EXPECT_EQ(kF16.MinSubnormal(), 0x1p-24);
  EXPECT_EQ(kBF16.MinSubnormal(), 0x1p-133);
  EXPECT_EQ(RoundToHalf(kF16, 1 + 0x1p-11), 1.0);                  // tie: to even
  EXPECT_EQ(RoundToHalf(kF16, 1 + 3 * 0x1p-11), 1 + 0x1p-9);       // tie: to even (up)
  EXPECT_EQ(RoundToHalf(kF16, 0x1p-25), 0.0);                      // half the smallest subnormal: to 0
  EXPECT_EQ(RoundToHalf(kF16, 3 * 0x1p-26), 0x1p-24);
  EXPECT_EQ(RoundToHalf(kF16, 1e6), 65504.0);                      // saturates
  EXPECT_EQ(RoundToHalf(kBF16, 1 + 0x1p-8), 1.0);
  EXPECT_EQ(RoundToHalf(kBF16, 1 + 0x1p-8 + 0x1p-20), 1 + 0x1p-7);
  EXPECT_EQ(RoundToHalf(kBF16, 0x1.8p-133), 0x1p-132);             // subnormal tie to even
  EXPECT_EQ(HalfGapBelow(kF16, 1.0), 0x1p-12);
  EXPECT_EQ(HalfGapBelow(kF16, 1.5), 0x1p-11);
  EXPECT_EQ(HalfGapBelow(kF16, 0x1p-20), 0x1p-25);
}

/// The generator: cases from RapidCheck's sizes 0..99, every entry classified.
TEST(HalfFormat, GeneratorReachesEveryClassOfBitPattern) {
  for (const DType t : {DType::kBF16, DType::kF16}) {
    const HalfFormat& f = t == DType::kBF16 ? kBF16 : kF16;
    int subnormal = 0, large = 0, full = 0, zero = 0, entries = 0;
    const rc::Gen<Case> g = HalfProblemGen(t, 16);
    ShapeSpec any;
    any.any_scale = true;
    for (int n = 0; n < 400; ++n) {
      const Case c = g(rc::Random(static_cast<uint64_t>(n) + 1), n % 100).value();
      ASSERT_TRUE(ProblemHolds(t, any, c)) << f.name << " case " << n;
      for (const char* name : {"Q", "K", "V"})
        for (const Exact& e : c.GetMatrix(name).data) {
          const double x = std::fabs(e.ToDouble());
          ++entries;
          if (x == 0) ++zero;
          else if (x < f.MinNormal()) ++subnormal;
          else {
            // large: within 2^10 of the largest the domain allows (f16: its
            // maximum; bf16: q, k <= 2^30, v <= 2^96, problem_gen.h)
            const double top = t == DType::kF16 ? f.MaxFinite() : name[0] == 'V' ? 0x1p96 : 0x1p30;
            if (x >= top / 1024) ++large;
            // full: the last of the p significand bits set
            if (std::fmod(std::ldexp(x, f.precision - 1 - std::ilogb(x)), 2.0) == 1.0) ++full;
          }
        }
    }
    std::printf("%s: %d entries, %d zero, %d subnormal, %d large, %d full-mantissa\n", f.name, entries, zero, subnormal,
                large, full);
    EXPECT_GT(subnormal, entries / 100) << f.name;
    EXPECT_GT(large, entries / 100) << f.name;
    EXPECT_GT(full, entries / 20) << f.name;
  }
}

}  // namespace
}  // namespace attnprop::ksuite
