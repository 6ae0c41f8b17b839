#include "properties/operator/attention_claims.h"

namespace attnprop::ksuite {

/// "A[b=0][i=1][j=2]".
std::string At(const char* what, int64_t b, int64_t i, int64_t j) {
  std::string s(what);
  s.append("[b=").append(std::to_string(b)).append("][i=").append(std::to_string(i));
  s.append("][j=").append(std::to_string(j)).append("]");
  return s;
}

/// "lse[b=0][i=1]".
std::string RowAt(const char* what, int64_t b, int64_t i) {
  std::string s(what);
  s.append("[b=").append(std::to_string(b)).append("][i=").append(std::to_string(i)).append("]");
  return s;
}

ShapeSpec Shape(ShapeSpec::Causal causal, ShapeSpec::Lengths lengths, bool identity_v) {
  ShapeSpec s;
  s.causal = causal;
  s.lengths = lengths;
  s.identity_v = identity_v;
  return s;
}

}  // namespace attnprop::ksuite
