// Dimensions: edge classes per backend, size scaling, and the shaped
// generator's shrinking (dimensions keep shrinking after entries shrank;
// dimension predicates hold in every shrink).
#include "generators/shape.h"

#include <gtest/gtest.h>

#include "generators/matrices.h"
#include "generators/sequences.h"
#include "generators/tests/test_util.h"

namespace attnprop::gen {
namespace {

using testing::ExpectAllSeen;
using testing::Sample;
using testing::SampleShrinkables;
using testing::ShrinkFully;

template <class S>
void ExpectEdgeClasses(const std::set<std::string>& expected) {
  const DimRange range = DefaultDims<S>();
  std::map<std::string, int> seen;
  for (int64_t n : Sample(EdgeDim(range))) {
    ASSERT_GE(n, range.min);
    ASSERT_LE(n, range.max);
    for (const auto& c : DimClasses(n, range)) ++seen[c];
  }
  ExpectAllSeen(expected, seen, ScalarTraits<S>::kBackend);
}

TEST(Dims, DefaultRunHitsEveryEdgeClass) {
  const std::set<std::string> all = {"one",      "small",       "odd",      "not_mult8",   "mult8_not16",
                                     "below_block", "at_block", "above_block", "large"};
  ExpectEdgeClasses<double>(all);
  ExpectEdgeClasses<Mpfr>(all);      // large = 33 there
  ExpectEdgeClasses<attnprop::Rational>(all);  // 15, 16, 17
  // The double default run reaches every block edge up to 129 and a few hundred.
  std::set<int64_t> seen;
  for (int64_t n : Sample(EdgeDim(DefaultDims<double>()), 300)) seen.insert(n);
  for (int64_t n : {31, 33, 63, 65, 127, 129}) EXPECT_TRUE(seen.count(n)) << n << " never drawn";
  EXPECT_GE(*seen.rbegin(), 200);
}

TEST(Dims, SizeScalesTheCap) {
  rc::Random r(3);
  for (int i = 0; i < 200; ++i) EXPECT_LE(DrawDim(r, 0, {1, 320, 160}), 1 + 319 / 50);
  for (int i = 0; i < 200; ++i) EXPECT_LE(DrawDim(r, 10, {1, 320, 160}), 1 + 319 * 11 / 50);
}

TEST(Dims, EdgeDimShrinksToMin) {
  for (const auto& s : SampleShrinkables(EdgeDim({3, 100, 50}), 20))
    EXPECT_EQ(ShrinkFully<int64_t>(s, [](int64_t) { return true; }), 3);
}

TEST(Shaped, MatrixShrinksToOneByOneZero) {
  for (const auto& s : SampleShrinkables(DenseMatrix({1, 320, 160}, {1, 320, 160}, Normal()), 10)) {
    const ExactMatrix m = ShrinkFully<ExactMatrix>(s, [](const ExactMatrix&) { return true; });
    EXPECT_EQ(m.rows, 1);
    EXPECT_EQ(m.cols, 1);
    EXPECT_EQ(m(0, 0), Exact(0.0));
  }
}

// After an entry has shrunk, the next candidates still drop rows/columns
// (gen::mapcat could not).
TEST(Shaped, DimensionsShrinkAfterEntriesShrank) {
  const auto samples = SampleShrinkables(DenseMatrix({1, 40, 20}, {1, 40, 20}, Normal()), 30);
  int checked = 0;
  for (const auto& s : samples) {
    const ExactMatrix m0 = s.value();
    if (m0.rows < 2 || m0.cols < 2) continue;
    // Take the first entry-only shrink (same shape, different entries).
    rc::Seq<rc::Shrinkable<ExactMatrix>> shrinks = s.shrinks();
    std::optional<rc::Shrinkable<ExactMatrix>> entry_shrunk;
    while (auto c = shrinks.next()) {
      const ExactMatrix m = c->value();
      if (m.rows == m0.rows && m.cols == m0.cols) {
        entry_shrunk = *c;
        break;
      }
    }
    ASSERT_TRUE(entry_shrunk.has_value());
    bool fewer_rows = false, fewer_cols = false;
    rc::Seq<rc::Shrinkable<ExactMatrix>> next = entry_shrunk->shrinks();
    while (auto c = next.next()) {
      const ExactMatrix m = c->value();
      fewer_rows |= m.rows < m0.rows && m.cols == m0.cols;
      fewer_cols |= m.cols < m0.cols && m.rows == m0.rows;
      if (fewer_rows && fewer_cols) break;
    }
    EXPECT_TRUE(fewer_rows && fewer_cols);
    ++checked;
  }
  EXPECT_GT(checked, 5);
}

// A failure that needs one large entry anywhere: the rows and columns
// around it are dropped, whatever shrank first.
TEST(Shaped, OneBadEntryShrinksToOneByOne) {
  int checked = 0;
  for (const auto& s : SampleShrinkables(DenseMatrix({1, 320, 160}, {1, 320, 160}, Normal()), 40)) {
    auto fails = [](const ExactMatrix& m) {
      for (const Exact& x : m.data)
        if (x.ToDouble() >= 2.5) return true;
      return false;
    };
    if (!fails(s.value())) continue;
    const ExactMatrix m = ShrinkFully<ExactMatrix>(s, fails);
    EXPECT_EQ(m.rows, 1);
    EXPECT_EQ(m.cols, 1);
    // The simplest failing value not above the one it came from: 3 (an
    // integer) or 2.5 (a one-bit fraction, from a value in [2.5, 3)).
    EXPECT_TRUE(m(0, 0) == Exact(3.0) || m(0, 0) == Exact(2.5)) << m(0, 0).ToDisplay();
    ++checked;
  }
  EXPECT_GT(checked, 5);
}

TEST(Shaped, DimensionPredicateHoldsInEveryShrink) {
  AttentionShape shape;
  shape.t = {1, 40, 20};
  shape.d = {1, 12, 8};
  for (const auto& s : SampleShrinkables(AttentionProblems(shape), 20)) {
    const int checked = testing::WalkShrinks<AttentionProblem>(
        s,
        [](const AttentionProblem& p) {
          EXPECT_NE(p.t_q, p.t_k);
          EXPECT_NE(p.d_k, p.d_v);
          ASSERT_EQ(static_cast<int64_t>(p.q.size()), p.batch);
          for (int64_t b = 0; b < p.batch; ++b) {
            const auto i = static_cast<size_t>(b);
            EXPECT_EQ(p.q[i].rows, p.t_q);
            EXPECT_EQ(p.q[i].cols, p.d_k);
            EXPECT_EQ(p.k[i].rows, p.t_k);
            EXPECT_EQ(p.k[i].cols, p.d_k);
            EXPECT_EQ(p.v[i].rows, p.t_k);
            EXPECT_EQ(p.v[i].cols, p.d_v);
          }
        },
        5, 3, 8, 40);
    EXPECT_GT(checked, 0);
  }
}

TEST(Shaped, AttentionShapesCoverTheEdgeClasses) {
  std::map<std::string, int> seen;
  int batched = 0;
  const AttentionShape shape = DefaultAttentionShape<double>();
  for (const AttentionProblem& p : Sample(AttentionProblems(shape))) {
    EXPECT_NE(p.t_q, p.t_k);
    EXPECT_NE(p.d_k, p.d_v);
    EXPECT_EQ(p.scale, Exact(1.0 / std::sqrt(static_cast<double>(p.d_k))));
    batched += p.batch > 1;
    for (int64_t n : {p.t_q, p.t_k})
      for (const auto& c : DimClasses(n, shape.t)) ++seen["t:" + c];
    for (int64_t n : {p.d_k, p.d_v})
      for (const auto& c : DimClasses(n, shape.d)) ++seen["d:" + c];
  }
  EXPECT_GT(batched, 0);
  ExpectAllSeen({"t:one", "t:small", "t:odd", "t:not_mult8", "t:below_block", "t:at_block", "t:above_block", "t:large",
                 "d:one", "d:small", "d:odd", "d:not_mult8", "d:large"},
                seen, "AttentionProblems<double>");
}

TEST(Shaped, AttentionProblemShrinksToTheSmallestDistinctShape) {
  AttentionShape shape;
  shape.t = {1, 64, 32};
  shape.d = {1, 16, 8};
  for (const auto& s : SampleShrinkables(AttentionProblems(shape), 5)) {
    const AttentionProblem p = ShrinkFully<AttentionProblem>(s, [](const AttentionProblem&) { return true; });
    EXPECT_EQ(p.batch, 1);
    EXPECT_EQ(std::min(p.t_q, p.t_k), 1);
    EXPECT_EQ(std::max(p.t_q, p.t_k), 2);
    EXPECT_EQ(std::min(p.d_k, p.d_v), 1);
    EXPECT_EQ(std::max(p.d_k, p.d_v), 2);
    for (const auto* ms : {&p.q, &p.k, &p.v})
      for (const ExactMatrix& m : *ms)
        for (const Exact& x : m.data) EXPECT_EQ(x, Exact(0.0));
  }
}

}  // namespace
}  // namespace attnprop::gen
