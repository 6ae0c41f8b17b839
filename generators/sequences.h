// Attention problems, token sequences, weight sets, normed value maps,
// Lipschitz maps and score matrices that stress softmax. All are shaped
// generators (shape.h): dimensions keep shrinking after entries shrank, and
// every shrink keeps the promises stated here.
#pragma once

#include <rapidcheck.h>

#include <vector>

#include "generators/matrices.h"
#include "generators/scalars.h"
#include "generators/shape.h"
#include "model/exact.h"

namespace attnprop::gen {

// ---- Attention problems ----

/// One attention problem: batch items of Q (t_q x d_k), K (t_k x d_k),
/// V (t_k x d_v), and scale = fl(1/sqrt(d_k)).
struct AttentionProblem {
  int64_t batch = 0, t_q = 0, t_k = 0, d_k = 0, d_v = 0;
  std::vector<ExactMatrix> q, k, v;  // one per batch item
  Exact scale;
};

/// The shapes and entries of AttentionProblems. With `distinct`, every
/// problem (and every shrink) has t_q != t_k and d_k != d_v, so that a
/// transposed index cannot go unnoticed.
struct AttentionShape {
  DimRange batch{1, 3, 3};
  DimRange t{1, 320, 160};
  DimRange d{1, 160, 100};
  rc::Gen<Exact> entry = Normal(1.0);
  bool distinct = true;
};

/// Default shapes per backend: double up to t = 320, d = 160; MPFR t <= 33,
/// d <= 17; rational t <= 17, d <= 9 (NOTES.md costs).
template <class S>
AttentionShape DefaultAttentionShape() {
  AttentionShape s;
  if constexpr (std::is_same_v<S, Mpfr>) {
    s.t = {1, 33, 33};
    s.d = {1, 17, 17};
  } else if constexpr (ScalarTraits<S>::kExact) {
    s.t = {1, 17, 17};
    s.d = {1, 9, 9};
    s.entry = SimpleDyadic(4, 4);
  }
  return s;
}

rc::Gen<AttentionProblem> AttentionProblems(AttentionShape shape);

// ---- Scores that stress softmax ----

/// The kind of one score row.
enum class ScoreRow { kSpread = 0, kTies = 1, kNearTies = 2, kAllEqual = 3, kDominant = 4 };
inline constexpr int kScoreRowKinds = 5;

/// A rows x cols score matrix; each row is one of: a large spread (entries
/// in [-spread, spread], spread >= 1), exact ties (at least two equal maxima
/// when cols >= 2), near-ties (entries c and its next double up, alternating),
/// all equal, one dominant entry (base + spread at one position, base
/// elsewhere). Row kinds shrink toward kSpread, entries toward 0.
rc::Gen<ExactMatrix> SoftmaxScores(DimRange rows, DimRange cols, double spread = 1e4);
/// The kinds a row satisfies (a row may satisfy several).
std::vector<ScoreRow> ClassifyScoreRow(const std::vector<double>& row, double spread);

// ---- Token sequences and positional vectors ----

/// Tokens 0..T-1 with embeddings (T x d) and positional vectors: learned
/// (T x d, arbitrary), sinusoidal (PE(t, 2i) = sin(t w_i), PE(t, 2i+1) =
/// cos(t w_i), w_i = 10000^{-2i/d}; libm values, within 1 ulp of the real
/// value in glibc 2.36) and RoPE angles (T x d/2, theta(t, i) = t w_i, one
/// rounding of the double product). d is even.
struct TokenSequence {
  ExactMatrix embeddings;
  ExactMatrix learned;
  ExactMatrix sinusoidal;
  ExactMatrix rope_angles;
};
/// `half_d` ranges over d/2.
rc::Gen<TokenSequence> TokenSequences(DimRange t, DimRange half_d, rc::Gen<Exact> entry = Normal(1.0));

// ---- Weight sets ----

/// Per layer l and head h: W_Q, W_K (d_model x d_k) and W_V (d_model x d_v),
/// stored at index l * heads + h; every entry |w| <= eta.
struct WeightSet {
  int64_t layers = 0, heads = 0, d_model = 0, d_k = 0, d_v = 0;
  std::vector<ExactMatrix> w_q, w_k, w_v;
  Exact eta;
};
/// Weight sets with entries eta * x, x a short dyadic in [-1, 1] (so
/// |w| <= eta exactly, also after rounding to double). Single-head,
/// single-layer sets are the shrink target.
rc::Gen<WeightSet> WeightSets(DimRange layers, DimRange heads, DimRange d_model, DimRange d_k, DimRange d_v,
                              Exact eta);

// ---- Maps with known norms and Lipschitz constants ----

/// V = Q D (n x n) with Q orthogonal (Cayley) and D diagonal, |d_i| <= c,
/// one |d_i| = c: the operator 2-norm of V is exactly c (V^T V = D^2).
/// kRoundToDouble: within sqrt(n) u c (|dV|_2 <= |dV|_F <= u |V|_F).
struct NormedMap {
  ExactMatrix v;
  Exact norm;
};
rc::Gen<NormedMap> ValueMapWithNorm(DimRange n, Exact c, Arith arith);

/// M(x) = W x (linear, |W|_2 = L) or M(x) = a tanh(W x) with |W|_2 = 1 and
/// a = L (tanh is 1-Lipschitz per coordinate): Lipschitz constant <= L in
/// the 2-norm. Shrinks toward linear.
struct LipschitzMap {
  enum Kind { kLinear = 0, kScaledTanh = 1 } kind = kLinear;
  ExactMatrix w;
  Exact a;  // 1 for linear
  Exact lipschitz;
};
rc::Gen<LipschitzMap> LipschitzMaps(DimRange n, Exact lipschitz, Arith arith);

/// Evaluates a Lipschitz map in a floating scalar S.
template <class S>
Vec<S> Apply(const LipschitzMap& m, const Vec<S>& x) {
  using std::tanh;
  const Vec<S> y = m.w.As<S>() * x;
  if (m.kind == LipschitzMap::kLinear) return y;
  const S a = m.a.As<S>();
  Vec<S> out(y.size());
  for (Eigen::Index i = 0; i < y.size(); ++i) out[i] = a * S(tanh(y[i]));
  return out;
}

}  // namespace attnprop::gen
