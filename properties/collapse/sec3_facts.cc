// "Only Large Weights (And Not Skip Connections) Can Prevent the Perils of
// Rank Collapse" (004_fc07a226cef95160.txt), Section 3.1, Facts 3.2 and 3.3.
// Norms are entrywise (Section 3.1): ||A||_1 = sum_{j,l} |A_jl|,
// ||A||_inf = max_{j,l} |A_jl|.
//
// collapse.fact3.2.shift_invariance
//   Statement: for x in R^n and a in R, softm(x) = softm(x + a 1_n).
//   Backends double, MPFR, interval (softm needs exp).
//
// collapse.fact3.3.l1_submultiplicative
//   Statement: for any matrices A, B: ||AB||_1 <= ||A||_1 ||B||_1. Holds
//   (|sum_k A_ik B_kj| <= sum_k |A_ik||B_kj|, then sum over i, j).
//
// collapse.fact3.3.max_submultiplicative
//   Statement: ||AB||_inf <= ||A||_inf ||B||_inf. Expected REFUTED: the
//   entrywise max norm is not submultiplicative; A = (1 1), B = (1 1)^T give
//   AB = (2) > 1. (True up to the factor k = inner dimension.)
//
// collapse.fact3.3.l1_max_mixed
//   Statement: ||AB||_1 <= ||A||_1 ||B||_inf. Expected REFUTED: A = (1),
//   B = (1 1): ||AB||_1 = 2 > 1. (True up to the factor = columns of B.)
//
// Hypotheses (Fact 3.3): A in R^{r x k}, B in R^{k x c}, r, k, c in [1,8]
// (MPFR and rationals [1,6]), entries in every regime (gen::Regime, up to
// 4 at scales 2^-20..2^6; domain: 2^-200 <= |x| <= 2^200 or 0). Backends
// double, MPFR, rational, interval.
#include <string>

#include "properties/collapse/collapse_cases.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

using collapse::EntrywiseL1;
using collapse::MaxNorm;

constexpr Axis kUnit{"1"}, kLen{"n"}, kRows{"r"}, kInner{"k"}, kCols{"c"};
constexpr MatrixField kX{"x"}, kA{"A"}, kB{"B"};
constexpr ScalarField kOffset{"a"};

struct ShiftInvariance : ClaimId<"collapse.fact3.2.shift_invariance"> {
  // x in R^n (a row, n >= 1) in every regime, a in R at its own scale (x +
  // a1 rounds); domain: |x_j|, |a| <= 2^500, x + a1 finite in double (the
  // generator draws n in [1,6], x and a in one regime: up to 16 at scales
  // 2^-20..2^6).
  template <class S> static Domain Hypotheses() {
    gen::Regime regime = gen::RegimeFor<S>(gen::Regime{});
    regime.max_abs = 16;
    Domain d;
    d.Dim(kUnit, {1, 1, 1}, 1).Dim(kLen, {1, 6, 6});
    d.Matrix(kX, kUnit, kLen, regime, Admit::Within(0x1p500));
    const int a = d.Param(kUnit, kUnit, regime);
    d.Built(kOffset, [a](const Domain::Drawn& in) { return in.Param(a)(0, 0); }, Admit::Within(0x1p500));
    return d;
  }

  template <class S> static void Conclusion(const In<S>& in) {
    const Vec<S> x = in[kX].row(0).transpose();
    const S a = in[kOffset];
    const Vec<S> shifted = (x.array() + a).matrix();
    const Vec<S> diff = Softmax<S>(shifted) - Softmax<S>(x);
    static const Tolerance kShift{"||softm(x + a1) - softm(x)||_inf", "0 (an identity)",
                                  "certified by interval arithmetic", MetricKind::kRounding};
    ExpectWithin<S>(kShift, collapse::VecMaxNorm<S>(diff), S(0));
  }
};
ATTNPROP_REGISTER(ShiftInvariance, double, Mpfr, Interval);

/// A (r x k) and B (k x c) in every regime on shared axes, dimensions up
/// to 8 (MPFR 6). Domain: A B defined, at most 64 x 64, entries each 0 or
/// 2^-200 <= |x| <= 2^200: every product, sum and norm product stays normal
/// and finite in double, where the budget is relative.
template <class S>
Domain ProductCase() {
  constexpr int64_t kMax = SizeBudget<S>::Pick(8, 6);
  gen::Regime regime = gen::RegimeFor<S>(gen::Regime{});
  regime.max_abs = 4;
  const Admit normal = Admit::Within(0x1p200).NonzeroAtLeast(0x1p-200);
  Domain d;
  d.Dim(kRows, {1, kMax, kMax}, 64).Dim(kInner, {1, kMax, kMax}, 64).Dim(kCols, {1, kMax, kMax}, 64);
  d.Matrix(kA, kRows, kInner, regime, normal).Matrix(kB, kInner, kCols, regime, normal);
  return d;
}

/// ||lhs|| <= rhs as stated: exact in rationals; certified by interval
/// arithmetic otherwise (properties/framework/certify.h: a failure in
/// double or MPFR is a candidate the intervals decide), so no budget.
template <class S>
void CheckNormInequality(const Tolerance& tolerance, const S& lhs, const S& rhs) {
  ExpectWithin<S>(tolerance, lhs, rhs);
}

/// The three norm facts of Fact 3.3 share their hypotheses (A B defined)
/// and their cases.
struct ProductFamily {
  template <class S> static Domain Hypotheses() { return ProductCase<S>(); }
};

struct L1Submultiplicative : ProductFamily, ClaimId<"collapse.fact3.3.l1_submultiplicative"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> a = in[kA], b = in[kB];
    static const Tolerance kProduct{
        "||AB||_1", "||A||_1 ||B||_1", "the fact as stated", MetricKind::kClaim};
    CheckNormInequality<S>(kProduct, EntrywiseL1<S>(Mat<S>(a * b)), S(EntrywiseL1<S>(a) * EntrywiseL1<S>(b)));
  }
};
ATTNPROP_REGISTER(L1Submultiplicative, double, Mpfr, Rational, Interval);

struct MaxSubmultiplicative : ProductFamily, ClaimId<"collapse.fact3.3.max_submultiplicative"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> a = in[kA], b = in[kB];
    static const Tolerance kProduct{
        "||AB||_inf", "||A||_inf ||B||_inf", "the fact as stated (it fails by a factor up to k)",
        MetricKind::kClaim};
    CheckNormInequality<S>(kProduct, MaxNorm<S>(Mat<S>(a * b)), S(MaxNorm<S>(a) * MaxNorm<S>(b)));
  }
};
ATTNPROP_REGISTER(MaxSubmultiplicative, double, Mpfr, Rational, Interval);

struct L1MaxMixed : ProductFamily, ClaimId<"collapse.fact3.3.l1_max_mixed"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> a = in[kA], b = in[kB];
    static const Tolerance kProduct{
        "||AB||_1", "||A||_1 ||B||_inf", "the fact as stated (it fails by a factor up to c, B's columns)",
        MetricKind::kClaim};
    CheckNormInequality<S>(kProduct, EntrywiseL1<S>(Mat<S>(a * b)), S(EntrywiseL1<S>(a) * MaxNorm<S>(b)));
  }
};
ATTNPROP_REGISTER(L1MaxMixed, double, Mpfr, Rational, Interval);

}  // namespace
}  // namespace attnprop
