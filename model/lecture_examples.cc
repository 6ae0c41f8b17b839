// The lecture's controlled examples of attention (model/lecture_examples.h).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numbers>

#include "model/attention.h"
#include "model/lecture_examples.h"

namespace attnprop {
namespace {

constexpr Eigen::Index kT = 16;

/// Causal attention weights for a given score matrix: Q = S, K = I, scale 1
/// make the model's scores c Q K^T equal S exactly.
std::vector<std::vector<double>> CausalWeights(const Mat<double>& s) {
  const Mat<double> eye = Mat<double>::Identity(s.cols(), s.cols());
  const Mat<double> w = Attention<double>(s, eye, Mat<double>::Zero(s.cols(), 1), 1.0, Mask::Causal()).weights;
  std::vector<std::vector<double>> out(static_cast<size_t>(w.rows()));
  for (Eigen::Index i = 0; i < w.rows(); ++i)
    for (Eigen::Index j = 0; j < w.cols(); ++j) out[static_cast<size_t>(i)].push_back(w(i, j));
  return out;
}

/// Standard normal scores from a fixed seed (splitmix64 + Box-Muller), so
/// the picture is the same on every machine and every run.
Mat<double> RandomScores(uint64_t seed) {
  auto next = [&seed] {
    uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1p-53;
  };
  Mat<double> s(kT, kT);
  for (Eigen::Index i = 0; i < kT; ++i) {
    for (Eigen::Index j = 0; j < kT; ++j) {
      const double u1 = 1 - next(), u2 = next();
      s(i, j) = std::sqrt(-2 * std::log(u1)) * std::cos(2 * std::numbers::pi * u2);
    }
  }
  return s;
}

}  // namespace

std::vector<AttentionExample> LectureExamples() {
  std::vector<AttentionExample> maps;
  maps.push_back({"Causal, random scores",
                  "S_ij ~ N(0,1) i.i.d. (fixed seed), keys j <= i: each row is a softmax over the past", 
                  CausalWeights(RandomScores(1))});
  for (double h : {0.5, 1.0, 2.0, 4.0}) {
    Mat<double> s(kT, kT);
    for (Eigen::Index i = 0; i < kT; ++i)
      for (Eigen::Index j = 0; j < kT; ++j) s(i, j) = -static_cast<double>((i - j) * (i - j)) / (2 * h * h);
    char title[64];
    std::snprintf(title, sizeof title, "Gaussian positional kernel, h = %g", h);
    maps.push_back({title, "S_ij = -(i-j)^2 / (2h^2), keys j <= i: a causal window of width about h", CausalWeights(s)});
  }
  return maps;
}

}  // namespace attnprop
