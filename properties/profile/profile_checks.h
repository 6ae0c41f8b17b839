// Shared pieces of the profile properties (001_4e20808ed1137a14.txt): the
// error bound of a computed profile coordinate, and small exact generators.
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "model/exact.h"
#include "model/profile.h"
#include "properties/framework/check.h"
#include "properties/framework/hypotheses_checks.h"

namespace attnprop {

/// p(N): backward-error constant of the symmetric eigen-solver: the computed
/// eigenvalues are exact for S + E with ||E||_2 <= p(N) u ||S||_2 (Householder
/// tridiagonalisation, N-2 reflections of error gamma_{cN} each, then implicit
/// QR, O(N) sweeps of N-1 rotations of O(u) error each: O(N^2) u). The
/// constant 4 is a choice, kept honest by the audit's LOOSE flag.
inline double EigenBackwardConstant(int64_t n) { return 4.0 * static_cast<double>(n * n) + 8; }

/// Bound on |computed - exact| for each coordinate of pi(L), L != 0.
/// input_rel: relative Frobenius perturbation already in the input (u when a
/// rational L was rounded to the backend, 0 when the input is exact).
/// Derivation: eta = p(N) u + input_rel bounds every sorted eigenvalue's shift
/// relative to ||L|| (Weyl; ||sym(dL)||_2 <= ||dL||_F); alpha_i, beta_i are
/// 1-Lipschitz in the sorted spectrum, so 2<alpha,beta>, ||(alpha-beta)_+-||^2
/// move by <= 4 sqrt(N) eta ||L||^2 + 4 N eta^2 ||L||^2 (Cauchy-Schwarz with
/// sum(alpha_i + beta_i) <= sqrt(2N) ||S||); a and the denominators move by
/// <= 3 input_rel; the sums of N^2 squares, N products and divisions add
/// gamma_{N^2 + 2N + 8}.
inline double ProfileCoordinateBound(int64_t n, double u, double input_rel) {
  const double eta = EigenBackwardConstant(n) * u + input_rel;
  const double nd = static_cast<double>(n);
  return 4 * std::sqrt(nd) * eta + 4 * nd * eta * eta + 3 * input_rel + Gamma(nd * nd + 2 * nd + 8, u);
}

/// The numeric domain of a profile claim's inputs in backend S: rationals
/// need only finite entries (exact arithmetic); double and MPFR need every
/// nonzero |entry| in [1/limit, limit], so that the products the checks form
/// (squares, Frobenius sums, the eigen-solver's rotations; powers for the
/// traces) stay in double's normal range, where the relative rounding model
/// of the tolerances (gamma_n, the eigen-solver's backward error) holds.
template <class S>
bool ProfileDomain(const ExactMatrix& m, double limit) {
  if constexpr (ScalarTraits<S>::kExact) {
    return hyp::AllFinite(m);
  } else {
    return hyp::InRange(m, 1 / limit, limit);
  }
}

/// A rational unit vector in R^n (inverse stereographic projection of p in
/// Q^{n-1}): (2p, |p|^2 - 1)/(|p|^2 + 1); for n = 1, (sign).
inline Vec<Rational> RationalUnitVector(const ExactMatrix& p, int64_t n, bool negate) {
  if (p.rows < 1 || p.cols + 1 < n) throw std::invalid_argument("RationalUnitVector: p has fewer than n-1 entries");
  Vec<Rational> v(n);
  if (n == 1) {
    v[0] = negate ? -1 : 1;
    return v;
  }
  Rational sq = 0;
  for (int64_t i = 0; i + 1 < n; ++i) sq += p(0, i).ToRational() * p(0, i).ToRational();
  for (int64_t i = 0; i + 1 < n; ++i) v[i] = 2 * p(0, i).ToRational() / (sq + 1);
  v[n - 1] = (sq - 1) / (sq + 1);
  if (negate) v = -v;
  return v;
}

template <class S>
std::string ProfileText(const ProfileValue<S>& p) {
  auto t = [](const S& x) {
    if constexpr (std::is_same_v<S, Rational>) return x.str();
    else return std::to_string(ToDouble(x));
  };
  return "(" + t(p.a) + ", " + t(p.b) + ", " + t(p.c) + ", " + t(p.d) + ")";
}

}  // namespace attnprop
