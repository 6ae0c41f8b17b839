// The lecture's controlled examples of attention (003, sections 4 and 7):
// causal softmax of fixed-seed random scores, and the masked Gaussian
// positional kernel S_ij = -(i-j)^2 / (2 h^2), j <= i, at several
// bandwidths h; computed with model/attention.h in double. report.html
// draws them as heatmaps.
#pragma once

#include <string>
#include <vector>

namespace attnprop {

struct AttentionExample {
  std::string title;
  std::string caption;
  std::vector<std::vector<double>> weights;  // T x T attention weights, rows sum to 1
};

/// The examples, the same on every machine and every run (fixed seed).
std::vector<AttentionExample> LectureExamples();

}  // namespace attnprop
