#include "generators/matrices.h"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace attnprop::gen {

using Q = attnprop::Rational;

Mat<Q> ToRationals(const ExactMatrix& m) {
  Mat<Q> out(m.rows, m.cols);
  for (int64_t i = 0; i < m.rows; ++i)
    for (int64_t j = 0; j < m.cols; ++j) out(i, j) = m(i, j).ToRational();
  return out;
}

Exact Finish(const Q& q, Arith arith) {
  switch (arith) {
    case Arith::kExact:
      return Exact(q);
    case Arith::kRoundToDouble:
      return Exact(RoundToDouble(q));
    case Arith::kRoundToFloat:
      return Exact(ToFloatValue(RoundToPrecision(q, 24)));
  }
  return Exact(q);
}

double UnitRoundoffOf(Arith arith) {
  switch (arith) {
    case Arith::kExact:
      return 0;
    case Arith::kRoundToDouble:
      return 0x1p-53;
    case Arith::kRoundToFloat:
      return 0x1p-24;
  }
  return 0;
}

double ToFloatValue(double d) {
  if (!std::isfinite(d)) return d;
  // Out of float's range the conversion is undefined: saturate first.
  constexpr double kMax = std::numeric_limits<float>::max();
  return static_cast<double>(static_cast<float>(std::clamp(d, -kMax, kMax)));
}

rc::Gen<Exact> FloatValued(rc::Gen<Exact> g) {
  return rc::gen::map(std::move(g), [](const Exact& x) { return Exact(ToFloatValue(x.ToDouble())); });
}

ExactMatrix FromRationals(const Mat<Q>& m, Arith arith) {
  ExactMatrix out(m.rows(), m.cols());
  for (int64_t i = 0; i < out.rows; ++i)
    for (int64_t j = 0; j < out.cols; ++j) out(i, j) = Finish(m(i, j), arith);
  return out;
}

rc::Gen<Exact> ShortFactor() { return SimpleDyadic(4, 4); }

rc::Gen<ExactMatrix> DenseMatrix(DimRange rows, DimRange cols, rc::Gen<Exact> entry) {
  return Shaped<ExactMatrix>({{rows}, {cols}}, {{{0, 1}, std::move(entry)}}, [](const Params& p) { return p.Matrix(0); });
}

namespace {

Mat<Q> AntisymmetricFrom(const Params& p, size_t array) {
  const int64_t n = p.dims[0];
  Mat<Q> a = Mat<Q>::Zero(n, n);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i + 1; j < n; ++j) {
      a(i, j) = p.arrays[array][static_cast<size_t>(i * n + j)].ToRational();
      a(j, i) = -a(i, j);
    }
  return a;
}

// Entries of the Cayley parameter: small, so that mpq sizes stay modest.
rc::Gen<Exact> CayleyEntry() { return SimpleDyadic(1, 1); }

}  // namespace

rc::Gen<ExactMatrix> Antisymmetric(DimRange n, rc::Gen<Exact> entry) {
  return Shaped<ExactMatrix>({{n}}, {{{0, 0}, std::move(entry)}}, [](const Params& p) {
    const int64_t d = p.dims[0];
    ExactMatrix a(d, d);
    for (int64_t i = 0; i < d; ++i)
      for (int64_t j = i + 1; j < d; ++j) {
        const double x = p.arrays[0][static_cast<size_t>(i * d + j)].ToDouble();
        if (p.arrays[0][static_cast<size_t>(i * d + j)].IsDouble()) {
          a(i, j) = Exact(x);
          a(j, i) = Exact(x == 0 ? 0.0 : -x);
        } else {
          const Q q = p.arrays[0][static_cast<size_t>(i * d + j)].ToRational();
          a(i, j) = Exact(q);
          a(j, i) = Exact(Q(-q));
        }
      }
    return a;
  });
}

