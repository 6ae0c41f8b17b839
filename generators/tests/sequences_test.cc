// Score matrices, token sequences, weight sets, normed value maps and
// Lipschitz maps: promises, coverage and shrink targets.
#include "generators/sequences.h"

#include <gtest/gtest.h>

#include <cmath>

#include "generators/tests/test_util.h"

namespace attnprop::gen {
namespace {

using Q = attnprop::Rational;
using testing::Sample;
using testing::SampleShrinkables;
using testing::ShrinkFully;
using testing::WalkShrinks;

constexpr double kU = 0x1p-53;

TEST(Scores, DefaultRunHitsEveryRowKind) {
  const double spread = 1e4;
  std::map<ScoreRow, int> seen;
  for (const ExactMatrix& s : Sample(SoftmaxScores({1, 40, 20}, {1, 320, 160}, spread))) {
    for (int64_t i = 0; i < s.rows; ++i) {
      std::vector<double> row;
      for (int64_t j = 0; j < s.cols; ++j) {
        ASSERT_TRUE(s(i, j).IsDouble());
        ASSERT_LE(std::fabs(s(i, j).ToDouble()), 2 * spread);  // level + spread at most
        row.push_back(s(i, j).ToDouble());
      }
      for (ScoreRow k : ClassifyScoreRow(row, spread)) ++seen[k];
    }
  }
  for (int k = 0; k < kScoreRowKinds; ++k)
    EXPECT_GT(seen[static_cast<ScoreRow>(k)], 0) << "score row kind " << k << " never drawn";
}

TEST(Scores, ShrinkToOneZero) {
  for (const auto& s : SampleShrinkables(SoftmaxScores({1, 40, 20}, {1, 40, 20}), 5)) {
    const ExactMatrix m = ShrinkFully<ExactMatrix>(s, [](const ExactMatrix&) { return true; });
    EXPECT_EQ(m.rows, 1);
    EXPECT_EQ(m.cols, 1);
    EXPECT_EQ(m(0, 0), Exact(0.0));
  }
}

// sinusoidal(t, 2i) and (t, 2i+1) are sin and cos of rope_angles(t, i)
// within 1 ulp (glibc 2.36 sin/cos: < 1 ulp); checked against MPFR.
TEST(Tokens, PositionalVectors) {
  for (const TokenSequence& s : Sample(TokenSequences({1, 64, 40}, {1, 32, 16}), 40)) {
    ASSERT_EQ(s.embeddings.rows, s.learned.rows);
    ASSERT_EQ(s.embeddings.cols, s.learned.cols);
    ASSERT_EQ(s.sinusoidal.cols % 2, 0);
    ASSERT_EQ(s.rope_angles.cols * 2, s.sinusoidal.cols);
    for (int64_t t = 0; t < s.rope_angles.rows; ++t)
      for (int64_t i = 0; i < s.rope_angles.cols; ++i) {
        const Mpfr angle = s.rope_angles(t, i).As<Mpfr>();
        const double sn = s.sinusoidal(t, 2 * i).ToDouble(), cs = s.sinusoidal(t, 2 * i + 1).ToDouble();
        // 1 ulp of a value in [-1, 1] is at most 2^-52; the exact value can
        // be tiny (sin near 0), so bound absolutely by 2u.
        EXPECT_LE(ToDouble(Mpfr(abs(Mpfr(sn) - sin(angle)))), 2 * kU);
        EXPECT_LE(ToDouble(Mpfr(abs(Mpfr(cs) - cos(angle)))), 2 * kU);
        if (t == 0) {
          EXPECT_EQ(s.rope_angles(t, i), Exact(0.0));
        }
      }
  }
}

TEST(Weights, EntriesBoundedByEtaAndShapesCovered) {
  for (const Exact& eta : {Exact(0.3), Exact(Q(2, 7))}) {
    int multi_head = 0, multi_layer = 0;
    const Q eta_q = eta.ToRational();
    auto check = [&](const WeightSet& w) {
      ASSERT_EQ(static_cast<int64_t>(w.w_q.size()), w.layers * w.heads);
      for (size_t i = 0; i < w.w_q.size(); ++i) {
        ASSERT_EQ(w.w_q[i].rows, w.d_model);
        ASSERT_EQ(w.w_q[i].cols, w.d_k);
        ASSERT_EQ(w.w_k[i].cols, w.d_k);
        ASSERT_EQ(w.w_v[i].cols, w.d_v);
        for (const auto* m : {&w.w_q[i], &w.w_k[i], &w.w_v[i]})
          for (const Exact& x : m->data) ASSERT_LE(abs(x.ToRational()), eta_q);  // exactly
      }
    };
    const auto samples = SampleShrinkables(WeightSets({1, 3, 3}, {1, 4, 4}, {1, 24, 16}, {1, 12, 8}, {1, 12, 8}, eta));
    for (const auto& s : samples) {
      const WeightSet w = s.value();
      check(w);
      multi_head += w.heads > 1;
      multi_layer += w.layers > 1;
    }
    for (int i = 0; i < 5; ++i) WalkShrinks<WeightSet>(samples[static_cast<size_t>(99 - i)], check, 1, 2, 4, 6);
    EXPECT_GT(multi_head, 0);
    EXPECT_GT(multi_layer, 0);
    const WeightSet w = ShrinkFully<WeightSet>(samples.back(), [](const WeightSet&) { return true; });
    EXPECT_EQ(w.layers * w.heads * w.d_model * w.d_k * w.d_v, 1) << "single head, single layer, 1x1";
    EXPECT_EQ(w.w_q[0](0, 0), Exact(0.0));
  }
}

TEST(Maps, ValueMapHasItsNormExactly) {
  // V^T V = D^2 exactly (Q orthogonal): diagonal, largest entry c^2.
  const Q c = Q(5, 2);
  for (const NormedMap& m : Sample(ValueMapWithNorm({1, 12, 12}, Exact(c), Arith::kExact), 50)) {
    const Mat<Q> v = ToRationals(m.v), g = v.transpose() * v;
    Q largest = 0;
    for (Eigen::Index i = 0; i < g.rows(); ++i)
      for (Eigen::Index j = 0; j < g.cols(); ++j) {
        if (i != j) {
          ASSERT_EQ(g(i, j), 0);
        }
        largest = std::max(largest, g(i, i));
      }
    ASSERT_EQ(largest, c * c);
    ASSERT_EQ(m.norm.ToRational(), c);
  }
  // Rounded: each entry within u|V_ij| of the exact V of the same draw, so
  // | |V^|_2 - c | <= |dV|_F <= u |V|_F <= sqrt(n) u c.
  const auto exact = Sample(ValueMapWithNorm({1, 24, 24}, Exact(c), Arith::kExact), 30);
  const auto rounded = Sample(ValueMapWithNorm({1, 24, 24}, Exact(c), Arith::kRoundToDouble), 30);
  for (size_t k = 0; k < exact.size(); ++k) {
    const Mat<Q> ve = ToRationals(exact[k].v), vr = ToRationals(rounded[k].v);
    for (Eigen::Index i = 0; i < ve.rows(); ++i)
      for (Eigen::Index j = 0; j < ve.cols(); ++j) ASSERT_LE(abs(vr(i, j) - ve(i, j)), Q(kU) * abs(ve(i, j)));
  }
}

TEST(Maps, LipschitzBoundHolds) {
  // Checked in MPFR (256 bits) on the generated (rounded) W: |W^|_2 <=
  // L (1 + sqrt(n) u) (as for value maps), tanh is 1-Lipschitz, and the
  // MPFR evaluation adds at most 2^-240 relative: bound
  // L (1 + sqrt(n) u + 2^-240) |x - y|.
  MpfrPrecisionScope precision(256);
  const double lipschitz = 1.75;
  int kinds[2] = {0, 0};
  const auto maps = Sample(LipschitzMaps({1, 16, 16}, Exact(lipschitz), Arith::kRoundToDouble), 60);
  const auto points = Sample(DenseMatrix({2, 2, 2}, {16, 16, 16}, Normal()), 60);
  for (size_t k = 0; k < maps.size(); ++k) {
    const LipschitzMap& m = maps[k];
    ++kinds[m.kind];
    const auto n = static_cast<Eigen::Index>(m.w.rows);
    const Mat<Mpfr> p = points[k].As<Mpfr>();
    const Vec<Mpfr> x = p.row(0).head(n).transpose(), y = p.row(1).head(n).transpose();
    const Mpfr lhs = (Apply<Mpfr>(m, x) - Apply<Mpfr>(m, y)).norm();
    const Mpfr bound = Mpfr(lipschitz) * (1 + Mpfr(std::sqrt(static_cast<double>(n))) * Mpfr(kU) + Mpfr(0x1p-240));
    ASSERT_LE(lhs, Mpfr(bound * (x - y).norm())) << "n = " << n << ", kind " << m.kind;
  }
  EXPECT_GT(kinds[0], 0);
  EXPECT_GT(kinds[1], 0);
  const auto s = LipschitzMaps({2, 16, 16}, Exact(lipschitz), Arith::kExact)(rc::Random(9), 80);
  const LipschitzMap m = ShrinkFully<LipschitzMap>(s, [](const LipschitzMap&) { return true; });
  EXPECT_EQ(m.kind, LipschitzMap::kLinear);
  EXPECT_EQ(m.w.rows, 2);
  EXPECT_EQ(ToRationals(m.w)(0, 0), Q(7, 4)) << "W = diag(L, 0)";
  EXPECT_EQ(ToRationals(m.w)(1, 1), 0);
}

}  // namespace
}  // namespace attnprop::gen
