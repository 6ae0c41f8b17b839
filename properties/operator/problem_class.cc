#include "properties/operator/problem_class.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "generators/scalars.h"

namespace attnprop::ksuite {

CaseInt Const(int64_t v) {
  return [v](const Problem&, const Case&) { return v; };
}
const CaseInt TQ = [](const Problem& p, const Case&) { return p.t_q; };
const CaseInt TK = [](const Problem& p, const Case&) { return p.t_k; };
const CaseInt DK = [](const Problem& p, const Case&) { return p.d_k; };
CaseInt Field(std::string name) {
  return [name = std::move(name)](const Problem&, const Case& c) { return c.GetInt(name); };
}
CaseInt Plus(CaseInt a, int64_t delta) {
  return [a = std::move(a), delta](const Problem& p, const Case& c) { return a(p, c) + delta; };
}

ProblemClass::ProblemClass(ShapeSpec spec) : spec_(spec) {}

ProblemClass& ProblemClass::Int(std::string name, CaseInt lo, CaseInt hi) {
  fields_.push_back(
      {name,
       [name, lo, hi](DType, const Problem& p, const Case& c) {
         return rc::gen::map(gen::Dim(lo(p, c), hi(p, c)), [c, name](int64_t v) {
           Case out = c;
           return out.Int(name, v);
         });
       },
       [name, lo, hi](DType, const Problem& p, const Case& c) {
         const int64_t v = c.GetInt(name);
         return v >= lo(p, c) && v <= hi(p, c);
       }});
  return *this;
}

ProblemClass& ProblemClass::Matrix(std::string name, CaseInt rows, CaseInt cols, int64_t magnitude) {
  fields_.push_back(
      {name,
       [name, rows, cols, magnitude](DType t, const Problem& p, const Case& c) {
         return rc::gen::map(gen::Matrix(rows(p, c), cols(p, c), EntryGen(t, magnitude)), [c, name](ExactMatrix m) {
           Case out = c;
           return out.Matrix(name, std::move(m));
         });
       },
       [name, rows, cols](DType t, const Problem& p, const Case& c) {
         const ExactMatrix& m = c.GetMatrix(name);
         return m.rows == rows(p, c) && m.cols == cols(p, c) && EntriesFit(t, m);
       }});
  return *this;
}

ProblemClass& ProblemClass::Alternative(const std::string& suffix, int64_t magnitude) {
  // Stacked rows: batch x t per item (Problem::FromCase).
  const CaseInt q_rows = [](const Problem& p, const Case&) { return p.batch * p.t_q; };
  const CaseInt kv_rows = [](const Problem& p, const Case&) { return p.batch * p.t_k; };
  const CaseInt dv = [](const Problem& p, const Case&) { return p.d_v; };
  alternatives_.push_back(suffix);
  Matrix("Q" + suffix, q_rows, DK, magnitude).Matrix("K" + suffix, kv_rows, DK, magnitude);
  Matrix("V" + suffix, kv_rows, dv, magnitude);
  const ShapeSpec spec = spec_;
  return Assume("Q" + suffix + ", K" + suffix + ", V" + suffix + " in place of Q, K, V: a problem of the class",
                [spec, suffix](DType t, const Case& c) {
                  Case other = c;
                  other.Matrix("Q", c.GetMatrix("Q" + suffix))
                      .Matrix("K", c.GetMatrix("K" + suffix))
                      .Matrix("V", c.GetMatrix("V" + suffix));
                  return ProblemHolds(t, spec, other);
                });
}

ProblemClass& ProblemClass::Permutation(std::string name, CaseInt n) {
  fields_.push_back(
      {name,
       [name, n](DType, const Problem& p, const Case& c) {
         return rc::gen::map(rc::gen::container<std::vector<int64_t>>(static_cast<size_t>(n(p, c)),
                                                                      rc::gen::inRange<int64_t>(0, 1000)),
                             [c, name](const std::vector<int64_t>& keys) {
                               // The permutation that sorts `keys` (stable): shrinks to the identity.
                               std::vector<int64_t> perm(keys.size());
                               std::iota(perm.begin(), perm.end(), 0);
                               std::stable_sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
                                 return keys[static_cast<size_t>(a)] < keys[static_cast<size_t>(b)];
                               });
                               ExactMatrix m(1, static_cast<int64_t>(perm.size()));
                               for (size_t i = 0; i < perm.size(); ++i) m.data[i] = static_cast<double>(perm[i]);
                               Case out = c;
                               return out.Matrix(name, std::move(m));
                             });
       },
       [name, n](DType, const Problem& p, const Case& c) {
         const ExactMatrix& pm = c.GetMatrix(name);
         const int64_t size = n(p, c);
         if (pm.rows != 1 || pm.cols != size) return false;
         std::vector<bool> seen(static_cast<size_t>(size), false);
         for (const Exact& e : pm.data) {
           const double d = e.ToDouble();
           if (!std::isfinite(d) || d != std::floor(d) || d < 0 || d >= static_cast<double>(size) ||
               seen[static_cast<size_t>(d)])
             return false;
           seen[static_cast<size_t>(d)] = true;
         }
         return true;
       }});
  return *this;
}

ProblemClass& ProblemClass::Assume(std::string why, std::function<bool(DType, const Case&)> holds) {
  assumes_.emplace_back(std::move(why), std::move(holds));
  return *this;
}

rc::Gen<Case> ProblemClass::DrawFrom(const std::shared_ptr<const ProblemClass>& self, DType t, const Case& c,
                                     size_t field) {
  const Problem p = Problem::FromCase(c);
  rc::Gen<Case> next = self->fields_[field].draw(t, p, c);
  if (field + 1 == self->fields_.size()) return next;
  return rc::gen::mapcat(std::move(next), [self, t, field](const Case& drawn) { return DrawFrom(self, t, drawn, field + 1); });
}

rc::Gen<Case> ProblemClass::Gen(InputKind in) const {
  rc::Gen<Case> problems = ProblemGen(in, spec_);
  if (fields_.empty()) return problems;
  // One copy of the declaration travels with the generator (a Gen outlives
  // the call that made it), shared by every case it draws.
  auto self = std::make_shared<const ProblemClass>(*this);
  const DType t = in.dtype;
  return rc::gen::mapcat(std::move(problems), [self, t](const Case& c) { return DrawFrom(self, t, c, 0); });
}

CaseDims ProblemClass::Dims(const Case& c) const {
  CaseDims d(c);
  Problem::DeclareDims(d);
  for (const std::string& suffix : alternatives_) Problem::DeclareAlternativeDims(d, suffix);
  return d;
}

std::string ProblemClass::Violation(DType t, const Case& c) const {
  if (!ProblemHolds(t, spec_, c)) return "not a problem of the shape class";
  const Problem p = Problem::FromCase(c);
  for (const Field& f : fields_) {
    try {
      if (!f.holds(t, p, c)) return f.name + " out of its range, shape or kind";
    } catch (const std::exception&) {  // missing, or of another kind (a case from a file)
      return f.name + " missing or not of its kind";
    }
  }
  for (const auto& [why, holds] : assumes_) {
    try {
      if (!holds(t, c)) return why;
    } catch (const std::exception&) {
      return why;
    }
  }
  return "";
}

}  // namespace attnprop::ksuite
