// The certifier's soundness (issue 57), one test per way it once went wrong.
// Each claim is one a user could write through <attnprop/claim.h>, with its
// truth stated beside it. The rule every test checks: a true claim is never
// certified false, a false claim never "holds", and undecided is neither.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <type_traits>

#include "generators/scalars.h"
#include "model/softmax.h"
#include "model/spectral_enclosure.h"
#include "properties/framework/judge.h"
#include "properties/framework/property.h"
#include "properties/framework/rc_bridge.h"
#include "properties/framework/runner.h"
#include "properties/framework/certify_test_util.h"

namespace attnprop {
namespace {

constexpr ScalarField kX{"x"}, kY{"y"};

Domain UnitInterval() {
  Domain d;
  d.Scalar(kX, gen::Uniform(0, 1), Admit::Within(1).Nonnegative());
  return d;
}

using testing_util::Certified;
RunOptions Quick() { return testing_util::Quick(100); }

Case AtX(double x) { return Case().Scalar("x", x); }

// 1. The metric's kind never turns an inequality into an identity. TRUE:
// x/2 <= (1 + x) - 1 on [0, 1], with the kind the old default was.
struct HalfBelowCancelled : ClaimId<"soundness.half_below_cancelled"> {
  template <class S> static Domain Hypotheses() { return UnitInterval(); }
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kHalf{"x/2", "(1 + x) - 1", "the claim", MetricKind::kRounding};
    ExpectWithin<S>(kHalf, in[kX] / S(2), (S(1) + in[kX]) - S(1));
  }
};

TEST(Soundness, TheKindIsRequiredAndNeverMakesAnInequalityAnIdentity) {
  static_assert(!std::is_constructible_v<Tolerance, const char*, const char*, const char*>,
                "a three-field Tolerance must not compile: the kind is required");
  const PropertyDef def = Certified<HalfBelowCancelled>();
  EXPECT_EQ(def.certify(AtX(0.25)).verdict, Certainty::kHolds);
  EXPECT_EQ(def.certify(AtX(0x1p-60)).verdict, Certainty::kHolds) << "double fails here; the claim holds";
  const PropertyResult r = RunProperty(def, Quick());
  EXPECT_TRUE(r.verdict == Verdict::kHolds || r.verdict == Verdict::kUndecided) << r.message;
}

// 2. A bound of exactly 0 is an inequality. TRUE: 2xy - x^2 - y^2 <= 0.
struct CrossTermNonpositive : ClaimId<"soundness.cross_term_nonpositive"> {
  template <class S> static Domain Hypotheses() {
    Domain d;
    d.Scalar(kX, gen::Dyadic(1 << 10, 10), Admit::Within(1 << 10)).Scalar(kY, gen::Dyadic(1 << 10, 10), Admit::Within(1 << 10));
    return d;
  }
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kCross{"2xy - x^2 - y^2", "0", "the claim", MetricKind::kClaim};
    const S x = in[kX], y = in[kY];
    ExpectWithin<S>(kCross, S(S(2) * x * y - x * x - y * y), S(0));
  }
};

TEST(Soundness, ABoundOfZeroIsReadAsAnInequality) {
  const PropertyDef def = Certified<CrossTermNonpositive>();
  EXPECT_EQ(def.certify(Case().Scalar("x", 1.0).Scalar("y", 3.0)).verdict, Certainty::kHolds);
  EXPECT_NE(def.certify(Case().Scalar("x", 3.0).Scalar("y", 3.0)).verdict, Certainty::kViolated);
  const PropertyResult r = RunProperty(def, Quick());
  EXPECT_TRUE(r.verdict == Verdict::kHolds || r.verdict == Verdict::kUndecided) << r.message;
}

// 3. An identity's enclosure that contains 0 but is not the point 0 is
// undecided and retried. FALSE: (1 + 2^-200) - 1 = 0 (the defect is below
// 2^-128; 256 bits see it).
struct TinyDefectIdentity : ClaimId<"soundness.tiny_defect_identity"> {
  template <class S> static Domain Hypotheses() { return UnitInterval(); }
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kZero{"|(1 + 2^-200) - 1|", "gamma_2(u)", "the claim", MetricKind::kRounding};
    using std::abs;
    (void)in;
    ExpectWithin<S>(kZero, S(abs((S(1) + S(0x1p-200)) - S(1))), S(Gamma(2, ScalarTraits<S>::UnitRoundoff())));
  }
};

