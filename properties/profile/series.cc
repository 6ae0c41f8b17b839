// The power-series identities of Lambda_m and their matrix form
// (001_4e20808ed1137a14.txt, "Every lambda in Lambda_m has |lambda_i| < 1.
// Writing n = 2m, [elided] and both series converge absolutely. Moreover,
// [elided]" and "If a symmetric matrix A has spectrum lambda, with
// multiplicity, then [elided]"). Both displays are elided: the candidates of
// shared/claims/CATALOG.md, each a labelled reconstruction:
//
// profile.Lambda.series_identities (with p_j = sum_i lambda_i^j)
//   -1/2 sum_i log(1 - lambda_i^2) = sum_{k>=1} p_{2k}/(2k),
//   sum_i artanh(lambda_i) = sum_{k>=0} p_{2k+1}/(2k+1),
//   and absolute convergence: sum_j |p_j|/j <= -sum_i log(1 - |lambda_i|).
// profile.spectral_matrix_formula (the trace / log-determinant analogues)
//   -1/2 log det(I - A^2) = sum_{k>=1} tr(A^{2k})/(2k),
//   1/2 log det((I + A)(I - A)^{-1}) = sum_{k>=0} tr(A^{2k+1})/(2k+1),
//   for symmetric A with spectrum lambda in Lambda_m: A = Q diag(lambda) Q^T
//   (Cayley Q, rational; the spectrum certified exactly); the determinants
//   exactly in rationals from the matrix, the traces from matrix powers.
// Truncation after K terms (both series): the omitted terms are bounded by
//   sum_i sum_{j>K} |lambda_i|^j / j <= sum_i |lambda_i|^{K+1} / ((K+1)(1 - |lambda_i|)),
// and the sums run until this tail bound is below tau (1 + |the sums|): tau
// = u in double, 2^-100 in MPFR (scalar series), 2^-64 (matrix form); the
// tolerance is that tail plus the rounding of both sides, and a check
// asserts the tail reached tau (no silent cap on K).
// Cases: lambda in Lambda_m as in lambda_checks.h, but with p at scales
// 2^-2 .. 2^1 (SeriesRegime): every regime's 2^-20 .. 2^6 puts most points
// within 2^-10 of a pole |lambda_i| = 1, where the series cannot be summed
// to a small tail. So 1 - max|lambda_i| spreads over [2^-10, 1 - 1/sqrt(2m)]
// (a point's largest entry is >= 1/sqrt(2m)), and the domain is narrowed,
// as computability: 1 - max_i |lambda_i| >= 2^-10 (scalar series, K up to
// about 7 10^4 terms) or >= 2^-6 (matrix form, one MPFR matrix product per
// term, K up to about 2600): points nearer a pole are outside.
#include <cmath>

#include <Eigen/LU>

#include "generators/matrices.h"
#include "model/profile.h"
#include "properties/profile/lambda_checks.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

/// p's regime for the series claims (header): scales 2^-2 .. 2^1.
gen::Regime SeriesRegime() {
  gen::Regime r;
  r.min_scale = -2, r.max_scale = 1;
  return r;
}

/// The computability condition of the header, exactly: 1 - max_i |lambda_i|
/// >= 1/inverse_gap.
void AssumeGap(Domain& d, int64_t inverse_gap) {
  d.Assume("(computability) 1 - max_i |lambda_i| >= 1/" + std::to_string(inverse_gap) +
               " (the series summed until the tail is small: header)",
           [inverse_gap](const Values& v) {
             const Mat<Rational> lam = v[profile::kLambda].As<Rational>();
             const Rational bound = 1 - Rational(1, inverse_gap);
             for (Eigen::Index i = 0; i < lam.size(); ++i)
               if (abs(lam(i)) > bound) return false;
             return true;
           });
}

/// The tail bound after K terms, for the values |lambda_i| (in MPFR).
template <class S>
Mpfr SeriesTail(const Vec<S>& lam, int64_t k) {
  Mpfr tail = 0;
  for (Eigen::Index i = 0; i < lam.size(); ++i) {
    const Mpfr a = abs(Mpfr(lam[i]));
    tail += pow(a, static_cast<double>(k + 1)) / (Mpfr(double(k + 1)) * (1 - a));
  }
  return tail;
}

