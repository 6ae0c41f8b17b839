// Pieces that the claims run on the attention operator share: Lecture 4's
// (properties/lecture4/) and the ABI contract's (properties/abi/).
#pragma once

#include <cstdint>
#include <string>

#include "properties/operator/call.h"
#include "properties/operator/problem_gen.h"

namespace attnprop::ksuite {

/// "A[b=0][i=1][j=2]" and "lse[b=0][i=1]", for messages.
std::string At(const char* what, int64_t b, int64_t i, int64_t j);
std::string RowAt(const char* what, int64_t b, int64_t i);

/// A shape class in one line.
ShapeSpec Shape(ShapeSpec::Causal causal, ShapeSpec::Lengths lengths = ShapeSpec::Lengths::kAny,
                bool identity_v = false);

/// lecture4.prop3.1.simplex_rows on an operator (a kernel, or the model
/// through the same path): its problem class, and the check that unmasked A
/// (out with V = [I 0]) is >= 0, > 0 above underflow, with rows summing to 1
/// within kWeightSumTolerance (defined with the claim,
/// properties/lecture4/attention_operator.cc).
ShapeSpec SimplexRowsProblems();
void SimplexRowsOnOperator(const Operator& op, const Case& c);

}  // namespace attnprop::ksuite
