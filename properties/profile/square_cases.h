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

/// The parts of L = Q diag(lambda) Q^T + T: lambda (1 x N), the generators
/// K of Q and T (N x N, their strict upper triangles used) and a shape
/// index; make(shape, lambda, K, T) returns the case. lambda and T in every
/// regime (scales 2^-20..2^6, short to full mantissa, structures: a
/// dominant, a repeated or a zero eigenvalue, so clustered and singular
/// spectra); K in [-2, 2] at scales 2^-8..2^2 (the Cayley transform Q =
/// (I - K)(I + K)^-1 is O(N^3) in mpq and its numbers grow with K's bits;
/// Q is exactly orthogonal whatever K is, so this limits which rotations
/// occur, not the spectra or the entries' magnitudes). The rational cases of
/// profile.simplex (not over a Domain); SpectralDomainParams below declares
/// the same ingredients in a Domain.
template <class Make>
rc::Gen<Case> SpectralParts(int64_t max_n, int shapes, Make make) {
  gen::Layout layout;
  const int one = layout.Axis({1, 1, 1}), n = layout.Axis({1, max_n, max_n});
  gen::Regime rotation;
  rotation.max_abs = 2, rotation.min_scale = -8, rotation.max_scale = 2;
  const int lam_m = layout.Matrix(one, n, gen::Regime{}), k_m = layout.Matrix(n, n, rotation),
            t_m = layout.Matrix(n, n, gen::Regime{});
  const int shape_s = layout.Scalar(gen::UniformInteger(0, shapes - 1));
  return layout.Build<Case>([=](const gen::Layout::Drawn& d) {
    return make(static_cast<int>(d.Scalar(shape_s).ToDouble()), Mat<Rational>(d.Matrix(lam_m).As<Rational>()),
                Mat<Rational>(d.Matrix(k_m).As<Rational>()), Mat<Rational>(d.Matrix(t_m).As<Rational>()));
  });
}

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

/// SpectralParts' ingredients as domain parameters, in its order: lambda
/// (1 x N) and T in every regime, K in the rotation regime (SpectralParts'
/// comment); the caller declares the shape field after them (its draw
/// follows theirs, as SpectralParts' scalar did) and builds its fields.
struct SpectralParams {
  int lam, k, t;
};
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
