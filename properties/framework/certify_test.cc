// Certification by interval arithmetic (certify.h) on planted claims: a
// false claim whose constant errs by 1e-30 relative is refuted and certified
// in MPFR (256 bits), not in double; a true claim attained with equality is
// never refuted (its double candidates stay undecided), and an algebraic one
// at equality is decided exactly in rationals; an identity at equality stays
// undecided; a candidate that rounding made is dismissed; a conclusion that compares doubles cannot
// certify anything. And the Interval scalar: enclosures and decided
// comparisons.
#include <gtest/gtest.h>

#include <cmath>

#include "generators/scalars.h"
#include "model/attend2.h"
#include "properties/framework/property.h"
#include "properties/framework/rc_bridge.h"
#include "properties/framework/runner.h"
#include "properties/framework/certify_test_util.h"

namespace attnprop {
namespace {

constexpr ScalarField kS0{"s0"}, kS1{"s1"}, kV0{"v0"}, kV0p{"v0'"}, kV1{"v1"}, kV1p{"v1'"}, kX{"x"};

Domain Attend2Domain() {
  Domain d;
  d.Scalar(kS0, gen::Dyadic(64, 8), Admit::Within(0x1p10)).Scalar(kS1, gen::Dyadic(64, 8), Admit::Within(0x1p10));
  for (const ScalarField v : {kV0, kV0p, kV1, kV1p}) d.Scalar(v, gen::Dyadic(1 << 10, 8), Admit::Within(0x1p20));
  return d;
}

/// attend2 is additive in the values, with a constant 1 + 1e-30 planted on
/// the right: false by a relative 1e-30, which double cannot see (1 + 1e-30
/// rounds to 1) and MPFR at 256 bits can.
struct AdditiveTimesOnePlusTiny : ClaimId<"planted.additive_one_plus_1e-30"> {
  template <class S> static Domain Hypotheses() { return Attend2Domain(); }
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kDifference{"|lhs - rhs|", "gamma_12(u) * max_i(|v_i| + |v_i'|)", "the planted claim", MetricKind::kRounding};
    const S s0 = in[kS0], s1 = in[kS1], v0 = in[kV0], v0p = in[kV0p], v1 = in[kV1], v1p = in[kV1p];
    const S lhs = Attend2<S>(s0, s1, v0 + v0p, v1 + v1p);
    const S rhs = (S(1) + S(1e-30)) * (Attend2<S>(s0, s1, v0, v1) + Attend2<S>(s0, s1, v0p, v1p));
    using std::abs;
    using std::max;
    const S scale = max(S(abs(v0) + abs(v0p)), S(abs(v1) + abs(v1p)));
    ExpectWithin<S>(kDifference, abs(lhs - rhs), S(Gamma(12, ScalarTraits<S>::UnitRoundoff())) * scale);
  }
};

/// attend2(s0, s1, v, v) <= v: true, attained with equality everywhere; the
/// check has no rounding budget, so double's rounding makes candidates.
struct EqualValuesAtMost : ClaimId<"planted.equal_values_at_most"> {
  template <class S> static Domain Hypotheses() { return Attend2Domain(); }
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kAverage{"attend2(s0, s1, v, v)", "v", "the planted claim", MetricKind::kClaim};
    const S v = in[kV0];
    ExpectWithin<S>(kAverage, Attend2<S>(in[kS0], in[kS1], v, v), v);
  }
};

/// |attend2(s0, s1, v, v) - v| <= 0: an identity stated as a claim metric
/// with bound exactly 0 (as a claim at equality whose bound vanishes, say a
/// difference quotient of a constant column): double's rounding makes
/// candidates, and the intervals leave them undecided (the enclosure
/// contains 0 without being the point 0: no precision proves an equality),
/// never "consistent", never refuted.
struct ZeroBoundIdentity : ClaimId<"planted.zero_bound_identity"> {
  template <class S> static Domain Hypotheses() { return Attend2Domain(); }
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kAverage{"|attend2(s0, s1, v, v) - v|", "0", "the planted claim", MetricKind::kClaim};
    using std::abs;
    const S v = in[kV0];
    ExpectWithin<S>(kAverage, abs(Attend2<S>(in[kS0], in[kS1], v, v) - v), S(0));
  }
};

