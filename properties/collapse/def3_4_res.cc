// "Only Large Weights (And Not Skip Connections) Can Prevent the Perils of
// Rank Collapse" (004_fc07a226cef95160.txt), Definition 3.4 (Res) and the
// facts about Res that the proofs of Lemma 5.2 / C.1 / C.2 use.
//
// Res(Z) = Z - 1_n y^T with y := argmin_{y in R^d} ||Z - 1_n y^T||_inf, the
// norm entrywise max (Section 3.1). The argmin is the box of model/res.h;
// the model SELECTS the column-wise midrange (its centre). Each claim below
// says whether it is checked for that selection or for every minimiser.
//
// collapse.def3.4.res_argmin_unique (Def 3.4, implicit)
//   Statement: y := argmin ||Z - 1 y^T||_inf is well defined (unique).
//   Checked for every minimiser: the argmin box must be a single point.
//   Expected REFUTED: for n >= 2, d >= 2 with columns of unequal range the
//   box has positive width (Z = [[0,0],[0,1]]: every y = (s, 1/2) with
//   |s| <= 1/2 attains the minimum 1/2). Pinned in
//   properties/counterexamples/collapse.def3.4.res_argmin_unique.txt.
//
// collapse.res.norm_le_norm (C.2 proof, step ||Res(X)|| <= ||X||)
//   Statement: ||Res(Z)||_inf <= ||Z||_inf.
//   Checked for the midrange selection AND for every minimiser (every
//   minimiser attains the same value R, checked at both corners of the box).
//
// collapse.res.translation_invariance (5.2 / C.1 proof, Res(B - A) steps)
//   Statement: Res(Z + 1 c^T) = Res(Z) for every c in R^d.
//   Checked for the midrange selection (an identity), and as a set statement
//   for every minimiser: argmin(Z + 1c^T) = argmin(Z) + c, so the SET of
//   residuals is invariant. (For an arbitrary selection the identity is
//   ill-posed exactly when the argmin is not unique: see res_argmin_unique.)
//
// Hypotheses: Z in R^{n x d}, c in R^d, no other condition. Generated with
// n in [1,5], d in [1,4], entries in every regime (ResMatrixCase).
// Backends: double, MPFR, rational (Res is piecewise linear: exact in Q),
// interval; no rounding budget: every check is exact or certified.
#include <string>

#include "generators/regime.h"
#include "generators/scalars.h"
#include "model/res.h"
#include "properties/collapse/collapse_cases.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

constexpr int64_t kMaxRows = 5;
constexpr int64_t kMaxCols = 4;

constexpr Axis kOne{"1"}, kN{"n"}, kD{"d"};
constexpr MatrixField kZ{"Z"}, kShift{"c"};

/// Z (n x d) and c (1 x d) in every regime (scales 2^-20..2^6 of entries up
/// to 64, short to full mantissas, structures), on shared axes n and d; c
/// is a field only with_shift (drawn either way). Z in R^{n x d} (n, d >=
/// 1; Definition 3.4 has no other condition), c in R^d; entries finite with
/// |.| <= 2^900, so max + min and Z + 1c^T cannot overflow in double. No
/// rounding budget (exact in rationals, certified by intervals), so tiny
/// and subnormal entries are in the domain.
template <class S>
Domain ResMatrixCase(bool with_shift) {
  gen::Regime regime = gen::RegimeFor<S>(gen::Regime{});
  regime.max_abs = 64;
  const Admit normal = Admit::Within(0x1p900);
  Domain d;
  d.Dim(kOne, {1, 1, 1}, 1).Dim(kN, {1, kMaxRows, kMaxRows}).Dim(kD, {1, kMaxCols, kMaxCols});
  d.Matrix(kZ, kN, kD, regime, normal);
  if (with_shift) {
    d.Matrix(kShift, kOne, kD, regime, normal);
  } else {
    d.Param(kOne, kD, regime);
  }
  return d;
}

template <class S>
std::string VecText(const Vec<S>& v) {
  std::string s = "(";
  for (Eigen::Index j = 0; j < v.size(); ++j) s += (j ? ", " : "") + Exact(ToDouble(v[j])).ToDisplay();
  return s + ")";
}
template <>
std::string VecText<Rational>(const Vec<Rational>& v) {
  std::string s = "(";
  for (Eigen::Index j = 0; j < v.size(); ++j) s += (j ? ", " : "") + v[j].str();
  return s + ")";
}

struct ResArgminUnique : ClaimId<"collapse.def3.4.res_argmin_unique"> {
  template <class S> static Domain Hypotheses() { return ResMatrixCase<S>(false); }

