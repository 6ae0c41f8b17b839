// Points of Lambda_m (001_4e20808ed1137a14.txt, "For m >= 1, let Lambda_m
// consist of the unit vectors lambda_1 <= ... <= lambda_2m with
// lambda_m < 0 < lambda_{m+1}") and the functionals on it, as reconstructed
// in shared/claims/CATALOG.md: lambda_+ = (lambda_2m, ..., lambda_{m+1}),
// lambda_- = (-lambda_1, ..., -lambda_m), C = <lambda_+, lambda_->,
// P = 1 - ||lambda_+ - lambda_-||, iota(lambda)_i = -lambda_{2m+1-i}.
//
// Generated exactly: a rational unit vector v in R^{2m} (inverse
// stereographic projection of p drawn in every regime, zero entries avoided), entries
// made positive, the first m negated, then sorted: every point of Lambda_m
// with rational entries is reachable this way. One case in four with m even
// is a fixed point of iota: w in Q^m with ||w||^2 = 1/2 from pairs
// ((v_1 + v_2)/2, (v_1 - v_2)/2, ...) of a unit v in Q^m, lambda = sort(-w, w).
// (For m = 1 no rational fixed point exists: it would need 2 w^2 = 1.)
#pragma once

#include <algorithm>
#include <vector>

#include "generators/regime.h"
#include "generators/scalars.h"
#include "properties/framework/property.h"
#include "properties/profile/profile_checks.h"

