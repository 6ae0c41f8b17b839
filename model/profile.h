// The profile pi(L) = (a, b, c, d) of a matrix L in M_N(R)
// (001_4e20808ed1137a14.txt; reconstruction in shared/claims/CATALOG.md):
//   S = (L + L^T)/2, T = (L - L^T)/2, norms Frobenius;
//   alpha, beta: the decreasing positive eigenvalues of S and the decreasing
//   absolute values of its negative eigenvalues, zero-padded to length N;
//   a = ||T||^2/||L||^2,             b = 2<alpha, beta>/||L||^2,
//   c = ||(alpha - beta)_+||^2/||L||^2, d = ||(alpha - beta)_-||^2/||L||^2.
//
// Three routes to the spectrum of S:
//   floating (double, MPFR): Eigen's SelfAdjointEigenSolver (MPFR through the
//     full NumTraits of model/eigen_scalar.h);
//   exact, rank(S) <= 2 (every rank-one L): a closed form from tr S, ||S||^2
//     and the product of the two possibly nonzero eigenvalues (no roots taken);
//   exact, certified: a candidate rational spectrum is accepted only if every
//     distinct value mu of multiplicity m has rank(S - mu I) = N - m exactly
//     and the multiplicities add up to N (S is symmetric, so this is its
//     whole spectrum).
#pragma once

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <algorithm>
#include <functional>
#include <optional>
#include <vector>

#include "model/eigen_scalar.h"
#include "model/spectral_enclosure.h"

namespace attnprop {

template <class S>
struct ProfileValue {
  S a, b, c, d;
};

template <class S>
Mat<S> SymmetricPart(const Mat<S>& l) {
  return (l + l.transpose()) / S(2);
}
template <class S>
Mat<S> AntisymmetricPart(const Mat<S>& l) {
  return (l - l.transpose()) / S(2);
}
template <class S>
S FrobeniusSq(const Mat<S>& m) {
  S s = 0;
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) s += m(i, j) * m(i, j);
  return s;
}

/// pi(L) from its parts: `eig` the eigenvalues of S = sym(L) in any order
/// (at most N of them, N = L's size; the others are 0), norm_sq = ||L||^2 > 0
/// and antisym_sq = ||T||^2.
template <class S>
ProfileValue<S> ProfileFromParts(const std::vector<S>& eig, Eigen::Index n, const S& norm_sq, const S& antisym_sq) {
  if constexpr (std::is_same_v<S, Interval>) {
    // Enclosures, branch-free: alpha_i = max(e_i, 0), beta_i = max(-e_i, 0),
    // each padded list sorted by order statistics (a zero eigenvalue's
    // enclosure straddles 0: no comparison with it could decide), and
    // (alpha - beta)_+- = max(+-(alpha - beta), 0). The enclosures lose the
    // correlation between alpha_i and beta_i, never a value.
    std::vector<Interval> alpha(static_cast<size_t>(n), Interval(0)), beta(static_cast<size_t>(n), Interval(0));
    for (size_t i = 0; i < eig.size(); ++i) {
      alpha[i] = max(eig[i], Interval(0));
      beta[i] = max(Interval(-eig[i]), Interval(0));
    }
    const Vec<Interval> a_up = EncloseOrderStatistics(alpha), b_up = EncloseOrderStatistics(beta);
    Interval b = 0, c = 0, d = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
      const Interval ai = a_up[n - 1 - i], bi = b_up[n - 1 - i];  // decreasing
      b += ai * bi;
      const Interval diff = ai - bi;
      c += sqr(max(diff, Interval(0)));
      d += sqr(max(Interval(-diff), Interval(0)));
    }
    return {antisym_sq / norm_sq, 2 * b / norm_sq, c / norm_sq, d / norm_sq};
  }
  std::vector<S> alpha, beta;
  alpha.reserve(static_cast<size_t>(n)), beta.reserve(static_cast<size_t>(n));
  for (const S& e : eig) {
    if (e > 0) alpha.push_back(e);
    if (e < 0) beta.push_back(S(-e));
  }
  std::sort(alpha.begin(), alpha.end(), std::greater<S>());
  std::sort(beta.begin(), beta.end(), std::greater<S>());
  alpha.resize(static_cast<size_t>(n), S(0));
  beta.resize(static_cast<size_t>(n), S(0));
  S b = 0, c = 0, d = 0;
  for (size_t i = 0; i < alpha.size(); ++i) {
    b += alpha[i] * beta[i];
    const S diff = alpha[i] - beta[i];
    if (diff > 0) c += diff * diff;
    if (diff < 0) d += diff * diff;
  }
  return {antisym_sq / norm_sq, 2 * b / norm_sq, c / norm_sq, d / norm_sq};
}

