// Test cases of the "Only Large Weights ... Rank Collapse" claims
// (004_fc07a226cef95160.txt): reading the paper's objects from a Case. The
// maths itself is model/collapse.h.
#pragma once

#include <string>

#include "generators/claims_shapes.h"
#include "generators/scalars.h"
#include "model/collapse.h"
#include "properties/framework/case.h"

namespace attnprop::collapse {

/// One head's weights, read from a Case as <prefix>q, <prefix>k, <prefix>v.
template <class S>
Head<S> GetHead(const Case& c, const std::string& prefix) {
  return {c.GetMat<S>(prefix + "q"), c.GetMat<S>(prefix + "k"), c.GetMat<S>(prefix + "v")};
}

}  // namespace attnprop::collapse
