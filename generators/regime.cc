#include "generators/regime.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <mpfr.h>

#include "generators/random_util.h"
#include "generators/scalars.h"

namespace attnprop::gen {

namespace {

constexpr int kStructures = 8;
constexpr int kDominantShift = 10;

// A kind in [0, n): 0 (dense) with probability 6/10, the others evenly.
rc::Gen<Exact> StructureKind(bool structured) {
  return rc::Gen<Exact>([structured](const rc::Random& random, int) {
    rc::Random r = random;
    double k = 0;
    if (structured && UniformInt(r, 0, 9) >= 6) k = static_cast<double>(UniformInt(r, 1, kStructures - 1));
    return ShrinkableDouble(k, 0, structured ? kStructures - 1 : 0);
  });
}

int AsInt(const Exact& x) { return static_cast<int>(std::lround(x.ToDouble())); }

// The grid of a short dyadic entry: 2 bits below the leading bit of max_abs.
double ShortGrid(double max_abs) { return std::ldexp(1.0, static_cast<int>(std::ceil(std::log2(max_abs))) - 3); }

double WithMantissa(double x, int mantissa, double max_abs, int full_bits) {
  switch (mantissa) {
    case 0: {
      const double g = ShortGrid(max_abs);
      return std::clamp(std::round(x / g) * g, -max_abs, max_abs);
    }
    case 1: return RoundToPrecision(attnprop::Rational(x), 10);
    default: return full_bits < 53 ? RoundToPrecision(attnprop::Rational(x), full_bits) : x;
  }
}

// x extended to `bits` significant bits (bits > 53): x (1 + 2^-52 / 3)
// rounded to `bits`, an exact dyadic with a full significand that shrinks
// with x.
Exact Extended(double x, int bits) {
  if (bits <= 53 || x == 0) return Exact(x);
  mpfr_t t, third;
  mpfr_init2(t, bits);
  mpfr_init2(third, bits + 8);
  mpfr_set_ui(third, 1, MPFR_RNDN);
  mpfr_div_ui(third, third, 3, MPFR_RNDN);
  mpfr_mul_2si(third, third, -52, MPFR_RNDN);
  mpfr_add_ui(third, third, 1, MPFR_RNDN);
  mpfr_set_d(t, x, MPFR_RNDN);
  mpfr_mul(t, t, third, MPFR_RNDN);
  mpz_t m;
  mpz_init(m);
  const mpfr_exp_t e = mpfr_get_z_2exp(m, t);
  attnprop::Rational q;
  mpq_set_z(q.backend().data(), m);
  if (e >= 0) mpq_mul_2exp(q.backend().data(), q.backend().data(), static_cast<mp_bitcnt_t>(e));
  else mpq_div_2exp(q.backend().data(), q.backend().data(), static_cast<mp_bitcnt_t>(-e));
  mpz_clear(m);
  mpfr_clear(t);
  mpfr_clear(third);
  return Exact(q);
}

}  // namespace

const char* StructureName(Structure s) {
  switch (s) {
    case Structure::kDense: return "dense";
    case Structure::kAllEqual: return "all_equal";
    case Structure::kSigns: return "signs";
    case Structure::kRankOne: return "rank_one";
    case Structure::kDominant: return "dominant";
    case Structure::kZeroBlock: return "zero_block";
    case Structure::kIdentity: return "identity";
    case Structure::kEqualRows: return "equal_rows";
  }
  return "?";
}

rc::Gen<Exact> UniformInteger(int64_t lo, int64_t hi) {
  return rc::Gen<Exact>([lo, hi](const rc::Random& random, int) {
    rc::Random r = random;
    return ShrinkableDouble(static_cast<double>(UniformInt(r, lo, hi)), static_cast<double>(lo),
                            static_cast<double>(hi));
  });
}

rc::Gen<int64_t> UniformCount(int64_t lo, int64_t hi) {
  return rc::Gen<int64_t>([lo, hi](const rc::Random& random, int) {
    rc::Random r = random;
    return rc::shrinkable::shrinkRecur(UniformInt(r, lo, hi),
                                       [lo](int64_t v) { return rc::shrink::towards<int64_t>(v, lo); });
  });
}

int Layout::Axis(DimRange range) {
  axes_.push_back(gen::Axis{range});
  return static_cast<int>(axes_.size()) - 1;
}

int Layout::Matrix(int rows_axis, int cols_axis, Regime regime) {
  if (!(regime.max_abs > 0) || regime.min_scale > regime.max_scale)
    throw std::invalid_argument("gen::Layout::Matrix: max_abs must be > 0 and min_scale <= max_scale");
  MatrixSlot slot{arrays_.size(), arrays_.size() + 1, arrays_.size() + 2, arrays_.size() + 3, regime};
  arrays_.push_back({{rows_axis, cols_axis}, Uniform(regime.nonnegative ? 0.0 : -regime.max_abs, regime.max_abs)});
  arrays_.push_back({{}, UniformInteger(regime.min_scale, regime.max_scale)});
  arrays_.push_back({{}, UniformInteger(0, 2)});
  arrays_.push_back({{}, StructureKind(regime.structured)});
  matrices_.push_back(slot);
  return static_cast<int>(matrices_.size()) - 1;
}

int Layout::Raw(int rows_axis, int cols_axis, rc::Gen<Exact> entry) {
  return RawStack({}, rows_axis, cols_axis, std::move(entry));
}

int Layout::Stack(std::vector<int> outer, int rows_axis, int cols_axis, Regime regime) {
  const int m = Matrix(rows_axis, cols_axis, regime);
  MatrixSlot& slot = matrices_.back();
  slot.outer = outer.size();
  outer.push_back(rows_axis);
  outer.push_back(cols_axis);
  arrays_[slot.entries].axes = std::move(outer);
  return m;
}

int Layout::RawStack(std::vector<int> outer, int rows_axis, int cols_axis, rc::Gen<Exact> entry) {
  MatrixSlot slot{arrays_.size(), 0, 0, 0, Regime{}, true, outer.size()};
  outer.push_back(rows_axis);
  outer.push_back(cols_axis);
  arrays_.push_back({std::move(outer), std::move(entry)});
  matrices_.push_back(slot);
  return static_cast<int>(matrices_.size()) - 1;
}

int Layout::Scalar(rc::Gen<Exact> g) {
  scalars_.push_back(arrays_.size());
  arrays_.push_back({{}, std::move(g)});
  return static_cast<int>(scalars_.size()) - 1;
}

Exact Layout::Drawn::Scalar(int s) const { return p_.arrays.at(layout_.scalars_.at(static_cast<size_t>(s)))[0]; }

int Layout::Drawn::Scale(int m) const {
  if (layout_.matrices_.at(static_cast<size_t>(m)).raw) return 0;
  return AsInt(p_.arrays.at(layout_.matrices_.at(static_cast<size_t>(m)).scale)[0]);
}
int Layout::Drawn::Mantissa(int m) const {
  if (layout_.matrices_.at(static_cast<size_t>(m)).raw) return 2;
  return AsInt(p_.arrays.at(layout_.matrices_.at(static_cast<size_t>(m)).mantissa)[0]);
}
Structure Layout::Drawn::StructureOf(int m) const {
  if (layout_.matrices_.at(static_cast<size_t>(m)).raw) return Structure::kDense;
  return static_cast<Structure>(AsInt(p_.arrays.at(layout_.matrices_.at(static_cast<size_t>(m)).structure)[0]));
}

ExactMatrix Layout::Drawn::Matrix(int m) const { return Matrix(m, {}); }

ExactMatrix Layout::Drawn::Matrix(int m, const std::vector<int64_t>& index) const {
  const MatrixSlot& slot = layout_.matrices_.at(static_cast<size_t>(m));
  const std::vector<int64_t>& shape = p_.shapes.at(slot.entries);
  if (index.size() != slot.outer) throw std::invalid_argument("Layout::Drawn::Matrix: one index per outer axis");
  size_t offset = 0;
  for (size_t k = 0; k < slot.outer; ++k) {
    if (index[k] < 0 || index[k] >= shape[k]) throw std::out_of_range("Layout::Drawn::Matrix: index out of range");
    offset = offset * static_cast<size_t>(shape[k]) + static_cast<size_t>(index[k]);
  }
  ExactMatrix base(shape[slot.outer], shape[slot.outer + 1]);
  const auto begin = p_.arrays.at(slot.entries).begin() + static_cast<std::ptrdiff_t>(offset * base.data.size());
  std::copy(begin, begin + static_cast<std::ptrdiff_t>(base.data.size()), base.data.begin());
  if (slot.raw) return base;
  const Regime& g = slot.regime;
  const int64_t rows = base.rows, cols = base.cols;
  const int mantissa = Mantissa(m);
  auto e = [&](int64_t i, int64_t j) { return WithMantissa(base(i, j).ToDouble(), mantissa, g.max_abs, g.full_bits); };
  std::vector<double> v(static_cast<size_t>(rows * cols));
  auto at = [&](int64_t i, int64_t j) -> double& { return v[static_cast<size_t>(i * cols + j)]; };
  const double e00 = rows > 0 && cols > 0 ? e(0, 0) : 0;
  Structure s = StructureOf(m);
  if ((s == Structure::kIdentity && rows != cols) || (s == Structure::kZeroBlock && rows * cols < 2))
    s = Structure::kDense;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      double x = e(i, j);
      switch (s) {
        case Structure::kDense: break;
        case Structure::kAllEqual: x = e00; break;
        case Structure::kSigns: x = std::signbit(x) ? -std::abs(e00) : std::abs(e00); break;
        case Structure::kRankOne: x = e(i, 0) * e(0, j) / g.max_abs; break;
        case Structure::kDominant:
          if (i == 0 && j == 0) x = std::ldexp(std::signbit(x) ? -g.max_abs : g.max_abs, kDominantShift);
          break;
        case Structure::kZeroBlock:
          if (rows > 1 ? i >= (rows + 1) / 2 : j >= (cols + 1) / 2) x = 0;
          break;
        case Structure::kIdentity: x = i == j ? e00 : 0; break;
        case Structure::kEqualRows: x = e(0, j); break;
      }
      x = std::ldexp(x, Scale(m));
      if (g.arith == Arith::kRoundToFloat) x = ToFloatValue(x);
      at(i, j) = x == 0 ? 0.0 : x;  // never -0: a special, drawn only on request
    }
  ExactMatrix out(rows, cols);
  const int bits = mantissa == 2 && g.arith == Arith::kRoundToDouble ? g.full_bits : 53;
  for (size_t k = 0; k < v.size(); ++k) out.data[k] = Extended(v[k], bits);
  return out;
}

rc::Gen<ExactMatrix> RegimeMatrix(DimRange rows, DimRange cols, Regime regime) {
  Layout l;
  const int r = l.Axis(rows), c = l.Axis(cols);
  const int m = l.Matrix(r, c, regime);
  return l.Build<ExactMatrix>([m](const Layout::Drawn& d) { return d.Matrix(m); });
}

}  // namespace attnprop::gen
