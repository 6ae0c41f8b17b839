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
// [1,3] products, coefficients and points in every regime (ProductLayout).
// Backends: double, MPFR, rational (the claim is algebraic: exact in Q).
#include <algorithm>
#include <cmath>

#include "generators/regime.h"
#include "generators/scalars.h"
#include "model/bidegree.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace {

constexpr int64_t kMaxDim = 4;
constexpr int64_t kMaxTerms = 3;

/// The product form's factors F, G (K x (m+1)) in every regime (gen::Layout),
/// on shared axes K and m+1; the claims add their own matrices to it.
struct ProductLayout {
  gen::Layout layout;
  gen::Regime regime;
  int terms = 0, width = 0, four = 0, f = 0, g = 0;
  template <class S>
  static ProductLayout Make() {
    ProductLayout l;
    l.regime = gen::RegimeFor<S>(gen::Regime{});
    l.regime.max_abs = 8;
    l.terms = l.layout.Axis({1, kMaxTerms, kMaxTerms});
    l.width = l.layout.Axis({2, kMaxDim + 1, kMaxDim + 1});
    l.four = l.layout.Axis({4, 4, 4});
    l.f = l.layout.Matrix(l.terms, l.width, l.regime);
    l.g = l.layout.Matrix(l.terms, l.width, l.regime);
    return l;
  }
};

/// m without its last column (points have m coordinates, the factors m+1).
ExactMatrix DropLastColumn(const ExactMatrix& m) {
  ExactMatrix out(m.rows, m.cols - 1);
  for (int64_t i = 0; i < m.rows; ++i)
    for (int64_t j = 0; j + 1 < m.cols; ++j) out(i, j) = m(i, j);
  return out;
}

/// Every entry finite, each 0 or 2^-lo_exp <= |.| <= 2^hi_exp.
bool EntriesIn(const ExactMatrix& m, int hi_exp, int lo_exp) {
  for (const Exact& x : m.data) {
    const double d = std::abs(x.ToDouble());
    if (!(d <= std::ldexp(1.0, hi_exp)) || (d != 0 && d < std::ldexp(1.0, -lo_exp))) return false;
  }
  return true;
}

/// P in product form: F, G both K x (m+1) (K, m >= 1; m <= 64, K <= 8), and
/// the domain of the encoded budgets (absolute, gamma x magnitudes of the
/// product form) in double: entries 0 or 2^-100 <= |.| <= 2^100, so every
/// product of four factors is normal and finite (the generators draw dyadics
/// in [-8, 8], m <= 4, K <= 3).
bool ProductFormHolds(const Case& c) {
  const ExactMatrix &f = c.GetMatrix("F"), &g = c.GetMatrix("G");
  return f.rows == g.rows && f.cols == g.cols && f.rows >= 1 && f.rows <= 8 && f.cols >= 2 && f.cols <= 65 &&
         EntriesIn(f, 100, 100) && EntriesIn(g, 100, 100);
}

template <class S>
BiaffinePoly<S> PolyOf(const Case& c) {
  return {c.GetMat<S>("F"), c.GetMat<S>("G")};
}

/// Upper bound on |each product-form term| summed: sum_k (|f_k|.|u| + |f0_k|)(|g_k|.|v| + |g0_k|),
/// evaluated in double from magnitudes (the standard running-error bound's scale).
double PolyMagnitude(const Mat<double>& f, const Mat<double>& g, const Vec<double>& au, const Vec<double>& av) {
  const BiaffinePoly<double> p{f.cwiseAbs(), g.cwiseAbs()};
  return Evaluate<double>(p, au, av) * (1 + 0x1p-40);  // slack for the magnitude's own rounding
}

struct Bidegree11Decomposition {
  static constexpr const char* kId = "formal.prop.bidegree11_decomposition";

  static inline const Tolerance kResidual{
      "|identity residual| (sum, linearity of L and R, bilinearity of B)",
      "gamma_{m+K+10} x sum over the identity's P-evaluations of |coefficient| x P_abs(point)",
      "one evaluation of the product form errs <= gamma_{m+K+2} P_abs (dot of length m+1, one product, "
      "K-term sum; P_abs = same form on |coefficients|, |point|); a rounded point u1 + c u2 moves P by "
      "<= gamma_2 P_abs(|u1| + |c||u2|); the identity's <= 8 terms add gamma_8 more"};
  static std::vector<Tolerance> Tolerances() { return {kResidual}; }

  // ProductFormHolds; the points u1, u2, v1, v2 rows of length m and c in the
  // same domain (0 or 2^-100 <= |.| <= 2^100).
  static bool HypothesesHold(const Case& c) {
    const ExactMatrix& pts = c.GetMatrix("points");
    ExactMatrix k(1, 1);
    k(0, 0) = c.GetScalar("c");
    return ProductFormHolds(c) && pts.rows == 4 && pts.cols == c.GetMatrix("F").cols - 1 && EntriesIn(pts, 100, 100) &&
           EntriesIn(k, 100, 100);
  }

  template <class S>
  static rc::Gen<Case> Hypotheses() {
    ProductLayout l = ProductLayout::Make<S>();
    const int pts_m = l.layout.Matrix(l.four, l.width, l.regime);  // rows u1, u2, v1, v2 (last column dropped)
    const int c_s = l.layout.Scalar(gen::Dyadic(4, 20));
    return l.layout.Build<Case>([=](const gen::Layout::Drawn& d) {
      return Case()
          .Matrix("F", d.Matrix(l.f))
          .Matrix("G", d.Matrix(l.g))
          .Matrix("points", DropLastColumn(d.Matrix(pts_m)))
          .Scalar("c", d.Scalar(c_s));
    });
  }

