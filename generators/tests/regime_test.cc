// Regime matrices: every regime is drawn in a default run (scales across
// 2^-20..2^6, full-mantissa entries in about a third of the matrices, each
// structure, dimensions up to the cap), the promises hold (range, float
// values), and shrinking goes to small, simple values on shared axes.
#include "generators/regime.h"

#include <gtest/gtest.h>

#include <mpfr.h>

#include <cmath>
#include <map>
#include <set>

#include "generators/scalars.h"
#include "generators/tests/test_util.h"

namespace attnprop::gen {
namespace {

using testing::Sample;
using testing::SampleShrinkables;
using testing::ShrinkFully;

struct Drawn {
  ExactMatrix m;
  int scale, mantissa;
  Structure structure;
};

rc::Gen<Drawn> Draws(Regime g, int64_t max_dim = 8) {
  Layout l;
  const int r = l.Axis({1, max_dim, max_dim}), c = l.Axis({1, max_dim, max_dim});
  const int m = l.Matrix(r, c, g);
  return l.Build<Drawn>([m](const Layout::Drawn& d) {
    return Drawn{d.Matrix(m), d.Scale(m), d.Mantissa(m), d.StructureOf(m)};
  });
}

int SignificantBits(double x) {
  if (x == 0) return 0;
  int e = 0;
  double f = std::frexp(std::abs(x), &e);
  int bits = 0;
  while (f != 0) {
    f = f * 2 - std::floor(f * 2);
    ++bits;
  }
  return bits;
}

TEST(Regime, DefaultRunReachesEveryRegime) {
  const std::vector<Drawn> drawn = Sample(Draws(Regime{}), 300);
  std::set<int> scales;
  std::map<int, int> mantissas;
  std::set<Structure> structures;
  int structured = 0, wide = 0, long_mantissa = 0, big = 0;
  for (const Drawn& d : drawn) {
    scales.insert(d.scale);
    ++mantissas[d.mantissa];
    structures.insert(d.structure);
    if (d.structure != Structure::kDense) ++structured;
    if (d.m.rows >= 8 || d.m.cols >= 8) ++big;
    for (const Exact& x : d.m.data) {
      const double v = x.ToDouble();
      ASSERT_TRUE(std::isfinite(v));
      ASSERT_LE(std::abs(v), std::ldexp(1.0, 6 + 10));
      if (SignificantBits(v) > 40) ++long_mantissa;
    }
    wide += d.scale <= -10;
  }
  EXPECT_TRUE(scales.count(-20) && scales.count(6) && scales.count(0)) << "scales 2^-20 and 2^6 reached";
  EXPECT_EQ(structures.size(), 8u) << "every structure drawn";
  EXPECT_GE(mantissas[2], 300 / 4) << "full-mantissa matrices in about a third of the draws";
  EXPECT_GE(mantissas[0], 300 / 4);
  EXPECT_GE(structured, 300 / 4);
  EXPECT_LE(structured, 300 / 2);
  EXPECT_GE(wide, 300 / 4) << "magnitudes below 2^-10 in a share of the draws";
  EXPECT_GT(long_mantissa, 1000) << "entries that exercise rounding";
  EXPECT_GE(big, 30) << "dimension 8 reached";
}

TEST(Regime, FloatArithGivesFloats) {
  Regime g;
  g.arith = Arith::kRoundToFloat;
  for (const Drawn& d : Sample(Draws(g), 200))
    for (const Exact& x : d.m.data) ASSERT_EQ(x.ToDouble(), static_cast<double>(static_cast<float>(x.ToDouble())));
}

// MPFR's full-mantissa entries have its working precision (256 bits), so
// its arithmetic rounds as a double's does on doubles.
TEST(Regime, MpfrFullMantissaHasWorkingPrecision) {
  const MpfrPrecisionScope precision(kDefaultMpfrBits);
  const Regime g = RegimeFor<Mpfr>(Regime{});
  ASSERT_EQ(g.full_bits, MpfrPrecisionBits());
  int long_entries = 0, full = 0;
  for (const Drawn& d : Sample(Draws(g), 200)) {
    full += d.mantissa == 2;
    for (const Exact& x : d.m.data) {
      const Mpfr m = x.As<Mpfr>();
      if (!x.IsDouble() && mpfr_min_prec(m.backend().data()) > 200) ++long_entries;
    }
  }
  EXPECT_GE(full, 200 / 4);
  EXPECT_GT(long_entries, 200);
}

TEST(Regime, UnstructuredStaysInRange) {
  Regime g;
  g.max_abs = 3;
  g.max_scale = 0;
  g.structured = false;
  g.nonnegative = true;
  for (const Drawn& d : Sample(Draws(g), 200)) {
    ASSERT_EQ(d.structure, Structure::kDense);
    for (const Exact& x : d.m.data) {
      ASSERT_GE(x.ToDouble(), 0);
      ASSERT_LE(x.ToDouble(), 3);
    }
  }
}

// "Some entry has more than 12 significant bits" shrinks to a 1 x 1 matrix
// at scale 2^0.
TEST(Regime, ShrinksToOneSimpleEntry) {
  int shrunk = 0;
  for (const auto& s : SampleShrinkables(Draws(Regime{}), 100)) {
    auto long_entry = [](const Drawn& d) {
      for (const Exact& x : d.m.data)
        if (SignificantBits(x.ToDouble()) > 12) return true;
      return false;
    };
    if (!long_entry(s.value())) continue;
    const Drawn min = ShrinkFully<Drawn>(s, long_entry);
    EXPECT_EQ(min.m.rows, 1);
    EXPECT_EQ(min.m.cols, 1);
    EXPECT_EQ(min.scale, 0);  // the scale does not change the significand: it shrinks to 2^0
    // A long significand needs full mantissa, or a rank-one product of two 10-bit entries.
    EXPECT_TRUE(min.mantissa == 2 || (min.mantissa == 1 && min.structure == Structure::kRankOne));
    ++shrunk;
  }
  EXPECT_GT(shrunk, 10);
}

// Shared axes: X (n x d) and W (d x d) keep d equal in every shrink.
TEST(Regime, SharedAxesShrinkTogether) {
  Layout l;
  const int n = l.Axis({1, 6, 6}), d = l.Axis({1, 6, 6});
  const int x = l.Matrix(n, d, Regime{}), w = l.Matrix(d, d, Regime{});
  auto gen = l.Build<std::pair<ExactMatrix, ExactMatrix>>(
      [x, w](const Layout::Drawn& dr) { return std::make_pair(dr.Matrix(x), dr.Matrix(w)); });
  for (const auto& s : SampleShrinkables(gen, 50)) {
    auto fails = [](const std::pair<ExactMatrix, ExactMatrix>& p) {
      EXPECT_EQ(p.first.cols, p.second.rows);
      EXPECT_EQ(p.second.rows, p.second.cols);
      return p.first.cols >= 2;
    };
    if (!fails(s.value())) continue;
    const auto min = ShrinkFully<std::pair<ExactMatrix, ExactMatrix>>(s, fails);
    EXPECT_EQ(min.first.rows, 1);
    EXPECT_EQ(min.first.cols, 2);
  }
}

}  // namespace
}  // namespace attnprop::gen