namespace attnprop {

/// A unit vector of Q^n with no zero entry, from the dyadic p (>= n-1 entries).
inline Vec<Rational> NonzeroUnitVector(ExactMatrix p, int64_t n) {
  for (int64_t i = 0; i + 1 < n; ++i)
    if (p(0, i).ToRational() == 0) p(0, i) = Exact(Rational(1, 8));
  for (;;) {
    const Vec<Rational> v = RationalUnitVector(p, n, false);
    bool nonzero = true;
    for (int64_t i = 0; i < n; ++i) nonzero = nonzero && v[i] != 0;
    if (nonzero) return v;
    p(0, 0) = Exact(Rational(p(0, 0).ToRational() + Rational(1, 8)));
  }
}

/// lambda in Lambda_m, checked exactly (the stored case's hypothesis).
inline bool InLambda(const Vec<Rational>& lam) {
  const int64_t n = lam.size();
  if (n < 2 || n % 2 != 0) return false;
  for (int64_t i = 0; i + 1 < n; ++i)
    if (lam[i] > lam[i + 1]) return false;
  return lam[n / 2 - 1] < 0 && lam[n / 2] > 0 && lam.squaredNorm() == 1;
}

namespace profile {

/// The axes of a point of Lambda_m: p is 2 x m, lambda 1 x 2m.
constexpr Axis kLambdaPair{"2"}, kLambdaM{"m"}, kLambdaRow{"1"}, kLambdaLen{"2m"};
constexpr MatrixField kLambda{"lambda"};

}  // namespace profile

/// The domain of a point lambda of Lambda_m (a 1 x 2m field "lambda"), m
/// in [1, max_m], drawn as the header says: p (2 x m, flattened to 1 x 2m)
/// in every regime by default (gen::Layout: tiny p gives points near a pole,
/// full-mantissa p long rationals; `p_regime` narrows the scales where a
/// claim says why) and a kind in [0, 3] (0: the fixed point
/// of iota when m is even). The hypothesis: lambda in Lambda_m, exactly;
/// `admit` is where its entries may lie (the claim's computability domain).
/// lambda's length 2m is no drawn axis (a Domain's axes are drawn each on
/// its own, none twice another): kLambdaLen is drawn fixed at 2, indexes no
/// parameter, and admits lambda's lengths in [2, 4 (2 max_m) + 16] (the
/// default cap of an axis drawn up to 2 max_m); m is kLambdaM's, p's
/// columns, so that dropping an index of m drops two entries of lambda.
inline Domain LambdaDomain(int64_t max_m, Admit admit, const gen::Regime& p_regime = gen::Regime{}) {
  using namespace profile;
  Domain d;
  d.Dim(kLambdaPair, {2, 2, 2}).Dim(kLambdaM, {1, max_m, max_m});
  d.Dim(kLambdaRow, {1, 1, 1}, 1).Dim(kLambdaLen, {2, 2, 2}, 4 * (2 * max_m) + 16);
  const int p_m = d.Param(kLambdaPair, kLambdaM, p_regime);
  const int kind_s = d.ScalarParam(gen::UniformInteger(0, 3));
  d.Built(
      kLambda, kLambdaRow, kLambdaLen,
      [p_m, kind_s](const Domain::Drawn& in) {
        const ExactMatrix p2 = in.Param(p_m);
        const int64_t m = p2.cols, n = 2 * m;
        ExactMatrix p(1, n);
        p.data = p2.data;
        const int kind = static_cast<int>(in.ScalarParam(kind_s).ToDouble());
        std::vector<Rational> lam;
        if (kind == 0 && m % 2 == 0) {
          const Vec<Rational> v = NonzeroUnitVector(p, m);
          for (int64_t i = 0; i < m; i += 2) {
            const Rational x = (v[i] + v[i + 1]) / 2, y = (v[i] - v[i + 1]) / 2;
            if (x == 0 || y == 0) break;
            lam.push_back(abs(x)), lam.push_back(-abs(x)), lam.push_back(abs(y)), lam.push_back(-abs(y));
          }
          if (static_cast<int64_t>(lam.size()) != n) lam.clear();
        }
        if (lam.empty()) {
          const Vec<Rational> v = NonzeroUnitVector(p, n);
          for (int64_t i = 0; i < n; ++i) lam.push_back(i < m ? Rational(-abs(v[i])) : Rational(abs(v[i])));
        }
        std::sort(lam.begin(), lam.end());
        ExactMatrix out(1, n);
        for (int64_t i = 0; i < n; ++i) out(0, i) = Exact(lam[static_cast<size_t>(i)]);
        return out;
      },
      admit);
  d.Assume("lambda in Lambda_m (sorted unit vector of length 2m, lambda_m < 0 < lambda_{m+1})",
           [](const Values& v) { return InLambda(Mat<Rational>(v[kLambda].As<Rational>()).row(0).transpose()); });
  return d;
}

/// The claims on Lambda_m (lambda.cc, iota.cc) share their hypotheses and
/// cases: m in [1,5] (MPFR and rationals: [1,4]). entries_lt_1 (lambda.cc)
/// drops the computability condition, series.cc narrows p's scales.
struct LambdaFamily {
  // lambda in Lambda_m (exact); double, MPFR: nonzero entries >= 2^-200
  // and <= 2^200 (ProfileDomain: squares and products of entries stay
  // normal), and every entry rounded to S strictly inside (-1, 1): an entry
  // within half an ulp of -1 rounds to -1, where |lambda_i| < 1 reads false
  // and artanh is infinite (found by the 20-seed sweep: points next to the
  // pole).
  template <class S> static Domain Hypotheses() {
    if constexpr (ScalarTraits<S>::kExact) {
      return LambdaDomain(SizeBudget<S>::Pick(5, 4), Admit::Finite());
    } else {
      Domain d = LambdaDomain(SizeBudget<S>::Pick(5, 4), Admit::Within(0x1p200).NonzeroAtLeast(0x1p-200));
      d.Assume("(computability) every entry of lambda rounded to the backend lies strictly inside (-1, 1)",
               [](const Values& v) {
                 const Mat<S> lam = In<S>(v.value())[profile::kLambda];
                 for (Eigen::Index i = 0; i < lam.size(); ++i)
                   if (!(lam(i) < S(1) && lam(i) > S(-1))) return false;
                 return true;
               });
      return d;
    }
  }
};

template <class S>
Vec<S> GetLambda(const In<S>& in) {
  return in[profile::kLambda].row(0).transpose();
}

template <class S>
Vec<S> LambdaPlus(const Vec<S>& lam) {
  const int64_t m = lam.size() / 2;
  Vec<S> out(m);
  for (int64_t i = 0; i < m; ++i) out[i] = lam[lam.size() - 1 - i];
  return out;
}
template <class S>
Vec<S> LambdaMinus(const Vec<S>& lam) {
  const int64_t m = lam.size() / 2;
  Vec<S> out(m);
  for (int64_t i = 0; i < m; ++i) out[i] = -lam[i];
  return out;
}
template <class S>
Vec<S> Iota(const Vec<S>& lam) {
  const int64_t n = lam.size();
  Vec<S> out(n);
  for (int64_t i = 0; i < n; ++i) out[i] = -lam[n - 1 - i];
  return out;
}
/// The matrix of iota: minus the reversal permutation.
template <class S>
Mat<S> IotaMatrix(int64_t n) {
  Mat<S> r = Mat<S>::Zero(n, n);
  for (int64_t i = 0; i < n; ++i) r(i, n - 1 - i) = -1;
  return r;
}
template <class S>
S Dot(const Vec<S>& x, const Vec<S>& y) {
  S s = 0;
  for (int64_t i = 0; i < x.size(); ++i) s += x[i] * y[i];
  return s;
}
template <class S>
S LambdaC(const Vec<S>& lam) {
  return Dot<S>(LambdaPlus<S>(lam), LambdaMinus<S>(lam));
}
/// ||lambda_+ - lambda_-||^2 = (1 - P)^2 (rationals have no square root).
template <class S>
S OneMinusPSq(const Vec<S>& lam) {
  const Vec<S> d = LambdaPlus<S>(lam) - LambdaMinus<S>(lam);
  return Dot<S>(d, d);
}

}  // namespace attnprop
