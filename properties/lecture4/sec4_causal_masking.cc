// Lecture 4, section 4 "Causal masking" (003_dd971a1151775776.txt).
//
// lecture4.prop4.3.future_jacobian_zero (Prop 4.3)
//   Statement: d out_i / d X_j = 0 for j > i (causal head).
//   Checked through difference quotients: for a causal head
//   out = Attn(X W_Q, X W_K, X W_V, causal), moving row j of X by t H (two
//   steps t = 2^-4 and 2^-20; X, the weights and H in every regime; row j
//   of X + t e_j H may round, rows i < j are untouched) leaves every row i < j of
//   the output bitwise unchanged, so every difference quotient
//   (out_i(X + t e_j H) - out_i(X)) / t is exactly 0 and so is its limit.
//   The same computation on rows i >= j is not constrained (the property
//   only asserts rows i < j).
// lecture4.aside4.4.mask_before_vs_after_softmax (Implementation aside 4.4)
//   Statement: zeroing the forbidden weights after an unmasked softmax
//   (without renormalising) leaves row sums below one and changes the
//   derivatives; masking the scores to -inf before softmax normalises over
//   exactly the allowed positions.
//   Checked on a score matrix S (T x T, every regime within |s| <= 128):
//   (a) after-zeroing rows i < T-1 sum to < 1 (the missing mass
//   sum_{l>i} p_l >= e^{-256}/T; certified by intervals where double
//   rounds it away); (b) masked-before rows sum to 1 (an identity,
//   certified by intervals); (c) derivatives: raising a forbidden score S_il
//   (l > i) by 1 strictly lowers every after-zeroing weight of row i (its
//   derivative -p_j p_l is nonzero) but leaves the masked-before row bitwise
//   unchanged (derivative 0).
#include <algorithm>
#include <cmath>
#include <limits>

#include "generators/regime.h"
#include "generators/scalars.h"
#include "generators/shape.h"
#include "model/attention.h"
#include "properties/framework/hypotheses_checks.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

template <class S> constexpr int64_t kMaxLen = SizeBudget<S>::Pick(10, 5);
template <class S> constexpr int64_t kMaxWidth = SizeBudget<S>::Pick(5, 3);

constexpr Axis kT{"T"}, kD{"d"}, kOne{"1"};
constexpr MatrixField kX{"X"}, kWQ{"W_Q"}, kWK{"W_K"}, kWV{"W_V"}, kH{"H"}, kScores{"S"};
constexpr IntField kJ{"j"};
constexpr ScalarField kScale{"scale"};

struct FutureJacobianZero : ClaimId<"lecture4.prop4.3.future_jacobian_zero"> {
  // X is T x d (T >= 2), W_Q, W_K, W_V d x d, H 1 x d, 1 <= j < T, a finite
  // scale (drawn 1/sqrt(d)). Domain: entries (and scale) finite with |entry|
  // <= 2^16, so the head's scores and outputs stay far below the overflow
  // threshold for both steps (the bitwise comparison would fail on an inf
  // or NaN for a reason outside the claim); the generator draws every
  // regime (default gen::Regime: |entry| <= 2^6 2^10 = 2^16, the domain's bound).
  template <class S> static Domain Hypotheses() {
    const Admit entries = Admit::Within(0x1p16);
    const gen::Regime regime = gen::RegimeFor<S>(gen::Regime{});
    Domain d;
    d.Dim(kT, {2, kMaxLen<S>, kMaxLen<S>}).Dim(kD, {1, kMaxWidth<S>, kMaxWidth<S>}).Dim(kOne, {1, 1, 1}, 1);
    d.Matrix(kX, kT, kD, regime, entries);
    d.Matrix(kWQ, kD, kD, regime, entries).Matrix(kWK, kD, kD, regime, entries);
    d.Matrix(kWV, kD, kD, regime, entries).Matrix(kH, kOne, kD, regime, entries);
    const int pick = d.ScalarParam(gen::Dyadic(64, 0));  // an integer for the index j, not an input value
    d.Built(
        kJ,
        [pick](const Domain::Drawn& in) {
          return 1 + static_cast<int64_t>(std::abs(in.ScalarParam(pick).ToDouble())) % (in.Dim(kT) - 1);
        },
        1, std::numeric_limits<int64_t>::max());
    d.Built(
        kScale, [](const Domain::Drawn& in) { return Exact(1.0 / std::sqrt(static_cast<double>(in.Dim(kD)))); },
        entries);
    d.Assume("1 <= j < T", [](const Values& v) { return v[kJ] < v[kX].rows; });
    return d;
  }