/// artanh(x) = sign(x) 1/2 log1p(2|x|/(1-|x|)): argument within 3u
/// relatively (1-|x|, the product, the quotient), which moves log1p by <= 3u;
/// log1p within 0.83 ulp (glibc; MPFR correctly rounded): |err| <= 2u +
/// 1.01 (2u) |artanh x|.
template <class S>
S Artanh(const S& x) {
  using std::log1p;
  const S a = abs(x);
  const S r = log1p(S(2 * a / (1 - a))) / 2;
  return x < 0 ? S(-r) : r;
}

struct SeriesIdentities : ClaimId<"profile.Lambda.series_identities"> {
  // lambda in Lambda_m, m in [1, 5] (MPFR [1, 4]), p in SeriesRegime;
  // nonzero entries in [2^-200, 2^200] (ProfileDomain); 1 - max|lambda_i| >=
  // 2^-10 (header).
  template <class S> static Domain Hypotheses() {
    Domain d = LambdaDomain(SizeBudget<S>::Pick(5, 4), Admit::Within(0x1p200).NonzeroAtLeast(0x1p-200), SeriesRegime());
    AssumeGap(d, 1024);
    return d;
  }
  template <class S> static void Conclusion(const In<S>& in) {
    using std::log1p;
    const Vec<S> lam = GetLambda<S>(in);
    const Eigen::Index n = lam.size();
    const double u = ScalarTraits<S>::UnitRoundoff(), nd = static_cast<double>(n);
    S lhs_even = 0, lhs_odd = 0, dominant = 0;
    double err_even = 0, err_odd = 0, err_dom = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
      const S sq = lam[i] * lam[i], l1 = log1p(S(-sq));
      lhs_even -= l1 / 2;
      err_even += ToDouble(S((1.01 * u * sq / (1 - sq) + 2 * u * abs(l1)) / 2));
      const S at = Artanh<S>(lam[i]);
      lhs_odd += at;
      err_odd += 2 * u + 2.02 * u * ToDouble(S(abs(at)));
      const S ld = log1p(S(-abs(lam[i])));
      dominant -= ld;
      err_dom += ToDouble(S(1.01 * u * abs(lam[i]) / (1 - abs(lam[i])) + 2 * u * abs(ld)));
    }
    err_even += Gamma(nd, u) * ToDouble(lhs_even), err_odd += Gamma(nd, u) * ToDouble(S(abs(lhs_odd)));
    err_dom += Gamma(nd, u) * ToDouble(dominant);
    // The series, until the tail is below tau (1 + |sums|) (header); K_max
    // = 2^17 is above the K that the domain's gap 2^-10 needs (about 3.4
    // 10^4 for tau = u, 6.7 10^4 for tau = 2^-100).
    const double tau = std::is_same_v<S, double> ? u : 0x1p-100;
    const int64_t k_max = int64_t{1} << 17;
    Vec<S> w = Vec<S>::Ones(n);
    S even = 0, odd = 0, absolute = 0;
    Mpfr magnitude = 0;
    int64_t k = 0;
    Mpfr tail = SeriesTail<S>(lam, 0);
    while (k < k_max && tail > tau * (1 + ToDouble(S(abs(even) + abs(odd))))) {
      ++k;
      S p = 0, pa = 0;
      for (Eigen::Index i = 0; i < n; ++i) w[i] *= lam[i], p += w[i], pa += abs(w[i]);
      const S term = p / S(double(k));
      if (k % 2 == 0) even += term;
      else odd += term;
      absolute += abs(term);
      magnitude += Mpfr(pa) / k;
      if (k % 64 == 0 || k == k_max) tail = SeriesTail<S>(lam, k);
    }
    tail = SeriesTail<S>(lam, k);
    ExpectThat(tail <= tau * (1 + ToDouble(S(abs(even) + abs(odd)))),
               "the tail bound did not reach tau within K_max terms: the tolerance would not be small");
    const double series_err = ToDouble(Mpfr(Gamma(double(2 * k) + nd, u) * magnitude));
    static const Tolerance kEven{
        "|-1/2 sum log(1 - l_i^2) - sum_k p_2k/(2k)|", "tail_K + rounding of both sides",
        "tail after K terms (header); log1p(-fl(l^2)) within 1.01 u l^2/(1-l^2) + 2u|log1p| per entry, halved, "
        "n-term sum gamma_n; the series: powers, n-term sums, divisions and <= K additions within "
        "gamma_{2K+n} sum_j P_j/j, P_j = sum_i |l_i|^j", MetricKind::kRounding};
    ExpectWithin(kEven, ToDouble(Mpfr(abs(Mpfr(lhs_even) - Mpfr(even)))), ToDouble(Mpfr(tail + err_even + series_err)));
    static const Tolerance kOdd{
        "|sum artanh l_i - sum_k p_{2k+1}/(2k+1)|", "tail_K + rounding of both sides",
        "as the even series; artanh within 2u + 2.02u|artanh| per entry (Artanh above)", MetricKind::kRounding};
    ExpectWithin(kOdd, ToDouble(Mpfr(abs(Mpfr(lhs_odd) - Mpfr(odd)))), ToDouble(Mpfr(tail + err_odd + series_err)));
    static const Tolerance kAbsolute{
        "sum_{j<=K} |p_j|/j against -sum_i log(1 - |l_i|)", "-sum_i log(1-|l_i|) + rounding",
        "sum_j |p_j|/j <= sum_i sum_j |l_i|^j/j = -sum_i log(1-|l_i|) (absolute convergence); rounding as above",
        MetricKind::kClaim};
    ExpectWithin(kAbsolute, Mpfr(absolute), Mpfr(Mpfr(dominant) + err_dom + series_err));
  }
};
ATTNPROP_REGISTER(SeriesIdentities, double, Mpfr);