rc::Gen<ExactMatrix> Permutation(DimRange n) {
  return Shaped<ExactMatrix>({{n}}, {{{0}, Uniform(0, 1)}}, [](const Params& p) {
    const int64_t d = p.dims[0];
    std::vector<int64_t> perm(static_cast<size_t>(d));
    std::iota(perm.begin(), perm.end(), 0);
    std::stable_sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
      return p.arrays[0][static_cast<size_t>(a)].ToDouble() < p.arrays[0][static_cast<size_t>(b)].ToDouble();
    });
    ExactMatrix m(d, d);
    for (int64_t i = 0; i < d; ++i)
      for (int64_t j = 0; j < d; ++j) m(i, j) = Exact(perm[static_cast<size_t>(i)] == j ? 1.0 : 0.0);
    return m;
  });
}

Mat<Q> Cayley(const Mat<Q>& a) {
  const Mat<Q> id = Mat<Q>::Identity(a.rows(), a.cols());
  // (I - A) and (I + A)^{-1} commute; I + A is invertible for antisymmetric
  // A (eigenvalues 1 + i mu). Partial pivoting is exact in mpq.
  return Eigen::PartialPivLU<Mat<Q>>(id + a).solve(id - a);
}

rc::Gen<ExactMatrix> Orthogonal(DimRange n, Arith arith) {
  return Shaped<ExactMatrix>({{n}}, {{{0, 0}, CayleyEntry()}},
                             [arith](const Params& p) { return FromRationals(Cayley(AntisymmetricFrom(p, 0)), arith); });
}

rc::Gen<SpectralCase> SymmetricWithSpectrum(DimRange n, rc::Gen<Exact> eigenvalue, Arith arith) {
  return Shaped<SpectralCase>({{n}}, {{{0}, std::move(eigenvalue)}, {{0, 0}, CayleyEntry()}}, [arith](const Params& p) {
    const int64_t d = p.dims[0];
    const Mat<Q> q = Cayley(AntisymmetricFrom(p, 1));
    Vec<Q> lambda(d);
    for (int64_t i = 0; i < d; ++i) lambda[i] = p.arrays[0][static_cast<size_t>(i)].ToRational();
    Mat<Q> s(d, d);
    for (int64_t i = 0; i < d; ++i)
      for (int64_t j = i; j < d; ++j) {
        Q acc = 0;
        for (int64_t k = 0; k < d; ++k) acc += q(i, k) * lambda[k] * q(j, k);
        s(i, j) = acc;
        s(j, i) = acc;
      }
    return SpectralCase{FromRationals(s, arith), FromRationals(q, arith), p.arrays[0]};
  });
}

namespace {

FactoredCase Factored(const ExactMatrix& left, const ExactMatrix& right) {
  const Mat<Q> l = ToRationals(left), r = ToRationals(right);
  const Mat<Q> a = l * r.transpose();
  // Exact(Q) keeps a dyadic value that fits a double as a double.
  return FactoredCase{FromRationals(a, Arith::kExact), left, right};
}

ExactMatrix Transposed(const ExactMatrix& m) {
  ExactMatrix t(m.cols, m.rows);
  for (int64_t i = 0; i < m.rows; ++i)
    for (int64_t j = 0; j < m.cols; ++j) t(j, i) = m(i, j);
  return t;
}

}  // namespace

rc::Gen<FactoredCase> RankOne(DimRange rows, DimRange cols, rc::Gen<Exact> factor) {
  return Shaped<FactoredCase>({{rows}, {cols}, {{1, 1, 1}}}, {{{0, 2}, factor}, {{1, 2}, factor}},
                              [](const Params& p) { return Factored(p.Matrix(0), p.Matrix(1)); });
}

rc::Gen<FactoredCase> LowRankProduct(DimRange rank, DimRange d, rc::Gen<Exact> factor) {
  // Arrays W_Q, W_K of shape r x d; a = W_K^T W_Q.
  return Shaped<FactoredCase>({{rank}, {d}}, {{{0, 1}, factor}, {{0, 1}, factor}}, [](const Params& p) {
    return Factored(Transposed(p.Matrix(1)), Transposed(p.Matrix(0)));
  });
}

rc::Gen<FactoredCase> Psd(DimRange n, DimRange rank, rc::Gen<Exact> factor) {
  return Shaped<FactoredCase>({{n}, {rank}}, {{{0, 1}, std::move(factor)}}, [](const Params& p) {
    const ExactMatrix b = p.Matrix(0);
    return Factored(b, b);
  });
}