TEST(Soundness, AnIdentityIsUndecidedUnlessItsEnclosureIsThePointZero) {
  const Certificate cert = Certified<TinyDefectIdentity>().certify(AtX(0));
  EXPECT_EQ(cert.verdict, Certainty::kViolated) << cert.text;
  EXPECT_EQ(cert.bits, 256) << "128 bits enclose 0; the retry at 256 excludes it";
  EXPECT_NE(cert.text.find("excludes 0"), std::string::npos) << cert.text;
}

// 4. pow(Interval, 0.5) is a square root. TRUE: sqrt(x) <= 2x on [1/4, 1].
struct RootBelowTwice : ClaimId<"soundness.root_below_twice"> {
  template <class S> static Domain Hypotheses() {
    Domain d;
    d.Scalar(kX, gen::Uniform(0.25, 1), Admit::Within(1).Nonnegative());
    d.Assume("x >= 1/4", [](const Values& v) { return v[kX] >= 0.25; });
    return d;
  }
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kRoot{"x^0.5", "2x", "the claim", MetricKind::kClaim};
    using std::pow;
    ExpectWithin<S>(kRoot, S(pow(in[kX], 0.5)), S(S(2) * in[kX]));
  }
};

TEST(Soundness, PowWithADoubleExponentIsNotAnIntegerPower) {
  const Interval r = pow(Interval(4), 0.5);
  EXPECT_LE(r.Lower(), Mpfr(2));
  EXPECT_GE(r.Upper(), Mpfr(2));
  EXPECT_EQ(pow(Interval(-2), 3).LowerDouble(), -8.0);
  EXPECT_EQ(pow(Interval(-2), Interval(2)).LowerDouble(), 4.0) << "a point integer exponent: the integer power";
  const PropertyDef def = Certified<RootBelowTwice>();
  EXPECT_NE(def.certify(AtX(0.25)).verdict, Certainty::kViolated) << "equality at 1/4";
  EXPECT_EQ(def.certify(AtX(0.0625 * 4.5)).verdict, Certainty::kHolds);
}

// 5. Undecided is not a pass. FALSE: the softmax weights of (c, c, c) are
// pairwise distinct (every witness is undecided in intervals: the weights
// enclose 1/3 and do not decide their own equality).
struct EqualLogitsDistinctWeights : ClaimId<"soundness.equal_logits_distinct_weights"> {
  template <class S> static Domain Hypotheses() {
    Domain d;
    d.Scalar(kX, gen::Dyadic(1 << 10, 10), Admit::Within(1 << 10));
    return d;
  }
  template <class S> static void Conclusion(const In<S>& in) {
    Vec<S> logits(3);
    logits << in[kX], in[kX], in[kX];
    const Vec<S> w = Softmax<S>(logits);
    ExpectThat(w[0] != w[1], "w_0 = w_1");
  }
};

TEST(Soundness, UndecidedIsAVerdictOfItsOwnAndNeverAPass) {
  const PropertyDef def = Certified<EqualLogitsDistinctWeights>();
  const PropertyResult r = RunProperty(def, Quick());
  ASSERT_EQ(r.verdict, Verdict::kUndecided) << r.message;
  EXPECT_GT(r.undecided, 0);
  EXPECT_FALSE(Judge(r, Expectation::kHolds, false).as_expected()) << "undecided is not green";
  EXPECT_FALSE(Judge(r, Expectation::kRefuted, false).as_expected()) << "nor a refutation";
  EXPECT_TRUE(Judge(r, Expectation::kHolds, true).as_expected()) << "unless the claim allows it";
  EXPECT_EQ(CheckCaseDecided(def.conclusion, AtX(1)).kind, CaseCheck::Kind::kUndecided);
  // A store entry can pin it; replayed, it counts as undecided.
  StoredCase pinned;
  pinned.name = "pinned";
  pinned.expect = StoredCase::Expect::kUndecided;
  pinned.value = AtX(1);
  const ReplayOutcome o = ReplayCase(def, pinned);
  EXPECT_TRUE(o.ok) << o.detail;
  EXPECT_TRUE(o.undecided);
  pinned.expect = StoredCase::Expect::kRefutes;
  EXPECT_FALSE(ReplayCase(def, pinned).ok) << "an undecided case does not refute";
}