constexpr MatrixField kA{"A"};

struct SpectralMatrixFormula : ClaimId<"profile.spectral_matrix_formula"> {
  static constexpr int64_t kMaxTerms = 8192;  // above the K that the gap 2^-6 needs (about 2600)

  // lambda in Lambda_m (m <= 4), p in SeriesRegime, 1 - max|lambda_i| >=
  // 2^-6 (header); A symmetric, 2m x 2m (lambda's length),
  // with spectrum lambda (certified exactly: the kernel dimensions of A -
  // lambda_i I). Drawn: lambda as in LambdaDomain; A = Q diag(lambda) Q^T
  // with Q = (I - K)(I + K)^{-1} exactly (Cayley), K antisymmetric from the
  // strict upper triangle of a 2m x 2m matrix of entries SimpleDyadic(1, 1)
  // (gen::Orthogonal's law), held as a stack of 2 x m blocks indexed by
  // (2, m): block (a, i) is row a m + i, so dropping an index of m drops the
  // matching rows and columns of K.
  template <class S> static Domain Hypotheses() {
    using namespace profile;
    Domain d = LambdaDomain(4, Admit::Finite(), SeriesRegime());
    AssumeGap(d, 64);
    const int k_p = d.Param({kLambdaPair, kLambdaM}, kLambdaPair, kLambdaM, gen::SimpleDyadic(1, 1));
    d.Built(
        kA, kLambdaLen, kLambdaLen,
        [k_p](const Domain::Drawn& in) {
          const Mat<Rational> lam = in.fields()[kLambda].As<Rational>();
          const int64_t n = lam.cols(), m = n / 2;
          Mat<Rational> k = Mat<Rational>::Zero(n, n);
          for (int64_t a = 0; a < 2; ++a)
            for (int64_t i = 0; i < m; ++i) {
              const ExactMatrix block = in.Param(k_p, {a, i});
              for (int64_t b = 0; b < 2; ++b)
                for (int64_t j = 0; j < m; ++j) {
                  const int64_t r = a * m + i, col = b * m + j;
                  if (col > r) k(r, col) = block(b, j).ToRational(), k(col, r) = -k(r, col);
                }
            }
          const Mat<Rational> q = gen::Cayley(k);
          return ToExact(Mat<Rational>(q * lam.row(0).asDiagonal() * q.transpose()));
        },
        Admit::Finite());
    d.Assume("A symmetric with spectrum lambda (with multiplicity)", [](const Values& v) {
      const Mat<Rational> a = v[kA].As<Rational>();
      const Vec<Rational> lam = Mat<Rational>(v[kLambda].As<Rational>()).row(0).transpose();
      return a == a.transpose() && CertifySpectrum(a, lam);
    });
    return d;
  }

