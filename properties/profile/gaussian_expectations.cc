// Expectations of the normalised parts for Gaussian L (001_4e20808ed1137a14.txt):
//
// profile.expect_iid_gauss.ratio_expectations (first paragraph, "If the
//   entries are iid nondegenerate centered Gaussian, then also [elided]";
//   reconstruction, CATALOG.md): E[||S||^2/||L||^2] = (N+1)/(2N) and
//   E[a] = E[||T||^2/||L||^2] = (N-1)/(2N).
// profile.gauss_KQ.expect_a_indep_of_n ("Let 1 <= n <= N and let W_K, W_Q in
//   M_{n x N} have jointly independent centered Gaussian entries, iid within
//   each matrix, with nonzero variances v_K, v_Q. For L = W_K^T W_Q,
//   [elided] independently of the head dimension n"; reconstruction):
//   E[a(W_K^T W_Q)] = (N-1)/(2N) and E[1 - a] = (N+1)/(2N), for every n.
//
// Statistical: Monte Carlo with a fixed seed per case (the case's "seed",
// deterministic: EditRng + Box-Muller), a stated false-alarm rate and power.
// - ratio_expectations: the exact law. ||S||^2 = sigma^2 chi^2_{N(N+1)/2}
//   and ||T||^2 = sigma^2 chi^2_{N(N-1)/2} are independent (S collects the N
//   diagonal entries and the N(N-1)/2 sums (L_ij + L_ji)/sqrt2, T the
//   differences), so R = ||S||^2/||L||^2 ~ Beta(N(N+1)/4, N(N-1)/4) (R = 1
//   for N = 1), with variance v = ab/((a+b)^2(a+b+1)). Bernstein (rigorous,
//   |R - ER| <= 1): P(|mean - ER| >= eps) <= 2 exp(-M eps^2 / (2v + 2 eps/3)),
//   eps = L/(3M) + sqrt(L^2/(9M^2) + 2vL/M), L = ln(2/alpha_c); two checks
//   per case (R and a), alpha_c = alpha/2, alpha = 1e-6 per case.
//   Power (M = 10000): an error >= eps(alpha_c) + eps(0.01) in the claimed
//   mean is caught with probability >= 0.99: 0.0226 at N = 2, 0.0083 at N = 8.
// - expect_a_indep_of_n: the law of a is not a named one: empirical
//   Bernstein (Maurer & Pontil 2009, Thm 4; rigorous for values in [0,1]):
//   with probability >= 1 - delta each side, |mean - Ea| <= sqrt(2 V ln(4/
//   delta)/M) + 7 ln(4/delta)/(3(M-1)), V the sample variance. M = 50000
//   draws per case, paired across n: draw s adds rows r = 1..N of W_K, W_Q
//   one at a time, so L_n = sum_{r <= n} k_r^T q_r for every n <= N comes
//   from the same draws. Two estimators per n: a itself, and its average
//   over the law's sign symmetry, a_bar(L) = E[a(D1 L D2) | L] for
//   independent uniform diagonal sign matrices D1, D2 (W_K D1, W_Q D2 have
//   the law of W_K, W_Q, so E a_bar = E a): with a = 1/2 - tr(L^2)/(2||L||^2)
//   and E[tr(L D L D)] = sum_i L_ii^2 (D = D2 D1 uniform signs), a_bar =
//   1/2 - sum_i L_ii^2/(2||L||^2) in [0, 1/2], with 2-5 times less variance.
//   2N checks per case, delta = alpha/(2N), alpha = 1e-6 per case.
//   Power (M = 50000; sample variances V of a 0.016-0.047, of a_bar
//   0.003-0.018, N = 5 .. 2): an error >= eps + the Hoeffding deviation at
//   0.01 (range 1: 0.0073; a_bar's range 1/2: 0.0036) is caught with
//   probability >= 0.99: 0.006-0.008 through a_bar, 0.012-0.014 through a;
//   at worst (V <= 1/4) 0.021.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "properties/framework/case_edit.h"
#include "properties/profile/lambda_checks.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

constexpr double kAlpha = 1e-6;

