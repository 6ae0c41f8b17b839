// Attention functions, causal heads and single-head (or multi-head)
// transformers of 000_b045eeb287420cf4.txt, Section 1, on C = R^m.
//
// Attention function (CATALOG.md reconstruction): a(x) = sum_j w_j(x) x_j
// with w = grad(phi) o sigma, phi smooth convex with gradient in the
// simplex, sigma polynomial. Potentials provided (AttentionWeights):
//   kSoftmax     phi = lse,                 w = softmax(s);
//   kTemperedLse phi = tau lse(s / tau),    w = softmax(s / tau);
//   kLogBarrier  phi(s) = max_{p in simplex} <p, s> + kappa sum_j log p_j
//                (conjugate of a Legendre function: smooth, convex), whose
//                gradient p_j = kappa / (lambda - s_j), lambda > max s the
//                root of sum_j p_j = 1 (found by bisection; a genuinely
//                different, heavy-tailed weighting).
// Scores (biaffine, bidegree <= (1,1)): sigma_k(x)_j = P_{k-j}(x_j, x_k) =
//   x_k^T W x_j + g_{k-j}   (a bilinear form plus an offset bias).
// Causal head: A(x) = (x_1, a_2(x_1, x_2), ..., a_l(x_1..x_l)).
// Transformer: T = T_M o T_A, T_A(x)_i = x_i + sum_h V_h A_h(x)_i,
//   T_M(y)_i = y_i + M(y_i).
// Maps M (MapKind): linear y -> M y; scaled tanh y -> c tanh(M y); scaled
// clamp y -> c clamp(M y, -1, 1). Since |tanh z| <= |z| and |clamp z| <= |z|
// entrywise, ||M(y)||_p <= |c| ||M||_p ||y||_p for the l1, l2, linf norms.
#pragma once

#include <Eigen/Eigenvalues>
#include <cmath>
#include <type_traits>
#include <optional>
#include <stdexcept>
#include <vector>

#include "model/eigen_scalar.h"
#include "model/spectral_enclosure.h"
#include "model/softmax.h"

