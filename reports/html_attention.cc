// Attention weights of a counterexample (html_attention.h).
#include "reports/html_attention.h"

#include <cmath>

#include "model/attention.h"

namespace attnprop::report {

std::optional<std::vector<std::vector<double>>> AttentionWeightsOf(const Case& c) {
  try {
    const int64_t batch = c.GetInt("batch"), causal = c.GetInt("causal");
    const ExactMatrix& q = c.GetMatrix("Q");
    const ExactMatrix& k = c.GetMatrix("K");
    const ExactMatrix& v = c.GetMatrix("V");
    if (batch < 1 || q.rows % batch || k.rows % batch || v.rows != k.rows || q.cols != k.cols) return std::nullopt;
    const int64_t t_q = q.rows / batch, t_k = k.rows / batch;
    if (t_q < 1 || t_k < 1 || t_q > 64 || t_k > 64) return std::nullopt;
    const Mat<double> qd = q.As<double>().topRows(t_q), kd = k.As<double>().topRows(t_k),
                      vd = v.As<double>().topRows(t_k);
    const double scale = c.GetScalar("scale").ToDouble();
    const Mat<double> w = Attention<double>(qd, kd, vd, scale, causal ? Mask::Causal() : Mask::None()).weights;
    std::vector<std::vector<double>> out(static_cast<size_t>(t_q), std::vector<double>(static_cast<size_t>(t_k)));
    for (int64_t i = 0; i < t_q; ++i)
      for (int64_t j = 0; j < t_k; ++j)
        out[static_cast<size_t>(i)][static_cast<size_t>(j)] =
            causal && j > i + (t_k - t_q) ? std::nan("") : w(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
    return out;
  } catch (const std::exception&) {
    return std::nullopt;  // not an attention problem
  }
}

}  // namespace attnprop::report
