// A rigorous band for the order statistics of n iid uniforms, hence for the
// sorted samples of any law X = Q(U) (Q nondecreasing): used by the
// almost-sure limits of the profile (limits.cc).
//
// U_(i) (i-th smallest, 1-based) is < p exactly when at least i of the n
// uniforms are < p: P(U_(i) < p) = P(Bin(n, p) >= i) <= exp(-n KL(i/n || p))
// for p <= i/n, and P(U_(i) > p) = P(Bin(n, p) <= i - 1) <=
// exp(-n KL((i-1)/n || p)) for p >= (i-1)/n (Chernoff; KL the Bernoulli
// relative entropy). The band is taken at the ends of blocks of consecutive
// indices, one index wide at the two ends of the sample and growing as
// min(i, n - i)/512 inside: lo_j <= U_(first of j), U_(last of j) <= hi_j,
// each failing with probability <= e^{-L}; with L = ln(2 B k / alpha) (B
// blocks, k samples) the band holds for the k samples at once with
// probability >= 1 - alpha (union bound over 2 B k events), and within block
// j every U_(i) lies in [lo_j, hi_j] (monotone).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace attnprop {

struct OrderBand {
  struct Block {
    int64_t first, count;  // 0-based first index, number of indices
    double lo, hi;
  };
  std::vector<Block> blocks;
};

/// n KL(q || p), with 0 log 0 = 0.
inline double ScaledKl(double n, double q, double p) {
  double k = 0;
  if (q > 0) k += q * std::log(q / p);
  if (q < 1) k += (1 - q) * std::log((1 - q) / (1 - p));
  return n * k;
}

/// The band for n uniforms, holding for `samples` samples at once with
/// probability >= 1 - alpha. Bisection keeps the end where n KL >= L + 10^-3
/// (the slack covers KL's rounding in double).
inline OrderBand MakeOrderBand(int64_t n, int samples, double alpha) {
  OrderBand b;
  for (int64_t first = 0; first < n;) {
    const int64_t count = std::min(std::max<int64_t>(1, std::min(first, n - first) / 512), n - first);
    b.blocks.push_back({first, count, 0, 1});
    first += count;
  }
  const double nd = static_cast<double>(n);
  const double level = std::log(2.0 * static_cast<double>(b.blocks.size()) * samples / alpha) + 1e-3;
  for (OrderBand::Block& k : b.blocks) {
    // lo: the largest p <= q with n KL(q || p) >= L, q = i/n for the block's
    // first index i (1-based); hi: the smallest p >= q', q' = (i' - 1)/n
    // for its last index i'.
    const double q = static_cast<double>(k.first + 1) / nd, q2 = static_cast<double>(k.first + k.count - 1) / nd;
    double good = 0, bad = q;
    for (int it = 0; it < 80; ++it) {
      const double mid = (good + bad) / 2;
      (ScaledKl(nd, q, mid) >= level ? good : bad) = mid;
    }
    k.lo = good;
    good = 1, bad = q2;
    for (int it = 0; it < 80; ++it) {
      const double mid = (good + bad) / 2;
      (ScaledKl(nd, q2, mid) >= level ? good : bad) = mid;
    }
    k.hi = good;
  }
  return b;
}

}  // namespace attnprop