namespace attnprop {

enum class Potential { kSoftmax = 0, kTemperedLse = 1, kLogBarrier = 2 };
enum class MapKind { kLinear = 0, kScaledTanh = 1, kScaledClamp = 2 };
enum class NormKind { kL1 = 0, kL2 = 1, kLinf = 2 };

/// w = grad(phi)(s): a point of the simplex. `param` is tau or kappa (> 0).
template <class S>
Vec<S> AttentionWeights(Potential pot, const Vec<S>& s, const S& param) {
  if (pot == Potential::kSoftmax) return Softmax<S>(s);
  if (pot == Potential::kTemperedLse) return Softmax<S>(Vec<S>(s / param));
  // Log-barrier: f(lambda) = sum kappa/(lambda - s_j) is decreasing on
  // (max s, inf), f(max s + kappa) >= 1 >= f(max s + k kappa).
  const Eigen::Index k = s.size();
  const S top = s.maxCoeff();
  S lo = top + param, hi = top + S(static_cast<double>(k)) * param;
  const int iterations = (std::is_same_v<S, double> ? 53 : MpfrPrecisionBits()) + 8;
  for (int it = 0; it < iterations; ++it) {
    const S mid = (lo + hi) / 2;
    S f = 0;
    for (Eigen::Index j = 0; j < k; ++j) f += param / (mid - s[j]);
    (f > 1 ? lo : hi) = mid;
  }
  Vec<S> p(k);
  S sum = 0;
  for (Eigen::Index j = 0; j < k; ++j) sum += (p[j] = param / (hi - s[j]));
  return p / sum;  // the root is known to the last bits; normalise onto the simplex
}

/// Scores of query position k (0-based) over keys 0..k: x_k^T W x_j + g_{k-j}.
template <class S>
Vec<S> BiaffineScores(const Mat<S>& x, Eigen::Index k, const Mat<S>& w, const Vec<S>& g) {
  Vec<S> s(k + 1);
  const Vec<S> q = w.transpose() * x.row(k).transpose();  // W^T x_k, so s_j = q . x_j
  for (Eigen::Index j = 0; j <= k; ++j) s[j] = x.row(j).dot(q.transpose()) + g[k - j];
  return s;
}

/// The causal head's weight matrix (l x l, lower triangular, rows in the
/// simplex; row 0 = e_0 since A(x)_1 = x_1).
template <class S>
Mat<S> CausalHeadWeights(const Mat<S>& x, const Mat<S>& w, const Vec<S>& g, Potential pot, const S& param) {
  const Eigen::Index l = x.rows();
  Mat<S> omega = Mat<S>::Zero(l, l);
  omega(0, 0) = 1;
  for (Eigen::Index k = 1; k < l; ++k) omega.row(k).head(k + 1) = AttentionWeights<S>(pot, BiaffineScores<S>(x, k, w, g), param).transpose();
  return omega;
}

template <class S>
Vec<S> ApplyMap(MapKind kind, const Mat<S>& m, const S& scale, const Vec<S>& y) {
  using std::tanh;
  Vec<S> z = m * y;
  if (kind == MapKind::kLinear) return z;
  for (Eigen::Index i = 0; i < z.size(); ++i) {
    if (kind == MapKind::kScaledTanh) {
      if constexpr (std::is_same_v<S, Rational>) throw std::domain_error("tanh has no rational values");
      else z[i] = tanh(z[i]);
    } else {
      z[i] = z[i] > 1 ? S(1) : z[i] < -1 ? S(-1) : z[i];
    }
  }
  return scale * z;
}

/// T(x) for heads given by their weight matrices: rows of x are x_1..x_l.
template <class S>
Mat<S> Transformer(const Mat<S>& x, const std::vector<Mat<S>>& omegas, const std::vector<Mat<S>>& values, MapKind kind,
                   const Mat<S>& m, const S& scale) {
  Mat<S> y = x;
  for (size_t h = 0; h < omegas.size(); ++h) y += (omegas[h] * x) * values[h].transpose();  // rows: V_h A_h(x)_i
  Mat<S> out = y;
  for (Eigen::Index i = 0; i < y.rows(); ++i) out.row(i) += ApplyMap<S>(kind, m, scale, Vec<S>(y.row(i).transpose())).transpose();
  return out;
}

/// The exact square root of a rational square (nullopt for a non-square).
inline std::optional<Rational> RationalSqrt(const Rational& c) {
  if (c < 0) return std::nullopt;
  const bmp::mpz_int num = bmp::numerator(c), den = bmp::denominator(c);
  const bmp::mpz_int rn = bmp::sqrt(num), rd = bmp::sqrt(den);
  if (rn * rn != num || rd * rd != den) return std::nullopt;
  return Rational(rn, rd);
}

/// Vector norms on C (l2 for floating scalars only; rationals compare
/// squared l2 norms, VecNormSq).
template <class S>
S VecNormSq(const Vec<S>& v) {
  return v.squaredNorm();
}

template <class S>
S VecNorm(NormKind kind, const Vec<S>& v) {
  if (kind == NormKind::kL1) return v.cwiseAbs().sum();
  if (kind == NormKind::kLinf) return v.size() ? S(v.cwiseAbs().maxCoeff()) : S(0);
  if constexpr (std::is_same_v<S, Rational>) {
    throw std::domain_error("the l2 norm of a rational vector is irrational: compare VecNormSq");
  } else {
    using std::sqrt;
    return sqrt(v.squaredNorm());
  }
}

/// ||x||_inf = max_k ||x_k|| over the rows.
template <class S>
S SeqNorm(NormKind kind, const Mat<S>& x) {
  S m = 0;
  for (Eigen::Index k = 0; k < x.rows(); ++k) {
    const S n = VecNorm<S>(kind, Vec<S>(x.row(k).transpose()));
    if (n > m) m = n;
  }
  return m;
}

/// Operator norms matching VecNorm: max column sum (l1), max row sum (linf),
/// sqrt(lambda_max(A^T A)) (l2). Rationals: l2 only when A^T A = c I with c a
/// rational square (A a rational multiple of an orthogonal matrix); nullopt
/// otherwise.
template <class S>
std::optional<S> OpNorm(NormKind kind, const Mat<S>& a) {
  if (kind == NormKind::kL1) return S(a.cwiseAbs().colwise().sum().maxCoeff());
  if (kind == NormKind::kLinf) return S(a.cwiseAbs().rowwise().sum().maxCoeff());
  const Mat<S> gram = a.transpose() * a;
  if constexpr (std::is_same_v<S, Rational>) {
    const S c = gram(0, 0);
    if (gram != c * Mat<S>::Identity(a.cols(), a.cols())) return std::nullopt;
    return RationalSqrt(c);
  } else if constexpr (std::is_same_v<S, Interval>) {
    return EncloseOperatorTwoNorm(a);  // rigorous (model/spectral_enclosure.h)
  } else {
    using std::sqrt;
    Eigen::SelfAdjointEigenSolver<Mat<S>> es(gram, Eigen::EigenvaluesOnly);
    if (es.info() != Eigen::Success) return std::nullopt;
    const S top = es.eigenvalues().maxCoeff();
    return S(sqrt(top > 0 ? top : S(0)));
  }
}

}  // namespace attnprop
