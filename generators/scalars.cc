#include "generators/scalars.h"

#include <mpfr.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numbers>

#include "generators/random_util.h"
#include "model/scalar.h"

namespace attnprop::gen {

using Q = attnprop::Rational;

namespace {

// A well-founded measure: every shrink candidate must be strictly smaller,
// so that shrinking terminates (no cycles between candidates).
struct Complexity {
  int not_target;
  int frac_bits;
  double distance;
  int negative;
  friend bool operator<(const Complexity& a, const Complexity& b) {
    if (a.not_target != b.not_target) return a.not_target < b.not_target;
    if (a.frac_bits != b.frac_bits) return a.frac_bits < b.frac_bits;
    if (a.distance != b.distance) return a.distance < b.distance;
    return a.negative < b.negative;
  }
};

Complexity MeasureDouble(double x, double target) {
  return {x == target && !std::signbit(x) == !std::signbit(target) ? 0 : 1, FractionBits(x), std::fabs(x - target),
          std::signbit(x) ? 1 : 0};
}

// Keeps the top `bits` significant bits of x, truncating toward zero.
double TruncateSignificand(double x, int bits) {
  if (x == 0 || !std::isfinite(x)) return x;
  int e = 0;
  const double m = std::frexp(x, &e);  // |m| in [0.5, 1)
  return std::ldexp(std::trunc(std::ldexp(m, bits)), e - bits);
}

}  // namespace

int FractionBits(double x) {
  if (x == 0 || !std::isfinite(x)) return 0;
  int e = 0;
  const double m = std::frexp(std::fabs(x), &e);
  const auto mant = static_cast<uint64_t>(std::ldexp(m, 53));  // 53-bit integer
  const int lowest = e - 53 + std::countr_zero(mant);           // weight of the lowest set bit
  return lowest >= 0 ? 0 : -lowest;
}

double SimplestIn(double lo, double hi) {
  if (lo <= 0 && 0 <= hi) return 0.0;
  if (lo > 0) {
    const double c = std::ceil(lo);
    return c <= hi ? c : lo;
  }
  const double f = std::floor(hi);
  return f >= lo ? f : hi;
}

std::vector<double> SimplerDoubles(double x, double lo, double hi) {
  std::vector<double> out;
  if (!std::isfinite(x)) return out;
  const double target = SimplestIn(lo, hi);
  const Complexity cx = MeasureDouble(x, target);
  auto add = [&](double c) {
    if (!std::isfinite(c) || c < lo || c > hi) return;
    if (c == 0) c = 0.0;  // never offer -0 as a simplification
    if (!(MeasureDouble(c, target) < cx)) return;
    for (double o : out)
      if (o == c && std::signbit(o) == std::signbit(c)) return;
    out.push_back(c);
  };
  add(target);
  if (x < 0) add(-x);
  // Integers between the target and x, nearest the target first.
  if (std::fabs(x) < 0x1p62) {
    const auto xi = static_cast<int64_t>(std::trunc(x));
    const auto ti = static_cast<int64_t>(std::trunc(target));
    rc::Seq<int64_t> ints = rc::shrink::towards<int64_t>(xi, ti);
    while (auto v = ints.next()) add(static_cast<double>(*v));
    add(static_cast<double>(xi));
  }
  // Shorter fractions: x truncated to k bits after the point.
  for (int k = 1; k < 64; ++k) {
    const double r = std::ldexp(std::trunc(std::ldexp(x, k)), -k);
    if (r == x) break;
    add(r);
  }
  // Fewer significant bits (reaches huge and tiny values too).
  for (int bits : {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 40})
    add(TruncateSignificand(x, bits));
  // Powers of two with exponents nearer 0 (huge or tiny magnitudes).
  const int e = x == 0 ? 0 : std::ilogb(x);  // ilogb(0) is INT_MIN
  if (e >= 62 || e <= -62) {
    rc::Seq<int> exps = rc::shrink::towards<int>(e, 0);
    while (auto v = exps.next()) add(std::copysign(std::ldexp(1.0, *v), x));
  }
  return out;
}

std::vector<Q> SimplerRationals(const Q& x, const Q& lo, const Q& hi) {
  std::vector<Q> out;
  // Target: 0 when inside, else the in-range integer nearest 0, else an end.
  Q target = 0;
  if (lo > 0) {
    Q c = Q(boost::multiprecision::numerator(lo) / boost::multiprecision::denominator(lo));
    if (c < lo) c += 1;
    target = c <= hi ? c : lo;
  } else if (hi < 0) {
    Q f = Q(boost::multiprecision::numerator(hi) / boost::multiprecision::denominator(hi));
    if (f > hi) f -= 1;
    target = f >= lo ? f : hi;
  }
  auto den = [](const Q& q) { return boost::multiprecision::denominator(q); };
  auto measure = [&](const Q& q) {
    return std::make_tuple(q == target ? 0 : 1, den(q), abs(q - target), q < 0 ? 1 : 0);
  };
  const auto mx = measure(x);
  auto add = [&](const Q& c) {
    if (c < lo || c > hi) return;
    if (!(measure(c) < mx)) return;
    if (std::find(out.begin(), out.end(), c) != out.end()) return;
    out.push_back(c);
  };
  add(target);
  if (x < 0) add(-x);
  const auto trunc_x = boost::multiprecision::numerator(x) / den(x);  // toward zero
  if (abs(trunc_x) < boost::multiprecision::mpz_int(1) << 62) {
    const auto xi = trunc_x.convert_to<int64_t>();
    const auto ti = Q(boost::multiprecision::numerator(target) / den(target)).convert_to<int64_t>();
    rc::Seq<int64_t> ints = rc::shrink::towards<int64_t>(xi, ti);
    while (auto v = ints.next()) add(Q(*v));
    add(Q(xi));
  }
  // Smaller denominators: round x toward zero onto the grid 1/d, for the
  // small d first (1/2, 1/3, ...), then d approaching q.
  const auto q = den(x);
  if (q < boost::multiprecision::mpz_int(1) << 62) {
    const auto qi = q.convert_to<int64_t>();
    auto try_den = [&](int64_t d) {
      const boost::multiprecision::mpz_int p = boost::multiprecision::numerator(x) * d / q;
      add(Q(p, boost::multiprecision::mpz_int(d)));
    };
    for (int64_t d = 1; d < std::min<int64_t>(qi, 13); ++d) try_den(d);
    rc::Seq<int64_t> dens = rc::shrink::towards<int64_t>(qi, 1);
    while (auto d = dens.next()) try_den(*d);
  }
  return out;
}

rc::Shrinkable<Exact> ShrinkableDouble(double x, double lo, double hi) {
  return rc::shrinkable::map(
      rc::shrinkable::shrinkRecur(x, [lo, hi](double v) { return rc::seq::fromContainer(SimplerDoubles(v, lo, hi)); }),
      [](double v) { return Exact(v); });
}

namespace {

rc::Shrinkable<Exact> ShrinkableRational(const Q& x, const Q& lo, const Q& hi) {
  return rc::shrinkable::map(rc::shrinkable::shrinkRecur(x,
                                                         [lo, hi](const Q& v) {
                                                           return rc::seq::fromContainer(SimplerRationals(v, lo, hi));
                                                         }),
                             [](const Q& v) { return Exact(v); });
}

// A Gen from a function drawing a double and its shrink range.
template <class Draw>
rc::Gen<Exact> DoubleGen(double lo, double hi, Draw draw) {
  return rc::Gen<Exact>([=](const rc::Random& random, int /*size*/) {
    rc::Random r = random;
    double x = std::clamp(draw(r), lo, hi);
    if (x == 0) x = 0.0;  // round() and ldexp() can give -0: a special, never drawn here
    return ShrinkableDouble(x, lo, hi);
  });
}

}  // namespace

rc::Gen<Exact> Dyadic(int64_t max_abs, int frac_bits) {
  const auto m = static_cast<double>(max_abs);
  return DoubleGen(-m, m, [=](rc::Random& r) {
    // Integer part, fraction and sign drawn separately (as before).
    const auto whole = static_cast<double>(UniformInt(r, 0, max_abs));
    const auto frac = static_cast<double>(UniformInt(r, 0, (int64_t{1} << frac_bits) - 1));
    const double v = std::min(m, whole + std::ldexp(frac, -frac_bits));
    return (r.next() & 1) ? -v : v;
  });
}

rc::Gen<Exact> PositiveDyadic(int64_t max_abs, int frac_bits) {
  const double lo = std::ldexp(1.0, -frac_bits), hi = static_cast<double>(max_abs);
  return DoubleGen(lo, hi, [=](rc::Random& r) {
    const int64_t units = UniformInt(r, 1, max_abs << frac_bits);
    return std::ldexp(static_cast<double>(units), -frac_bits);
  });
}

rc::Gen<Exact> PositiveRational(int64_t max_num, int64_t max_den) {
  return rc::Gen<Exact>([=](const rc::Random& random, int) {
    rc::Random r = random;
    const int64_t p = UniformInt(r, 1, max_num), q = UniformInt(r, 1, max_den);
    return ShrinkableRational(Q(p) / q, Q(1) / max_den, Q(max_num));
  });
}

rc::Gen<Exact> Rational(int64_t max_num, int64_t max_den) {
  return rc::Gen<Exact>([=](const rc::Random& random, int) {
    rc::Random r = random;
    const int64_t p = UniformInt(r, -max_num, max_num), q = UniformInt(r, 1, max_den);
    // Range: the smallest interval holding every p/q (|p| <= max_num).
    return ShrinkableRational(Q(p) / q, Q(-max_num), Q(max_num));
  });
}

rc::Gen<int64_t> Dim(int64_t lo, int64_t hi) { return rc::gen::inRange<int64_t>(lo, hi + 1); }

rc::Gen<ExactMatrix> Matrix(int64_t rows, int64_t cols, rc::Gen<Exact> entry) {
  return rc::gen::map(rc::gen::container<std::vector<Exact>>(static_cast<size_t>(rows * cols), std::move(entry)),
                      [=](std::vector<Exact> v) {
                        ExactMatrix m(rows, cols);
                        m.data = std::move(v);
                        return m;
                      });
}

rc::Gen<Exact> Normal(double sigma) {
  return DoubleGen(-8 * sigma, 8 * sigma, [=](rc::Random& r) {
    // Box-Muller; u1 in (0, 1] so the log is finite.
    const double u1 = 1.0 - UniformUnit(r), u2 = UniformUnit(r);
    return sigma * std::sqrt(-2 * std::log(u1)) * std::cos(2 * std::numbers::pi * u2);
  });
}

namespace {

/// A value of [lo, hi] whose magnitude is log-uniform across the binades
/// the range spans (down to 2^-60 of its largest magnitude when it holds
/// 0), with a sign the range allows: a parameter in (2^-10, 16] is below 1/4
/// a third of the time, where a uniform draw is 1.5% of the time.
double LogUniformIn(rc::Random& r, double lo, double hi) {
  const double top = std::fmax(std::fabs(lo), std::fabs(hi));
  if (!(top > 0)) return 0.0;
  bool negative = hi <= 0 || (lo < 0 && (r.next() & 1));
  const double far = negative ? std::fabs(lo) : std::fabs(hi);  // the largest magnitude on that side
  double near = lo <= 0 && 0 <= hi ? std::ldexp(top, -60) : std::fmin(std::fabs(lo), std::fabs(hi));
  near = std::fmax(near, std::numeric_limits<double>::min());
  if (!(far > near)) return negative ? -far : far;
  const double m = std::exp2(std::log2(near) + (std::log2(far) - std::log2(near)) * UniformUnit(r));
  return negative ? -m : m;
}

}  // namespace

rc::Gen<Exact> RegimeScalar(double lo, double hi) {
  return DoubleGen(lo, hi, [=](rc::Random& r) {
    const double u = UniformUnit(r);
    switch (UniformInt(r, 0, 19)) {
      case 0: case 1: case 2: case 3: case 4: case 5: case 6:
        return LogUniformIn(r, lo, hi);  // full mantissa, every scale
      case 7: case 8: case 9:  // every scale, a short mantissa (1 to 6 significant bits)
        return TruncateSignificand(LogUniformIn(r, lo, hi), 1 + static_cast<int>(UniformInt(r, 0, 5)));
      case 10: case 11: case 12:
        return lo + (hi - lo) * u;  // uniform, full mantissa
      case 13: case 14: {  // the edges: the endpoints, their neighbours, 0, +-1
        const double edges[] = {lo, hi, std::nextafter(lo, hi), std::nextafter(hi, lo), 0.0, 1.0, -1.0};
        const double e = edges[UniformInt(r, 0, 6)];
        return e >= lo && e <= hi ? e : lo;
      }
      case 15: {  // a power of two in the range (sign as allowed)
        const double v = LogUniformIn(r, lo, hi);
        int ex = 0;
        std::frexp(v, &ex);
        return std::ldexp(v < 0 ? -1.0 : 1.0, ex - 1);
      }
      case 16:
        return std::round(lo + (hi - lo) * u);  // a small integer when the range is small
      default:
        return std::ldexp(std::round(std::ldexp(lo + (hi - lo) * u, 4)), -4);  // short dyadic
    }
  });
}

rc::Gen<Exact> Uniform(double lo, double hi) {
  return DoubleGen(lo, hi, [=](rc::Random& r) {
    const double u = UniformUnit(r);
    switch (UniformInt(r, 0, 9)) {
      case 4:
        // A range of one sign (a temperature, a step): across its binades,
        // a test generator, not a sampler (a claim false only near its small
        // end is met there). A range that holds 0 draws as before: the
        // regimes build their entries on it, with scales of their own.
        if (lo > 0 || hi < 0) return LogUniformIn(r, lo, hi);
        return lo + (hi - lo) * u;
      case 0:
        return (r.next() & 1) ? lo : hi;
      case 1:
        return (r.next() & 1) ? std::nextafter(lo, hi) : std::nextafter(hi, lo);
      case 2:
        return std::round(lo + (hi - lo) * u);  // a small integer when the range is small
      case 3:
        return std::ldexp(std::round(std::ldexp(lo + (hi - lo) * u, 4)), -4);  // short dyadic
      default:
        return lo + (hi - lo) * u;
    }
  });
}

rc::Gen<Exact> Wide(double max_abs) {
  const double top_exp = std::log2(max_abs);
  return DoubleGen(-max_abs, max_abs, [=](rc::Random& r) {
    const double sign = (r.next() & 1) ? -1.0 : 1.0;
    const int kind = static_cast<int>(UniformInt(r, 0, 9));
    if (kind <= 2) {
      static constexpr double kConstants[] = {0.0,
                                              0x1p-1074,
                                              0x1p-1022,
                                              0x1.ffffffffffffep-1023,
                                              0x1.fffffffffffffp-1,
                                              0x1.0000000000001p+0,
                                              709.782712893384,       // log(DBL_MAX)
                                              0x1.62e42fefa39fp+9,    // just above log(DBL_MAX)
                                              -745.1332191019411,     // log(smallest subnormal)
                                              -708.3964185322641,     // log(DBL_MIN)
                                              -0x1.74385446d71c4p+9,  // exp underflows to 0 below
                                              1e4,
                                              -1e4};
      const double c = kConstants[UniformInt(r, 0, std::size(kConstants) - 1)];
      const bool signed_const = c > 0 && c < 709;  // the thresholds of exp keep their sign
      const double v = signed_const ? sign * c : c;
      return std::fabs(v) <= max_abs ? v : sign * max_abs;
    }
    if (kind == 3) {
      // Simple values: small integers and short dyadics (k / 16, |k| <= 256).
      return std::clamp(std::ldexp(static_cast<double>(UniformInt(r, -256, 256)), -4), -max_abs, max_abs);
    }
    if (kind <= 7) {
      // Log-uniform magnitude from the subnormals to max_abs, full significand.
      const double e = -1074.0 + (top_exp + 1074.0) * UniformUnit(r);
      const double m = 1.0 + UniformUnit(r);
      return sign * std::min(max_abs, std::ldexp(m, static_cast<int>(std::floor(e))));
    }
    return sign * max_abs * UniformUnit(r);
  });
}

rc::Gen<Exact> SimpleDyadic(double max_abs, int frac_bits) {
  const auto units = static_cast<int64_t>(std::floor(std::ldexp(max_abs, frac_bits)));
  return DoubleGen(-max_abs, max_abs, [=](rc::Random& r) {
    // Half the time a value of magnitude <= 4, the rest anywhere in range.
    const int64_t lim = (r.next() & 1) ? std::min(units, int64_t{4} << frac_bits) : units;
    return std::ldexp(static_cast<double>(UniformInt(r, -lim, lim)), -frac_bits);
  });
}

rc::Gen<Exact> SimpleRational(int64_t max_abs, int64_t max_den) {
  return rc::Gen<Exact>([=](const rc::Random& random, int) {
    rc::Random r = random;
    const int64_t q = UniformInt(r, 1, max_den);
    const int64_t p = UniformInt(r, -max_abs * q, max_abs * q);
    return ShrinkableRational(Q(p) / q, Q(-max_abs), Q(max_abs));
  });
}

rc::Gen<Exact> WithSpecials(rc::Gen<Exact> finite, Specials specials, int percent) {
  std::vector<double> pool;
  if (specials.negative_zero) pool.push_back(-0.0);
  if (specials.infinities) {
    pool.push_back(std::numeric_limits<double>::infinity());
    pool.push_back(-std::numeric_limits<double>::infinity());
  }
  if (specials.nan) pool.push_back(std::numeric_limits<double>::quiet_NaN());
  return rc::Gen<Exact>([=](const rc::Random& random, int size) {
    rc::Random r = random;
    rc::Random sub = r.split();
    if (pool.empty() || UniformInt(r, 0, 99) >= percent) return finite(sub, size);
    const double v = pool[static_cast<size_t>(UniformInt(r, 0, static_cast<int64_t>(pool.size()) - 1))];
    return rc::shrinkable::just(Exact(v), rc::seq::just(rc::shrinkable::just(Exact(0.0))));
  });
}

std::vector<std::string> ScalarClasses(const Exact& x) {
  std::vector<std::string> c;
  if (!x.IsDouble()) {
    c.push_back("rational");
    return c;
  }
  const double d = x.ToDouble();
  if (std::isnan(d)) return {"nan"};
  if (std::isinf(d)) return {"inf"};
  if (d == 0) return {std::signbit(d) ? "-0" : "zero", "integer"};
  const double a = std::fabs(d);
  if (a < 0x1p-1022) c.push_back("subnormal");
  if (a >= 0x1p-1022 && a < 1e-300) c.push_back("tiny");
  if (FractionBits(d) == 0) c.push_back("integer");
  if (FractionBits(d) > 0 && FractionBits(d) <= 8) c.push_back("short_dyadic");
  if (a >= 700 && a <= 720) c.push_back("near_exp_overflow");
  if (d >= -760 && d <= -700) c.push_back("exp_underflow");
  if (a >= 1e3) c.push_back("huge");
  return c;
}

double RoundToDouble(const Q& q) { return RoundToPrecision(q, 53); }

double RoundToPrecision(const Q& q, int bits) {
  mpfr_t t;
  mpfr_init2(t, bits);
  mpfr_set_q(t, q.backend().data(), MPFR_RNDN);
  const double d = mpfr_get_d(t, MPFR_RNDN);  // exact: t has <= 53 bits
  mpfr_clear(t);
  return d;
}

}  // namespace attnprop::gen