  template <class S>
  static void Conclusion(const Case& c) {
    const BiaffinePoly<S> p = PolyOf<S>(c);
    const Mat<S> pts = c.GetMat<S>("points");
    const Vec<S> u1 = pts.row(0).transpose(), u2 = pts.row(1).transpose(), v1 = pts.row(2).transpose(),
                 v2 = pts.row(3).transpose();
    const S k = c.Get<S>("c");
    const Eigen::Index m = p.Dim();
    const double u = ScalarTraits<S>::UnitRoundoff();
    const double g = Gamma(static_cast<double>(m + p.f.rows() + 10), u);

    // Magnitudes (double) for the error bounds.
    const Mat<double> fa = c.GetMat<double>("F"), ga = c.GetMat<double>("G"), pa = c.GetMat<double>("points").cwiseAbs();
    const double ca = std::abs(c.Get<double>("c"));
    const Vec<double> z = Vec<double>::Zero(m), au1 = pa.row(0).transpose(), au2 = pa.row(1).transpose(),
                      av1 = pa.row(2).transpose(), av2 = pa.row(3).transpose();
    const Vec<double> au12 = au1 + ca * au2, av12 = av1 + ca * av2;
    auto mag = [&](const Vec<double>& a, const Vec<double>& b) { return PolyMagnitude(fa, ga, a, b); };
    auto expect_zero = [&](const S& residual, double scale, const char* what) {
      using std::abs;
      if constexpr (ScalarTraits<S>::kExact) ExpectThat(residual == 0, std::string(what) + " fails exactly");
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

struct Bidegree11Uniqueness {
  static constexpr const char* kId = "formal.prop.bidegree11_uniqueness";

  static inline const Tolerance kCoefficients{
      "max |coefficient difference| between the three decompositions",
      "4 gamma_{4K+m+10} max_entries((|M|^T|F|)^T (|M^-1||M||M^-1||G|))",
      "M^T F and M^-1 G err <= gamma_K |M|^T|F| and gamma_{2K} |M^-1||M||M^-1||G| (triangular inverse, "
      "Higham ASNA ch. 8 and 14); the expansions add gamma_{K+1}; the evaluation route adds 4 evaluations of "
      "<= gamma_{m+K+2} x the same magnitudes"};
  static std::vector<Tolerance> Tolerances() { return {kCoefficients}; }

  // ProductFormHolds; M K x K unit lower triangular (the second product form
  // needs M invertible), its entries 0 or 2^-20 <= |.| <= 2^20: M^-1 (<=
  // 2^147 for K <= 8) and the scale stay finite and normal (the generator
  // draws multiples of 2^-20 in [-4, 4]).
  static bool HypothesesHold(const Case& c) {
    const ExactMatrix& mix = c.GetMatrix("M");
    if (!ProductFormHolds(c) || !EntriesIn(mix, 20, 20)) return false;
    if (mix.rows != mix.cols || mix.rows != c.GetMatrix("F").rows) return false;
    for (int64_t i = 0; i < mix.rows; ++i)
      for (int64_t j = i; j < mix.cols; ++j)
        if (!(mix(i, j) == Exact(i == j ? 1.0 : 0.0))) return false;
    return true;
  }

  template <class S>
  static rc::Gen<Case> Hypotheses() {
    ProductLayout l = ProductLayout::Make<S>();
    const int lower_m = l.layout.Matrix(l.terms, l.terms, l.regime);
    return l.layout.Build<Case>([=](const gen::Layout::Drawn& d) {
      const ExactMatrix lower = d.Matrix(lower_m);
      const int64_t k = lower.rows;
      ExactMatrix mix(k, k);
      for (int64_t i = 0; i < k; ++i)
        for (int64_t j = 0; j < k; ++j) mix(i, j) = i == j ? Exact(1.0) : i > j ? lower(i, j) : Exact(0.0);
      return Case().Matrix("F", d.Matrix(l.f)).Matrix("G", d.Matrix(l.g)).Matrix("M", mix);
    });
  }

  template <class S>
  static void Conclusion(const Case& c) {
    const BiaffinePoly<S> p = PolyOf<S>(c);
    const Mat<S> mix = c.GetMat<S>("M");
    const BiaffinePoly<S> q = Remix<S>(p, mix);
    const Bidegree11<S> d1 = ExpandProductForm<S>(p), d2 = ExpandProductForm<S>(q), d3 = DecomposeByEvaluation<S>(q);

    const Mat<double> fa = c.GetMat<double>("F").cwiseAbs(), ga = c.GetMat<double>("G").cwiseAbs(),
                      ma = c.GetMat<double>("M").cwiseAbs();
    const Mat<double> mi = UnitLowerInverse<double>(c.GetMat<double>("M")).cwiseAbs();
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
    ExpectWithin(kCoefficients, ToDouble(e12), bound);
    ExpectWithin(kCoefficients, ToDouble(e13), bound);
  }
};

ATTNPROP_REGISTER(Bidegree11Decomposition, double, Mpfr, Rational);
ATTNPROP_REGISTER(Bidegree11Uniqueness, double, Mpfr, Rational);

}  // namespace
}  // namespace attnprop
