// Structured matrices: the structure holds exactly in mpq (kExact) and
// within the derived bound, written beside each check, after rounding to
// double (kRoundToDouble); shrunk values keep the structure; shrink targets.
#include "generators/matrices.h"

#include <gtest/gtest.h>

#include <Eigen/LU>
#include <cmath>

#include "generators/tests/test_util.h"

namespace attnprop::gen {
namespace {

using Q = attnprop::Rational;
using testing::Sample;
using testing::SampleShrinkables;
using testing::ShrinkFully;
using testing::WalkShrinks;

constexpr double kU = 0x1p-53;  // unit roundoff of double

// max_ij |A_ij - B_ij| computed exactly.
Q MaxAbsDiff(const Mat<Q>& a, const Mat<Q>& b) {
  Q m = 0;
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < a.cols(); ++j) m = std::max(m, Q(abs(a(i, j) - b(i, j))));
  return m;
}

bool AllDoubles(const ExactMatrix& m) {
  for (const Exact& x : m.data)
    if (!x.IsDouble()) return false;
  return true;
}

// Runs check on a default run (cases, sizes 0..99) and on random shrink
// paths from some of them: shrunk values must keep every promise.
template <class T>
void CheckRunAndShrinks(const rc::Gen<T>& gen, const std::function<void(const T&)>& check, int cases = 100,
                        int walked = 6) {
  const auto samples = SampleShrinkables(gen, cases);
  for (const auto& s : samples) check(s.value());
  for (int i = 0; i < walked && i < cases; ++i)
    WalkShrinks<T>(samples[static_cast<size_t>(cases - 1 - i)], check, static_cast<uint64_t>(i), 2, 4, 6);
}

TEST(Structured, Antisymmetric) {
  CheckRunAndShrinks<ExactMatrix>(Antisymmetric({1, 64, 40}, Normal()), [](const ExactMatrix& a) {
    ASSERT_EQ(a.rows, a.cols);
    for (int64_t i = 0; i < a.rows; ++i)
      for (int64_t j = 0; j < a.cols; ++j) ASSERT_EQ(a(i, j).ToRational(), -a(j, i).ToRational());  // exact
  });
}

TEST(Structured, Permutation) {
  CheckRunAndShrinks<ExactMatrix>(Permutation({1, 64, 40}), [](const ExactMatrix& p) {
    const Mat<Q> m = ToRationals(p);
    for (int64_t i = 0; i < p.rows; ++i) {
      ASSERT_EQ(m.row(i).sum(), 1);
      ASSERT_EQ(m.col(i).sum(), 1);
      for (int64_t j = 0; j < p.cols; ++j) ASSERT_TRUE(m(i, j) == 0 || m(i, j) == 1);
    }
  });
  for (const auto& s : SampleShrinkables(Permutation({3, 40, 20}), 10)) {
    const ExactMatrix p = ShrinkFully<ExactMatrix>(s, [](const ExactMatrix&) { return true; });
    EXPECT_EQ(ToRationals(p), Mat<Q>::Identity(3, 3)) << "shrinks to the identity";
  }
}

TEST(Structured, OrthogonalExactInRationals) {
  CheckRunAndShrinks<ExactMatrix>(
      Orthogonal({1, 17, 17}, Arith::kExact),
      [](const ExactMatrix& q) {
        const Mat<Q> m = ToRationals(q);
        ASSERT_EQ(Mat<Q>(m.transpose() * m), Mat<Q>::Identity(q.rows, q.cols));  // exactly
      },
      60, 3);
}

TEST(Structured, OrthogonalRoundedWithinBound) {
  // Each entry rounded once: |q^ - q| <= u|q|; a column has norm 1, so by
  // Cauchy-Schwarz |(Q^T Q)_ij - delta_ij| <= (2u + u^2) sum_k |q_ki||q_kj|
  // <= 2u + u^2. The check is exact (rationals).
  const Q bound = Q(2 * kU) + Q(kU) * Q(kU);
  CheckRunAndShrinks<ExactMatrix>(
      Orthogonal({1, 33, 33}, Arith::kRoundToDouble),
      [&](const ExactMatrix& q) {
        ASSERT_TRUE(AllDoubles(q));
        const Mat<Q> m = ToRationals(q);
        ASSERT_LE(MaxAbsDiff(m.transpose() * m, Mat<Q>::Identity(q.rows, q.cols)), bound);
      },
      40, 2);
  for (const auto& s : SampleShrinkables(Orthogonal({2, 12, 12}, Arith::kExact), 5)) {
    const ExactMatrix q = ShrinkFully<ExactMatrix>(s, [](const ExactMatrix&) { return true; });
    EXPECT_EQ(ToRationals(q), Mat<Q>::Identity(2, 2)) << "shrinks to the identity";
  }
}

TEST(Structured, OrthogonalRoundedToFloatWithinBound) {
  // As above with u = 2^-24; every entry is a float.
  const double uf = UnitRoundoffOf(Arith::kRoundToFloat);
  const Q bound = Q(2 * uf) + Q(uf) * Q(uf);
  CheckRunAndShrinks<ExactMatrix>(
      Orthogonal({1, 24, 24}, ArithFor<float>()),
      [&](const ExactMatrix& q) {
        for (const Exact& e : q.data) ASSERT_EQ(static_cast<double>(static_cast<float>(e.ToDouble())), e.ToDouble());
        const Mat<Q> m = ToRationals(q);
        ASSERT_LE(MaxAbsDiff(m.transpose() * m, Mat<Q>::Identity(q.rows, q.cols)), bound);
      },
      30, 2);
  for (const Exact& x : Sample(FloatValued(Wide(1e4)))) {
    ASSERT_EQ(static_cast<double>(static_cast<float>(x.ToDouble())), x.ToDouble());
    ASSERT_LE(std::fabs(x.ToDouble()), 1e4);
  }
}

TEST(Structured, SymmetricWithSpectrum) {
  // kExact: S symmetric and S Q = Q diag(lambda) exactly, Q orthogonal.
  CheckRunAndShrinks<SpectralCase>(
      SymmetricWithSpectrum({1, 12, 12}, SimpleRational(8, 6), Arith::kExact),
      [](const SpectralCase& c) {
        const Mat<Q> s = ToRationals(c.s), q = ToRationals(c.q);
        Vec<Q> lambda(static_cast<Eigen::Index>(c.spectrum.size()));
        for (size_t i = 0; i < c.spectrum.size(); ++i) lambda[static_cast<Eigen::Index>(i)] = c.spectrum[i].ToRational();
        ASSERT_EQ(s, Mat<Q>(s.transpose()));
        ASSERT_EQ(Mat<Q>(s * q), Mat<Q>(q * lambda.asDiagonal()));
        ASSERT_EQ(Mat<Q>(q.transpose() * q), Mat<Q>::Identity(q.rows(), q.cols()));
      },
      50, 3);
  // kRoundToDouble: S exactly symmetric, and each entry within u|S_ij| of
  // the exact Q diag(lambda) Q^T (so, by Weyl, each eigenvalue within
  // n u max|lambda|). The exact S comes from the same draw in kExact.
  const auto exact = SampleShrinkables(SymmetricWithSpectrum({1, 24, 24}, Normal(), Arith::kExact), 40);
  const auto rounded = SampleShrinkables(SymmetricWithSpectrum({1, 24, 24}, Normal(), Arith::kRoundToDouble), 40);
  for (size_t i = 0; i < exact.size(); ++i) {
    const SpectralCase e = exact[i].value(), r = rounded[i].value();
    ASSERT_TRUE(AllDoubles(r.s));
    const Mat<Q> se = ToRationals(e.s), sr = ToRationals(r.s);
    ASSERT_EQ(sr, Mat<Q>(sr.transpose()));
    for (Eigen::Index a = 0; a < se.rows(); ++a)
      for (Eigen::Index b = 0; b < se.cols(); ++b) ASSERT_LE(abs(sr(a, b) - se(a, b)), Q(kU) * abs(se(a, b)));
  }
  for (const auto& s : SampleShrinkables(SymmetricWithSpectrum({2, 12, 12}, SimpleDyadic(8, 4), Arith::kExact), 5)) {
    const SpectralCase c = ShrinkFully<SpectralCase>(s, [](const SpectralCase&) { return true; });
    EXPECT_EQ(ToRationals(c.q), Mat<Q>::Identity(2, 2));
    EXPECT_EQ(ToRationals(c.s), Mat<Q>::Zero(2, 2));
  }
}

int RankOf(const ExactMatrix& a) { return static_cast<int>(Eigen::FullPivLU<Mat<Q>>(ToRationals(a)).rank()); }

TEST(Structured, FactoredProductsAreExactInEveryBackend) {
  CheckRunAndShrinks<FactoredCase>(
      RankOne({1, 64, 40}, {1, 64, 40}),
      [](const FactoredCase& c) {
        ASSERT_TRUE(AllDoubles(c.a)) << "products of short dyadics are exact doubles";
        ASSERT_EQ(ToRationals(c.a), Mat<Q>(ToRationals(c.left) * ToRationals(c.right).transpose()));
        ASSERT_LE(RankOf(c.a), 1);
      },
      40, 3);
  CheckRunAndShrinks<FactoredCase>(
      LowRankProduct({1, 6, 6}, {1, 24, 24}),
      [](const FactoredCase& c) {
        ASSERT_TRUE(AllDoubles(c.a));
        ASSERT_EQ(ToRationals(c.a), Mat<Q>(ToRationals(c.left) * ToRationals(c.right).transpose()));
        ASSERT_EQ(c.left.cols, c.right.cols);
        ASSERT_LE(RankOf(c.a), c.left.cols);  // rank <= r
      },
      40, 3);
  CheckRunAndShrinks<FactoredCase>(
      Psd({1, 24, 24}, {1, 8, 8}),
      [](const FactoredCase& c) {
        ASSERT_TRUE(AllDoubles(c.a));
        const Mat<Q> a = ToRationals(c.a), b = ToRationals(c.left);
        ASSERT_EQ(a, Mat<Q>(b * b.transpose()));
        ASSERT_EQ(a, Mat<Q>(a.transpose()));
        // PSD exactly: an LDL^T with non-negative pivots (FullPivLU of B B^T
        // gives rank; x^T A x = |B^T x|^2 >= 0 for every x by construction).
        for (Eigen::Index i = 0; i < a.rows(); ++i) ASSERT_GE(a(i, i), 0);
        ASSERT_LE(RankOf(c.a), c.left.cols);
      },
      40, 3);
}

TEST(Structured, SimplexVector) {
  CheckRunAndShrinks<ExactMatrix>(SimplexVector({1, 64, 40}, Arith::kExact), [](const ExactMatrix& x) {
    Q sum = 0;
    for (const Exact& e : x.data) {
      ASSERT_GT(e.ToRational(), 0);
      sum += e.ToRational();
    }
    ASSERT_EQ(sum, 1);
  });
  // Rounded: sum_i |x^_i - x_i| <= u sum x_i = u, so |sum x^_i - 1| <= u.
  CheckRunAndShrinks<ExactMatrix>(SimplexVector({1, 320, 160}, Arith::kRoundToDouble), [](const ExactMatrix& x) {
    ASSERT_TRUE(AllDoubles(x));
    Q sum = 0;
    for (const Exact& e : x.data) {
      ASSERT_GT(e.ToDouble(), 0);
      sum += e.ToRational();
    }
    ASSERT_LE(abs(sum - 1), Q(kU));
  });
  for (const auto& s : SampleShrinkables(SimplexVector({3, 40, 20}, Arith::kExact), 5)) {
    const ExactMatrix x = ShrinkFully<ExactMatrix>(s, [](const ExactMatrix&) { return true; });
    ASSERT_EQ(x.rows, 3);
    for (const Exact& e : x.data) EXPECT_EQ(e, Exact(Q(1, 3))) << "shrinks to the uniform vector";
  }
}

void CheckLambda(const ExactMatrix& x, const Q& norm_bound) {
  ASSERT_EQ(x.rows % 2, 0);
  const int64_t m = x.rows / 2;
  Q norm2 = 0;
  for (int64_t i = 0; i < x.rows; ++i) {
    const Q v = x(i, 0).ToRational();
    if (i < m) {
      ASSERT_LT(v, 0) << "the first m entries are negative";
    }
    if (i >= m) {
      ASSERT_GT(v, 0) << "the last m entries are positive";
    }
    if (i > 0) {
      ASSERT_LE(x(i - 1, 0).ToRational(), v) << "sorted";
    }
    norm2 += v * v;
  }
  ASSERT_LE(abs(norm2 - 1), norm_bound);
}

TEST(Structured, LambdaVector) {
  CheckRunAndShrinks<ExactMatrix>(LambdaVector({1, 16, 16}, Arith::kExact),
                                  [](const ExactMatrix& x) { CheckLambda(x, Q(0)); });
  // Rounded: |x^_i^2 - x_i^2| <= (2u + u^2) x_i^2 and sum x_i^2 = 1.
  const Q bound = Q(2 * kU) + Q(kU) * Q(kU);
  CheckRunAndShrinks<ExactMatrix>(LambdaVector({1, 64, 64}, Arith::kRoundToDouble),
                                  [&](const ExactMatrix& x) { CheckLambda(x, bound); });
  for (const auto& s : SampleShrinkables(LambdaVector({1, 16, 16}, Arith::kExact), 5)) {
    const ExactMatrix x = ShrinkFully<ExactMatrix>(s, [](const ExactMatrix&) { return true; });
    ASSERT_EQ(x.rows, 2);
    EXPECT_EQ(x(0, 0), Exact(Q(-4, 5)));
    EXPECT_EQ(x(1, 0), Exact(Q(3, 5)));
  }
}

TEST(Structured, PrescribedNorms) {
  for (const Arith arith : {Arith::kExact, Arith::kRoundToDouble}) {
    const Exact c = Exact(Q(7, 3));
    const Q c_used = arith == Arith::kExact ? Q(7, 3) : Q(RoundToDouble(Q(7, 3)));
    CheckRunAndShrinks<ExactMatrix>(WithMaxNorm({1, 64, 40}, {1, 64, 40}, c, arith), [&](const ExactMatrix& a) {
      Q mx = 0;
      for (const Exact& e : a.data) mx = std::max(mx, Q(abs(e.ToRational())));
      ASSERT_EQ(mx, c_used);  // exactly, also after rounding (monotone)
    });
    // l1: exact, or within u c after rounding each entry once.
    const Q bound = arith == Arith::kExact ? Q(0) : Q(kU) * Q(7, 3);
    CheckRunAndShrinks<ExactMatrix>(WithL1Norm({1, 64, 40}, {1, 64, 40}, c, arith), [&](const ExactMatrix& a) {
      Q sum = 0;
      for (const Exact& e : a.data) sum += abs(e.ToRational());
      ASSERT_LE(abs(sum - Q(7, 3)), bound);
    });
  }
}

}  // namespace
}  // namespace attnprop::gen
