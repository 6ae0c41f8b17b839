// Test cases of the "Only Large Weights ... Rank Collapse" claims
// (004_fc07a226cef95160.txt): reading the paper's objects from a Case, and
// the case generators several claims share. The maths itself is
// model/collapse.h.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include "generators/regime.h"
#include "generators/scalars.h"
#include "model/collapse.h"
#include "properties/framework/case.h"

namespace attnprop::collapse {

/// One head's weights, read from a Case as <prefix>q, <prefix>k, <prefix>v.
template <class S>
Head<S> GetHead(const Case& c, const std::string& prefix) {
  return {c.GetMat<S>(prefix + "q"), c.GetMat<S>(prefix + "k"), c.GetMat<S>(prefix + "v")};
}

/// a in R^n (n in [1,8]) in every regime (up to 8 at scales 2^-20..2^2),
/// eps in (0, max_eps] at scales 2^-20..2^0, and b = eps r with r in [-1,1]
/// (half the entries +-1: the tight case), exactly (Lemmas 4.2-4.4,
/// Corollary D.3, Lemma D.4); b is handed to each backend rounded, which
/// keeps ||b||_inf <= eps (rounding is monotone and eps is a double).
inline rc::Gen<Case> PerturbedVectorCase(int64_t max_eps) {
  gen::Layout layout;
  const int one = layout.Axis({1, 1, 1}), n = layout.Axis({1, 8, 8});
  gen::Regime ar;
  ar.max_abs = 8, ar.max_scale = 2;
  gen::Regime er;
  er.max_abs = static_cast<double>(max_eps), er.min_scale = -20, er.max_scale = 0, er.nonnegative = true,
  er.structured = false;
  const int a_m = layout.Matrix(one, n, ar), eps_m = layout.Matrix(one, one, er);
  const int r_m = layout.Raw(one, n, rc::gen::oneOf(rc::gen::element(Exact(-1.0), Exact(1.0)), gen::Dyadic(1, 10)));
  return layout.Build<Case>([=](const gen::Layout::Drawn& d) {
    const ExactMatrix r = d.Matrix(r_m);
    const Exact eps = d.Matrix(eps_m)(0, 0);
    ExactMatrix b(1, r.cols);
    for (int64_t j = 0; j < r.cols; ++j) b(0, j) = Exact(gen::RoundToDouble(eps.ToRational() * r(0, j).ToRational()));
    return Case().Matrix("a", d.Matrix(a_m)).Matrix("b", b).Scalar("eps", eps);
  });
}

/// b's entries are within [-bound, bound], exactly; a and b the same length.
inline bool PerturbationWithin(const Case& c, const Rational& bound) {
  const Mat<Rational> a = c.GetMat<Rational>("a"), b = c.GetMat<Rational>("b");
  if (a.rows() != 1 || b.rows() != 1 || a.cols() != b.cols() || a.cols() < 1) return false;
  for (Eigen::Index j = 0; j < b.cols(); ++j)
    if (b(0, j) > bound || -b(0, j) > bound) return false;
  return true;
}

/// Every entry finite with |x| <= bound and, when tiny > 0, either 0 or
/// |x| >= tiny (a computability domain: the bound keeps e^x, products and
/// sums of the encoded check finite in double, tiny keeps products normal
/// where a budget is relative).
inline bool EntriesWithin(const ExactMatrix& m, double bound, double tiny = 0) {
  for (const Exact& x : m.data) {
    const double d = std::abs(x.ToDouble());
    if (!(d <= bound) || (d != 0 && d < tiny)) return false;
  }
  return true;
}

/// A finite scalar with |x| <= bound.
inline bool ScalarWithin(const Exact& x, double bound) { return std::abs(x.ToDouble()) <= bound; }

/// The perturbed-vector cases (PerturbedVectorCase): a and b rows of the same
/// length n >= 1, ||b||_inf <= eps exactly, and the domain where the encoded
/// exp checks are computable in double: |a_i| <= 300 and 0 <= eps <= 300, so
/// e^{a_i+b_i} <= e^600 and the budgets ((1+|a|+|b|) e^{|a|+|b|} e^eps) stay
/// finite (e^709 is double's largest), e^{-600} stays normal.
inline bool PerturbedVectorHolds(const Case& c) {
  const Exact& eps = c.GetScalar("eps");
  if (!ScalarWithin(eps, 300) || !(eps.ToRational() >= 0)) return false;
  if (!EntriesWithin(c.GetMatrix("a"), 300) || !EntriesWithin(c.GetMatrix("b"), 300)) return false;
  return PerturbationWithin(c, eps.ToRational());
}

}  // namespace attnprop::collapse
