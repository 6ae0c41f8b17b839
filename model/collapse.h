// The maths of "Only Large Weights (And Not Skip Connections) Can Prevent the
// Perils of Rank Collapse" (004_fc07a226cef95160.txt), in the paper's
// notation, over any model scalar:
//   softm(A): row-wise softmax (Definition 3.1),
//   softm_W(X) = softm(beta X Wq Wk^T X^T)           (Definition 1.1 / 3.6),
//   softmv(X) = softm_W(X) X Wv                       (Definition A.1),
//   layer: X_{l+1} = X_l + sum_h softmv_h(X_l)        (Definition 3.7),
//   norms entrywise (Section 3.1): ||A||_1 = sum|A_ij|, ||A||_inf = max|A_ij|,
//   g(eps) = 2 (e^eps - 1)                            (Lemma 5.2, Lemma C.1).
// Reading these from test cases lives with the properties
// (properties/collapse/collapse_cases.h).
#pragma once

#include <cmath>
#include <vector>

#include "model/eigen_scalar.h"
#include "model/res.h"
#include "model/softmax.h"

namespace attnprop::collapse {

template <class S>
S EntrywiseL1(const Mat<S>& a) {
  using std::abs;
  S s = 0;
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < a.cols(); ++j) s += abs(a(i, j));
  return s;
}

template <class S>
S MaxNorm(const Mat<S>& a) {
  return a.size() == 0 ? S(0) : EntrywiseMaxNorm<S>(a);
}

template <class S>
S VecMaxNorm(const Vec<S>& v) {
  using std::abs;
  using std::max;
  S m = 0;
  for (Eigen::Index i = 0; i < v.size(); ++i) m = max(m, S(abs(v[i])));
  return m;
}

/// max_i D_ii of Definition 3.5, D_ii = max_{j,l} |E_ij - E_il|: the
/// smallest theta for which E is theta-balanced.
template <class S>
S MaxBalance(const Mat<S>& e) {
  using std::max;
  S worst = 0;
  for (Eigen::Index i = 0; i < e.rows(); ++i) worst = max(worst, S(e.row(i).maxCoeff() - e.row(i).minCoeff()));
  return worst;
}

/// Row-wise softmax (max subtracted).
template <class S>
Mat<S> RowSoftmax(const Mat<S>& a) {
  Mat<S> p(a.rows(), a.cols());
  for (Eigen::Index i = 0; i < a.rows(); ++i) {
    const Vec<S> row = a.row(i).transpose();
    p.row(i) = Softmax<S>(row).transpose();
  }
  return p;
}

/// softm_W(X) = softm(beta X Wq Wk^T X^T).
template <class S>
Mat<S> SoftmW(const Mat<S>& x, const Mat<S>& wq, const Mat<S>& wk, const S& beta) {
  const Mat<S> w = wq * wk.transpose();
  const Mat<S> scores = Mat<S>(beta * (x * w * x.transpose()));
  return RowSoftmax<S>(scores);
}

/// softmv(X) = softm_W(X) X Wv.
template <class S>
Mat<S> Softmv(const Mat<S>& x, const Mat<S>& wq, const Mat<S>& wk, const Mat<S>& wv, const S& beta) {
  return SoftmW<S>(x, wq, wk, beta) * x * wv;
}

/// One head's weights.
template <class S>
struct Head {
  Mat<S> wq, wk, wv;
};

/// X + sum_h softmv_h(X) (beta = 1, Definition 3.7).
template <class S>
Mat<S> Layer(const Mat<S>& x, const std::vector<Head<S>>& heads) {
  Mat<S> out = x;
  for (const Head<S>& h : heads) out += Softmv<S>(x, h.wq, h.wk, h.wv, S(1));
  return out;
}

/// g(eps) = 2 (e^eps - 1) (Lemma 5.2, Lemma C.1).
template <class S>
S G(const S& eps) {
  using std::exp;
  return S(2 * (exp(eps) - 1));
}

}  // namespace attnprop::collapse
