// The cases of the profile claims on a square L, drawn in every regime
// (gen::Layout: scales 2^-20..2^6, short to full-mantissa entries,
// structures) on one shrinkable axis N, so that dropping an index of N drops
// the row and column of every matrix at once.
#pragma once

#include <cstdint>

#include "generators/regime.h"
#include "properties/framework/case.h"
#include "properties/framework/domain.h"
#include "properties/profile/profile_checks.h"

namespace attnprop {

namespace profile {

/// The fields and axes of the square-L domains below.
constexpr Axis kSquareOne{"1"}, kSquareN{"N"};
constexpr IntField kShape{"shape"};
constexpr MatrixField kL{"L"}, kSpectrum{"spectrum"};

}  // namespace profile

/// Where a profile claim's entries may lie in backend S (ProfileDomain as an
/// Admit): rationals any finite value; double and MPFR nonzero |entries| in
/// [1/limit, limit], so that the products the checks form stay normal.
template <class S>
Admit ProfileAdmit(double limit) {
  if constexpr (ScalarTraits<S>::kExact) return Admit::Finite();
  else return Admit::Within(limit).NonzeroAtLeast(1 / limit);
}

/// Square L as a Domain: N in [1, max_n] (admitted up to the default cap),
/// the ingredients X, Y (N x N, in every regime for S), the int field
/// "shape" drawn uniformly in [0, drawn_shapes) and admitted in
/// [0, admitted_shapes), then L = make(shape, X, Y) (rationals, exact),
/// handed to backend S by DerivedArithFor<S> (rounded once for double and
/// float, exact for MPFR and rationals), its entries admitted by `admit`.
/// Fields: shape, L.
template <class S, class Make>
Domain SquareDomain(int64_t max_n, int drawn_shapes, int admitted_shapes, Make make, Admit admit) {
  using namespace profile;
  Domain d;
  d.Dim(kSquareN, {1, max_n, max_n});
  const gen::Regime regime = gen::RegimeFor<S>(gen::Regime{});
  const int x_m = d.Param(kSquareN, kSquareN, regime), y_m = d.Param(kSquareN, kSquareN, regime);
  d.Int(kShape, gen::UniformCount(0, drawn_shapes - 1), 0, admitted_shapes - 1);
  d.Built(
      kL, kSquareN, kSquareN,
      [=](const Domain::Drawn& in) {
        const int shape = static_cast<int>(in.fields()[kShape]);
        const Mat<Rational> l =
            make(shape, Mat<Rational>(in.Param(x_m).As<Rational>()), Mat<Rational>(in.Param(y_m).As<Rational>()));
        return gen::FromRationals(l, gen::DerivedArithFor<S>());
      },
      admit);
  return d;
}

/// The parts of L = Q diag(lambda) Q^T + T as domain parameters: lambda
/// (1 x N) and T in every regime (scales 2^-20..2^6, short to full mantissa,
/// structures: a dominant, a repeated or a zero eigenvalue, so clustered and
/// singular spectra); K, the generator of Q = Cayley(Antisymmetric(K)), in
/// [-2, 2] at scales 2^-8..2^2 (the Cayley transform is O(N^3) in mpq and
/// its numbers grow with K's bits; Q is exactly orthogonal whatever K is, so
/// this limits which rotations occur, not the spectra or the entries'
/// magnitudes). The caller builds its fields from them.
struct SpectralParams {
  int lam, k, t;
};
/// The antisymmetric matrix with strict upper triangle u's.
inline Mat<Rational> Antisymmetric(const Mat<Rational>& u) {
  const int64_t n = u.rows();
  Mat<Rational> k = Mat<Rational>::Zero(n, n);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i + 1; j < n; ++j) k(i, j) = u(i, j), k(j, i) = -u(i, j);
  return k;
}

/// The Cayley transform (I - K)(I + K)^-1 of an antisymmetric K: rational orthogonal.
inline Mat<Rational> Cayley(const Mat<Rational>& k) {
  const int64_t n = k.rows();
  const Mat<Rational> id = Mat<Rational>::Identity(n, n);
  return (id - k) * Eigen::FullPivLU<Mat<Rational>>(Mat<Rational>(id + k)).inverse();
}

/// The hypotheses of a domain with fields L and spectrum: L != 0 and the
/// spectrum certified for sym(L) (exactly).
inline void AssumeCertifiedSpectrum(Domain& d) {
  using profile::kL, profile::kSpectrum;
  d.Assume("L != 0", [](const Values& v) { return !Mat<Rational>(v[kL].As<Rational>()).isZero(); });
  d.Assume("spectrum is the spectrum of sym(L) (certified exactly)", [](const Values& v) {
    const Mat<Rational> l = v[kL].As<Rational>(), spec = v[kSpectrum].As<Rational>();
    return CertifySpectrum(SymmetricPart<Rational>(l), Vec<Rational>(spec.row(0).transpose()));
  });
}

inline SpectralParams SpectralDomainParams(Domain& d, int64_t max_n) {
  using namespace profile;
  d.Dim(kSquareOne, {1, 1, 1}, 1).Dim(kSquareN, {1, max_n, max_n});
  gen::Regime rotation;
  rotation.max_abs = 2, rotation.min_scale = -8, rotation.max_scale = 2;
  SpectralParams p;
  p.lam = d.Param(kSquareOne, kSquareN, gen::Regime{});
  p.k = d.Param(kSquareN, kSquareN, rotation);
  p.t = d.Param(kSquareN, kSquareN, gen::Regime{});
  return p;
}

}  // namespace attnprop
