// SymmetricProfileFromSpectrum (model/profile.h), the profile of a symmetric
// matrix too large to form (profile.symmetric_limit_curve), against the
// matrix route: for rational spectra with zeros, repeats and both signs, in
// any order, it equals exactly (in rationals) ProfileFromSpectrum of the
// diagonal matrix with that spectrum, and ProfileRankTwoExact where S has
// rank <= 2.
#include <gtest/gtest.h>

#include <vector>

#include "model/profile.h"

namespace attnprop {
namespace {

TEST(SymmetricProfileFromSpectrum, EqualsTheMatrixRouteExactly) {
  uint64_t state = 12345;
  auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int64_t>(state >> 59);  // 0..31
  };
  for (int c = 0; c < 300; ++c) {
    const int64_t n = 1 + next() % 9;
    std::vector<Rational> eig;
    for (int64_t i = 0; i < n; ++i) eig.push_back(Rational(next() % 7 - 3, 1 + next() % 4));
    if (c % 3 == 0) eig[0] = 0;
    bool nonzero = false;
    for (const Rational& e : eig) nonzero = nonzero || e != 0;
    if (!nonzero) eig[0] = 1;
    Mat<Rational> l = Mat<Rational>::Zero(n, n);
    Vec<Rational> spectrum(n);
    for (int64_t i = 0; i < n; ++i) l(i, i) = spectrum[i] = eig[static_cast<size_t>(i)];
    const ProfileValue<Rational> fast = SymmetricProfileFromSpectrum<Rational>(eig);
    const ProfileValue<Rational> slow = ProfileFromSpectrum<Rational>(l, spectrum);
    EXPECT_TRUE(fast.a == slow.a && fast.b == slow.b && fast.c == slow.c && fast.d == slow.d) << "case " << c;
    EXPECT_TRUE(fast.a == 0) << "case " << c;
    if (const auto exact = ProfileRankTwoExact(l)) {
      EXPECT_TRUE(fast.b == exact->b && fast.c == exact->c && fast.d == exact->d) << "case " << c;
    }
  }
}

}  // namespace
}  // namespace attnprop