/// Standard normals from the case's seed (Box-Muller on EditRng uniforms).
class Normals {
 public:
  explicit Normals(int64_t seed) : rng_(static_cast<uint64_t>(seed) * 0x9e3779b97f4a7c15ULL + 7) {}
  double Next() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double u1 = (static_cast<double>(rng_.Next() >> 11) + 0.5) * 0x1p-53,
                 u2 = (static_cast<double>(rng_.Next() >> 11) + 0.5) * 0x1p-53;
    const double r = std::sqrt(-2 * std::log(u1)), th = 6.283185307179586 * u2;
    spare_ = r * std::sin(th), has_spare_ = true;
    return r * std::cos(th);
  }

 private:
  EditRng rng_;
  double spare_ = 0;
  bool has_spare_ = false;
};

/// ||S||^2 and ||T||^2 of an N x N matrix (row-major entries).
std::pair<double, double> SplitNorms(const std::vector<double>& l, int64_t n) {
  double s2 = 0, t2 = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const double a = l[size_t(i * n + j)], b = l[size_t(j * n + i)];
      s2 += (a + b) * (a + b) / 4, t2 += (a - b) * (a - b) / 4;
    }
  return {s2, t2};
}

/// Bernstein's threshold for M samples of range 1, variance v, level delta.
double BernsteinEps(double m, double v, double delta) {
  const double l = std::log(2 / delta);
  return l / (3 * m) + std::sqrt(l * l / (9 * m * m) + 2 * v * l / m);
}

constexpr IntField kN{"N"}, kSeed{"seed"};
constexpr ScalarField kSigma{"sigma"};

/// Case: N, sigma (variance scale; the ratios do not depend on it), seed.
/// N in [1, max_n] (the Monte Carlo cost is M N^2 draws), drawn uniformly;
/// sigma a double in [2^-100, 2^100], > 0 (nondegenerate), drawn in
/// {1/2, 1, 2}; seed >= 0, drawn in [0, 2^40).
Domain GaussDomain(int64_t max_n) {
  Domain d;
  d.Int(kN, gen::UniformCount(1, max_n), 1, max_n);
  d.Scalar(kSigma,
           rc::gen::map(rc::gen::inRange<int>(0, 3), [](int s) { return Exact(std::ldexp(1.0, s - 1)); }),
           Admit::Within(0x1p100).NonzeroAtLeast(0x1p-100).Positive().Doubles());
  d.Int(kSeed, rc::gen::inRange<int64_t>(0, int64_t{1} << 40), 0, std::numeric_limits<int64_t>::max());
  return d;
}

struct GaussRatioExpectations : ClaimId<"profile.expect_iid_gauss.ratio_expectations"> {
  static constexpr int kSamples = 10000;

  static inline const Statistics kStatistics{kAlpha, "case", "Bernstein with the exact Beta variance", true, 0.99,
                                             "an error >= 0.0226 (N = 2) .. 0.0083 (N = 8) in the claimed mean",
                                             "M = 10000 draws of L per case"};

  template <class S> static Domain Hypotheses() { return GaussDomain(8); }

  template <class S> static void Conclusion(const In<S>& in) {
    const int64_t n = in[kN];
    const double sigma = in.exact(kSigma).ToDouble(), nd = static_cast<double>(n);
    Normals g(in[kSeed]);
    std::vector<double> l(size_t(n * n));
    double sum_r = 0, sum_a = 0;
    for (int s = 0; s < kSamples; ++s) {
      for (double& e : l) e = sigma * g.Next();
      const auto [s2, t2] = SplitNorms(l, n);
      sum_r += s2 / (s2 + t2), sum_a += t2 / (s2 + t2);
    }
    const double a = nd * (nd + 1) / 4, b = nd * (nd - 1) / 4;
    const double v = a * b / ((a + b) * (a + b) * (a + b + 1));
    const double eps = BernsteinEps(kSamples, v, kAlpha / 2) + 4 * kSamples * 0x1p-53;
    static const Tolerance kRatio{
        "|mean of ||S||^2/||L||^2 - (N+1)/(2N)|, |mean of a - (N-1)/(2N)|", "Bernstein eps (exact Beta variance)",
        "R ~ Beta(N(N+1)/4, N(N-1)/4) exactly; Bernstein at alpha_c = 5e-7 per check; sums of M terms in double "
        "(relative M u, far below eps)", MetricKind::kRounding};
    ExpectWithin(kRatio, std::abs(sum_r / kSamples - (nd + 1) / (2 * nd)), eps);
    ExpectWithin(kRatio, std::abs(sum_a / kSamples - (nd - 1) / (2 * nd)), eps);
  }
};
ATTNPROP_REGISTER(GaussRatioExpectations, double);

