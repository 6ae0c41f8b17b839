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
//   delta)/M) + 7 ln(4/delta)/(3(M-1)), V the sample variance; N checks per
//   case (every n <= N), delta = alpha/N, alpha = 1e-6 per case.
//   Power (M = 4000): at worst (V <= 1/4) the threshold is <= 0.057, so an
//   error >= 0.056 + sqrt(ln(200)/(2M)) = 0.081 is caught with probability
//   >= 0.99 (Hoeffding); at sample variances V = 0.01-0.03
//   the threshold is 0.019-0.026 (power about 0.045-0.05).
#include <cmath>
#include <cstdint>
#include <limits>

#include "properties/framework/case_edit.h"
#include "properties/profile/lambda_checks.h"

namespace attnprop {
namespace {

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
        "(relative M u, far below eps)"};
    ExpectWithin(kRatio, std::abs(sum_r / kSamples - (nd + 1) / (2 * nd)), eps);
    ExpectWithin(kRatio, std::abs(sum_a / kSamples - (nd - 1) / (2 * nd)), eps);
  }
};
ATTNPROP_REGISTER(GaussRatioExpectations, double);

struct GaussKqExpectIndepOfN : ClaimId<"profile.gauss_KQ.expect_a_indep_of_n"> {
  static constexpr int kSamples = 4000;

  static inline const Statistics kStatistics{
      kAlpha, "case", "empirical Bernstein (Maurer-Pontil), delta = alpha/N per n", true, 0.99,
      "an error >= 0.081 at worst (V <= 1/4), about 0.045-0.05 at V = 0.01-0.03", "M = 4000 draws per (N, n)"};

  template <class S> static Domain Hypotheses() { return GaussDomain(5); }

  template <class S> static void Conclusion(const In<S>& in) {
    const int64_t big_n = in[kN];
    const double sigma = in.exact(kSigma).ToDouble(), nd = static_cast<double>(big_n);
    Normals g(in[kSeed]);
    const double delta = kAlpha / nd, m = kSamples, lg = std::log(4 / delta);
    for (int64_t n = 1; n <= big_n; ++n) {
      // v_K = sigma^2, v_Q = 4 sigma^2 (different variances; a is scale-free).
      std::vector<double> wk(size_t(n * big_n)), wq(size_t(n * big_n)), l(size_t(big_n * big_n));
      double sum = 0, sum2 = 0;
      for (int s = 0; s < kSamples; ++s) {
        for (double& e : wk) e = sigma * g.Next();
        for (double& e : wq) e = 2 * sigma * g.Next();
        for (int64_t i = 0; i < big_n; ++i)
          for (int64_t j = 0; j < big_n; ++j) {
            double acc = 0;
            for (int64_t r = 0; r < n; ++r) acc += wk[size_t(r * big_n + i)] * wq[size_t(r * big_n + j)];
            l[size_t(i * big_n + j)] = acc;
          }
        const auto [s2, t2] = SplitNorms(l, big_n);
        const double a = t2 / (s2 + t2);
        sum += a, sum2 += a * a;
      }
      const double mean = sum / m, var = std::max(0.0, (sum2 - m * mean * mean) / (m - 1));
      const double eps = std::sqrt(2 * var * lg / m) + 7 * lg / (3 * (m - 1)) + 4 * m * 0x1p-53;
      static const Tolerance kMean{
          "|mean of a(W_K^T W_Q) - (N-1)/(2N)| for each n <= N", "empirical Bernstein eps(V, delta = 1e-6/N)",
          "Maurer-Pontil Thm 4 for [0,1] values, two-sided; 1 - a is checked through the same samples ((N+1)/(2N))"};
      ExpectWithin(kMean, std::abs(mean - (nd - 1) / (2 * nd)), eps);
      ExpectWithin(kMean, std::abs((1 - mean) - (nd + 1) / (2 * nd)), eps);
    }
  }
};
ATTNPROP_REGISTER(GaussKqExpectIndepOfN, double);

}  // namespace
}  // namespace attnprop
