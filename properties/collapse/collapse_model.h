// Shared model pieces for the "Only Large Weights ... Rank Collapse" claims
// (004_fc07a226cef95160.txt), in the paper's notation:
//   softm(A): row-wise softmax (Definition 3.1),
//   softm_W(X) = softm(beta X Wq Wk^T X^T)           (Definition 1.1 / 3.6),
//   softmv(X) = softm_W(X) X Wv                       (Definition A.1),
//   layer: X_{l+1} = X_l + sum_h softmv_h(X_l)        (Definition 3.7),
//   norms entrywise (Section 3.1): ||A||_1 = sum|A_ij|, ||A||_inf = max|A_ij|.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "generators/claims_shapes.h"
#include "generators/scalars.h"
#include "model/eigen_scalar.h"
#include "model/res.h"
#include "model/softmax.h"
#include "properties/framework/case.h"

namespace attnprop::collapse {

template <class S>
S EntrywiseL1(const Mat<S>& a) {
  S s = 0;
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < a.cols(); ++j) s += a(i, j) < 0 ? S(-a(i, j)) : a(i, j);
  return s;
}

template <class S>
S MaxNorm(const Mat<S>& a) {
  return a.size() == 0 ? S(0) : EntrywiseMaxNorm<S>(a);
}

template <class S>
S VecMaxNorm(const Vec<S>& v) {
  S m = 0;
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    const S x = v[i] < 0 ? S(-v[i]) : v[i];
    if (x > m) m = x;
  }
  return m;
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

/// One head's weights, read from a Case as <prefix>q, <prefix>k, <prefix>v.
template <class S>
struct Head {
  Mat<S> wq, wk, wv;
};

template <class S>
Head<S> GetHead(const Case& c, const std::string& prefix) {
  return {c.GetMat<S>(prefix + "q"), c.GetMat<S>(prefix + "k"), c.GetMat<S>(prefix + "v")};
}

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

/// A d x d matrix of dyadic entries, cropped from a max-size draw.
inline rc::Gen<ExactMatrix> Square(int64_t max_d, rc::Gen<Exact> entry) { return gen::Matrix(max_d, max_d, entry); }

}  // namespace attnprop::collapse
