// Section 1 of the Lean-formalised paper on attention functions
// (000_b045eeb287420cf4.txt), the bidegree lemma: "Every polynomial
// P: C x C -> R of bidegree at most (1,1) has a unique decomposition
// P(u,v) = B(u,v) + L(u) + R(v) + D with B bilinear, L, R linear and D in R,
// namely [CATALOG.md reconstruction]
//   D = P(0,0), L(u) = P(u,0) - P(0,0), R(v) = P(0,v) - P(0,0),
//   B(u,v) = P(u,v) - P(u,0) - P(0,v) + P(0,0)."
// C = R^m; P is generated in product form sum_k F_k(u) G_k(v) with affine
// F_k, G_k (model/bidegree.h), which does not presuppose the decomposition.
// Not every such P is reached: a sum of K <= 3 products has a bilinear part
// of rank <= K (C = R^m, m <= 4: it is m x m) and linear parts tied to it;
// the cases are the P of this form, in every regime.
//
// formal.prop.bidegree11_decomposition
//   Conclusion: with B, L, R, D given by the four formulas, at generated
//   points u1, u2, v1, v2 and a scalar c:
//     P(u1,v1) = B(u1,v1) + L(u1) + R(v1) + D,
//     L(u1 + c u2) = L(u1) + c L(u2),  R(v1 + c v2) = R(v1) + c R(v2),
//     B(u1 + c u2, v1) = B(u1,v1) + c B(u2,v1),
//     B(u1, v1 + c v2) = B(u1,v1) + c B(u1,v2).
// formal.prop.bidegree11_uniqueness
//   Conclusion: two decompositions of the stated shape that sum to the same
//   P are equal. Three decompositions of one P, by different routes: the
//   expansion of the product form (F, G); the expansion of another product
//   form of the same P, (M^T F, M^{-1} G) with M unit lower triangular; and
//   the evaluation formulas at basis points applied to the second form.
//   All three coefficient sets (b, l, r, d) must coincide.
// Hypotheses: none beyond bidegree <= (1,1). Generated: m in [1,4], K in
// [1,3] products, coefficients and points in every regime (ProductForm).
// Backends: double, MPFR, rational (the claim is algebraic: exact in Q).
#include <algorithm>
#include <cmath>

#include "generators/regime.h"
#include "generators/scalars.h"
#include "model/bidegree.h"
#include "properties/framework/hypotheses_checks.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

constexpr int64_t kMaxDim = 4;
constexpr int64_t kMaxTerms = 3;

constexpr Axis kTerms{"K"}, kWidth{"m+1"}, kFour{"4"}, kDim{"m"};
constexpr MatrixField kF{"F"}, kG{"G"}, kPoints{"points"}, kMix{"M"};
constexpr ScalarField kC{"c"};

/// The factors' entries in every regime, up to 8.
template <class S>
gen::Regime ProductRegime() {
  gen::Regime r = gen::RegimeFor<S>(gen::Regime{});
  r.max_abs = 8;
  return r;
}

/// Each entry 0 or 2^-100 <= |.| <= 2^100 (see ProductForm).
const Admit kNormal = Admit::Within(0x1p100).NonzeroAtLeast(0x1p-100);

/// P in product form: F, G both K x (m+1) (K, m >= 1) on shared axes,
/// drawn in every regime (up to 8; K <= 3, m <= 4); the claims add their
/// own fields. Domain of the encoded budgets (absolute, gamma x magnitudes
/// of the product form) in double: K <= 8, m <= 64, entries 0 or 2^-100 <=
/// |.| <= 2^100, so every product of four factors is normal and finite.
template <class S>
Domain ProductForm() {
  Domain d;
  d.Dim(kTerms, {1, kMaxTerms, kMaxTerms}, 8).Dim(kWidth, {2, kMaxDim + 1, kMaxDim + 1}, 65);
  d.Matrix(kF, kTerms, kWidth, ProductRegime<S>(), kNormal).Matrix(kG, kTerms, kWidth, ProductRegime<S>(), kNormal);
  return d;
}

/// m without its last column (points have m coordinates, the factors m+1).
ExactMatrix DropLastColumn(const ExactMatrix& m) {
  ExactMatrix out(m.rows, m.cols - 1);
  for (int64_t i = 0; i < m.rows; ++i)
    for (int64_t j = 0; j + 1 < m.cols; ++j) out(i, j) = m(i, j);
  return out;
}

template <class S>
BiaffinePoly<S> PolyOf(const In<S>& in) {
  return {in[kF], in[kG]};
}

struct Bidegree11Decomposition : ClaimId<"formal.prop.bidegree11_decomposition"> {
  // The product form (ProductForm); the points u1, u2, v1, v2 rows of
  // length m (drawn as 4 x (m+1) regime rows, the last column dropped) and
  // c (dyadic in [-4, 4], 2^-20 grid) in the same domain (0 or 2^-100 <=
  // |.| <= 2^100). Axis m is the points' columns; that it is F's columns
  // less one is an assumption (axes have no arithmetic), and its drawn
  // extent is unused (the points come from the m+1 wide parameter).
  template <class S> static Domain Hypotheses() {
    Domain d = ProductForm<S>();
    d.Dim(kFour, {4, 4, 4}, 4).Dim(kDim, {1, 1, 1}, 64);
    const int pts = d.Param(kFour, kWidth, ProductRegime<S>());  // rows u1, u2, v1, v2
    d.Built(
        kPoints, kFour, kDim, [pts](const Domain::Drawn& in) { return DropLastColumn(in.Param(pts)); }, kNormal);
    d.Scalar(kC, gen::Dyadic(4, 20), kNormal);
    d.Assume("the points have m coordinates (F, G: m + 1 columns)",
             [](const Values& v) { return v[kPoints].cols == v[kF].cols - 1; });
    return d;
  }

