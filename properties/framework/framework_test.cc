// Unit tests of the harness itself: exact values, cases, the registry.
#include <gtest/gtest.h>

#include <cmath>

#include "model/exact.h"
#include "properties/framework/case.h"
#include "properties/framework/backend.h"
#include "properties/framework/catalog.h"
#include "properties/framework/judge.h"
#include "properties/framework/registry.h"

namespace attnprop {
namespace {

TEST(Exact, RoundTripsDoublesAndRationals) {
  for (double d : {0.0, -0.0, 1.5, -3.0, 0x1p-1074, 1e308, 0.1}) {
    const auto back = Exact::Parse(Exact(d).ToString());
    ASSERT_TRUE(back.has_value()) << d;
    EXPECT_EQ(*back, Exact(d)) << Exact(d).ToString();
  }
  const Exact third(Rational(1) / Rational(3));
  EXPECT_FALSE(third.IsDouble());
  EXPECT_EQ(third.ToString(), "1/3");
  EXPECT_EQ(*Exact::Parse("1/3"), third);
  EXPECT_TRUE(Exact(Rational(3) / Rational(4)).IsDouble());  // dyadic: canonical double
}

TEST(Exact, RejectsMalformedText) {
  for (const char* bad : {"", "1/0", "abc", "1.5x", "/3", "1/-3", "0x1p+"}) EXPECT_FALSE(Exact::Parse(bad)) << bad;
}

TEST(Exact, ConvertsExactlyToMpfr) {
  MpfrPrecisionScope p(256);
  const Exact tiny(0x1.fffffffffffffp-1000);
  EXPECT_EQ(tiny.As<Mpfr>(), Mpfr(0x1.fffffffffffffp-1000));
  EXPECT_GE(PrecisionBitsOf(tiny.As<Mpfr>()), 256);
}

TEST(Case, TextRoundTrip) {
  ExactMatrix m(2, 2);
  m(0, 0) = 1.0;
  m(0, 1) = Exact(Rational(-2) / Rational(7));
  m(1, 0) = 0x1p-1074;
  m(1, 1) = -0.0;
  Case c;
  c.Int("n", -3).Scalar("s", 0.25).Matrix("M", m);
  std::string err;
  const auto back = Case::Parse(c.ToText(), &err);
  ASSERT_TRUE(back.has_value()) << err;
  EXPECT_EQ(*back, c);
}

TEST(Case, MalformedTextNamesTheLine) {
  std::string err;
  EXPECT_FALSE(Case::Parse("a: scalar 1\nb: matrix 2x2\n  1 2\n", &err));
  EXPECT_NE(err.find("ends early"), std::string::npos) << err;
  EXPECT_FALSE(Case::Parse("a: banana 1\n", &err));
  EXPECT_NE(err.find("line 1"), std::string::npos) << err;
}

// The one verdict policy, branch by branch.
TEST(Judge, OnePolicyForEveryVerdict) {
  using S = Judgement::Status;
  PropertyResult r;
  r.verdict = Verdict::kHolds;
  EXPECT_EQ(Judge(r, Expectation::kHolds).status, S::kAsExpected);
  EXPECT_EQ(Judge(r, Expectation::kRefuted).status, S::kUnexpected);  // the refutation was not reproduced
  r.verdict = Verdict::kRefuted;
  EXPECT_EQ(Judge(r, Expectation::kHolds).status, S::kUnexpected);
  r.confirmed = false;  // a rounding artefact is not a refutation
  EXPECT_EQ(Judge(r, Expectation::kRefuted).status, S::kUnexpected);
  r.confirmed = true;   // found by the search and confirmed
  EXPECT_EQ(Judge(r, Expectation::kRefuted).status, S::kAsExpected);
  r.confirmed.reset();
  r.pinned_refutation = true;  // a pin that reproduced three ways
  EXPECT_EQ(Judge(r, Expectation::kRefuted).status, S::kAsExpected);
  r.verdict = Verdict::kError;
  EXPECT_EQ(Judge(r, Expectation::kHolds).status, S::kUnexpected);
  EXPECT_EQ(Judge(r, Expectation::kRefuted).status, S::kUnexpected);
  r.verdict = Verdict::kSkipped;  // never a pass, never a failure
  EXPECT_TRUE(Judge(r, Expectation::kHolds).skipped());
  EXPECT_TRUE(Judge(r, Expectation::kHolds).as_expected());
}

TEST(Backends, OneTableNamesThemAll) {
  ASSERT_NE(FindBackend("kernel-f32@avx2"), nullptr);
  EXPECT_STREQ(FindBackend("kernel-f32@avx2")->name, "kernel-f32");
  EXPECT_TRUE(FindBackend("kernel-f64")->kernel);
  EXPECT_EQ(FindBackend("double@avx2"), nullptr);  // only kernels have instances
  EXPECT_EQ(FindBackend("quad"), nullptr);
  EXPECT_EQ(UnitRoundoffOf("kernel-f32@scalar"), 0x1p-24);
  EXPECT_EQ(UnitRoundoffOf("double"), 0x1p-53);
  EXPECT_EQ(UnitRoundoffOf("rational"), 0.0);
}

TEST(Registry, EveryRowHasItsPropertyAndBack) {
  const auto problems = JoinRegistry();
  for (const auto& p : problems) ADD_FAILURE() << p;
}

TEST(Catalog, HoldsEveryClaimAndRejectsMalformedRows) {
  EXPECT_EQ(Catalog().size(), 146u);
  ASSERT_NE(FindClaim("attend2.additivity"), nullptr);
  EXPECT_EQ(FindClaim("attend2.additivity")->kind, "identity");
  EXPECT_EQ(FindClaim("no.such.claim"), nullptr);
  EXPECT_THROW(ParseCatalog("a\tb\tc\n"), std::runtime_error);
}

TEST(Catalog, EveryClaimOfOursHasItsStatementAndNoDocumentId) {
  for (const auto& c : OursCatalog()) {
    EXPECT_EQ(FindClaim(c.id), nullptr) << c.id << " is a claims/claims.tsv id";
    EXPECT_FALSE(c.statement.empty()) << c.id;
    const RegistryRow* row = FindRow(c.id);
    ASSERT_NE(row, nullptr) << c.id << " has no registry row";
    EXPECT_NE(row->kind, ClaimKind::kAsStated) << c.id;
  }
}

TEST(Registry, MalformedRowIsRejected) {
  EXPECT_THROW(ParseRegistry("x\tas-stated\tmaybe\t-\t\n"), std::runtime_error);  // expect
  EXPECT_THROW(ParseRegistry("x\tmine\tholds\t-\t\n"), std::runtime_error);       // kind
  EXPECT_THROW(ParseRegistry("x\tas-stated\n"), std::runtime_error);
  const auto rows = ParseRegistry("id\tkind\texpect\tlabels\twhy\nx.ours\tours\trefuted\ta,b\tsharper\n");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].kind, ClaimKind::kOurs);
  EXPECT_EQ(rows[0].expect, Expectation::kRefuted);
  EXPECT_EQ(rows[0].labels, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(rows[0].line, 2);
}

}  // namespace
}  // namespace attnprop