/// pi(L) given the eigenvalues of S = sym(L), in any order (L != 0).
template <class S>
ProfileValue<S> ProfileFromSpectrum(const Mat<S>& l, const Vec<S>& eig) {
  return ProfileFromParts<S>(std::vector<S>(eig.data(), eig.data() + eig.size()), l.rows(), FrobeniusSq<S>(l),
                             FrobeniusSq<S>(AntisymmetricPart<S>(l)));
}

/// pi(S) of a symmetric N x N matrix S != 0 given its whole spectrum (N
/// values with multiplicity, zeros included): a = ||T||^2/||S||^2 = 0 and
/// ||S||^2 = sum of the squared eigenvalues. For matrices too large to form.
template <class S>
ProfileValue<S> SymmetricProfileFromSpectrum(const std::vector<S>& eig) {
  S norm_sq = 0;
  for (const S& e : eig) norm_sq += e * e;
  return ProfileFromParts<S>(eig, static_cast<Eigen::Index>(eig.size()), norm_sq, S(0));
}

/// pi(L) through the eigen-solver (double, MPFR).
template <class S>
std::optional<ProfileValue<S>> Profile(const Mat<S>& l) {
  const auto eig = SymmetricEigenvalues<S>(SymmetricPart<S>(l));
  if (!eig) return std::nullopt;
  return ProfileFromSpectrum<S>(l, *eig);
}

/// Exact pi(L) when rank(S) <= 2 (nullopt otherwise). With mu1, mu2 the two
/// possibly nonzero eigenvalues: p = mu1 + mu2 = tr S, q = mu1^2 + mu2^2 =
/// ||S||^2, e = mu1 mu2 = (p^2 - q)/2. If e < 0 the signs differ: alpha_1 =
/// mu+, beta_1 = -mu-, so b||L||^2 = -2e and alpha_1 - beta_1 = p. If e >= 0
/// they share a sign (or vanish): all of ||S||^2 goes to c (p > 0) or d (p < 0).
inline std::optional<ProfileValue<Rational>> ProfileRankTwoExact(const Mat<Rational>& l) {
  const Mat<Rational> s = SymmetricPart<Rational>(l);
  Eigen::FullPivLU<Mat<Rational>> lu(s);
  if (lu.rank() > 2) return std::nullopt;
  const Rational norm_sq = FrobeniusSq<Rational>(l);
  const Rational p = s.trace(), q = FrobeniusSq<Rational>(s);
  const Rational e = (p * p - q) / 2;
  ProfileValue<Rational> out{FrobeniusSq<Rational>(AntisymmetricPart<Rational>(l)) / norm_sq, 0, 0, 0};
  if (e < 0) {
    out.b = -2 * e / norm_sq;
    if (p > 0) out.c = p * p / norm_sq;
    if (p < 0) out.d = p * p / norm_sq;
  } else if (p > 0) {
    out.c = q / norm_sq;
  } else if (p < 0) {
    out.d = q / norm_sq;
  }
  return out;
}

/// True iff `candidates` (with repetition) is exactly the spectrum of the
/// symmetric rational matrix s (see the header).
inline bool CertifySpectrum(const Mat<Rational>& s, const Vec<Rational>& candidates) {
  const Eigen::Index n = s.rows();
  if (candidates.size() != n) return false;
  std::vector<Rational> values(candidates.data(), candidates.data() + n);
  std::sort(values.begin(), values.end());
  for (size_t i = 0; i < values.size();) {
    size_t j = i;
    while (j < values.size() && values[j] == values[i]) ++j;
    const Mat<Rational> shifted = s - values[i] * Mat<Rational>::Identity(n, n);
    Eigen::FullPivLU<Mat<Rational>> lu(shifted);
    if (lu.rank() != n - static_cast<Eigen::Index>(j - i)) return false;
    i = j;
  }
  return true;
}

}  // namespace attnprop