struct GaussKqExpectIndepOfN : ClaimId<"profile.gauss_KQ.expect_a_indep_of_n"> {
  static constexpr int kSamples = 50000;

  static inline const Statistics kStatistics{
      kAlpha, "case", "empirical Bernstein (Maurer-Pontil), delta = alpha/(2N) per n and estimator", true, 0.99,
      "an error >= 0.006-0.008 (the sign-averaged a_bar) and 0.012-0.014 (a itself) in the claimed mean 0.25-0.4 "
      "(N = 5 .. 2); at worst (V <= 1/4) 0.021",
      "M = 50000 draws of (W_K, W_Q) per case, shared by every n <= N"};

  template <class S> static Domain Hypotheses() { return GaussDomain(5); }

  template <class S> static void Conclusion(const In<S>& in) {
    const int64_t big_n = in[kN];
    const size_t nn = static_cast<size_t>(big_n);
    const double sigma = in.exact(kSigma).ToDouble(), nd = static_cast<double>(big_n);
    Normals g(in[kSeed]);
    const double delta = kAlpha / (2 * nd), m = kSamples, lg = std::log(4 / delta);
    // Per n: sums of a and a^2, and of the sign-averaged a_bar and a_bar^2.
    std::vector<double> sum(nn), sum2(nn), bar(nn), bar2(nn), l(nn * nn), k(nn), q(nn);
    for (int s = 0; s < kSamples; ++s) {
      // Row r of W_K and W_Q (v_K = sigma^2, v_Q = 4 sigma^2: different
      // variances; a is scale-free), added to L = sum_{r <= n} k_r^T q_r.
      std::fill(l.begin(), l.end(), 0.0);
      for (size_t n = 0; n < nn; ++n) {
        for (double& e : k) e = sigma * g.Next();
        for (double& e : q) e = 2 * sigma * g.Next();
        for (size_t i = 0; i < nn; ++i)
          for (size_t j = 0; j < nn; ++j) l[i * nn + j] += k[i] * q[j];
        const auto [s2, t2] = SplitNorms(l, big_n);
        double diag = 0;  // sum_i L_ii^2
        for (size_t i = 0; i < nn; ++i) diag += l[i * nn + i] * l[i * nn + i];
        const double f = s2 + t2, a = t2 / f, a_bar = std::clamp((f - diag) / (2 * f), 0.0, 0.5);
        sum[n] += a, sum2[n] += a * a, bar[n] += a_bar, bar2[n] += a_bar * a_bar;
      }
    }
    static const Tolerance kMean{
        "|mean of a(W_K^T W_Q) - (N-1)/(2N)| for each n <= N", "empirical Bernstein eps(V, delta = 1e-6/(2N))",
        "Maurer-Pontil Thm 4 for [0,1] values, two-sided; 1 - a is checked through the same samples ((N+1)/(2N))", MetricKind::kRounding};
    static const Tolerance kMeanBar{
        "|mean of a_bar(W_K^T W_Q) - (N-1)/(2N)| for each n <= N", "empirical Bernstein eps(V, delta = 1e-6/(2N))",
        "a_bar = E[a(D1 L D2) | L] over independent diagonal sign matrices (the law's symmetry), so E a_bar = E a; "
        "Maurer-Pontil Thm 4 as for a", MetricKind::kRounding};
    auto eps = [&](double s1, double s2) {
      const double mean = s1 / m, var = std::max(0.0, (s2 - m * mean * mean) / (m - 1));
      return std::sqrt(2 * var * lg / m) + 7 * lg / (3 * (m - 1)) + 4 * m * 0x1p-53;
    };
    const double target = (nd - 1) / (2 * nd);
    for (size_t n = 0; n < nn; ++n) {
      ExpectWithin(kMean, std::abs(sum[n] / m - target), eps(sum[n], sum2[n]));
      ExpectWithin(kMean, std::abs((1 - sum[n] / m) - (nd + 1) / (2 * nd)), eps(sum[n], sum2[n]));
      ExpectWithin(kMeanBar, std::abs(bar[n] / m - target), eps(bar[n], bar2[n]));
    }
  }
};
ATTNPROP_REGISTER(GaussKqExpectIndepOfN, double);

}  // namespace
}  // namespace attnprop
