// The profile lies in the 3-simplex (001_4e20808ed1137a14.txt, the faces
// paragraph: "Let L != 0 and pi(L) = (a,b,c,d). The coordinates are
// nonnegative and sum to one.").
//
// profile.simplex
//   Statement: for L != 0 in M_N(R), a, b, c, d >= 0 and a + b + c + d = 1.
//   Hypotheses: L != 0 (generated nonzero: no discards).
//   Double (N in [1,8]) and MPFR (N in [1,4]): dyadic L of five shapes
//   (general, symmetric, antisymmetric, PSD X X^T, rank one) so that the
//   faces a = 0, a = 1, b = 0 are visited; pi through the eigen-solver, its
//   error measured against rigorous enclosures (profile_checks.h). A failure
//   there is a candidate that intervals decide (the spectrum enclosed,
//   model/spectral_enclosure.h): the sum is certified off 1 or undecided.
//   Rational: the eigenvalues of sym(L) are irrational in general, so the
//   exact backend uses L whose symmetric part has a known rational spectrum:
//   L = Q diag(lambda) Q^T + T with Q = (I - K)(I + K)^{-1} (Cayley, K
//   antisymmetric rational: Q rational orthogonal), T antisymmetric; the
//   spectrum is certified exactly (rank(S - mu I) = N - mult(mu) for every
//   candidate mu, multiplicities summing to N) before pi is computed from it.
//   The hypotheses require the case's spectrum field to be certified for
//   sym(L) (a stored case without one is refused, not evaluated).
#include <algorithm>

#include "properties/profile/square_cases.h"
#include "generators/scalars.h"
#include "properties/framework/property.h"
#include "properties/profile/profile_checks.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

template <class S> constexpr int64_t kMaxN = SizeBudget<S>::Pick(8, 4);

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

/// Rationals: L = Q diag(lambda) Q^T + T, Q rational orthogonal (Cayley:
/// SpectralDomainParams), T antisymmetric; fields L, spectrum (lambda,
/// certified for sym(L) by the hypotheses).
Domain RationalDomain(int64_t max_n) {
  using profile::kSpectrum;
  Domain d;
  const SpectralParams p = SpectralDomainParams(d, max_n);
  auto parts = [p](const Domain::Drawn& in) {
    const Mat<Rational> lam = in.Param(p.lam).As<Rational>(), ku = in.Param(p.k).As<Rational>(),
                        tu = in.Param(p.t).As<Rational>();
    const Mat<Rational> q = Cayley(Antisymmetric(ku));
    Mat<Rational> l = q * lam.row(0).asDiagonal() * q.transpose() + Antisymmetric(tu), spectrum = lam;
    if (l.isZero()) {  // lambda = 0 and T = 0: make it L = diag(1, 0, ...).
      l(0, 0) = 1;
      spectrum(0, 0) = 1;
    }
    return std::make_pair(l, spectrum);
  };
  d.Built(kL, profile::kSquareN, profile::kSquareN, [parts](const Domain::Drawn& in) { return ToExact(parts(in).first); },
          Admit::Finite());
  d.Built(kSpectrum, profile::kSquareOne, profile::kSquareN,
          [parts](const Domain::Drawn& in) { return ToExact(parts(in).second); }, Admit::Finite());
  AssumeCertifiedSpectrum(d);
  return d;
}

struct ProfileSimplex : ClaimId<"profile.simplex"> {
  static inline const Tolerance kSum{
      "|a + b + c + d - 1|", "2 ProfileCoordinateBound(N, u, shift, 0) (0 in rationals)",
      "the exact coordinates sum to (||T||^2 + sum lambda_i^2)/||L||^2 = 1; the computed ones err by "
      "the bound of profile_checks.h with the measured eigenvalue error (sum of squared eigenvalues "
      "moves by <= 2 sqrt(N) eta ||L||^2, half the coordinate bound), plus gamma_3 for the final sum",
      MetricKind::kRounding};

  // Double, MPFR (FloatingDomain): L square (N >= 1), nonzero, finite,
  // nonzero |entries| in [2^-200, 2^200] (ProfileAdmit: the eigen-solver's
  // products stay normal); fields shape, L. Rationals (RationalDomain): L
  // nonzero with a spectrum certified for sym(L); fields L, spectrum.
  template <class S> static Domain Hypotheses() {
    if constexpr (ScalarTraits<S>::kExact) return RationalDomain(kMaxN<S>);
    else return FloatingDomain<S>(kMaxN<S>);
  }

  template <class S>
    requires(!ScalarTraits<S>::kExact)
  static void Conclusion(const In<S>& in) {
    const Mat<S> l = in[kL];
    const auto pi = ProfileMeasured<S>(l);
    ExpectThat(pi.has_value(), "eigen-solver did not converge");
    CheckSimplex<S>(pi->value, l.rows(), pi->eig_shift);
  }

  template <class S>
    requires ScalarTraits<S>::kExact
  static void Conclusion(const In<S>& in) {
    const Mat<S> l = in[kL];
    const Vec<S> spec = in[profile::kSpectrum].row(0).transpose();
    CheckSimplex<S>(ProfileFromSpectrum<S>(l, spec), l.rows(), 0);
  }

  template <class S>
  static void CheckSimplex(const ProfileValue<S>& pi, int64_t n, double eig_shift) {
    ExpectThat(pi.a >= 0 && pi.b >= 0 && pi.c >= 0 && pi.d >= 0, "negative coordinate: " + ProfileText(pi));
    const S sum = pi.a + pi.b + pi.c + pi.d;
    if constexpr (ScalarTraits<S>::kExact) ExpectThat(sum == 1, "a + b + c + d = " + sum.str() + " != 1");
    using std::abs;
    ExpectWithin<S>(kSum, S(abs(sum - 1)), S(2 * ProfileCoordinateBound(n, ScalarTraits<S>::UnitRoundoff(), eig_shift, 0)));
  }
};

ATTNPROP_REGISTER(ProfileSimplex, double, Mpfr, Interval, Rational);

}  // namespace
}  // namespace attnprop
