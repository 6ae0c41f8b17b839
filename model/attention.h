// Scaled dot-product attention, the reference the properties and kernels are
// checked against. For Q (t_q x d_k), K (t_k x d_k), V (t_k x d_v), scale c:
//   s_ij = c <q_i, k_j>  for each key j visible to query i,
//   lse_i = log sum_{j visible} exp(s_ij),
//   A_ij = exp(s_ij - lse_i) (0 where j is not visible),
//   out_i = sum_j A_ij v_j.
// A row with no visible key has out_i = 0, A_i. = 0 and lse_i = -inf.
#pragma once

#include <cmath>
#include <stdexcept>

#include "model/eigen_scalar.h"
#include "model/softmax.h"

namespace attnprop {

/// Which keys each query sees.
struct Mask {
  enum class Kind { kNone, kCausal, kExplicit };
  Kind kind = Kind::kNone;
  BoolMat visible;  // t_q x t_k, used when kind == kExplicit

  static Mask None() { return {}; }
  /// Key j visible to query i iff j <= i + (t_k - t_q): queries are the last
  /// t_q positions of a sequence of t_k (the KV-cache alignment).
  static Mask Causal() { return {Kind::kCausal, {}}; }
  static Mask Explicit(BoolMat m) { return {Kind::kExplicit, std::move(m)}; }

  bool Visible(Eigen::Index i, Eigen::Index j, Eigen::Index t_q, Eigen::Index t_k) const {
    switch (kind) {
      case Kind::kNone: return true;
      case Kind::kCausal: return j <= i + (t_k - t_q);
      case Kind::kExplicit: return visible(i, j);
    }
    return false;
  }
};

template <class S>
struct AttentionResult {
  Mat<S> out;      // t_q x d_v
  Mat<S> weights;  // t_q x t_k
  Vec<S> lse;      // t_q
};

/// The scores c Q K^T, with -inf where the mask hides a key.
template <class S>
Mat<S> MaskedScores(const Mat<S>& q, const Mat<S>& k, const S& scale, const Mask& mask) {
  const Eigen::Index t_q = q.rows(), t_k = k.rows();
  if (q.cols() != k.cols()) throw std::invalid_argument("attention: Q and K widths differ");
  if (mask.kind == Mask::Kind::kExplicit && (mask.visible.rows() != t_q || mask.visible.cols() != t_k))
    throw std::invalid_argument("attention: explicit mask is not t_q x t_k");
  Mat<S> s(t_q, t_k);
  for (Eigen::Index i = 0; i < t_q; ++i) {
    for (Eigen::Index j = 0; j < t_k; ++j) {
      if (!mask.Visible(i, j, t_q, t_k)) {
        s(i, j) = -Infinity<S>();
        continue;
      }
      S dot = 0;  // sequential sum: the order the error bounds assume
      for (Eigen::Index l = 0; l < q.cols(); ++l) dot += q(i, l) * k(j, l);
      s(i, j) = scale * dot;
    }
  }
  return s;
}

template <class S>
AttentionResult<S> Attention(const Mat<S>& q, const Mat<S>& k, const Mat<S>& v, const S& scale,
                             const Mask& mask = Mask::None()) {
  if (k.rows() != v.rows()) throw std::invalid_argument("attention: K and V lengths differ");
  const Mat<S> s = MaskedScores(q, k, scale, mask);
  AttentionResult<S> r;
  r.weights = Mat<S>::Zero(q.rows(), k.rows());
  r.out = Mat<S>::Zero(q.rows(), v.cols());
  r.lse = Vec<S>(q.rows());
  for (Eigen::Index i = 0; i < q.rows(); ++i) {
    const Vec<S> row = s.row(i).transpose();
    r.lse[i] = LogSumExp(row);
    r.weights.row(i) = Softmax(row).transpose();
    for (Eigen::Index j = 0; j < k.rows(); ++j) {
      if (CertainlyZero(r.weights(i, j))) continue;  // skipping only a certain 0 is sound
      for (Eigen::Index c = 0; c < v.cols(); ++c) r.out(i, c) += r.weights(i, j) * v(j, c);
    }
  }
  return r;
}

}  // namespace attnprop