// 6. Predicates answer "undecided", never a "possibly" read as false.
TEST(Soundness, PredicatesAreThreeValued) {
  const Interval half_open = Interval::Hull(Interval(1), Interval(HUGE_VAL));
  EXPECT_THROW((void)isfinite(half_open), Undecided);
  EXPECT_TRUE(isfinite(Interval(1)));
  EXPECT_FALSE(isfinite(Interval(HUGE_VAL)));
  const Interval around_zero = Interval::Hull(Interval(-1e-300), Interval(1e-300));
  EXPECT_THROW((void)IsExactlyZero(around_zero), Undecided);
  EXPECT_TRUE(IsExactlyZero(Interval(0)));
  EXPECT_FALSE(IsExactlyZero(Interval(1e-300)));
  EXPECT_THROW((void)sqrt(around_zero), Undecided) << "sqrt straddling 0";
  EXPECT_THROW((void)log(around_zero), Undecided);
  EXPECT_TRUE(sqrt(Interval(-1)).HasNan()) << "certainly outside the domain";
  EXPECT_EQ(SqrtOfNonnegative(around_zero).LowerDouble(), 0.0);
  EXPECT_THROW((void)isnan(sqrt(Interval(-1))), Undecided);
  const Interval pi = Interval::Pi();
  EXPECT_LT(pi.LowerDouble(), M_PI + 1e-15);
  EXPECT_GT(pi.UpperDouble(), M_PI - 1e-15);
  EXPECT_LT((acos(Interval(-1)) - pi).UpperDouble(), 1e-30);
  EXPECT_THROW((void)asin(Interval::Hull(Interval(0.5), Interval(1.5))), Undecided);
}

TEST(Soundness, ConditionFalseAfterADoubtIsNotCertified) {
  // TRUE: 1/3 * 3 = 1, decided on a midpoint read as a double (a doubt).
  const Certificate cert = Certify(
      [](const Case&) {
        const double third = ToDouble(Interval(1) / Interval(3));
        ExpectThat(third * 3 == 1.0000000001, "1/3 * 3 != 1");
      },
      AtX(0));
  EXPECT_EQ(cert.verdict, Certainty::kUndecided) << cert.text;
}

// 7. Eigen's iterative solver is refused on intervals; the enclosure is
// rigorous where it deflated: [[1, b], [b, 1]], b = 2^-127.
TEST(Soundness, SymmetricEigenvaluesAreEnclosed) {
  IntervalPrecisionScope bits(256);
  Mat<Interval> a(2, 2);
  a << Interval(1), Interval(0x1p-127), Interval(0x1p-127), Interval(1);
  const Vec<Interval> eig = EncloseSymmetricEigenvalues(a);
  ASSERT_EQ(eig.size(), 2);
  EXPECT_GT(mpfr_cmp_d(&eig[1].data()->left, 1.0), 0) << "lambda_max = 1 + 2^-127 > 1: " << eig[1].ToString(40);
  EXPECT_LT(mpfr_cmp_d(&eig[0].data()->right, 1.0), 0) << eig[0].ToString(40);
  MpfrPrecisionScope mp(256);
  const Mpfr top = Mpfr(1) + Mpfr(0x1p-127);
  EXPECT_TRUE(eig[1].Lower() <= top && top <= eig[1].Upper());
  // A multiple eigenvalue and a rank-one matrix: 0 (twice) and 3.
  Mat<Interval> ones = Mat<Interval>::Constant(3, 3, Interval(1));
  const Vec<Interval> e3 = EncloseSymmetricEigenvalues(ones);
  for (int k = 0; k < 2; ++k) EXPECT_TRUE(e3[k].ContainsZero()) << e3[k].ToString();
  EXPECT_TRUE(e3[2].Lower() <= Mpfr(3) && Mpfr(3) <= e3[2].Upper());
  EXPECT_LT(Mpfr(e3[2].Upper() - e3[2].Lower()), Mpfr(1e-60)) << "tight at 256 bits";
  // ||[[3, 0], [4, 0]]||_2 = 5.
  Mat<Interval> m(2, 2);
  m << Interval(3), Interval(0), Interval(4), Interval(0);
  const Interval n = EncloseOperatorTwoNorm(m);
  EXPECT_TRUE(n.Lower() <= Mpfr(5) && Mpfr(5) <= n.Upper()) << n.ToString();
}

