#include "model/spectral_enclosure.h"

#include <mpfr.h>

#include <algorithm>
#include <limits>
#include <vector>

namespace attnprop {
namespace {

constexpr int kEigenErrorMinBits = 128;

/// sqrt(sum of squares) of the given entries, enclosed.
Interval FrobeniusOf(const std::vector<Interval>& entries) {
  Interval sum(0);
  for (const Interval& e : entries) sum += sqr(e);
  return sqrt(sum);
}

}  // namespace

Vec<Interval> EncloseOrderStatistics(const std::vector<Interval>& x) {
  const size_t n = x.size();
  std::vector<size_t> by_lo(n), by_hi(n);
  for (size_t i = 0; i < n; ++i) by_lo[i] = by_hi[i] = i;
  std::sort(by_lo.begin(), by_lo.end(),
            [&](size_t i, size_t j) { return mpfr_less_p(&x[i].data()->left, &x[j].data()->left) != 0; });
  std::sort(by_hi.begin(), by_hi.end(),
            [&](size_t i, size_t j) { return mpfr_less_p(&x[i].data()->right, &x[j].data()->right) != 0; });
  Vec<Interval> out(static_cast<Eigen::Index>(n));
  for (size_t k = 0; k < n; ++k) {
    const Interval& lo = x[by_lo[k]];
    const Interval& hi = x[by_hi[k]];
    Interval r(lo.PrecisionBits() >= hi.PrecisionBits() ? lo : hi);
    mpfi_interv_fr(r.data(), &lo.data()->left, &hi.data()->right);  // rounded outward
    out[static_cast<Eigen::Index>(k)] = r;
  }
  return out;
}

Vec<Interval> EncloseSymmetricEigenvalues(const Mat<Interval>& a_in) {
  const Eigen::Index n = a_in.rows();
  if (n != a_in.cols()) throw Undecided("the spectrum of a non-square matrix");
  if (n == 0) return Vec<Interval>(0);
  Mat<Interval> a(n, n);
  int bits = IntervalPrecisionBits();
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j) {
      if (a_in(i, j).NanRaw() || !a_in(i, j).BoundedRaw())
        throw Undecided("the spectrum of a matrix with an unbounded or NaN entry");
      a(i, j) = Interval::Hull(a_in(i, j), a_in(j, i));
      bits = std::max(bits, a(i, j).PrecisionBits());
    }
  // 1. Approximate eigenvectors of the midpoints, in MPFR.
  Mat<Interval> x(n, n);
  {
    MpfrPrecisionScope precision(bits);
    Mat<Mpfr> mid(n, n);
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = 0; j < n; ++j) {
        Mpfr m;
        mpfi_mid(m.backend().data(), a(i, j).data());
        mid(i, j) = m;
      }
    Eigen::SelfAdjointEigenSolver<Mat<Mpfr>> solver(mid, Eigen::ComputeEigenvectors);
    if (solver.info() != Eigen::Success) throw Undecided("the midpoint eigen-solver did not converge");
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = 0; j < n; ++j) x(i, j) = Interval::Enclosing(solver.eigenvectors()(i, j));
  }
  // 2. G = X^T A X and E = X^T X - I, rigorously.
  const Mat<Interval> g = x.transpose() * (a * x);
  const Mat<Interval> e = x.transpose() * x - Mat<Interval>::Identity(n, n);
  std::vector<Interval> e_entries(e.data(), e.data() + e.size()), off, diag;
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j) (i == j ? diag : off).push_back(g(i, j));
  // 3. eps >= ||E||_2; Ostrowski needs it below 1.
  const Interval eps = FrobeniusOf(e_entries);
  if (mpfr_cmp_ui(&eps.data()->right, 1) >= 0)
    throw Undecided("the computed eigenvectors are not near enough to orthogonal (||X^T X - I|| >= 1)");
  const Interval theta = Interval::Hull(Interval(1) - eps, Interval(1) + eps);
  // 4. Weyl around the sorted diagonal, then undo the congruence.
  const Interval r = FrobeniusOf(off);
  const Interval spread = Interval::Hull(-r, r);
  Vec<Interval> out = EncloseOrderStatistics(diag);
  for (Eigen::Index k = 0; k < n; ++k) out[k] = (out[k] + spread) / theta;
  return out;
}

Interval EncloseOperatorTwoNorm(const Mat<Interval>& a) {
  if (a.size() == 0) return Interval(0);
  const Vec<Interval> eig = EncloseSymmetricEigenvalues(a.transpose() * a);
  return SqrtOfNonnegative(eig[eig.size() - 1]);
}

namespace {

template <class S>
double RelativeEigenvalueErrorOf(const Mat<S>& s, const Vec<S>& computed, int entry_bits) {
  const Eigen::Index n = s.rows();
  if (n != s.cols() || computed.size() != n) return std::numeric_limits<double>::infinity();
  IntervalPrecisionScope precision(std::max(kEigenErrorMinBits, 2 * entry_bits));
  Mat<Interval> a(n, n);
  std::vector<Interval> entries;
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j) {
      if constexpr (std::is_same_v<S, double>) a(i, j) = Interval(s(i, j));
      else a(i, j) = Interval::Enclosing(s(i, j));
      entries.push_back(a(i, j));
    }
  const Interval norm = FrobeniusOf(entries);
  Vec<Interval> exact;
  try {
    exact = EncloseSymmetricEigenvalues(a);
  } catch (const Undecided&) {
    return std::numeric_limits<double>::infinity();
  }
  Interval err(0);
  for (Eigen::Index k = 0; k < n; ++k) {
    Interval c;
    if constexpr (std::is_same_v<S, double>) c = Interval(computed[k]);
    else c = Interval::Enclosing(computed[k]);
    err = max(err, abs(c - exact[k]));
  }
  if (internal::CertainlyZeroRaw(err)) return 0;
  if (mpfr_sgn(&norm.data()->left) <= 0) return std::numeric_limits<double>::infinity();
  return (err / norm).UpperDouble();
}

}  // namespace

double RelativeEigenvalueError(const Mat<double>& s, const Vec<double>& computed) {
  return RelativeEigenvalueErrorOf<double>(s, computed, 53);
}
double RelativeEigenvalueError(const Mat<Mpfr>& s, const Vec<Mpfr>& computed) {
  int bits = 53;
  for (Eigen::Index i = 0; i < s.size(); ++i) bits = std::max(bits, PrecisionBitsOf(s.data()[i]));
  for (Eigen::Index i = 0; i < computed.size(); ++i) bits = std::max(bits, PrecisionBitsOf(computed[i]));
  return RelativeEigenvalueErrorOf<Mpfr>(s, computed, bits);
}

}  // namespace attnprop
