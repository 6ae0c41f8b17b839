// Scalar generators: ranges, shrink targets, the order of simplicity,
// coverage of the edge classes, exact conversion and printing.
#include "generators/scalars.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>

#include "generators/show.h"
#include "generators/tests/test_util.h"

namespace attnprop::gen {
namespace {

using testing::ExpectAllSeen;
using testing::Sample;
using testing::SampleShrinkables;
using testing::ShrinkFully;

const auto kAlways = [](const Exact&) { return true; };

double Target(const rc::Gen<Exact>& g, uint64_t seed = 7) {
  return ShrinkFully<Exact>(g(rc::Random(seed), 50), kAlways).ToDouble();
}

TEST(Scalars, ShrinkTargets) {
  for (uint64_t seed : {1, 2, 3, 4, 5}) {
    EXPECT_EQ(Target(Dyadic(1000, 8), seed), 0.0);
    EXPECT_EQ(Target(PositiveDyadic(1000, 8), seed), 1.0);
    EXPECT_EQ(Target(Normal(3.0), seed), 0.0);
    EXPECT_EQ(Target(Wide(1e4), seed), 0.0);
    EXPECT_EQ(Target(SimpleDyadic(10, 6), seed), 0.0);
    EXPECT_EQ(Target(Uniform(2.5, 7), seed), 3.0);    // the in-range integer nearest 0
    EXPECT_EQ(Target(Uniform(-7, -2.5), seed), -3.0);
    EXPECT_EQ(Target(Uniform(0.25, 0.75), seed), 0.25);  // no integer: the end nearest 0
    const Exact r = ShrinkFully<Exact>(PositiveRational(1000, 97)(rc::Random(seed), 50), kAlways);
    EXPECT_EQ(r, Exact(1.0));
    EXPECT_EQ(ShrinkFully<Exact>(Rational(1000, 60)(rc::Random(seed), 50), kAlways), Exact(0.0));
    EXPECT_EQ(ShrinkFully<Exact>(SimpleRational(10, 12)(rc::Random(seed), 50), kAlways), Exact(0.0));
  }
}

// Toward 0, then integers, then short fractions: the minimal value that
// still fails is the simplest one the predicate allows.
TEST(Scalars, ShrinkOrderIntegersThenShortFractions) {
  int found = 0;
  // Shrinks never grow |x|: each check starts from a value at least as far
  // from 0 as the simplest failing value.
  for (const auto& s : SampleShrinkables(Normal(4.0), 300)) {
    const double x = s.value().ToDouble();
    if (x >= 2 && x <= 8) {
      EXPECT_EQ(ShrinkFully<Exact>(s, [](const Exact& v) { return v.ToDouble() >= 1.3; }).ToDouble(), 2.0);
    }
    if (x >= 1.5 && x <= 1.7) {
      EXPECT_EQ(ShrinkFully<Exact>(s, [](const Exact& v) { return v.ToDouble() >= 1.3 && v.ToDouble() <= 1.7; })
                    .ToDouble(),
                1.5);
      ++found;
    }
    if (x >= 1.375 && x <= 1.4) {
      // 1.375 = 1 + 3/8: the shortest fraction in [1.3, 1.4].
      EXPECT_EQ(ShrinkFully<Exact>(s, [](const Exact& v) { return v.ToDouble() >= 1.3 && v.ToDouble() <= 1.4; })
                    .ToDouble(),
                1.375);
    }
    if (x <= -3 && x >= -8) {
      // A negative failure shrinks to a small integer; the sign is kept
      // only when the predicate needs it.
      EXPECT_EQ(ShrinkFully<Exact>(s, [](const Exact& v) { return std::fabs(v.ToDouble()) >= 2.2; }).ToDouble(), 3.0);
      EXPECT_EQ(ShrinkFully<Exact>(s, [](const Exact& v) { return v.ToDouble() <= -2.2; }).ToDouble(), -3.0);
    }
  }
  EXPECT_GT(found, 0);
  // Huge and tiny values reach powers of two, then simple values.
  const auto huge = ShrinkableDouble(0x1.234567p+900, -1e300, 1e300);
  EXPECT_EQ(ShrinkFully<Exact>(huge, [](const Exact& v) { return v.ToDouble() >= 1e200; }).ToDouble(),
            std::ldexp(1.0, 665));  // the smallest power of two >= 1e200 (2^665 = 1.3e200)
  const auto tiny = ShrinkableDouble(0x1.8p-1070, -1, 1);
  EXPECT_EQ(ShrinkFully<Exact>(tiny, [](const Exact& v) { return v.ToDouble() > 0 && v.ToDouble() < 0x1p-1022; })
                .ToDouble(),
            std::ldexp(1.0, -1023));  // the simplest subnormal: the largest power of two below DBL_MIN
  // Rationals: smaller denominators first.
  const auto third = PositiveRational(1000, 97);
  for (const auto& s : SampleShrinkables(third, 200)) {
    const double x = s.value().ToDouble();
    if (x >= 1.0 / 3 && x < 0.36) {
      EXPECT_EQ(ShrinkFully<Exact>(s, [](const Exact& v) { return v.ToDouble() > 0.3 && v.ToDouble() < 0.36; }),
                Exact(attnprop::Rational(1, 3)));
    }
  }
}

// Every candidate stays in range and is strictly simpler; so shrinking
// terminates and never leaves what the generator promised.
TEST(Scalars, SimplerDoublesStayInRange) {
  int checked = 0;
  uint64_t seed = 0;
  for (double lo : {-1e4, -3.5, -1.0, 0.0, 0.25, 2.5})
    for (double width : {0.5, 1.0, 7.0, 1e3, 1e5})
      for (const Exact& v : Sample(Uniform(lo, lo + width), 50, ++seed)) {
        const double hi = lo + width, x = v.ToDouble();
        ASSERT_TRUE(x >= lo && x <= hi);
        ASSERT_FALSE(x == 0 && std::signbit(x)) << "-0 is a special value";
        for (double c : SimplerDoubles(x, lo, hi)) {
          ASSERT_GE(c, lo);
          ASSERT_LE(c, hi);
          ASSERT_NE(c, x);
          ASSERT_FALSE(c == 0 && std::signbit(c));
          ++checked;
        }
      }
  EXPECT_GT(checked, 1000);
}

TEST(Scalars, ShrunkValuesKeepTheirGrid) {
  // Dyadic(max, f) stays on the 2^-f grid and in range through every shrink.
  for (const auto& s : SampleShrinkables(Dyadic(1000, 8), 30)) {
    testing::WalkShrinks<Exact>(
        s,
        [](const Exact& v) {
          const double d = v.ToDouble();
          EXPECT_LE(std::fabs(d), 1000.0);
          EXPECT_LE(FractionBits(d), 8);
        },
        1);
  }
  for (const auto& s : SampleShrinkables(PositiveDyadic(16, 4), 30)) {
    testing::WalkShrinks<Exact>(
        s,
        [](const Exact& v) {
          EXPECT_GE(v.ToDouble(), 1.0 / 16);
          EXPECT_LE(v.ToDouble(), 16.0);
          EXPECT_LE(FractionBits(v.ToDouble()), 4);
        },
        2);
  }
  for (const auto& s : SampleShrinkables(PositiveRational(1000, 97), 30)) {
    testing::WalkShrinks<Exact>(
        s,
        [](const Exact& v) {
          const attnprop::Rational q = v.ToRational();
          EXPECT_GT(q, 0);
          EXPECT_LE(boost::multiprecision::denominator(q), 97);
          EXPECT_LE(boost::multiprecision::numerator(q), 1000);
        },
        3);
  }
}

TEST(Scalars, WideHitsEveryEdgeClass) {
  std::map<std::string, int> seen;
  for (const Exact& x : Sample(Wide(1e4))) {
    ASSERT_TRUE(x.IsDouble());
    ASSERT_TRUE(std::isfinite(x.ToDouble()));
    ASSERT_LE(std::fabs(x.ToDouble()), 1e4);
    for (const auto& c : ScalarClasses(x)) ++seen[c];
  }
  ExpectAllSeen({"zero", "subnormal", "tiny", "integer", "short_dyadic", "near_exp_overflow", "exp_underflow", "huge"},
                seen, "Wide(1e4)");
  EXPECT_EQ(seen.count("-0"), 0u) << "specials only where asked for";
}

TEST(Scalars, SpecialsOnlyWhereAsked) {
  std::map<std::string, int> seen;
  for (const Exact& x : Sample(WithSpecials(Normal(), {true, true, true}, 20)))
    for (const auto& c : ScalarClasses(x)) ++seen[c];
  ExpectAllSeen({"-0", "inf", "nan"}, seen, "WithSpecials");
  for (const Exact& x : Sample(Normal(), 300)) EXPECT_TRUE(std::isfinite(x.ToDouble()));
  std::map<std::string, int> rational;
  for (const Exact& x : Sample(SimpleRational(4, 12)))
    for (const auto& c : ScalarClasses(x)) ++rational[c];
  ExpectAllSeen({"rational", "integer", "short_dyadic"}, rational, "SimpleRational");
}

TEST(Scalars, NormalLooksNormal) {
  const auto xs = Sample(Normal(2.0), 2000);
  double sum = 0, sum2 = 0;
  for (const Exact& x : xs) sum += x.ToDouble(), sum2 += x.ToDouble() * x.ToDouble();
  const double mean = sum / 2000, sd = std::sqrt(sum2 / 2000 - mean * mean);
  // 2000 draws: the standard error of the mean is 2/sqrt(2000) = 0.045.
  EXPECT_LT(std::fabs(mean), 5 * 0.045);
  EXPECT_NEAR(sd, 2.0, 0.2);
}

TEST(Scalars, RoundToDoubleIsNearestEven) {
  using Q = attnprop::Rational;
  EXPECT_EQ(RoundToDouble(Q(1, 3)), 0x1.5555555555555p-2);
  EXPECT_EQ(RoundToDouble(Q(1) + Q(1, 2) * Q(1, 4503599627370496)), 1.0);  // 1 + 2^-53: tie to even
  EXPECT_EQ(RoundToDouble(Q(1) + Q(3, 2) * Q(1, 4503599627370496)), 1.0 + 0x1p-51);
  EXPECT_EQ(RoundToDouble(Q(-2, 3)), -0x1.5555555555555p-1);
}

TEST(Scalars, PrintsExactly) {
  std::ostringstream a, b;
  showValue(Exact(3.0), a);
  EXPECT_EQ(a.str(), "0x1.8p+1 (=3)");
  showValue(Exact(attnprop::Rational(-1, 3)), b);
  EXPECT_EQ(b.str(), "-1/3");
  ExactMatrix m(1, 2);
  m(0, 0) = Exact(0.1);
  m(0, 1) = Exact(attnprop::Rational(2, 7));
  std::ostringstream c;
  showValue(m, c);
  EXPECT_EQ(c.str(), "1x2\n  0x1.999999999999ap-4 (=0.10000000000000001)  2/7");
}

}  // namespace
}  // namespace attnprop::gen
