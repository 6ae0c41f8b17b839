// RankAtLeast and ArgmaxWithGap (model/discrete_predicates.h): exact where
// the enclosures decide, Undecided where they cannot, never a wrong answer;
// and a claim that branches on a rank, refuted with a certificate.
#include <gtest/gtest.h>

#include "generators/scalars.h"
#include "model/discrete_predicates.h"
#include "properties/framework/certify_test_util.h"
#include "properties/framework/property.h"
#include "properties/framework/runner.h"

namespace attnprop {
namespace {

template <class S>
Mat<S> Of(std::initializer_list<std::initializer_list<double>> rows) {
  Mat<S> m(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(rows.begin()->size()));
  Eigen::Index i = 0;
  for (const auto& r : rows) {
    Eigen::Index j = 0;
    for (const double x : r) m(i, j++) = S(x);
    ++i;
  }
  return m;
}

TEST(DiscretePredicates, RankIsExactWhereTheEnclosuresDecideIt) {
  // [[1, 2], [2, 4]]: rank 1, and its elimination is exact (2/4 = 1/2).
  EXPECT_TRUE(RankAtLeast(Of<double>({{1, 2}, {2, 4}}), 1));
  EXPECT_FALSE(RankAtLeast(Of<double>({{1, 2}, {2, 4}}), 2));
  EXPECT_TRUE(RankAtLeast(Of<Interval>({{1, 2}, {2, 4}}), 1));
  EXPECT_FALSE(RankAtLeast(Of<Interval>({{1, 2}, {2, 4}}), 2));
  EXPECT_TRUE(RankAtLeast(Of<Interval>({{1, 0, 0}, {0, 2, 0}, {0, 0, 0x1p-1000}}), 3));
  EXPECT_FALSE(RankAtLeast(Of<Interval>({{0, 0}, {0, 0}}), 1));
  EXPECT_FALSE(RankAtLeast(Of<Interval>({{1, 2, 3}}), 2)) << "a 1 x 3 matrix has rank at most 1";
}

TEST(DiscretePredicates, ARankNoEnclosureDecidesIsUndecidedNeverFalse) {
  // [[3, 1], [1, 1/3]] has rank 1, but 1/3 is not a double nor a point
  // interval: the second pivot's enclosure holds 0.
  SetIntervalPrecisionBits(128);
  Mat<Interval> m(2, 2);
  m << Interval(3), Interval(1), Interval(1), Interval(1) / Interval(3);
  EXPECT_TRUE(RankAtLeast(m, 1));
  EXPECT_THROW(RankAtLeast(m, 2), Undecided);
}

TEST(DiscretePredicates, ArgmaxWithGapDecidesALeaderAndOnlyACertainOne) {
  const Vec<double> v = (Vec<double>(3) << 1, 3, 2).finished();
  EXPECT_EQ(ArgmaxWithGap<double>(v, 1.0), 1);
  EXPECT_EQ(ArgmaxWithGap<double>(v, 1.5), -1);
  Vec<Interval> w(3);
  w << Interval(1), Interval(3), Interval(2);
  EXPECT_EQ(ArgmaxWithGap<Interval>(w, Interval(1)), 1);
  EXPECT_EQ(ArgmaxWithGap<Interval>(w, Interval(1.5)), -1);
  // 1 + 2^-200 against 1 at 128 bits: the enclosures overlap, so "a lead of
  // 0" is undecided, not answered.
  SetIntervalPrecisionBits(128);
  Vec<Interval> tie(2);
  tie << Interval(1) + Interval(0x1p-200), Interval(1);
  EXPECT_THROW(ArgmaxWithGap<Interval>(tie, Interval(0x1p-300)), Undecided);
}

constexpr ScalarField kA{"a"}, kB{"b"};

// FALSE: [[a, b], [b, a]] has rank at most 1 for a, b in [1, 2] (rank 2
// unless a = b). A conclusion that branches on a rank: refuted, certified.
struct SymmetricRankOne : ClaimId<"discrete.symmetric_rank_at_most_1"> {
  template <class S> static Domain Hypotheses() {
    Domain d;
    d.Scalar(kA, gen::Uniform(1, 2), Admit::Within(2)).Scalar(kB, gen::Uniform(1, 2), Admit::Within(2));
    return d;
  }
  template <class S> static void Conclusion(const In<S>& in) {
    Mat<S> m(2, 2);
    m << in[kA], in[kB], in[kB], in[kA];
    ExpectThat(!RankAtLeast(m, 2), "rank([[a, b], [b, a]]) <= 1");
  }
};

TEST(DiscretePredicates, AClaimOnARankIsRefutedWithACertificate) {
  const PropertyDef def = testing_util::Certified<SymmetricRankOne>();
  const Certificate apart = def.certify(Case().Scalar("a", 1.0).Scalar("b", 1.5));
  EXPECT_EQ(apart.verdict, Certainty::kViolated) << apart.text;
  const Certificate equal = def.certify(Case().Scalar("a", 1.5).Scalar("b", 1.5));
  EXPECT_EQ(equal.verdict, Certainty::kHolds) << "a = b: rank 1; " << equal.text;
  const PropertyResult r = RunProperty(def, testing_util::Quick(100));
  EXPECT_EQ(r.verdict, Verdict::kRefuted) << r.message;
  EXPECT_NE(r.certificate.find("certified by interval arithmetic"), std::string::npos) << r.certificate;
}

}  // namespace
}  // namespace attnprop
