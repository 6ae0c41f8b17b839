// The cases of the profile claims on a square L, drawn in every regime
// (gen::Layout: scales 2^-20..2^6, short to full-mantissa entries,
// structures) on one shrinkable axis N, so that dropping an index of N drops
// the row and column of every matrix at once.
#pragma once

#include <cstdint>

#include "generators/regime.h"
#include "properties/framework/case.h"
#include "properties/profile/profile_checks.h"

namespace attnprop {

/// N x N matrices X, Y and a shape index in [0, shapes); make(shape, X, Y)
/// returns L (rationals, exact), handed to backend S by DerivedArithFor<S>
/// (rounded once for double and float, exact for MPFR and rationals).
template <class S, class Make>
rc::Gen<Case> SquareCase(int64_t max_n, int shapes, Make make) {
  gen::Layout layout;
  const int n = layout.Axis({1, max_n, max_n});
  const gen::Regime regime = gen::RegimeFor<S>(gen::Regime{});
  const int x_m = layout.Matrix(n, n, regime), y_m = layout.Matrix(n, n, regime);
  const int shape_s = layout.Scalar(gen::UniformInteger(0, shapes - 1));
  return layout.Build<Case>([=](const gen::Layout::Drawn& d) {
    const int shape = static_cast<int>(d.Scalar(shape_s).ToDouble());
    const Mat<Rational> l = make(shape, Mat<Rational>(d.Matrix(x_m).As<Rational>()),
                                 Mat<Rational>(d.Matrix(y_m).As<Rational>()));
    return Case().Int("shape", shape).Matrix("L", gen::FromRationals(l, gen::DerivedArithFor<S>()));
  });
}

/// The parts of L = Q diag(lambda) Q^T + T: lambda (1 x N), the generators
/// K of Q and T (N x N, their strict upper triangles used) and a shape
/// index; make(shape, lambda, K, T) returns the case. lambda and T in every
/// regime (scales 2^-20..2^6, short to full mantissa, structures: a
/// dominant, a repeated or a zero eigenvalue, so clustered and singular
/// spectra); K in [-2, 2] at scales 2^-8..2^2 (the Cayley transform Q =
/// (I - K)(I + K)^-1 is O(N^3) in mpq and its numbers grow with K's bits;
/// Q is exactly orthogonal whatever K is, so this limits which rotations
/// occur, not the spectra or the entries' magnitudes).
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

}  // namespace attnprop
