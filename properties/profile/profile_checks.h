// Shared pieces of the profile properties (001_4e20808ed1137a14.txt): a
// computed profile with its measured eigenvalue error, the error bound of its
// coordinates, and small exact generators.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "model/exact.h"
#include "model/profile.h"
#include "properties/framework/check.h"
#include "properties/framework/hypotheses_checks.h"

namespace attnprop {

/// pi(L) in a floating backend S with what its bound needs: `eig_shift`
/// bounds every computed eigenvalue of S = sym(L)'s distance from the exact
/// eigenvalue of the same rank of sym(L) (L as stored in S), relative to
/// ||L||_F. It is measured, never assumed: the solver's eigenvalues of the
/// computed S against rigorous enclosures (RelativeEigenvalueError,
/// model/spectral_enclosure.h), plus u for forming S (each entry rounded
/// once; Weyl: ||S_computed - sym(L)||_2 <= u ||sym(L)||_F <= u ||L||_F).
template <class S>
struct MeasuredProfile {
  ProfileValue<S> value;
  double eig_shift = 0;
};

template <class S>
  requires(!ScalarTraits<S>::kExact)
std::optional<MeasuredProfile<S>> ProfileMeasured(const Mat<S>& l) {
  const Mat<S> s = SymmetricPart<S>(l);
  const auto eig = SymmetricEigenvalues<S>(s);
  if (!eig) return std::nullopt;
  // Interval: the eigenvalues are enclosures already (no shift).
  if constexpr (std::is_same_v<S, Interval>) {
    return MeasuredProfile<S>{ProfileFromSpectrum<S>(l, *eig), 0};
  } else {
    // ||S||_F <= ||L||_F: the shift relative to ||S|| is one relative to ||L||.
    return MeasuredProfile<S>{ProfileFromSpectrum<S>(l, *eig),
                              RelativeEigenvalueError(s, *eig) + ScalarTraits<S>::UnitRoundoff()};
  }
}

/// Bound on |computed - exact| for each coordinate of pi(L), L != 0.
/// eig_shift: ProfileMeasured's measured eigenvalue error (relative to ||L||);
/// input_rel: relative Frobenius perturbation already in the input (u when a
/// rational L was rounded to the backend, 0 when the input is exact).
/// Derivation: eta = eig_shift + input_rel bounds every sorted eigenvalue's
/// shift from those of the exact L, relative to ||L|| (Weyl; ||sym(dL)||_2 <=
/// ||dL||_F); alpha_i, beta_i are 1-Lipschitz in the sorted spectrum, so
/// 2<alpha,beta>, ||(alpha-beta)_+-||^2 move by <= 4 sqrt(N) eta ||L||^2 +
/// 4 N eta^2 ||L||^2 (Cauchy-Schwarz with sum(alpha_i + beta_i) <= sqrt(2N)
/// ||S||); a and the denominators move by <= 3 input_rel; the sums of N^2
/// squares, N products and divisions add gamma_{N^2 + 2N + 8}.
inline double ProfileCoordinateBound(int64_t n, double u, double eig_shift, double input_rel) {
  const double eta = eig_shift + input_rel;
  const double nd = static_cast<double>(n);
  return 4 * std::sqrt(nd) * eta + 4 * nd * eta * eta + 3 * input_rel + Gamma(nd * nd + 2 * nd + 8, u);
}

/// The numeric domain of a profile claim's inputs in backend S: rationals
/// need only finite entries (exact arithmetic); double and MPFR need every
/// nonzero |entry| in [1/limit, limit], so that the products the checks form
/// (squares, Frobenius sums, the eigen-solver's rotations; powers for the
/// traces) stay in double's normal range, where the relative rounding model
/// of the tolerances (gamma_n) holds.
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