// 8. isApprox and friends decide nothing on intervals; the certificate of
// a violation is of the check it decided, the backend's candidate apart.
TEST(Soundness, ApproximateComparisonsAreUndecided) {
  Mat<Interval> a = Mat<Interval>::Identity(2, 2);
  EXPECT_THROW((void)a.isApprox(a), Undecided);
  EXPECT_THROW((void)a.isZero(), Undecided);
}

// TRUE x/2 <= (1 + x) - 1 (fails in double at 2^-60) and FALSE
// (1 + 2^-60) - 1 <= 0 (holds in double): the certificate names the second.
struct TwoChecks : ClaimId<"soundness.two_checks"> {
  template <class S> static Domain Hypotheses() { return UnitInterval(); }
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kHalf{"x/2", "(1 + x) - 1", "the claim", MetricKind::kClaim};
    static const Tolerance kTiny{"(1 + 2^-60) - 1", "0", "the claim", MetricKind::kClaim};
    ExpectWithin<S>(kHalf, in[kX] / S(2), (S(1) + in[kX]) - S(1));
    ExpectWithin<S>(kTiny, (S(1) + S(0x1p-60)) - S(1), S(0));
  }
};

TEST(Soundness, TheCertificateIsOfTheCheckItDecided) {
  const std::optional<std::string> failure = CheckCase(Certified<TwoChecks>().conclusion, AtX(0x1p-60));
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->rfind("certified by interval arithmetic", 0), 0u) << *failure;
  EXPECT_NE(failure->find("(1 + 2^-60) - 1 in"), std::string::npos) << *failure;
  EXPECT_NE(failure->find("a candidate: in this backend x/2"), std::string::npos) << *failure;
}

// 9. A claim's own catch (const std::exception&) does not catch Undecided,
// and one that catches everything cannot certify what follows. TRUE:
// "if the weights are distinct, fine; if comparing them fails, say so".
template <bool kCatchAll>
struct CatchesComparison : ClaimId<"soundness.catches_comparison"> {
  template <class S> static Domain Hypotheses() { return UnitInterval(); }
  template <class S> static void Conclusion(const In<S>& in) {
    Vec<S> logits(2);
    logits << in[kX], in[kX];
    const Vec<S> w = Softmax<S>(logits);
    bool equal = false;
    if constexpr (kCatchAll) {
      try {
        equal = w[0] == w[1];
      } catch (...) {
      }
    } else {
      try {
        equal = w[0] == w[1];
      } catch (const std::exception&) {
      }
    }
    ExpectThat(equal, "equal logits, unequal weights");
  }
};

TEST(Soundness, UndecidedIsNotAStdExceptionAndASwallowedOneIsADoubt) {
  static_assert(!std::is_base_of_v<std::exception, Undecided>);
  // Logits 1/3: the weights enclose 1/2 without being a point.
  const Case c = Case().Scalar("x", Exact(Rational(1, 3)));
  EXPECT_NE(Certified<CatchesComparison<false>>().certify(c).verdict, Certainty::kViolated);
  EXPECT_NE(Certified<CatchesComparison<true>>().certify(c).verdict, Certainty::kViolated);
}