  template <class S> static void Conclusion(const In<S>& in) {
    static_assert(std::is_same_v<S, Mpfr>, "determinants exact, series in MPFR");
    using std::log;
    const Mat<Rational> ar = in.exact(kA).template As<Rational>();
    const Eigen::Index n = ar.rows();
    const Mat<Rational> id = Mat<Rational>::Identity(n, n);
    const Rational d_minus = Eigen::FullPivLU<Mat<Rational>>(Mat<Rational>(id - ar)).determinant(),
                   d_plus = Eigen::FullPivLU<Mat<Rational>>(Mat<Rational>(id + ar)).determinant();
    const Mpfr lhs_even = -log(Mpfr(Rational(d_minus * d_plus))) / 2, lhs_odd = log(Mpfr(Rational(d_plus / d_minus))) / 2;
    const Mat<Mpfr> a = in[kA];
    const Vec<Mpfr> lam = GetLambda<Mpfr>(in);
    // The series until the tail bound is below 2^-64 (1 + |sums|) (header).
    const double tau = 0x1p-64;
    Mat<Mpfr> power = Mat<Mpfr>::Identity(n, n);
    Mpfr even = 0, odd = 0, tail = SeriesTail<Mpfr>(lam, 0);
    int64_t k = 0;
    while (k < kMaxTerms && tail > tau * (1 + abs(even) + abs(odd))) {
      ++k;
      power = Mat<Mpfr>(power * a);
      const Mpfr term = power.trace() / Mpfr(double(k));
      if (k % 2 == 0) even += term;
      else odd += term;
      if (k % 64 == 0) tail = SeriesTail<Mpfr>(lam, k);
    }
    tail = SeriesTail<Mpfr>(lam, k);
    ExpectThat(tail <= tau * (1 + abs(even) + abs(odd)),
               "the tail bound did not reach 2^-64 within K_max terms: the tolerance would not be small");
    const double u = ScalarTraits<Mpfr>::UnitRoundoff(), nd = static_cast<double>(n), kd = static_cast<double>(k);
    const Mpfr lmax = lam.cwiseAbs().maxCoeff() + u;
    const Mpfr common = tail + 2 * nd * u / (1 - lmax * lmax) + 2 * kd * nd * Gamma(kd * nd, u);
    static const Tolerance kLogDet{
        "|-1/2 log det(I - A^2) - sum_k tr(A^2k)/(2k)|", "tail_K + 2n u/(1 - l_max'^2) + 2 K n gamma_{Kn} + 2u|lhs|",
        "det exact (rationals), log correctly rounded; A rounded once to MPFR moves its spectrum by <= u ||A||_F = u "
        "(Weyl), each log term by <= u/(1 - l^2); tr(fl(A^j)) within gamma_{jn} tr|A|^j <= gamma_{jn} n", MetricKind::kRounding};
    ExpectWithin(kLogDet, ToDouble(Mpfr(abs(lhs_even - even))), ToDouble(Mpfr(common + 2 * u * abs(lhs_even))));
    static const Tolerance kArtanh{
        "|1/2 log det((I+A)(I-A)^-1) - sum_k tr(A^{2k+1})/(2k+1)|", "as the log-determinant",
        "the same chain with d artanh = 1/(1 - l^2)", MetricKind::kRounding};
    ExpectWithin(kArtanh, ToDouble(Mpfr(abs(lhs_odd - odd))), ToDouble(Mpfr(common + 2 * u * abs(lhs_odd))));
  }
};
ATTNPROP_REGISTER(SpectralMatrixFormula, Mpfr);

}  // namespace
}  // namespace attnprop