/// (x/7) 7 <= x: true, with equality everywhere; algebraic, so a claim
/// registered with Rational has its candidates decided exactly (an equality
/// is proved), where intervals can only leave them undecided.
struct SeventhTimesSeven : ClaimId<"planted.seventh_times_seven"> {
  template <class S> static Domain Hypotheses() {
    Domain d;
    d.Scalar(kX, gen::Dyadic(1 << 20, 20), Admit::Within(0x1p20));
    return d;
  }
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kSeventh{"(x/7) 7", "x", "the planted claim", MetricKind::kClaim};
    const S x = in[kX];
    ExpectWithin<S>(kSeventh, S(S(x / S(7)) * S(7)), x);
  }
};

/// x/2 <= (1 + x) - 1 with no budget: true for x >= 0, with equality only
/// at x = 0; for tiny x double's cancellation (1 + x rounds to 1) makes
/// candidates that the intervals dismiss.
struct Cancellation : ClaimId<"planted.cancellation"> {
  template <class S> static Domain Hypotheses() {
    Domain d;
    d.Scalar(kX, gen::Dyadic(1 << 20, 20), Admit::Within(1));
    return d;
  }
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kHalf{"x/2", "(1 + x) - 1", "the planted claim", MetricKind::kClaim};
    const S x = in[kX];
    ExpectWithin<S>(kHalf, x / S(2), (S(1) + x) - S(1));
  }
};

/// A conclusion that compares doubles (ToDouble) proves nothing in intervals.
struct ComparesDoubles : ClaimId<"planted.compares_doubles"> {
  template <class S> static Domain Hypotheses() { return Attend2Domain(); }
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kV{"v0", "-1e30", "the planted (false) claim", MetricKind::kClaim};
    ExpectWithin(kV, ToDouble(in[kV0]), -1e30);
  }
};

using testing_util::Certified;
RunOptions Quick() { return testing_util::Quick(200); }

TEST(Interval, EnclosesAndDecides) {
  const Interval e = exp(Interval(1));
  MpfrPrecisionScope p(256);
  const Mpfr exact_e = exp(Mpfr(1));
  EXPECT_LT(e.Lower(), exact_e);
  EXPECT_GT(e.Upper(), exact_e);
  EXPECT_TRUE(Interval(1) < Interval(2));
  EXPECT_FALSE(Interval(2) < Interval(2));
  EXPECT_TRUE(Interval(2) <= Interval(2));
  EXPECT_TRUE(Interval(2) == Interval(2));
  const Interval wide = Interval::Hull(Interval(1), Interval(3));
  EXPECT_THROW((void)(wide < Interval(2)), Undecided);
  EXPECT_THROW((void)(wide == Interval(2)), Undecided);
  EXPECT_TRUE(wide < Interval(4));
  // max needs no decision: it encloses the max of any two points.
  const Interval m = max(wide, Interval(2));
  EXPECT_EQ(m.LowerDouble(), 2.0);
  EXPECT_EQ(m.UpperDouble(), 3.0);
  // Even powers of an interval around 0 stay >= 0.
  EXPECT_EQ(pow(Interval::Hull(Interval(-2), Interval(1)), 2).LowerDouble(), 0.0);
  EXPECT_EQ(Interval::Hull(Interval(-1), Interval(1)).ToString(3), "[-1, 1]");
}

TEST(Certify, TinyConstantErrorRefutedInMpfrAndCertifiedNotInDouble) {
  const PropertyResult in_double = RunProperty(Certified<AdditiveTimesOnePlusTiny, double>(), Quick());
  EXPECT_EQ(in_double.verdict, Verdict::kHolds) << in_double.message;
  const MpfrPrecisionScope bits(256);
  const PropertyResult in_mpfr = RunProperty(Certified<AdditiveTimesOnePlusTiny, Mpfr>(), Quick());
  ASSERT_EQ(in_mpfr.verdict, Verdict::kRefuted);
  EXPECT_EQ(in_mpfr.confirmed, std::optional<bool>(true));
  EXPECT_NE(in_mpfr.certificate.find("certified by interval arithmetic (128 bits)"), std::string::npos)
      << in_mpfr.certificate;
  EXPECT_NE(in_mpfr.certificate.find("which excludes 0"), std::string::npos) << in_mpfr.certificate;
  EXPECT_NE(in_mpfr.message.find("certified by interval arithmetic"), std::string::npos) << in_mpfr.message;
  std::cout << "certificate: " << in_mpfr.certificate << "\ncounterexample:\n" << in_mpfr.counterexample;
}

