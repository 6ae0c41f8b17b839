#include "properties/operator/problem.h"

#include <stdexcept>
#include <string>

namespace attnprop::ksuite {

Problem Problem::FromCase(const Case& c) {
  Problem p;
  p.batch = c.GetInt("batch");
  p.causal = static_cast<int32_t>(c.GetInt("causal"));
  p.scale = c.GetScalar("scale");
  p.q = c.GetMatrix("Q");
  p.k = c.GetMatrix("K");
  p.v = c.GetMatrix("V");
  // Shapes the calls rely on (a case from a file may be anything): out of
  // range is a case that does not fit, never a division by zero or a call
  // with buffers smaller than the arguments say.
  auto misfit = [](const std::string& why) { throw std::out_of_range("attention case: " + why); };
  if (p.batch < 1) misfit("batch = " + std::to_string(p.batch) + " (at least 1)");
  if (p.q.rows % p.batch != 0 || p.k.rows % p.batch != 0)
    misfit("the rows of Q and K must be multiples of batch = " + std::to_string(p.batch));
  if (p.v.rows != p.k.rows) misfit("V has " + std::to_string(p.v.rows) + " rows, K " + std::to_string(p.k.rows));
  if (p.k.cols != p.q.cols) misfit("K has " + std::to_string(p.k.cols) + " columns, Q " + std::to_string(p.q.cols));
  p.t_q = p.q.rows / p.batch;
  p.t_k = p.k.rows / p.batch;
  p.d_k = p.q.cols;
  p.d_v = p.v.cols;
  return p;
}

Case Problem::ToCase() const {
  return Case().Int("batch", batch).Int("causal", causal).Scalar("scale", scale).Matrix("Q", q).Matrix("K", k).Matrix(
      "V", v);
}

ExactMatrix Problem::Block(const ExactMatrix& m, int64_t b, int64_t rows) {
  ExactMatrix r(rows, m.cols);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t c = 0; c < m.cols; ++c) r(i, c) = m(b * rows + i, c);
  return r;
}

Problem Problem::KeySlice(int64_t j0, int64_t j1) const {
  Problem sub = *this;
  sub.t_k = j1 - j0;
  sub.k = ExactMatrix(batch * sub.t_k, d_k);
  sub.v = ExactMatrix(batch * sub.t_k, d_v);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t j = j0; j < j1; ++j) {
      for (int64_t l = 0; l < d_k; ++l) sub.k(b * sub.t_k + j - j0, l) = k(b * t_k + j, l);
      for (int64_t l = 0; l < d_v; ++l) sub.v(b * sub.t_k + j - j0, l) = v(b * t_k + j, l);
    }
  return sub;
}

namespace {
void DeclareMatrixDims(CaseDims& d, const std::string& fields, const std::string& dims) {
  const std::string batch = "batch" + dims, t_q = "t_q" + dims, t_k = "t_k" + dims;
  d.Rows("Q" + fields, batch, t_q).Rows("K" + fields, batch, t_k).Rows("V" + fields, batch, t_k);
  d.Cols("Q" + fields, "d_k" + dims).Cols("K" + fields, "d_k" + dims).Cols("V" + fields, "d_v" + dims);
}
}  // namespace

void Problem::DeclareDims(CaseDims& d, const std::string& suffix) {
  d.Size("batch" + suffix, "batch" + suffix);
  DeclareMatrixDims(d, suffix, suffix);
}

void Problem::DeclareAlternativeDims(CaseDims& d, const std::string& suffix) { DeclareMatrixDims(d, suffix, ""); }

}  // namespace attnprop::ksuite
