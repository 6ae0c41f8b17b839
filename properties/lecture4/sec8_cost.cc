// Lecture 4, section 8 "Computational cost and multi-head attention"
// (003_dd971a1151775776.txt).
//
// lecture4.sec8.param_counts (sec 8, sec 8.2)
//   Statement: the three projection matrices of one bias-free head contain
//   d(2 d_k + d_v) parameters (independent of T); H heads of width d/H have
//   3 d^2 query, key and value weights, and the output projection another d^2.
//   Checked on what the computation uses, not on the sizes of matrices built
//   with the claimed shapes: the head (and the H-head layer with its output
//   projection W_O) is evaluated with the model's Attention on a random
//   input (X, W with entries of magnitude in [1, 2] sd and random signs,
//   from the case's seed), and every weight entry is
//   perturbed in turn (by 2^-4); a weight is live when any output entry
//   changes at all (the rounding of an unchanged computation is 0: the same
//   operations on the same values; a fixed threshold such as 1e-9 called a
//   live W_Q entry dead when two rows of X were 2e-4 apart, where its
//   effect, proportional to their variance under the weights, was 6e-10).
//   The live count must equal the printed
//   formula, for two lengths T and T' (independence of T). Hypothesis T >= 2:
//   with one key the softmax weight is 1 whatever W_Q, W_K are (those 2 d d_k
//   weights are then functionally dead; the claim counts them, so T = 1 is
//   outside what this measurement can see).
// lecture4.sec8.causal_pairs_about_half (sec 8)
//   Statement: a causal mask keeps T(T+1)/2 of the T^2 query-key pairs (about
//   half), which is still quadratic: >= T^2/2. Counted from the model's mask.
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "generators/scalars.h"
#include "model/attention.h"
#include "properties/framework/case_edit.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

/// Entries of magnitude in [sd, 2 sd] with random signs (EditRng): no entry
/// near 0, whose influence could fall below double resolution. Weights get sd
/// = 1/(2 sqrt(rows)) so that the scores stay O(1) and no softmax saturates
/// (a saturated weight is functionally dead in this backend).
Mat<double> RandomMatrix(EditRng& rng, int64_t rows, int64_t cols, double sd = 1) {
  Mat<double> m(rows, cols);
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      const double mag = 1 + static_cast<double>(rng.Next() >> 11) * 0x1p-53;
      m(i, j) = sd * (rng.Next() & 1 ? mag : -mag);
    }
  return m;
}

/// The number of entries of `weights` whose perturbation moves f's output.
int64_t LiveWeights(std::vector<Mat<double>>& weights, const std::function<Mat<double>()>& f) {
  const Mat<double> base = f();
  int64_t live = 0;
  for (Mat<double>& w : weights)
    for (Eigen::Index i = 0; i < w.size(); ++i) {
      const double saved = w.data()[i];
      w.data()[i] = saved + 0x1p-4;
      live += f() != base ? 1 : 0;
      w.data()[i] = saved;
    }
  return live;
}

constexpr IntField kWidth{"d/H"}, kHeads{"H"}, kDk{"d_k"}, kDv{"d_v"}, kT{"T"}, kT2{"T2"}, kSeed{"seed"};

struct ParamCounts : ClaimId<"lecture4.sec8.param_counts"> {

  // Positive integers d/H, H, d_k, d_v; lengths T, T2 >= 2 (see the header);
  // seed >= 0. Domain: d = H d/H <= 16, d_k, d_v <= 8, T, T2 <= 8 (one
  // forward pass per weight: a cost limit). Drawn: d/H <= 4, H <= 3,
  // d_k, d_v <= 6, T, T2 <= 6, seed < 2^40.
  template <class S> static Domain Hypotheses() {
    Domain d;
    d.Int(kWidth, rc::gen::inRange<int64_t>(1, 5), 1, 8).Int(kHeads, rc::gen::inRange<int64_t>(1, 4), 1, 8);
    d.Int(kDk, rc::gen::inRange<int64_t>(1, 7), 1, 8).Int(kDv, rc::gen::inRange<int64_t>(1, 7), 1, 8);
    d.Int(kT, rc::gen::inRange<int64_t>(2, 7), 2, 8).Int(kT2, rc::gen::inRange<int64_t>(2, 7), 2, 8);
    d.Int(kSeed, rc::gen::inRange<int64_t>(0, int64_t{1} << 40), 0, std::numeric_limits<int64_t>::max());
    d.Assume("d = H d/H <= 16 (a cost limit)", [](const Values& v) { return v[kWidth] * v[kHeads] <= 16; });
    return d;
  }