  template <class S>
  static Mat<S> Head(const Mat<S>& x, const In<S>& in) {
    return Attention<S>(Mat<S>(x * in[kWQ]), Mat<S>(x * in[kWK]), Mat<S>(x * in[kWV]), in[kScale], Mask::Causal()).out;
  }

  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> x = in[kX], h = in[kH];
    const Eigen::Index j = in[kJ];
    const Mat<S> base = Head<S>(x, in);
    for (const double step : {std::ldexp(1.0, -4), std::ldexp(1.0, -20)}) {
      Mat<S> moved = x;
      moved.row(j) += S(step) * h.row(0);
      const Mat<S> out = Head<S>(moved, in);
      static const Tolerance kQuotient{
          "|out_i(X + t e_j H) - out_i(X)| / t, i < j", "0",
          "row i reads only rows <= i of X: the same operations on the same inputs (bitwise)", MetricKind::kRounding};
      for (Eigen::Index i = 0; i < j; ++i)
        ExpectWithin(kQuotient, ToDouble(S((out.row(i) - base.row(i)).cwiseAbs().maxCoeff() / S(step))), 0.0);
    }
  }
};

struct MaskBeforeVsAfter : ClaimId<"lecture4.aside4.4.mask_before_vs_after_softmax"> {
  // S is T x T, T >= 2. Domain: |s| <= 128, so the missing mass
  // sum_{l>i} p_l >= e^{-256}/T that makes the zeroed row sum < 1 is decided
  // by intervals well below the default cap (4,096 bits). Drawn in every
  // regime (scales 2^-20..2^6, structures: ties, equal rows, the zero
  // matrix), a matrix beyond 128 (a dominant entry) halved by the power of
  // two that brings it within (exact: same structure and ties).
  template <class S> static Domain Hypotheses() {
    Domain d;
    d.Dim(kT, {2, kMaxLen<S>, kMaxLen<S>});
    const int raw = d.Param(kT, kT, gen::RegimeFor<S>(gen::Regime{}));
    d.Built(
        kScores, kT, kT,
        [raw](const Domain::Drawn& in) {
          ExactMatrix m = in.Param(raw);
          double top = 0;
          for (const Exact& e : m.data) top = std::max(top, std::fabs(e.ToDouble()));
          if (!(top > 128)) return m;
          int ex = 0;
          std::frexp(top / 128, &ex);  // top / 2^ex < 128
          for (Exact& e : m.data)
            e = e.IsDouble() ? Exact(std::ldexp(e.ToDouble(), -ex))
                             : Exact(Rational(e.ToRational() / Rational(std::ldexp(1.0, ex))));
          return m;
        },
        Admit::Within(128));
    return d;
  }

  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> s = in[kScores];
    const Eigen::Index t = s.rows();
    for (Eigen::Index i = 0; i < t; ++i) {
      const Vec<S> row = s.row(i).transpose();
      const Vec<S> after = Softmax<S>(row);  // unmasked, then zero j > i
      Vec<S> masked_row = row;
      for (Eigen::Index l = i + 1; l < t; ++l) masked_row[l] = -Infinity<S>();
      const Vec<S> before = Softmax<S>(masked_row);
      S sum_after = 0, sum_before = 0;
      for (Eigen::Index j = 0; j <= i; ++j) sum_after += after[j], sum_before += before[j];
      for (Eigen::Index l = i + 1; l < t; ++l)
        ExpectThat(IsExactlyZero(before[l]), "masked-before weight nonzero at a forbidden position");
      static const Tolerance kMaskedSum{"|sum_j A_ij - 1| (masked before)", "0 (an identity)",
                                        "certified by interval arithmetic", MetricKind::kRounding};
      ExpectWithin<S>(kMaskedSum, abs(sum_before - 1), S(0));
      if (i + 1 < t) {
        // Zeroing after the softmax loses the missing mass sum_{l>i} p_l > 0.
        ExpectThat(sum_after < S(1), "the row sum after zeroing is not below 1");
        // Derivatives: raise the first forbidden score by 1.
        Vec<S> bumped = row;
        bumped[i + 1] += S(1);
        const Vec<S> after2 = Softmax<S>(bumped);
        Vec<S> masked2 = bumped;
        for (Eigen::Index l = i + 1; l < t; ++l) masked2[l] = -Infinity<S>();
        const Vec<S> before2 = Softmax<S>(masked2);
        for (Eigen::Index j = 0; j <= i; ++j) {
          ExpectThat(after2[j] < after[j], "after-zeroing weight did not drop when a forbidden score rose");
          static const Tolerance kUnmoved{"|A_ij(s + e_{i+1}) - A_ij(s)| (masked before)", "0 (an identity)",
                                          "the masked row never reads s_{i+1} (certified by interval arithmetic)", MetricKind::kRounding};
          ExpectWithin<S>(kUnmoved, abs(before2[j] - before[j]), S(0));
        }
      }
    }
  }
};

ATTNPROP_REGISTER(FutureJacobianZero, double, Mpfr);
ATTNPROP_REGISTER(MaskBeforeVsAfter, double, Mpfr, Interval);

}  // namespace
}  // namespace attnprop