// 10. The exact route runs after the intervals, within a budget. TRUE:
// x^(2^24) >= 1 for x >= 1 (24 squarings: rationals of 350 million bits).
constexpr IntField kK{"k"};
struct PowerAtLeastOne : ClaimId<"soundness.power_at_least_one"> {
  template <class S> static Domain Hypotheses() {
    Domain d;
    d.Scalar(kX, gen::Dyadic(1 << 20, 20), Admit::Within(2));
    d.Int(kK, rc::gen::just<int64_t>(24), 0, 30);
    d.Assume("x >= 1", [](const Values& v) { return v[kX] >= 1; });
    return d;
  }
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kOne{"1", "x^(2^k)", "the claim", MetricKind::kClaim};
    S p = in[kX];
    for (int64_t i = 0; i < in[kK]; ++i) p = p * p;
    ExpectWithin<S>(kOne, S(1), p);
  }
};

TEST(Soundness, TheExactRouteIsBoundedAndComesAfterTheIntervals) {
  PropertyDef def = internal::MakeDef<PowerAtLeastOne, double>(__FILE__);
  internal::CertifyByIntervals<PowerAtLeastOne, true>(def);
  const Case c = Case().Scalar("x", 1 + 0x1p-20).Int("k", 24);
  const auto start = std::chrono::steady_clock::now();
  const Certificate cert = def.certify(c);
  EXPECT_EQ(cert.verdict, Certainty::kHolds);
  EXPECT_EQ(cert.bits, 128) << "decided by intervals, before any rational";
  // The rationals alone exceed a 1 s budget and come back as no answer.
  const PropertyDef exact = internal::MakeDef<PowerAtLeastOne, Rational>(__FILE__);
  EXPECT_FALSE(CertifyExactly(exact.conclusion, c, ExactBudget{1, 512}).has_value());
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 20);
  // Within budget the exact route still decides.
  const Case small = Case().Scalar("x", 1 + 0x1p-20).Int("k", 3);
  const std::optional<Certificate> decided = CertifyExactly(exact.conclusion, small);
  ASSERT_TRUE(decided.has_value());
  EXPECT_EQ(decided->verdict, Certainty::kHolds);
}

// 11. RC_ASSERT in a certified claim's fast backend is a candidate like
// ExpectThat: TRUE x/2 <= (1 + x) - 1 stays unrefuted; FALSE x < 1/2 on
// [0, 1] is refuted and certified.
struct AssertedHalf : ClaimId<"soundness.asserted_half"> {
  template <class S> static Domain Hypotheses() { return UnitInterval(); }
  template <class S> static void Conclusion(const In<S>& in) { RC_ASSERT(in[kX] / S(2) <= (S(1) + in[kX]) - S(1)); }
};
struct AssertedBelowHalf : ClaimId<"soundness.asserted_below_half"> {
  template <class S> static Domain Hypotheses() { return UnitInterval(); }
  template <class S> static void Conclusion(const In<S>& in) { RC_ASSERT(in[kX] < S(0.5)); }
};

TEST(Soundness, AnRcAssertFailureIsACandidate) {
  const PropertyDef truth = Certified<AssertedHalf>();
  EXPECT_FALSE(CheckCase(truth.conclusion, AtX(0x1p-60)).has_value()) << "dismissed: the claim holds there";
  const PropertyResult t = RunProperty(truth, Quick());
  EXPECT_TRUE(t.verdict == Verdict::kHolds || t.verdict == Verdict::kUndecided) << t.message;
  const PropertyResult f = RunProperty(Certified<AssertedBelowHalf>(), Quick());
  ASSERT_EQ(f.verdict, Verdict::kRefuted);
  EXPECT_EQ(f.confirmed, std::optional<bool>(true)) << f.certificate;
  EXPECT_NE(f.certificate.find("certified by interval arithmetic"), std::string::npos) << f.certificate;
}

// A false claim whose defect is 1e-30 stays refuted and certified (MPFR),
// and a true one at equality is never refuted.
struct OnePlusTinyAtMostOne : ClaimId<"soundness.one_plus_tiny"> {
  template <class S> static Domain Hypotheses() { return UnitInterval(); }
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kOne{"x (1 + 1e-30)", "x", "the claim", MetricKind::kClaim};
    ExpectWithin<S>(kOne, S(in[kX] * (S(1) + S(1) / S(1e30))), in[kX]);
  }
};