TEST(Certify, TrueClaimAtEqualityIsNeverRefuted) {
  const MpfrPrecisionScope bits(256);
  for (const PropertyResult& r : {RunProperty(Certified<EqualValuesAtMost, double>(), Quick()),
                                  RunProperty(Certified<EqualValuesAtMost, Mpfr>(), Quick())}) {
    EXPECT_NE(r.verdict, Verdict::kRefuted) << r.backend << ": " << r.message;
  }
  // Double's rounding does push attend2(s0, s1, v, v) above v: those cases
  // are counted undecided (the enclosures of both sides contain v).
  const PropertyResult in_double = RunProperty(Certified<EqualValuesAtMost, double>(), Quick());
  EXPECT_EQ(in_double.verdict, Verdict::kUndecided) << "undecided, never a pass";
  EXPECT_GT(in_double.undecided, 0);
  EXPECT_NE(in_double.undecided_example.find("overlaps"), std::string::npos) << in_double.undecided_example;
}

TEST(Certify, AnIdentityAtEqualityIsUndecidedAndTheAuditRecordsTheBackendsError) {
  const PropertyResult r = RunProperty(Certified<ZeroBoundIdentity, double>(), Quick());
  EXPECT_EQ(r.verdict, Verdict::kUndecided) << r.message;
  EXPECT_GT(r.undecided, 0) << "the enclosure of |attend2(v, v) - v| contains 0 but is no point";
  ASSERT_EQ(r.metrics.size(), 1u);
  const MetricStats& m = r.metrics[0];
  // Double's rounding exceeded the bound 0 on some cases, which the
  // intervals decided: recorded at ratio 1 with double's own error.
  EXPECT_GT(m.undecided, 0) << "counted undecided, never decided";
  EXPECT_EQ(m.certified, 0);
  EXPECT_LE(m.undecided, m.count);
  EXPECT_EQ(m.max_ratio, 1.0);
  EXPECT_GT(m.max_observed, 0.0);
  EXPECT_LT(m.max_observed, 1e-6) << "the error of double against the exact value 0 (values below 2^20)";
}

TEST(Certify, AnAlgebraicClaimIsDecidedExactlyAtEquality) {
  const PropertyResult by_intervals = RunProperty(Certified<SeventhTimesSeven, double>(), Quick());
  EXPECT_EQ(by_intervals.verdict, Verdict::kUndecided) << by_intervals.message;
  EXPECT_GT(by_intervals.undecided, 0) << "double must round (x/7)7 above x somewhere for the test to mean anything";
  const PropertyResult exactly = RunProperty(Certified<SeventhTimesSeven, double, true>(), Quick());
  EXPECT_EQ(exactly.verdict, Verdict::kHolds) << exactly.message;
  EXPECT_EQ(exactly.undecided, 0) << exactly.undecided_example;
  const Certificate cert = Certified<SeventhTimesSeven, double, true>().certify(Case().Scalar("x", 0.1));
  EXPECT_EQ(cert.verdict, Certainty::kHolds);
  EXPECT_EQ(cert.bits, 0) << "decided in rationals, not intervals";
}

TEST(Certify, RoundingCandidatesAreDismissed) {
  // x/2 <= (1 + x) - 1 fails in double at x = 2^-60 ((1 + x) - 1 = 0);
  // the intervals decide that it holds there.
  const Case c = Case().Scalar("x", 0x1p-60);
  EXPECT_TRUE(CheckCase([](const Case& k) { internal::Conclude<Cancellation, double>(k); }, c).has_value())
      << "double must fail here for the test to mean anything";
  const PropertyDef def = Certified<Cancellation, double>();
  EXPECT_FALSE(CheckCase(def.conclusion, c).has_value());
  EXPECT_EQ(def.certify(c).verdict, Certainty::kHolds);
  // At x = 0 the claim holds with equality, and interval arithmetic on
  // exact points stays exact: decided.
  EXPECT_EQ(def.certify(Case().Scalar("x", 0.0)).verdict, Certainty::kHolds);
  EXPECT_FALSE(CheckCase(def.confirm, Case().Scalar("x", 0.0)).has_value());
}

TEST(Certify, DoubleComparisonsInsideIntervalsCertifyNothing) {
  const PropertyDef def = Certified<ComparesDoubles, double>();
  const Case c = Case().Scalar("s0", 0.0).Scalar("s1", 0.0).Scalar("v0", 1.0).Scalar("v0'", 0.0).Scalar("v1", 0.0).Scalar("v1'", 0.0);
  const Certificate cert = def.certify(c);
  EXPECT_EQ(cert.verdict, Certainty::kUndecided);
  EXPECT_NE(cert.text.find("compared in double"), std::string::npos) << cert.text;
  // The double failure is then not a refutation.
  EXPECT_FALSE(CheckCase(def.conclusion, c).has_value());
}

}  // namespace
}  // namespace attnprop
