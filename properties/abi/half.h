// The half-precision problems of the ABI v2 properties (half.cc): exposed
// for their generator test (half_test.cc).
#pragma once

#include <rapidcheck.h>

#include <cstdint>

#include "properties/framework/case.h"
#include "properties/operator/problem.h"

namespace attnprop::ksuite {

/// Problems whose q, k, v entries are values of the format (t = kBF16 or
/// kF16), drawn in every regime and shifted toward the format's subnormals
/// and largest exponents (half.cc); t_k <= max_t_k, the other dimensions <= 8,
/// batch <= 2.
rc::Gen<Case> HalfProblemGen(DType t, int64_t max_t_k);

}  // namespace attnprop::ksuite