rc::Gen<ExactMatrix> SimplexVector(DimRange n, Arith arith) {
  return Shaped<ExactMatrix>({{n}}, {{{0}, PositiveDyadic(16, 4)}}, [arith](const Params& p) {
    const int64_t d = p.dims[0];
    Q total = 0;
    for (const Exact& w : p.arrays[0]) total += w.ToRational();
    ExactMatrix x(d, 1);
    for (int64_t i = 0; i < d; ++i) x(i, 0) = Finish(p.arrays[0][static_cast<size_t>(i)].ToRational() / total, arith);
    return x;
  });
}

rc::Gen<ExactMatrix> LambdaVector(DimRange m, Arith arith) {
  // Array y: m x 2 positive dyadics; the first 2m - 1 are the stereographic
  // coordinates: x_i = 2 y_i / (1 + |y|^2), x_last = (|y|^2 - 1) / (|y|^2 + 1).
  return Shaped<ExactMatrix>({{m}, {{2, 2, 2}}}, {{{0, 1}, PositiveDyadic(4, 3)}}, [arith](const Params& p) {
    const size_t len = p.arrays[0].size();  // 2m
    std::vector<Q> y(len - 1);
    Q norm2 = 0;
    for (size_t i = 0; i + 1 < len; ++i) {
      y[i] = p.arrays[0][i].ToRational();
      norm2 += y[i] * y[i];
    }
    if (norm2 == 1) {  // x_last would be 0: scale y (keeps every promise)
      for (Q& v : y) v *= 2;
      norm2 *= 4;
    }
    std::vector<Q> x(len);
    for (size_t i = 0; i + 1 < len; ++i) x[i] = 2 * y[i] / (1 + norm2);
    x[len - 1] = abs((norm2 - 1) / (norm2 + 1));
    // Even positions negative, odd positive: m of each; then ascending.
    for (size_t i = 0; i < len; i += 2) x[i] = -x[i];
    std::sort(x.begin(), x.end());
    ExactMatrix out(static_cast<int64_t>(len), 1);
    for (size_t i = 0; i < len; ++i) out(static_cast<int64_t>(i), 0) = Finish(x[i], arith);
    return out;
  });
}

rc::Gen<ExactMatrix> WithMaxNorm(DimRange rows, DimRange cols, Exact c, Arith arith) {
  const Q cq = arith == Arith::kExact ? c.ToRational() : Finish(c.ToRational(), arith).ToRational();
  return Shaped<ExactMatrix>({{rows}, {cols}}, {{{0, 1}, SimpleDyadic(1, 8)}}, [cq, arith](const Params& p) {
    ExactMatrix a = p.Matrix(0);
    size_t arg = 0;
    Q best = -1;
    for (size_t i = 0; i < a.data.size(); ++i) {
      const Q x = a.data[i].ToRational();
      if (abs(x) > best) best = abs(x), arg = i;
      // |x| <= 1 and cq a double: rounding keeps |fl(x c)| <= c.
      a.data[i] = Finish(x * cq, arith);
    }
    const bool negative = p.arrays[0][arg].ToDouble() < 0;
    a.data[arg] = Finish(negative ? Q(-cq) : cq, arith);
    return a;
  });
}

rc::Gen<ExactMatrix> WithL1Norm(DimRange rows, DimRange cols, Exact c, Arith arith) {
  const Q cq = c.ToRational();
  return Shaped<ExactMatrix>({{rows}, {cols}}, {{{0, 1}, SimpleDyadic(1, 8)}}, [cq, arith](const Params& p) {
    ExactMatrix a = p.Matrix(0);
    Q total = 0;
    for (const Exact& e : a.data) total += abs(e.ToRational());
    if (total == 0) {
      a.data[0] = Finish(cq, arith);  // all zero: put the whole norm in one entry
      return a;
    }
    for (Exact& e : a.data) e = Finish(e.ToRational() * cq / total, arith);
    return a;
  });
}

}  // namespace attnprop::gen
