// Section 1 of the Lean-formalised paper on attention functions
// (000_b045eeb287420cf4.txt), the bidegree lemma: "Every polynomial
// P: C x C -> R of bidegree at most (1,1) has a unique decomposition
// P(u,v) = B(u,v) + L(u) + R(v) + D with B bilinear, L, R linear and D in R,
// namely [CATALOG.md reconstruction]
//   D = P(0,0), L(u) = P(u,0) - P(0,0), R(v) = P(0,v) - P(0,0),
//   B(u,v) = P(u,v) - P(u,0) - P(0,v) + P(0,0)."
// C = R^m; P is generated in product form sum_k F_k(u) G_k(v) with affine
// F_k, G_k (model/bidegree.h), which spans every such P and does not
// presuppose the decomposition.
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
namespace {

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

/// Upper bound on |each product-form term| summed: sum_k (|f_k|.|u| + |f0_k|)(|g_k|.|v| + |g0_k|),
/// evaluated in double from magnitudes (the standard running-error bound's scale).
double PolyMagnitude(const Mat<double>& f, const Mat<double>& g, const Vec<double>& au, const Vec<double>& av) {
  const BiaffinePoly<double> p{f.cwiseAbs(), g.cwiseAbs()};
  return Evaluate<double>(p, au, av) * (1 + 0x1p-40);  // slack for the magnitude's own rounding
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
    const BiaffinePoly<S> p = PolyOf<S>(in);
    const Mat<S> pts = in[kPoints];
    const Vec<S> u1 = pts.row(0).transpose(), u2 = pts.row(1).transpose(), v1 = pts.row(2).transpose(),
                 v2 = pts.row(3).transpose();
    const S k = in[kC];
    const Eigen::Index m = p.Dim();
    const double u = ScalarTraits<S>::UnitRoundoff();
    const double g = Gamma(static_cast<double>(m + p.f.rows() + 10), u);

    // Magnitudes (double) for the error bounds.
    const In<double> dv(in.value());
    const Mat<double> fa = dv[kF], ga = dv[kG], pa = dv[kPoints].cwiseAbs();
    const double ca = std::abs(dv[kC]);
    const Vec<double> z = Vec<double>::Zero(m), au1 = pa.row(0).transpose(), au2 = pa.row(1).transpose(),
                      av1 = pa.row(2).transpose(), av2 = pa.row(3).transpose();
    const Vec<double> au12 = au1 + ca * au2, av12 = av1 + ca * av2;
    auto mag = [&](const Vec<double>& a, const Vec<double>& b) { return PolyMagnitude(fa, ga, a, b); };
    auto expect_zero = [&](const S& residual, double scale, const char* what) {
      using std::abs;
      if constexpr (ScalarTraits<S>::kExact) ExpectThat(residual == 0, std::string(what) + " fails exactly");
      static const Tolerance kResidual{
          "|identity residual| (sum, linearity of L and R, bilinearity of B)",
          "gamma_{m+K+10} x sum over the identity's P-evaluations of |coefficient| x P_abs(point)",
          "one evaluation of the product form errs <= gamma_{m+K+2} P_abs (dot of length m+1, one product, "
          "K-term sum; P_abs = same form on |coefficients|, |point|); a rounded point u1 + c u2 moves P by "
          "<= gamma_2 P_abs(|u1| + |c||u2|); the identity's <= 8 terms add gamma_8 more"};
      ExpectWithin(kResidual, ToDouble(S(abs(residual))), g * scale);
    };

    // P = B + L + R + D.
    expect_zero(Evaluate(p, u1, v1) - (FormulaB(p, u1, v1) + FormulaL(p, u1) + FormulaR(p, v1) + FormulaD(p)),
                2 * (mag(au1, av1) + mag(au1, z) + mag(z, av1) + mag(z, z)), "P = B + L + R + D");
    // L and R linear.
    const Vec<S> u12 = u1 + k * u2, v12 = v1 + k * v2;
    expect_zero(FormulaL(p, u12) - FormulaL(p, u1) - k * FormulaL(p, u2),
                mag(au12, z) + mag(au1, z) + ca * mag(au2, z) + (1 + 2 * ca) * mag(z, z), "L linear");
    expect_zero(FormulaR(p, v12) - FormulaR(p, v1) - k * FormulaR(p, v2),
                mag(z, av12) + mag(z, av1) + ca * mag(z, av2) + (1 + 2 * ca) * mag(z, z), "R linear");
    // B bilinear: linear in u for fixed v1, and in v for fixed u1.
    expect_zero(FormulaB(p, u12, v1) - FormulaB(p, u1, v1) - k * FormulaB(p, u2, v1),
                mag(au12, av1) + mag(au12, z) + mag(au1, av1) + mag(au1, z) +
                    ca * (mag(au2, av1) + mag(au2, z)) + (2 + 2 * ca) * (mag(z, av1) + mag(z, z)),
                "B linear in u");
    expect_zero(FormulaB(p, u1, v12) - FormulaB(p, u1, v1) - k * FormulaB(p, u1, v2),
                mag(au1, av12) + mag(z, av12) + mag(au1, av1) + mag(z, av1) +
                    ca * (mag(au1, av2) + mag(z, av2)) + (2 + 2 * ca) * (mag(au1, z) + mag(z, z)),
                "B linear in v");
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
    const BiaffinePoly<S> p = PolyOf<S>(in);
    const Mat<S> mix = in[kMix];
    const BiaffinePoly<S> q = Remix<S>(p, mix);
    const Bidegree11<S> d1 = ExpandProductForm<S>(p), d2 = ExpandProductForm<S>(q), d3 = DecomposeByEvaluation<S>(q);

    const In<double> dv(in.value());
    const Mat<double> fa = dv[kF].cwiseAbs(), ga = dv[kG].cwiseAbs(), ma = dv[kMix].cwiseAbs();
    const Mat<double> mi = UnitLowerInverse<double>(dv[kMix]).cwiseAbs();
    const double scale = ((ma.transpose() * fa).transpose() * (mi * ma * mi * ga)).maxCoeff() * (1 + 0x1p-40);
    const double k = static_cast<double>(p.f.rows()), m = static_cast<double>(p.Dim());
    const double bound = 4 * Gamma(4 * k + m + 10, ScalarTraits<S>::UnitRoundoff()) * scale;

    auto diff = [](const Bidegree11<S>& a, const Bidegree11<S>& b) {
      using std::abs;
      S worst = abs(a.d - b.d);
      worst = std::max(worst, S((a.b - b.b).cwiseAbs().maxCoeff()));
      worst = std::max(worst, S((a.l - b.l).cwiseAbs().maxCoeff()));
      worst = std::max(worst, S((a.r - b.r).cwiseAbs().maxCoeff()));
      return worst;
    };
    const S e12 = diff(d1, d2), e13 = diff(d1, d3);
    if constexpr (ScalarTraits<S>::kExact) {
      ExpectThat(e12 == 0, "expansions of two product forms of the same P differ");
      ExpectThat(e13 == 0, "expansion and evaluation-formula decomposition of the same P differ");
    }
    static const Tolerance kCoefficients{
        "max |coefficient difference| between the three decompositions",
        "4 gamma_{4K+m+10} max_entries((|M|^T|F|)^T (|M^-1||M||M^-1||G|))",
        "M^T F and M^-1 G err <= gamma_K |M|^T|F| and gamma_{2K} |M^-1||M||M^-1||G| (triangular inverse, "
        "Higham ASNA ch. 8 and 14); the expansions add gamma_{K+1}; the evaluation route adds 4 evaluations of "
        "<= gamma_{m+K+2} x the same magnitudes"};
    ExpectWithin(kCoefficients, ToDouble(e12), bound);
    ExpectWithin(kCoefficients, ToDouble(e13), bound);
  }
};

ATTNPROP_REGISTER(Bidegree11Decomposition, double, Mpfr, Rational);
ATTNPROP_REGISTER(Bidegree11Uniqueness, double, Mpfr, Rational);

}  // namespace
}  // namespace attnprop
