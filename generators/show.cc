#include "generators/show.h"

#include <ostream>
#include <sstream>

namespace attnprop {

void showValue(const Exact& x, std::ostream& os) { os << x.ToDisplay(); }

void showValue(const ExactMatrix& m, std::ostream& os) { os << gen::MatrixText(m); }

}  // namespace attnprop

namespace attnprop::gen {

std::string MatrixText(const ExactMatrix& m, const std::string& indent) {
  std::ostringstream os;
  os << m.rows << "x" << m.cols;
  for (int64_t i = 0; i < m.rows; ++i) {
    os << "\n" << indent;
    for (int64_t j = 0; j < m.cols; ++j) os << (j ? "  " : "") << m(i, j).ToDisplay();
  }
  return os.str();
}

namespace {

void Field(std::ostream& os, const std::string& name, const ExactMatrix& m) {
  os << "\n  " << name << ": " << MatrixText(m, "    ");
}
void Field(std::ostream& os, const std::string& name, const Exact& x) { os << "\n  " << name << ": " << x.ToDisplay(); }

}  // namespace

void showValue(const Params& p, std::ostream& os) {
  os << "dims";
  for (int64_t d : p.dims) os << " " << d;
  for (size_t a = 0; a < p.arrays.size(); ++a) {
    os << "\n  array " << a << ":";
    for (const Exact& x : p.arrays[a]) os << " " << x.ToDisplay();
  }
}

void showValue(const SpectralCase& c, std::ostream& os) {
  Field(os, "S", c.s);
  Field(os, "Q", c.q);
  os << "\n  spectrum:";
  for (const Exact& x : c.spectrum) os << " " << x.ToDisplay();
}

void showValue(const FactoredCase& c, std::ostream& os) {
  Field(os, "A", c.a);
  Field(os, "left", c.left);
  Field(os, "right", c.right);
}

void showValue(const AttentionProblem& p, std::ostream& os) {
  os << "batch=" << p.batch << " t_q=" << p.t_q << " t_k=" << p.t_k << " d_k=" << p.d_k << " d_v=" << p.d_v;
  Field(os, "scale", p.scale);
  for (int64_t b = 0; b < p.batch; ++b) {
    // Names built with a stream: g++ 12 warns (-Wrestrict, a false
    // positive) on string operator+ chains.
    auto name = [b](const char* m) {
      std::ostringstream n;
      n << m << "[" << b << "]";
      return n.str();
    };
    Field(os, name("Q"), p.q[static_cast<size_t>(b)]);
    Field(os, name("K"), p.k[static_cast<size_t>(b)]);
    Field(os, name("V"), p.v[static_cast<size_t>(b)]);
  }
}

void showValue(const TokenSequence& s, std::ostream& os) {
  Field(os, "embeddings", s.embeddings);
  Field(os, "learned", s.learned);
  Field(os, "sinusoidal", s.sinusoidal);
  Field(os, "rope_angles", s.rope_angles);
}

void showValue(const WeightSet& w, std::ostream& os) {
  os << "layers=" << w.layers << " heads=" << w.heads << " d_model=" << w.d_model << " d_k=" << w.d_k
     << " d_v=" << w.d_v;
  Field(os, "eta", w.eta);
  for (size_t i = 0; i < w.w_q.size(); ++i) {
    auto name = [&](const char* m) {
      std::ostringstream n;
      n << m << "[l" << static_cast<int64_t>(i) / w.heads << " h" << static_cast<int64_t>(i) % w.heads << "]";
      return n.str();
    };
    Field(os, name("W_Q"), w.w_q[i]);
    Field(os, name("W_K"), w.w_k[i]);
    Field(os, name("W_V"), w.w_v[i]);
  }
}

void showValue(const NormedMap& m, std::ostream& os) {
  Field(os, "norm", m.norm);
  Field(os, "V", m.v);
}

void showValue(const LipschitzMap& m, std::ostream& os) {
  os << (m.kind == LipschitzMap::kLinear ? "linear x -> W x" : "x -> a tanh(W x)");
  Field(os, "L", m.lipschitz);
  Field(os, "a", m.a);
  Field(os, "W", m.w);
}

}  // namespace attnprop::gen
