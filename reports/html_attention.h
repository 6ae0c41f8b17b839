// The attention weights of a counterexample that is an attention problem
// (the fields batch, causal, scale, Q, K, V of the kernel claims' cases), for
// report.html's heatmaps of the run's own counterexamples (internal to
// reports/).
#pragma once

#include <optional>
#include <vector>

#include "properties/framework/case.h"

namespace attnprop::report {

/// Batch item 0's weights softmax(scale Q K^T) with the causal mask of the
/// case (j <= i + t_k - t_q), computed by the model (model/attention.h) in
/// double; masked cells are NaN. nullopt when the case is not an attention
/// problem (a field missing, shapes that do not fit) or is larger than
/// 64 x 64 (a heatmap would not read).
std::optional<std::vector<std::vector<double>>> AttentionWeightsOf(const Case& c);

}  // namespace attnprop::report
