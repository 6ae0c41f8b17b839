// The eigen-solver's backward-error constant p(N) = EigenBackwardConstant
// (profile_checks.h), which every spectral profile bound rests on, tested
// where it could be too tight (issue 13): symmetric S drawn by gen::Layout
// (scales 2^-20..2^6, short to full-mantissa entries, the regime
// structures) in five shapes -- dense sym(X); a cluster c I + sym(X) with c
// 2^20 times the largest entry (eigenvalues equal to 20 bits); graded D
// sym(X) D, D = diag(2^-6i) (near-singular, entries over 2^-180); rank two
// plus 2^-30 sym(X) (near-rank-deficient); and a rank-one x x^T with tiny
// noise (one eigenvalue dominant) -- rounded once to double. The solver's
// eigenvalues in double are compared, sorted, with those of the same double
// matrix in 256-bit MPFR (its input exact; its own error ~1e-70 relative):
// Weyl gives |computed_i - exact_i| <= ||E||_2 <= p(N) u ||S||_2 when the
// computed eigenvalues are exact for S + E. The test fails when some case
// needs a larger constant, and also when the constant is more than the
// audit's LOOSE factor above the largest error seen (then it says nothing).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "generators/regime.h"
#include "generators/tests/test_util.h"
#include "model/profile.h"
#include "properties/profile/profile_checks.h"
#include "reports/report.h"

namespace attnprop {
namespace {

constexpr int kShapes = 5;
constexpr int64_t kMaxN = 16;
constexpr int kCases = 2000;

struct Symmetric {
  Mat<double> s;
  int shape = 0;
};

rc::Gen<Symmetric> SymmetricCases() {
  gen::Layout layout;
  const int n = layout.Axis({1, kMaxN, kMaxN});
  const int x_m = layout.Matrix(n, n, gen::Regime{}), y_m = layout.Matrix(n, n, gen::Regime{});
  const int shape_s = layout.Scalar(gen::UniformInteger(0, kShapes - 1));
  return layout.Build<Symmetric>([=](const gen::Layout::Drawn& d) {
    const int shape = static_cast<int>(d.Scalar(shape_s).ToDouble());
    const Mat<Rational> x = d.Matrix(x_m).As<Rational>(), y = d.Matrix(y_m).As<Rational>();
    const Eigen::Index size = x.rows();
    const Mat<Rational> sym = x + x.transpose();
    Mat<Rational> s = sym;
    Rational top = 0;
    for (Eigen::Index i = 0; i < size; ++i)
      for (Eigen::Index j = 0; j < size; ++j) top = std::max<Rational>(top, abs(Rational(sym(i, j))));
    const Mat<Rational> id = Mat<Rational>::Identity(size, size);
    if (shape == 1) s = id * (top == 0 ? Rational(1) : top) * Rational(1 << 20) + sym;
    if (shape == 2) {
      Mat<Rational> grade = Mat<Rational>::Zero(size, size);
      for (Eigen::Index i = 0; i < size; ++i) grade(i, i) = Rational(1) / Rational(int64_t{1} << (6 * (i % 10)));
      s = grade * sym * grade;
    }
    if (shape == 3 || shape == 4) {
      const Mat<Rational> a = y.col(0), b = y.col(size > 1 ? 1 : 0);
      s = a * a.transpose() + sym / Rational(int64_t{1} << 30);
      if (shape == 3) s -= b * b.transpose();
    }
    return Symmetric{gen::FromRationals(s, gen::Arith::kRoundToDouble).As<double>(), shape};
  });
}

struct Observed {
  double ratio = 0;   // max_i |computed - exact| / (p(N) u ||S||_2)
  double needed = 0;  // the constant this case needs: max_i |computed - exact| / (u ||S||_2)
};

/// nullopt when either solver reports no convergence (never seen; counted).
std::optional<Observed> Check(const Mat<double>& s) {
  const auto computed = SymmetricEigenvalues<double>(s);
  MpfrPrecisionScope bits(256);
  const auto exact = SymmetricEigenvalues<Mpfr>(Mat<Mpfr>(s.cast<Mpfr>()));
  if (!computed || !exact) return std::nullopt;
  double norm = 0, err = 0;
  for (Eigen::Index i = 0; i < s.rows(); ++i) {
    const double e = ToDouble((*exact)[i]);
    norm = std::max(norm, std::abs(e));
    err = std::max(err, std::abs((*computed)[i] - e));
  }
  if (norm == 0) return Observed{};
  const double u = 0x1p-53;
  return Observed{err / (EigenBackwardConstant(s.rows()) * u * norm), err / (u * norm)};
}

TEST(EigenBackwardConstant, BoundsTheSolverInEveryRegimeAndIsNotLoose) {
  const std::vector<Symmetric> cases = gen::testing::Sample(SymmetricCases(), kCases);
  std::map<int, int> shapes;
  std::map<int64_t, double> needed;  // per N
  double worst = 0;
  int unconverged = 0;
  for (const Symmetric& c : cases) {
    ++shapes[c.shape];
    const auto o = Check(c.s);
    if (!o) {
      ++unconverged;
      continue;
    }
    EXPECT_LE(o->ratio, 1.0) << "shape " << c.shape << ", N = " << c.s.rows() << ": the solver needs p(N) >= "
                             << o->needed << ", EigenBackwardConstant gives " << EigenBackwardConstant(c.s.rows());
    worst = std::max(worst, o->ratio);
    needed[c.s.rows()] = std::max(needed[c.s.rows()], o->needed);
  }
  EXPECT_EQ(unconverged, 0);
  for (int k = 0; k < kShapes; ++k) EXPECT_GE(shapes[k], kCases / kShapes / 2) << "shape " << k << " drawn";
  EXPECT_GE(needed.size(), 8u) << "dimensions 1..16 reached";
  EXPECT_GE(worst, 1 / report::kLooseFactor) << "the constant is more than the LOOSE factor above every error seen";
  for (const auto& [n, p] : needed)
    std::printf("N = %2lld: largest error %.3g u ||S||_2, p(N) = %.0f\n", static_cast<long long>(n), p,
                EigenBackwardConstant(n));
  std::printf("worst error / (p(N) u ||S||_2) = %.3g\n", worst);
}

}  // namespace
}  // namespace attnprop
