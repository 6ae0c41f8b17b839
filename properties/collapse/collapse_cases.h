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
#include "properties/framework/domain.h"

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
constexpr Axis kUnit{"1"}, kLen{"n"};
constexpr MatrixField kA{"a"}, kB{"b"};
constexpr ScalarField kEps{"eps"};

/// The perturbed-vector domain: a and b rows of one length n >= 1 and eps,
/// drawn as above, in the domain where the encoded exp checks are
/// computable in double: |a_i|, |b_i| <= 300 and 0 <= eps <= 300, so
/// e^{a_i+b_i} <= e^600 and e^eps stay finite (e^709 is double's largest)
/// and e^{-600} normal. A lemma adds its own hypothesis on b (BWithin).
inline Domain PerturbedVector(int64_t max_eps) {
  gen::Regime ar;
  ar.max_abs = 8, ar.max_scale = 2;
  gen::Regime er;
  er.max_abs = static_cast<double>(max_eps), er.min_scale = -20, er.max_scale = 0, er.nonnegative = true,
  er.structured = false;
  Domain d;
  d.Dim(kUnit, {1, 1, 1}, 1).Dim(kLen, {1, 8, 8});
  d.Matrix(kA, kUnit, kLen, ar, Admit::Within(300));
  const int eps = d.Param(kUnit, kUnit, er);
  const int r = d.Param(kUnit, kLen, rc::gen::oneOf(rc::gen::element(Exact(-1.0), Exact(1.0)), gen::Dyadic(1, 10)));
  d.Built(
      kB, kUnit, kLen,
      [eps, r](const Domain::Drawn& in) {
        const Rational e = in.Param(eps)(0, 0).ToRational();
        ExactMatrix b = in.Param(r);
        for (Exact& x : b.data) x = Exact(gen::RoundToDouble(e * x.ToRational()));
        return b;
      },
      Admit::Within(300));
  d.Built(kEps, [eps](const Domain::Drawn& in) { return in.Param(eps)(0, 0); }, Admit::Within(300).Nonnegative());
  return d;
}

/// A claim's aligned family (a third of its cases): a scalar parameter of
/// the domain, read with InAlignedFamily. Where a proof's max-norm step (the
/// false Fact 3.3 (2)) loses its factor d, random entries rarely show it;
/// the aligned family (rows at +-c 1, weights proportional to J or I) does.
inline int AlignedFamily(Domain& d) { return d.ScalarParam(rc::gen::element(Exact(0.0), Exact(0.0), Exact(1.0))); }
inline bool InAlignedFamily(const Domain::Drawn& in, int family) { return in.ScalarParam(family).ToDouble() != 0; }

/// Field f: the parameter `drawn` as drawn, or in the aligned family its
/// rows at +-1 (each the sign of the drawn row's first entry).
inline void RowsAtSignsWhenAligned(Domain& d, MatrixField f, Axis rows, Axis cols, int drawn, int family,
                                   Admit admit) {
  d.Built(
      f, rows, cols,
      [drawn, family](const Domain::Drawn& in) {
        ExactMatrix x = in.Param(drawn);
        if (!InAlignedFamily(in, family)) return x;
        const ExactMatrix first = x;
        for (int64_t i = 0; i < x.rows; ++i)
          for (int64_t j = 0; j < x.cols; ++j) x(i, j) = Exact(first(i, 0).ToDouble() < 0 ? -1.0 : 1.0);
        return x;
      },
      admit);
}

/// ||b||_inf <= bound, exactly.
inline bool BWithin(const Values& v, const Rational& bound) {
  for (const Exact& x : v[kB].data)
    if (x.ToRational() > bound || -x.ToRational() > bound) return false;
  return true;
}

/// The lemmas' hypothesis ||b||_inf <= eps (Lemmas 4.2-4.4).
inline Domain PerturbedWithinEps(int64_t max_eps) {
  Domain d = PerturbedVector(max_eps);
  d.Assume("||b||_inf <= eps", [](const Values& v) { return BWithin(v, v[kEps].ToRational()); });
  return d;
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

}  // namespace attnprop::collapse
