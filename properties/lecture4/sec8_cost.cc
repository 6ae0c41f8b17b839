// Lecture 4, section 8 "Computational cost and multi-head attention"
// (003_dd971a1151775776.txt).
//
// lecture4.sec8.param_counts (sec 8, sec 8.2)
//   Statement: the three projection matrices of one bias-free head contain
//   d(2 d_k + d_v) parameters (independent of T); H heads of width d/H have
//   3 d^2 query, key and value weights, and the output projection another d^2.
//   Checked by building the matrices (as used by the model's Attention, which
//   needs Q = X W_Q, K = X W_K, V = X W_V) for a length-T input and counting
//   their entries.
// lecture4.sec8.causal_pairs_about_half (sec 8)
//   Statement: a causal mask keeps T(T+1)/2 of the T^2 query-key pairs (about
//   half), which is still quadratic: >= T^2/2. Counted from the model's mask.
#include "generators/scalars.h"
#include "model/attention.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace {

struct ParamCounts {
  static constexpr const char* kId = "lecture4.sec8.param_counts";

  static std::vector<Tolerance> Tolerances() { return {}; }

  // Positive integers d/H, H, d_k, d_v, T. Domain: each at most 64 (the
  // check builds T x d and d x d matrices: a cost limit; the generator draws
  // at most 16).
  static bool HypothesesHold(const Case& c) {
    for (const char* name : {"d/H", "H", "d_k", "d_v", "T"}) {
      const int64_t v = c.GetInt(name);
      if (v < 1 || v > 64) return false;
    }
    return true;
  }

  template <class S>
  static rc::Gen<Case> Hypotheses() {
    return rc::gen::apply(
        [](int64_t d_over_h, int64_t h, int64_t d_k, int64_t d_v, int64_t t) {
          return Case().Int("d/H", d_over_h).Int("H", h).Int("d_k", d_k).Int("d_v", d_v).Int("T", t);
        },
        rc::gen::inRange<int64_t>(1, 9), rc::gen::inRange<int64_t>(1, 9), rc::gen::inRange<int64_t>(1, 17),
        rc::gen::inRange<int64_t>(1, 17), rc::gen::inRange<int64_t>(1, 17));
  }

  template <class S>
  static void Conclusion(const Case& c) {
    const int64_t h = c.GetInt("H"), d = c.GetInt("d/H") * h, d_k = c.GetInt("d_k"), d_v = c.GetInt("d_v"),
                  t = c.GetInt("T");
    // One head: the projections that turn X (T x d) into Q, K, V.
    const Mat<S> x = Mat<S>::Zero(t, d);
    const Mat<S> wq = Mat<S>::Zero(d, d_k), wk = Mat<S>::Zero(d, d_k), wv = Mat<S>::Zero(d, d_v);
    const AttentionResult<S> r = Attention<S>(Mat<S>(x * wq), Mat<S>(x * wk), Mat<S>(x * wv), S(1));
    ExpectThat(r.out.rows() == t && r.out.cols() == d_v, "head output is not T x d_v");
    const int64_t one_head = wq.size() + wk.size() + wv.size();
    ExpectThat(one_head == d * (2 * d_k + d_v), "one head has " + std::to_string(one_head) + " != d(2d_k+d_v)");
    // H heads of width d/H, then the output projection (H d/H x d).
    int64_t heads = 0;
    for (int64_t i = 0; i < h; ++i) {
      const int64_t w = d / h;
      heads += Mat<S>::Zero(d, w).size() * 3;
    }
    const int64_t out_proj = Mat<S>::Zero(h * (d / h), d).size();
    ExpectThat(heads == 3 * d * d, "H heads have " + std::to_string(heads) + " != 3d^2 weights");
    ExpectThat(out_proj == d * d, "output projection has " + std::to_string(out_proj) + " != d^2 weights");
  }
};

struct CausalPairs {
  static constexpr const char* kId = "lecture4.sec8.causal_pairs_about_half";

  static std::vector<Tolerance> Tolerances() { return {}; }

  // T >= 1. Domain: T <= 4096 (the check visits all T^2 pairs: a cost
  // limit; the generator draws T < 200).
  static bool HypothesesHold(const Case& c) {
    const int64_t t = c.GetInt("T");
    return t >= 1 && t <= 4096;
  }

  template <class S>
  static rc::Gen<Case> Hypotheses() {
    return rc::gen::map(rc::gen::inRange<int64_t>(1, 200), [](int64_t t) { return Case().Int("T", t); });
  }

  template <class S>
  static void Conclusion(const Case& c) {
    const int64_t t = c.GetInt("T");
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