  template <class S> static void Conclusion(const In<S>& in) {
    using std::abs;
    using std::max;
    const Mat<S> z = in[kZ];
    const ResArgmin<S> box = ResArgminBox<S>(z);
    // Certified (exact in rationals, by intervals in double and MPFR): no
    // rounding budget. Both corners must be minimisers (a check of the
    // model's box).
    static const Tolerance kCornerGap{"objective at both box corners - R", "0 (an identity)",
                                      "exact in rationals; certified by interval arithmetic elsewhere", MetricKind::kRounding};
    ExpectWithin<S>(kCornerGap,
                    max(S(abs(S(ResObjective<S>(z, box.lo) - box.value))), S(abs(S(ResObjective<S>(z, box.hi) - box.value)))),
                    S(0));
    // R is a lower bound for every y (each column's half range), so both
    // corners are minimisers; uniqueness needs lo == hi.
    S width = 0;
    Eigen::Index widest = 0;
    for (Eigen::Index j = 0; j < z.cols(); ++j) {
      width = max(width, S(box.hi[j] - box.lo[j]));
      if (ToDouble(S(box.hi[j] - box.lo[j])) > ToDouble(S(box.hi[widest] - box.lo[widest]))) widest = j;
    }
    if constexpr (!std::is_same_v<S, Interval>) {
      // The two minimisers, for the message (in intervals the width check
      // below is the certificate).
      if (CertainlyNonzero(width)) {
        Vec<S> y1 = ResMidrange<S>(z), y2 = y1;
        y2[widest] = box.hi[widest];
        ExpectThat(false, "argmin not unique: y = " + VecText<S>(y1) + " and y' = " + VecText<S>(y2) +
                              " both attain the minimum R = " + VecText<S>(Vec<S>::Constant(1, box.value)) +
                              " (objectives " + VecText<S>(Vec<S>::Constant(1, ResObjective<S>(z, y1))) + ", " +
                              VecText<S>(Vec<S>::Constant(1, ResObjective<S>(z, y2))) + ")");
      }
    }
    static const Tolerance kWidth{"width of argmin set max_j(hi_j - lo_j)", "0 (a single point)",
                                  "uniqueness as stated: exact in rationals, certified by intervals elsewhere", MetricKind::kRounding};
    ExpectWithin<S>(kWidth, width, S(0));
  }
};
ATTNPROP_REGISTER(ResArgminUnique, double, Mpfr, Rational, Interval);

struct ResNormLeNorm : ClaimId<"collapse.res.norm_le_norm"> {
  template <class S> static Domain Hypotheses() { return ResMatrixCase<S>(false); }

  // Exact in rationals, certified by intervals elsewhere: no rounding budget.
  template <class S> static void Conclusion(const In<S>& in) {
    using std::max;
    const Mat<S> z = in[kZ];
    const S norm = EntrywiseMaxNorm<S>(z);
    static const Tolerance kMidrange{"||Res(Z)||_inf (midrange selection)", "||Z||_inf",
                                     "y = 0 is a candidate, so R <= ||Z||; the midrange attains R", MetricKind::kClaim};
    ExpectWithin<S>(kMidrange, EntrywiseMaxNorm<S>(Res<S>(z)), norm);
    const ResArgmin<S> box = ResArgminBox<S>(z);
    static const Tolerance kEveryMinimiser{"||Z - 1 y^T||_inf at both box corners (every minimiser)", "||Z||_inf",
                                           "every minimiser attains R <= ||Z|| (y = 0 is a candidate)",
                                           MetricKind::kClaim};
    ExpectWithin<S>(kEveryMinimiser, max(ResObjective<S>(z, box.lo), ResObjective<S>(z, box.hi)), norm);
  }
};
ATTNPROP_REGISTER(ResNormLeNorm, double, Mpfr, Rational, Interval);

struct ResTranslationInvariance : ClaimId<"collapse.res.translation_invariance"> {
  // c in R^d (one row, Z's width) in Z's domain.
  template <class S> static Domain Hypotheses() { return ResMatrixCase<S>(true); }

  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> z = in[kZ];
    const Vec<S> shift = in[kShift].row(0).transpose();
    const Mat<S> z_shift = SubtractRowVector<S>(z, Vec<S>(-shift));
    using std::max;
    // Identities: exact in rationals, certified by intervals elsewhere.
    static const Tolerance kMidrange{"||Res(Z + 1c^T) - Res(Z)||_inf (midrange selection)", "0 (an identity)",
                                     "exact in rationals; certified by interval arithmetic elsewhere", MetricKind::kRounding};
    ExpectWithin<S>(kMidrange, EntrywiseMaxNorm<S>(Mat<S>(Res<S>(z_shift) - Res<S>(z))), S(0));
    // Every minimiser: the argmin set moves by exactly c.
    const ResArgmin<S> b0 = ResArgminBox<S>(z), b1 = ResArgminBox<S>(z_shift);
    const Vec<S> dlo = b1.lo - b0.lo - shift, dhi = b1.hi - b0.hi - shift;
    static const Tolerance kArgminSet{"|argmin box of Z + 1c^T - (box of Z + c)|", "0 (an identity)",
                                      "exact in rationals; certified by interval arithmetic elsewhere", MetricKind::kRounding};
    ExpectWithin<S>(kArgminSet, max(collapse::VecMaxNorm<S>(dlo), collapse::VecMaxNorm<S>(dhi)), S(0));
  }
};
ATTNPROP_REGISTER(ResTranslationInvariance, double, Mpfr, Rational, Interval);

}  // namespace
}  // namespace attnprop