  template <class S> static void Conclusion(const In<S>& in) {
    const int64_t h = in[kHeads], w = in[kWidth], d = w * h, d_k = in[kDk], d_v = in[kDv];
    EditRng rng(static_cast<uint64_t>(in[kSeed]) * 0x9e3779b97f4a7c15ULL + 11);
    for (const int64_t t : {in[kT], in[kT2]}) {
      const Mat<double> x = RandomMatrix(rng, t, d);
      // One head: Attn(X W_Q, X W_K, X W_V).
      const double sd = 0.5 / std::sqrt(static_cast<double>(d));
      std::vector<Mat<double>> head = {RandomMatrix(rng, d, d_k, sd), RandomMatrix(rng, d, d_k, sd),
                                       RandomMatrix(rng, d, d_v, sd)};
      const double scale = 1 / std::sqrt(static_cast<double>(d_k));
      const int64_t one_head = LiveWeights(head, [&] {
        return Attention<double>(Mat<double>(x * head[0]), Mat<double>(x * head[1]), Mat<double>(x * head[2]), scale).out;
      });
      ExpectThat(one_head == d * (2 * d_k + d_v), "one head uses " + std::to_string(one_head) + " weights at T = " +
                                                      std::to_string(t) + ", not d(2d_k+d_v) = " +
                                                      std::to_string(d * (2 * d_k + d_v)));
      // H heads of width d/H, concatenated, then the output projection W_O (d x d).
      std::vector<Mat<double>> layer;
      for (int64_t i = 0; i < 3 * h; ++i) layer.push_back(RandomMatrix(rng, d, w, sd));
      layer.push_back(RandomMatrix(rng, d, d, sd));
      const double scale_w = 1 / std::sqrt(static_cast<double>(w));
      auto multi_head = [&] {
        Mat<double> concat(t, d);
        for (int64_t i = 0; i < h; ++i)
          concat.middleCols(i * w, w) = Attention<double>(Mat<double>(x * layer[size_t(3 * i)]), Mat<double>(x * layer[size_t(3 * i + 1)]),
                                                          Mat<double>(x * layer[size_t(3 * i + 2)]), scale_w)
                                            .out;
        return Mat<double>(concat * layer.back());
      };
      int64_t live_qkv = 0;
      for (size_t m = 0; m + 1 < layer.size(); ++m) {
        std::vector<Mat<double>> one = {layer[m]};
        live_qkv += LiveWeights(one, [&] {
          const Mat<double> saved = layer[m];
          layer[m] = one[0];
          const Mat<double> r = multi_head();
          layer[m] = saved;
          return r;
        });
      }
      std::vector<Mat<double>> wo = {layer.back()};
      const int64_t live_out = LiveWeights(wo, [&] {
        const Mat<double> saved = layer.back();
        layer.back() = wo[0];
        const Mat<double> r = multi_head();
        layer.back() = saved;
        return r;
      });
      ExpectThat(live_qkv == 3 * d * d, "H heads use " + std::to_string(live_qkv) + " query/key/value weights, not 3d^2");
      ExpectThat(live_out == d * d, "the output projection uses " + std::to_string(live_out) + " weights, not d^2");
    }
  }
};

struct CausalPairs : ClaimId<"lecture4.sec8.causal_pairs_about_half"> {

  // T >= 1. Domain: T <= 4096 (the check visits all T^2 pairs: a cost
  // limit); the generator draws T < 200.
  template <class S> static Domain Hypotheses() {
    Domain d;
    d.Int(kT, rc::gen::inRange<int64_t>(1, 200), 1, 4096);
    return d;
  }

  template <class S> static void Conclusion(const In<S>& in) {
    const int64_t t = in[kT];
    const Mask mask = Mask::Causal();
    int64_t kept = 0;
    for (int64_t i = 0; i < t; ++i)
      for (int64_t j = 0; j < t; ++j) kept += mask.Visible(i, j, t, t) ? 1 : 0;
    ExpectThat(kept == t * (t + 1) / 2, std::to_string(kept) + " causal pairs, not T(T+1)/2");
    ExpectThat(2 * kept >= t * t, "fewer than T^2/2 causal pairs");
  }
};

ATTNPROP_REGISTER(ParamCounts, double);
ATTNPROP_REGISTER(CausalPairs, double);

}  // namespace
}  // namespace attnprop
