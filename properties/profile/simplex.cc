// The profile lies in the 3-simplex (001_4e20808ed1137a14.txt, the faces
// paragraph: "Let L != 0 and pi(L) = (a,b,c,d). The coordinates are
// nonnegative and sum to one.").
//
// profile.simplex
//   Statement: for L != 0 in M_N(R), a, b, c, d >= 0 and a + b + c + d = 1.
//   Hypotheses: L != 0 (generated nonzero: no discards).
//   Double (N in [1,8]) and MPFR (N in [1,4]): dyadic L of five shapes
//   (general, symmetric, antisymmetric, PSD X X^T, rank one) so that the
//   faces a = 0, a = 1, b = 0 are visited; pi through the eigen-solver.
//   Rational: the eigenvalues of sym(L) are irrational in general, so the
//   exact backend uses L whose symmetric part has a known rational spectrum:
//   L = Q diag(lambda) Q^T + T with Q = (I - K)(I + K)^{-1} (Cayley, K
//   antisymmetric rational: Q rational orthogonal), T antisymmetric; the
//   spectrum is certified exactly (rank(S - mu I) = N - mult(mu) for every
//   candidate mu, multiplicities summing to N) before pi is computed from it.
//   A case without a certified spectrum is evaluated by the exact rank <= 2
//   route if it applies and discarded otherwise (stored cases only).
//   Double and MPFR declare their inputs as a Domain (FloatingDomain); the
//   rational backend keeps its generator and HypothesesHold (its optional
//   "spectrum" field is beyond a Domain).
#include <algorithm>

#include "properties/profile/square_cases.h"
#include "generators/scalars.h"
#include "properties/framework/property.h"
#include "properties/profile/profile_checks.h"

namespace attnprop {
namespace {

template <class S>
constexpr int64_t kMaxN = SizeBudget<S>::Pick(8, 4);

bool HasField(const Case& c, const std::string& name) {
  for (const auto& f : c.fields())
    if (f.first == name) return true;
  return false;
}

using profile::kL;

/// Double and MPFR: L of a chosen shape in every regime (SquareDomain),
/// nonzero; fields shape (in [0, 4]), L.
template <class S>
Domain FloatingDomain(int64_t max_n) {
  Domain d = SquareDomain<S>(
      max_n, 5, 5,
      [](int shape, const Mat<Rational>& x, const Mat<Rational>& y) {
        Mat<Rational> l;
        switch (shape) {
          case 1: l = x + x.transpose(); break;                // symmetric: a = 0
          case 2: l = x - x.transpose(); break;                // antisymmetric: a = 1
          case 3: l = x * x.transpose(); break;                // PSD: b = d = 0
          case 4: l = x.col(0) * y.col(0).transpose(); break;  // rank one
          default: l = x; break;
        }
        if (l.isZero()) l(0, 0) = 1;
        return l;
      },
      ProfileAdmit<S>(0x1p200));
  d.Assume("L != 0", [](const Values& v) { return !Mat<Rational>(v[kL].As<Rational>()).isZero(); });
  return d;
}

/// L = Q diag(lambda) Q^T + T, Q rational orthogonal (Cayley), with lambda.
rc::Gen<Case> RationalSpectrumCase(int64_t max_n) {
  return SpectralParts(max_n, 1, [](int, const Mat<Rational>& lam, const Mat<Rational>& ku, const Mat<Rational>& tu) {
    const int64_t n = lam.cols();
    Mat<Rational> k = Mat<Rational>::Zero(n, n), t = Mat<Rational>::Zero(n, n);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = i + 1; j < n; ++j) {
        k(i, j) = ku(i, j), k(j, i) = -ku(i, j);
        t(i, j) = tu(i, j), t(j, i) = -tu(i, j);
      }
    const Mat<Rational> id = Mat<Rational>::Identity(n, n);
    const Mat<Rational> q = (id - k) * Eigen::FullPivLU<Mat<Rational>>(Mat<Rational>(id + k)).inverse();
    Mat<Rational> l = q * lam.row(0).asDiagonal() * q.transpose() + t;
    Mat<Rational> spectrum = lam;
    if (l.isZero()) {  // lambda = 0 and T = 0: make it L = diag(1, 0, ...).
      l(0, 0) = 1;
      spectrum(0, 0) = 1;
    }
    return Case().Matrix("L", ToExact(l)).Matrix("spectrum", ToExact(spectrum));
  });
}

struct ProfileSimplex {
  static constexpr const char* kId = "profile.simplex";