  template <class S> static void Conclusion(const In<S>& in) {
    using std::abs;
    const BiaffinePoly<S> p = PolyOf<S>(in);
    const Mat<S> pts = in[kPoints];
    const Vec<S> u1 = pts.row(0).transpose(), u2 = pts.row(1).transpose(), v1 = pts.row(2).transpose(),
                 v2 = pts.row(3).transpose();
    const S k = in[kC];
    // Identities: exact in rationals, certified by intervals elsewhere.
    static const Tolerance kResidual{"|identity residual| (sum, linearity of L and R, bilinearity of B)",
                                     "0 (an identity)", "exact in rationals; certified by interval arithmetic elsewhere", MetricKind::kRounding};
    auto expect_zero = [&](const S& residual, const char* what) {
      if constexpr (ScalarTraits<S>::kExact) ExpectThat(residual == 0, std::string(what) + " fails exactly");
      ExpectWithin<S>(kResidual, abs(residual), S(0));
    };
    // P = B + L + R + D.
    expect_zero(Evaluate(p, u1, v1) - (FormulaB(p, u1, v1) + FormulaL(p, u1) + FormulaR(p, v1) + FormulaD(p)),
                "P = B + L + R + D");
    // L and R linear.
    const Vec<S> u12 = u1 + k * u2, v12 = v1 + k * v2;
    expect_zero(FormulaL(p, u12) - FormulaL(p, u1) - k * FormulaL(p, u2), "L linear");
    expect_zero(FormulaR(p, v12) - FormulaR(p, v1) - k * FormulaR(p, v2), "R linear");
    // B bilinear: linear in u for fixed v1, and in v for fixed u1.
    expect_zero(FormulaB(p, u12, v1) - FormulaB(p, u1, v1) - k * FormulaB(p, u2, v1), "B linear in u");
    expect_zero(FormulaB(p, u1, v12) - FormulaB(p, u1, v1) - k * FormulaB(p, u1, v2), "B linear in v");
  }
};

struct Bidegree11Uniqueness : ClaimId<"formal.prop.bidegree11_uniqueness"> {
  // The product form (ProductForm); M K x K unit lower triangular (the
  // second product form needs M invertible), drawn as I plus the strict
  // lower part of a regime matrix; its entries 0 or 2^-20 <= |.| <= 2^20:
  // M^-1 (<= 2^147 for K <= 8) and the scale stay finite and normal.
  template <class S> static Domain Hypotheses() {
    Domain d = ProductForm<S>();
    const int lower = d.Param(kTerms, kTerms, ProductRegime<S>());
    d.Built(
        kMix, kTerms, kTerms,
        [lower](const Domain::Drawn& in) {
          const ExactMatrix l = in.Param(lower);
          const int64_t k = l.rows;
          ExactMatrix mix(k, k);
          for (int64_t i = 0; i < k; ++i)
            for (int64_t j = 0; j < k; ++j) mix(i, j) = i == j ? Exact(1.0) : i > j ? l(i, j) : Exact(0.0);
          return mix;
        },
        Admit::Within(0x1p20).NonzeroAtLeast(0x1p-20));
    d.Assume("M unit lower triangular", [](const Values& v) {
      const ExactMatrix& mix = v[kMix];
      for (int64_t i = 0; i < mix.rows; ++i)
        for (int64_t j = i; j < mix.cols; ++j)
          if (!hyp::SameReal(mix(i, j), Exact(i == j ? 1.0 : 0.0))) return false;
      return true;
    });
    return d;
  }

  template <class S> static void Conclusion(const In<S>& in) {
    using std::abs;
    using std::max;
    const BiaffinePoly<S> p = PolyOf<S>(in);
    const Mat<S> mix = in[kMix];
    const BiaffinePoly<S> q = Remix<S>(p, mix);
    const Bidegree11<S> d1 = ExpandProductForm<S>(p), d2 = ExpandProductForm<S>(q), d3 = DecomposeByEvaluation<S>(q);
    // The largest coefficient difference, decision-free (max, not comparisons).
    auto diff = [](const Bidegree11<S>& a, const Bidegree11<S>& b) {
      S worst = abs(a.d - b.d);
      for (Eigen::Index i = 0; i < a.b.size(); ++i) worst = max(worst, S(abs(a.b.data()[i] - b.b.data()[i])));
      for (Eigen::Index i = 0; i < a.l.size(); ++i) worst = max(worst, S(abs(a.l.data()[i] - b.l.data()[i])));
      for (Eigen::Index i = 0; i < a.r.size(); ++i) worst = max(worst, S(abs(a.r.data()[i] - b.r.data()[i])));
      return worst;
    };
    const S e12 = diff(d1, d2), e13 = diff(d1, d3);
    if constexpr (ScalarTraits<S>::kExact) {
      ExpectThat(e12 == 0, "expansions of two product forms of the same P differ");
      ExpectThat(e13 == 0, "expansion and evaluation-formula decomposition of the same P differ");
    }
    static const Tolerance kCoefficients{"max |coefficient difference| between the three decompositions",
                                         "0 (an identity)",
                                         "exact in rationals; certified by interval arithmetic elsewhere", MetricKind::kRounding};
    ExpectWithin<S>(kCoefficients, e12, S(0));
    ExpectWithin<S>(kCoefficients, e13, S(0));
  }
};

ATTNPROP_REGISTER(Bidegree11Decomposition, double, Mpfr, Rational, Interval);
ATTNPROP_REGISTER(Bidegree11Uniqueness, double, Mpfr, Rational, Interval);

}  // namespace
}  // namespace attnprop
