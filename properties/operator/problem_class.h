// A class of attention problems declared once: a shape class (ShapeSpec)
// and the fields a claim adds to its problems (a cut position, a shift u,
// a permutation, alternative inputs Q2, K2, V2, ...), each with its range,
// plus the claim's own side conditions. The generator and the hypotheses
// predicate both come from the declaration, so they cannot drift apart:
//   static ProblemClass Problems() {
//     return ProblemClass(Shape(CausalKind::kYes)).Int("prefix", 1, TK).Int("new_queries", 1, Field("prefix"));
//   }
// Fields are drawn in the order declared, each after the problem and the
// fields before it (a bound may read them).
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "properties/framework/case.h"
#include "properties/operator/problem.h"
#include "properties/operator/problem_gen.h"

namespace attnprop::ksuite {

/// An integer bound or size read from the problem and the fields drawn
/// before (the case so far).
using CaseInt = std::function<int64_t(const Problem&, const Case&)>;
/// A constant.
CaseInt Const(int64_t v);
/// The problem's t_q, t_k, d_k (per item).
extern const CaseInt TQ, TK, DK;
/// An int field drawn before.
CaseInt Field(std::string name);
/// a(p, c) + delta.
CaseInt Plus(CaseInt a, int64_t delta);

class ProblemClass {
 public:
  ProblemClass(ShapeSpec spec);  // NOLINT: a plain shape class is a problem class
  /// An int in [lo, hi] (drawn uniformly).
  ProblemClass& Int(std::string name, CaseInt lo, CaseInt hi);
  /// A rows x cols matrix with entries of the storage type's kind (EntryGen
  /// at this magnitude).
  ProblemClass& Matrix(std::string name, CaseInt rows, CaseInt cols, int64_t magnitude);
  /// Matrices named like Q, K, V plus `suffix`, of their shapes (alternative
  /// inputs), such that the problem with them in place of Q, K, V is of the
  /// class too.
  ProblemClass& Alternative(const std::string& suffix, int64_t magnitude);
  /// A 1 x n matrix holding a permutation of 0..n-1 (drawn as the
  /// permutation that sorts n random keys: it shrinks to the identity).
  ProblemClass& Permutation(std::string name, CaseInt n);
  /// A side condition of the claim, in its words.
  ProblemClass& Assume(std::string why, std::function<bool(DType, const Case&)> holds);

  const ShapeSpec& spec() const { return spec_; }
  rc::Gen<Case> Gen(InputKind in) const;
  /// The first condition a case breaks ("" when it is in the class): the
  /// shape class's (ProblemHolds), a field's range, shape or kind, an Assume.
  std::string Violation(DType t, const Case& c) const;
  bool Holds(DType t, const Case& c) const { return Violation(t, c).empty(); }
  /// The problem's dimensions (Problem::DeclareDims), the alternatives' with
  /// them; the claim's own fields are values (a Matrix field's shape stays).
  CaseDims Dims(const Case& c) const;

 private:
  struct Field {
    std::string name;
    std::function<rc::Gen<Case>(DType, const Problem&, const Case&)> draw;  // the case with the field added
    std::function<bool(DType, const Problem&, const Case&)> holds;
  };
  static rc::Gen<Case> DrawFrom(const std::shared_ptr<const ProblemClass>& self, DType t, const Case& c, size_t field);

  ShapeSpec spec_;
  std::vector<Field> fields_;
  std::vector<std::pair<std::string, std::function<bool(DType, const Case&)>>> assumes_;
  std::vector<std::string> alternatives_;  // their suffixes
};

}  // namespace attnprop::ksuite