  static inline const Tolerance kSum{
      "|a + b + c + d - 1|", "2 ProfileCoordinateBound(N, u, 0) (0 in rationals)",
      "the exact coordinates sum to (||T||^2 + sum lambda_i^2)/||L||^2 = 1; the computed ones err by "
      "the eigen-solver bound of profile_checks.h (sum of squared eigenvalues moves by <= 2 sqrt(N) "
      "eta ||L||^2, half the coordinate bound), plus gamma_3 for the final sum"};
  static std::vector<Tolerance> Tolerances() { return {kSum}; }

  // Double, MPFR (a Domain: FloatingDomain): L square (N >= 1), nonzero,
  // finite, nonzero |entries| in [2^-200, 2^200] (ProfileAdmit: the
  // eigen-solver's products stay normal); fields shape, L only.
  // Rationals (not a Domain: the "spectrum" field is optional, which a
  // Domain cannot express): L square (N >= 1), nonzero, finite; a
  // "spectrum" field, where present, certified for sym(L); without one,
  // rank(S) <= 2, the domain of the exact route ProfileRankTwoExact (the
  // check has no other exact spectrum).
  template <class S>
    requires ScalarTraits<S>::kExact
  static bool HypothesesHold(const Case& c) {
    const ExactMatrix& le = c.GetMatrix("L");
    if (le.rows != le.cols || le.rows < 1 || !ProfileDomain<S>(le, 0x1p200)) return false;
    const Mat<Rational> l = c.GetMat<Rational>("L");
    if (l.isZero()) return false;
    if (!HasField(c, "spectrum")) return ProfileRankTwoExact(l).has_value();
    const ExactMatrix& spec_e = c.GetMatrix("spectrum");
    if (!hyp::AllFinite(spec_e)) return false;
    const Mat<Rational> spec = c.GetMat<Rational>("spectrum");
    return spec.rows() == 1 && spec.cols() == l.rows() && CertifySpectrum(SymmetricPart<Rational>(l), spec.row(0).transpose());
  }

  template <class S>
  static auto Hypotheses() {
    if constexpr (ScalarTraits<S>::kExact) return RationalSpectrumCase(kMaxN<S>);
    else return FloatingDomain<S>(kMaxN<S>);
  }

  template <class S>
    requires(!ScalarTraits<S>::kExact)
  static void Conclusion(const In<S>& in) {
    const Mat<S> l = in[kL];
    const std::optional<ProfileValue<S>> pi = Profile<S>(l);
    ExpectThat(pi.has_value(), "eigen-solver did not converge");
    CheckSimplex<S>(*pi, l.rows());
  }

  template <class S>
    requires ScalarTraits<S>::kExact
  static void Conclusion(const Case& c) {
    const Mat<S> l = c.GetMat<S>("L");
    std::optional<ProfileValue<S>> pi;
    if (HasField(c, "spectrum")) {
      const Vec<S> spec = c.GetMat<S>("spectrum").row(0).transpose();
      ExpectThat(CertifySpectrum(SymmetricPart<S>(l), spec), "the stated spectrum of sym(L) is not certified");
      pi = ProfileFromSpectrum<S>(l, spec);
    } else {
      pi = ProfileRankTwoExact(l);
      RC_PRE(pi.has_value());  // no exact spectrum available for this stored case
    }
    CheckSimplex<S>(*pi, l.rows());
  }

  template <class S>
  static void CheckSimplex(const ProfileValue<S>& pi, int64_t n) {
    ExpectThat(pi.a >= 0 && pi.b >= 0 && pi.c >= 0 && pi.d >= 0, "negative coordinate: " + ProfileText(pi));
    const S sum = pi.a + pi.b + pi.c + pi.d;
    if constexpr (ScalarTraits<S>::kExact) ExpectThat(sum == 1, "a + b + c + d = " + sum.str() + " != 1");
    using std::abs;
    ExpectWithin(kSum, ToDouble(S(abs(sum - 1))), 2 * ProfileCoordinateBound(n, ScalarTraits<S>::UnitRoundoff(), 0));
  }
};

ATTNPROP_REGISTER(ProfileSimplex, double, Mpfr, Rational);

}  // namespace
}  // namespace attnprop
