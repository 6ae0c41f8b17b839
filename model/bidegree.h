// Polynomials P: C x C -> R of bidegree at most (1,1), C = R^m
// (000_b045eeb287420cf4.txt, Section 1, the bidegree lemma).
//
// A polynomial of bidegree <= (1,1) is a sum of products of an affine
// function of u and an affine function of v (the document's own argument);
// the model keeps it in that PRODUCT FORM,
//   P(u, v) = sum_k F_k(u) G_k(v),  F_k(u) = f_k . u + f0_k,  G_k(v) = g_k . v + g0_k,
// stored as K x (m+1) matrices F = [f_k | f0_k], G = [g_k | g0_k]. This form
// does not presuppose the decomposition P = B + L(u) + R(v) + D whose
// existence and uniqueness the lemma states.
//
// A decomposition of the stated shape is Bidegree11{b, l, r, d}:
//   B(u,v) = u^T b v (bilinear), L(u) = l . u, R(v) = r . v (linear), D = d.
// Two independent routes produce one from a product form:
//   ExpandProductForm   symbolic expansion of the products;
//   DecomposeByEvaluation the lemma's four formulas evaluated at basis points:
//     D = P(0,0), L(u) = P(u,0) - P(0,0), R(v) = P(0,v) - P(0,0),
//     B(u,v) = P(u,v) - P(u,0) - P(0,v) + P(0,0).
#pragma once

#include "model/eigen_scalar.h"

namespace attnprop {

template <class S>
struct BiaffinePoly {
  Mat<S> f;  // K x (m+1): row k = (f_k, f0_k)
  Mat<S> g;  // K x (m+1): row k = (g_k, g0_k)
  Eigen::Index Dim() const { return f.cols() - 1; }
};

/// An affine function (a, a0) at x: a . x + a0.
template <class S>
S AffineAt(const Mat<S>& coeffs, Eigen::Index k, const Vec<S>& x) {
  S s = coeffs(k, coeffs.cols() - 1);
  for (Eigen::Index i = 0; i < x.size(); ++i) s += coeffs(k, i) * x[i];
  return s;
}

/// P(u, v) from the product form.
template <class S>
S Evaluate(const BiaffinePoly<S>& p, const Vec<S>& u, const Vec<S>& v) {
  S s = 0;
  for (Eigen::Index k = 0; k < p.f.rows(); ++k) s += AffineAt<S>(p.f, k, u) * AffineAt<S>(p.g, k, v);
  return s;
}

/// The lemma's four evaluation formulas.
template <class S>
S FormulaD(const BiaffinePoly<S>& p) {
  const Vec<S> z = Vec<S>::Zero(p.Dim());
  return Evaluate(p, z, z);
}
template <class S>
S FormulaL(const BiaffinePoly<S>& p, const Vec<S>& u) {
  const Vec<S> z = Vec<S>::Zero(p.Dim());
  return Evaluate(p, u, z) - Evaluate(p, z, z);
}
template <class S>
S FormulaR(const BiaffinePoly<S>& p, const Vec<S>& v) {
  const Vec<S> z = Vec<S>::Zero(p.Dim());
  return Evaluate(p, z, v) - Evaluate(p, z, z);
}
template <class S>
S FormulaB(const BiaffinePoly<S>& p, const Vec<S>& u, const Vec<S>& v) {
  const Vec<S> z = Vec<S>::Zero(p.Dim());
  return Evaluate(p, u, v) - Evaluate(p, u, z) - Evaluate(p, z, v) + Evaluate(p, z, z);
}

template <class S>
struct Bidegree11 {
  Mat<S> b;  // m x m
  Vec<S> l;  // m
  Vec<S> r;  // m
  S d;
};

/// Symbolic expansion: b = sum f_k g_k^T, l = sum g0_k f_k, r = sum f0_k g_k,
/// d = sum f0_k g0_k.
template <class S>
Bidegree11<S> ExpandProductForm(const BiaffinePoly<S>& p) {
  const Eigen::Index m = p.Dim();
  Bidegree11<S> out{Mat<S>::Zero(m, m), Vec<S>::Zero(m), Vec<S>::Zero(m), S(0)};
  for (Eigen::Index k = 0; k < p.f.rows(); ++k) {
    const S f0 = p.f(k, m), g0 = p.g(k, m);
    for (Eigen::Index i = 0; i < m; ++i) {
      for (Eigen::Index j = 0; j < m; ++j) out.b(i, j) += p.f(k, i) * p.g(k, j);
      out.l[i] += g0 * p.f(k, i);
      out.r[i] += f0 * p.g(k, i);
    }
    out.d += f0 * g0;
  }
  return out;
}

/// The lemma's formulas at the basis vectors e_i (coefficients of B, L, R).
template <class S>
Bidegree11<S> DecomposeByEvaluation(const BiaffinePoly<S>& p) {
  const Eigen::Index m = p.Dim();
  Bidegree11<S> out{Mat<S>(m, m), Vec<S>(m), Vec<S>(m), FormulaD(p)};
  for (Eigen::Index i = 0; i < m; ++i) {
    const Vec<S> ei = Vec<S>::Unit(m, i);
    out.l[i] = FormulaL(p, ei);
    out.r[i] = FormulaR(p, ei);
    for (Eigen::Index j = 0; j < m; ++j) out.b(i, j) = FormulaB(p, ei, Vec<S>(Vec<S>::Unit(m, j)));
  }
  return out;
}

/// Inverse of a unit lower-triangular matrix by forward substitution.
template <class S>
Mat<S> UnitLowerInverse(const Mat<S>& m) {
  const Eigen::Index n = m.rows();
  Mat<S> inv = Mat<S>::Identity(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < i; ++j) {
      S s = 0;
      for (Eigen::Index k = j; k < i; ++k) s += m(i, k) * inv(k, j);
      inv(i, j) = -s;
    }
  return inv;
}

/// The same polynomial in another product form: F' = M^T F, G' = M^{-1} G
/// for unit lower-triangular M (sum_k F'_k G'_k = F^T M M^{-1} G = F^T G).
template <class S>
BiaffinePoly<S> Remix(const BiaffinePoly<S>& p, const Mat<S>& mix) {
  return {Mat<S>(mix.transpose() * p.f), Mat<S>(UnitLowerInverse<S>(mix) * p.g)};
}

}  // namespace attnprop