TEST(Soundness, ATinyDefectIsCertifiedAndEqualityIsNeverRefuted) {
  const MpfrPrecisionScope bits(256);
  const PropertyResult f = RunProperty(Certified<OnePlusTinyAtMostOne, Mpfr>(), Quick());
  ASSERT_EQ(f.verdict, Verdict::kRefuted) << f.message;
  EXPECT_EQ(f.confirmed, std::optional<bool>(true)) << f.certificate;
  for (const PropertyResult& r : {RunProperty(Certified<CrossTermNonpositive>(), Quick()),
                                  RunProperty(Certified<CrossTermNonpositive, Mpfr>(), Quick())})
    EXPECT_TRUE(r.verdict == Verdict::kHolds || r.verdict == Verdict::kUndecided) << r.backend << ": " << r.message;
}

// A declared equality case (issue 58): TRUE e^x e^x <= e^{2x}, equal for
// every x, so its enclosures overlap at every precision: undecided as a
// plain inequality, holding where the claim declares (exactly) that the
// sides are equal. FALSE e^x e^x <= e^{2x} (1 - 2^-20) with the equality
// wrongly declared: the declaration never hides a certainly larger side
// (it is trusted only where the enclosures overlap: a wrong declaration
// hides a defect below the working precision, check.h says so).
template <bool kDeclared, bool kTrue>
struct SquaredExp : ClaimId<"soundness.squared_exp"> {
  template <class S> static Domain Hypotheses() { return UnitInterval(); }
  template <class S> static void Conclusion(const In<S>& in) {
    using std::exp;
    static const Tolerance kSq{"e^x e^x", "e^{2x}", "the claim", MetricKind::kClaim};
    const S lhs = exp(in[kX]) * exp(in[kX]);
    const S rhs = kTrue ? exp(S(2) * in[kX]) : S(exp(S(2) * in[kX]) * (S(1) - S(0x1p-20)));
    ExpectWithinAtEquality<S>(kSq, lhs, rhs, kDeclared);
  }
};

TEST(Soundness, ADeclaredEqualityHoldsAndNeverHidesAViolation) {
  const Case c = AtX(0.375);
  EXPECT_EQ((Certified<SquaredExp<false, true>>()).certify(c).verdict, Certainty::kUndecided);
  EXPECT_EQ((Certified<SquaredExp<true, true>>()).certify(c).verdict, Certainty::kHolds);
  EXPECT_EQ((Certified<SquaredExp<true, false>>()).certify(c).verdict, Certainty::kViolated);
}

// Constants and hypotheses: Assume compares the exact values.
TEST(Soundness, ExactComparisonsOfDomainValues) {
  const Exact third(Rational(1, 3));
  EXPECT_TRUE(third < 0.33333333333333337);   // the double above 1/3
  EXPECT_TRUE(third > 0.33333333333333331);   // the double nearest 1/3, below it
  EXPECT_FALSE(third <= 0.33333333333333331);
  EXPECT_TRUE(Exact(-0.0) <= Exact(0.0));
  EXPECT_FALSE(Exact(std::nan("")) < Exact(1.0));
  EXPECT_TRUE(Exact(-HUGE_VAL) < third);
}

// An ExpectWithin that held with a bound <= 0 is not an infinite ratio.
TEST(Soundness, RatiosOfNonpositiveBounds) {
  const Tolerance t{"lhs", "0", "the claim", MetricKind::kClaim};
  EXPECT_EQ(ObservationRatio({t, -1.0, 0.0}), 0.0);
  EXPECT_EQ(ObservationRatio({t, -2.0, -1.0}), 0.5);
  EXPECT_EQ(ObservationRatio({t, -1.0, -1.0}), 1.0);
  EXPECT_EQ(ObservationRatio({t, 1.0, 0.0}), HUGE_VAL);
}

}  // namespace
}  // namespace attnprop
