// The unfused baseline's row softmax, vectorised with glibc's libmvec exp.
#pragma once

#include <cstdint>

namespace attnprop::bench {

/// Each row i of the t x t matrix s becomes softmax(scale * s_i.), with
/// entries j > i masked when causal; rows [row_lo, row_hi).
void SoftmaxRows(float* s, int64_t t, float scale, bool causal, int64_t row_lo, int64_t row_hi);
void SoftmaxRows(double* s, int64_t t, double scale, bool causal, int64_t row_lo, int64_t row_hi);

}  // namespace attnprop::bench