namespace attnprop::gen {
namespace {

// A stack (layers x heads of d x d): "some matrix of head 1 is nonzero"
// shrinks to one layer, two heads, d = 1 -- whole heads and layers drop.
TEST(Regime, StacksDropWholeHeadsAndLayers) {
  Layout l;
  const int layers = l.Axis({1, 3, 3}), heads = l.Axis({1, 3, 3}), d = l.Axis({1, 4, 4});
  const int w = l.Stack({layers, heads}, d, d, Regime{});
  using Net = std::vector<std::vector<ExactMatrix>>;
  auto gen = l.Build<Net>([=](const Layout::Drawn& dr) {
    Net net;
    for (int64_t a = 0; a < dr.Dim(layers); ++a) {
      net.emplace_back();
      for (int64_t h = 0; h < dr.Dim(heads); ++h) net.back().push_back(dr.Matrix(w, {a, h}));
    }
    return net;
  });
  int shrunk = 0;
  for (const auto& s : SampleShrinkables(gen, 60)) {
    auto fails = [](const Net& net) {
      for (const auto& layer : net)
        if (layer.size() >= 2)
          for (const Exact& x : layer[1].data)
            if (x.ToDouble() != 0) return true;
      return false;
    };
    if (!fails(s.value())) continue;
    const Net min = ShrinkFully<Net>(s, fails);
    EXPECT_EQ(min.size(), 1u);
    ASSERT_EQ(min[0].size(), 2u);
    EXPECT_EQ(min[0][1].rows, 1);
    ++shrunk;
  }
  EXPECT_GT(shrunk, 5);
}

}  // namespace
}  // namespace attnprop::gen
