#include "properties/framework/case_edit.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <variant>

namespace attnprop {
namespace {

using Value = Case::Value;

Exact Scale2(const Exact& e, int k) {
  if (e.IsDouble()) return Exact(std::ldexp(e.ToDouble(), k));
  Rational q = e.ToRational();
  const Rational two(2);
  for (int i = 0; i < std::abs(k); ++i) q = k > 0 ? Rational(q * two) : Rational(q / two);
  return Exact(q);
}

Exact Negate(const Exact& e) {
  if (e.IsDouble()) return Exact(-e.ToDouble());
  return Exact(Rational(-e.ToRational()));
}

/// Calls fn on every matrix entry and scalar of one field's value: the
/// values a repair edits (ints are dimensions or counts, not values).
template <class Value, class Fn>
void ForEachValue(Value& v, Fn&& fn) {
  if (auto* m = std::get_if<ExactMatrix>(&v)) {
    for (auto& x : m->data) fn(x);
  } else if (auto* x = std::get_if<Exact>(&v)) {
    fn(*x);
  }
}

/// The distinct nonzero absolute values of c's entries and scalars, the
/// first `max` in field order: values a hypothesis may tie together (phi0 =
/// max |X|, a weight equal to eta), which edits move as one.
std::vector<Exact> AbsoluteValueClasses(const Case& c, size_t max) {
  std::vector<Exact> classes;
  for (const auto& [name, v] : c.fields())
    ForEachValue(v, [&](const Exact& x) {
      const Exact a = x.ToDouble() < 0 ? Negate(x) : x;
      if (a.ToDouble() == 0 || classes.size() >= max) return;
      for (const Exact& k : classes)
        if (k == a) return;
      classes.push_back(a);
    });
  return classes;
}

/// c with every value of absolute value a set to b, signs kept.
Case SetClass(const Case& c, const Exact& a, const Exact& b) {
  const Exact minus_b = Negate(b);
  Case out = c;
  for (auto& [name, v] : out.mutable_fields())
    ForEachValue(v, [&](Exact& x) {
      if (x == a) x = b;
      else if (Negate(x) == a) x = minus_b;
    });
  return out;
}

/// e * f, rounded to a double when e is one (exact for a rational).
Exact Times(const Exact& e, double f) {
  if (e.IsDouble()) return Exact(e.ToDouble() * f);
  return Exact(Rational(e.ToRational() * Rational(f)));
}

/// A factor near 1 (1 +- 2^-k, k in 1..6): a step finer than a power of two,
/// toward a bound that a doubling would overshoot.
double NudgeFactor(EditRng& rng) {
  const double step = std::ldexp(1.0, -1 - static_cast<int>(rng.Below(6)));
  return rng.Chance(50) ? 1 + step : 1 - step;
}

/// e * num / den, or nothing when e is a double and the product is not one
/// (an edit must not turn a double case into a rational one).
std::optional<Exact> ScaleBy(const Exact& e, int64_t num, int64_t den) {
  const Rational q = Rational(e.ToRational() * Rational(num)) / Rational(den);
  if (!e.IsDouble()) return Exact(q);
  const double d = static_cast<double>(q);
  if (!std::isfinite(d) || Rational(d) != q) return std::nullopt;
  return Exact(d);
}

/// A power-of-two exponent, mostly small, sometimes far (2^-20 .. 2^20).
int Exponent(EditRng& rng) {
  const int k = rng.Chance(70) ? 1 + static_cast<int>(rng.Below(3)) : 1 + static_cast<int>(rng.Below(20));
  return rng.Chance(50) ? k : -k;
}

/// Simpler values than e, simplest first: 0, the integer toward zero, half
/// the significant bits, |e|.
std::vector<Exact> SimplerValues(const Exact& e) {
  std::vector<Exact> out;
  const double d = e.ToDouble();
  if (!std::isfinite(d)) return {Exact(0.0)};
  if (d == 0 && e.IsDouble()) return out;
  out.push_back(Exact(0.0));
  const double t = std::trunc(d);
  if (t != d || !e.IsDouble()) out.push_back(Exact(t));
  if (e.IsDouble()) {
    int ex = 0;
    const double m = std::frexp(d, &ex);  // d = m 2^ex, 0.5 <= |m| < 1
    // Significant bits of m, then keep half of them.
    int bits = 0;
    for (double r = m; r != std::trunc(r) && bits < 60; r *= 2) ++bits;
    if (bits > 1) {
      const int keep = bits / 2;
      const double shorter = std::ldexp(std::trunc(std::ldexp(m, keep)), ex - keep);
      if (shorter != d && shorter != t) out.push_back(Exact(shorter));
    }
  }
  // A rational (an MPFR or exact case's value) becomes the double nearest it,
  // whose bits the next pass then shortens: a case of 43-digit rationals
  // where a double would do is no simpler for being exact.
  if (!e.IsDouble() && std::isfinite(d) && !(Exact(d) == Exact(t))) out.push_back(Exact(d));
  if (d < 0) out.push_back(Negate(e));
  return out;
}

/// The whole matrix scaled by a power of two so that its largest entry is
/// just below the smallest normal of f32 and bf16 (2^-126), f64 (2^-1022)
/// or f16 (2^-14), one picked: a kernel that flushes subnormals, or divides
/// by a value that underflows, is met wherever its format starts them (a
/// power-of-two move of 2^-20 at most would need dozens of steps). Doubles
/// only: an exact rational case has no format.
void IntoSubnormals(ExactMatrix& m, EditRng& rng) {
  double top = 0;
  for (const Exact& x : m.data) {
    if (!x.IsDouble()) return;
    top = std::fmax(top, std::fabs(x.ToDouble()));
  }
  if (top == 0 || !std::isfinite(top)) return;
  static constexpr int kMinNormalExponent[] = {-126, -1022, -14};
  int ex = 0;
  std::frexp(top, &ex);  // top < 2^ex
  const int k = kMinNormalExponent[rng.Below(3)] - ex;
  for (Exact& x : m.data) x = Scale2(x, k);
}

void MutateMatrix(ExactMatrix& m, EditRng& rng) {
  if (m.data.empty()) return;
  Exact& e = m.data[rng.Below(m.data.size())];
  switch (rng.Below(13)) {
    case 0: case 1: e = Scale2(e, Exponent(rng)); break;
    case 2: {
      const int k = Exponent(rng);
      for (Exact& x : m.data) x = Scale2(x, k);
      break;
    }
    case 3: e = Negate(e); break;
    case 4: e = Exact(static_cast<double>(static_cast<int>(rng.Below(3)) - 1)); break;  // -1, 0, 1
    case 5: e = m.data[rng.Below(m.data.size())]; break;
    case 6: {  // a row made equal to another
      const int64_t a = static_cast<int64_t>(rng.Below(static_cast<uint64_t>(m.rows)));
      const int64_t b = static_cast<int64_t>(rng.Below(static_cast<uint64_t>(m.rows)));
      for (int64_t j = 0; j < m.cols; ++j) m(a, j) = m(b, j);
      break;
    }
    case 7: {  // a column made equal to another
      const int64_t a = static_cast<int64_t>(rng.Below(static_cast<uint64_t>(m.cols)));
      const int64_t b = static_cast<int64_t>(rng.Below(static_cast<uint64_t>(m.cols)));
      for (int64_t i = 0; i < m.rows; ++i) m(i, a) = m(i, b);
      break;
    }
    case 9: e = Times(e, NudgeFactor(rng)); break;
    case 10: {
      const double f = NudgeFactor(rng);
      for (Exact& x : m.data) x = Times(x, f);
      break;
    }
    case 11: case 12: IntoSubnormals(m, rng); break;
    default:
      if (e.IsDouble()) e = Exact(std::nextafter(e.ToDouble(), rng.Chance(50) ? HUGE_VAL : -HUGE_VAL));
      break;
  }
}

void MutateScalar(Exact& e, EditRng& rng) {
  switch (rng.Below(6)) {
    case 0: case 1: e = Scale2(e, Exponent(rng)); break;
    case 5: e = Times(e, NudgeFactor(rng)); break;
    case 2: e = Negate(e); break;
    case 3: e = Exact(static_cast<double>(static_cast<int>(rng.Below(3)) - 1)); break;
    default:
      if (e.IsDouble()) e = Exact(std::nextafter(e.ToDouble(), rng.Chance(50) ? HUGE_VAL : -HUGE_VAL));
      break;
  }
}

/// a + delta, exact for rationals; rounded to a double when a is one (a
/// double case stays a double case; a delta below half an ulp of a gives a
/// itself: an equal pair, which the claim sees too).
Exact Plus(const Exact& a, const Exact& delta) {
  if (a.IsDouble() && delta.IsDouble()) return Exact(a.ToDouble() + delta.ToDouble());
  return Exact(Rational(a.ToRational() + delta.ToRational()));
}

/// a + step, never a itself: a step below half an ulp of a gives a's
/// neighbour on the step's side (an equal pair would be no pair: 0 <= 0,
/// which no enclosure decides).
Exact PlusDistinct(const Exact& a, const Exact& step) {
  Exact b = Plus(a, step);
  if (b == a && a.IsDouble() && std::isfinite(a.ToDouble()))
    b = Exact(std::nextafter(a.ToDouble(), step.ToDouble() > 0 ? HUGE_VAL : -HUGE_VAL));
  return b;
}

/// Two value fields that can be paired: two scalars, or two matrices of one shape.
bool SameShape(const Value& a, const Value& b) {
  if (const auto* ma = std::get_if<ExactMatrix>(&a)) {
    const auto* mb = std::get_if<ExactMatrix>(&b);
    return mb && ma->rows == mb->rows && ma->cols == mb->cols && !ma->data.empty();
  }
  return std::holds_alternative<Exact>(a) && std::holds_alternative<Exact>(b);
}

/// The ordered pairs (from, to) of fields of one shape.
std::vector<std::pair<size_t, size_t>> FieldPairs(const Case& c) {
  std::vector<std::pair<size_t, size_t>> out;
  const auto& f = c.fields();
  for (size_t i = 0; i < f.size(); ++i)
    for (size_t j = 0; j < f.size(); ++j)
      if (i != j && SameShape(f[i].second, f[j].second)) out.push_back({i, j});
  return out;
}

/// How small a pair's gap is: 2^-k of the scale, k in 1..40 (one k for a
/// whole move, so that the gap's direction is not one coordinate's).
int GapExponent(EditRng& rng) { return 1 + static_cast<int>(rng.Below(40)); }

/// A step 2^-k m/4 (m in +-1..4) at a binade: x's own (|x|, or `scale`
/// where x is 0 or not finite) when `own`, else `scale`'s.
Exact NearStep(const Exact& x, double scale, int k, bool own, EditRng& rng) {
  const double ax = std::fabs(x.ToDouble());
  const double at = own && ax > 0 && std::isfinite(ax) ? ax : scale;
  int ex = 0;
  std::frexp(at, &ex);  // 2^(ex-1) <= at < 2^ex
  const int m = 1 + static_cast<int>(rng.Below(4));
  return Exact(std::ldexp(rng.Chance(50) ? m : -m, ex - k - 2));
}

/// Significant bits of a double (a rational: more than any double has).
int SignificantBits(const Exact& x) {
  if (!x.IsDouble()) return 64;
  const double d = x.ToDouble();
  if (d == 0 || !std::isfinite(d)) return 0;
  int e = 0;
  auto m = static_cast<uint64_t>(std::ldexp(std::fabs(std::frexp(d, &e)), 53));
  int bits = 53;
  while (bits > 1 && (m & 1) == 0) m >>= 1, --bits;
  return bits;
}

/// b - a when it is exact in the case's arithmetic (a double difference of
/// two doubles, as near ones are; any rational one).
std::optional<Exact> Gap(const Exact& a, const Exact& b) {
  if (!std::isfinite(a.ToDouble()) || !std::isfinite(b.ToDouble())) return std::nullopt;
  const Rational q = b.ToRational() - a.ToRational();
  if (!a.IsDouble() || !b.IsDouble()) return Exact(q);
  const double d = static_cast<double>(q);
  if (!std::isfinite(d) || Rational(d) != q) return std::nullopt;
  return Exact(d);
}

/// A pair already near: every entry of b within a quarter of a's entry (or
/// of a's largest, where a's is 0), and not every entry equal.
bool IsNearPair(const Case& c, size_t a, size_t b) {
  const auto& f = c.fields();
  std::vector<const Exact*> xa, xb;
  if (const auto* ma = std::get_if<ExactMatrix>(&f[a].second)) {
    const auto& mb = std::get<ExactMatrix>(f[b].second);
    for (size_t k = 0; k < ma->data.size(); ++k) xa.push_back(&ma->data[k]), xb.push_back(&mb.data[k]);
  } else {
    xa.push_back(&std::get<Exact>(f[a].second));
    xb.push_back(&std::get<Exact>(f[b].second));
  }
  double top = 0;
  for (const Exact* x : xa) top = std::fmax(top, std::fabs(x->ToDouble()));
  bool differ = false;
  for (size_t k = 0; k < xa.size(); ++k) {
    const double x = xa[k]->ToDouble(), y = xb[k]->ToDouble();
    if (!std::isfinite(x) || !std::isfinite(y)) return false;
    const double scale = x != 0 ? std::fabs(x) : top;
    if (!(std::fabs(y - x) <= scale / 4)) return false;
    differ = differ || !(*xa[k] == *xb[k]);
  }
  return differ;
}

/// A near pair's direction turned: at one entry, the gap b - a negated,
/// doubled, halved or drawn again (NearStep), a's entry kept.
void TurnGap(Case& c, size_t a, size_t b, EditRng& rng) {
  auto& f = c.mutable_fields();
  Exact *x = nullptr, *y = nullptr;
  double scale = 1;
  if (auto* ma = std::get_if<ExactMatrix>(&f[a].second)) {
    const size_t k = rng.Below(ma->data.size());
    for (const Exact& v : ma->data) scale = std::fmax(scale, std::fabs(v.ToDouble()));
    x = &ma->data[k];
    y = &std::get<ExactMatrix>(f[b].second).data[k];
  } else {
    x = &std::get<Exact>(f[a].second);
    y = &std::get<Exact>(f[b].second);
  }
  const auto gap = Gap(*x, *y);
  switch (rng.Below(4)) {
    case 0: if (gap) *y = Plus(*x, Negate(*gap)); break;
    case 1: if (gap) *y = Plus(*x, Scale2(*gap, 1)); break;
    case 2: if (gap) *y = Plus(*x, Scale2(*gap, -1)); break;
    default: {
      // At the size of the gap there now, where there is one.
      int k = GapExponent(rng);
      if (gap && gap->ToDouble() != 0) {
        int eg = 0, es = 0;
        std::frexp(gap->ToDouble(), &eg);
        std::frexp(scale, &es);
        k = std::clamp(es - eg - 1, 1, 60);
      }
      *y = PlusDistinct(*x, NearStep(*x, scale, k, false, rng));
      break;
    }
  }
}

/// The pair's other move: one change made to both fields at one entry (or
/// at every entry, by one factor), the gap between them kept: a near pair
/// climbs as one point (a Lipschitz witness moved toward a steeper place
/// stays a close pair).
void MoveTogether(Case& c, size_t a, size_t b, EditRng& rng) {
  auto& f = c.mutable_fields();
  auto* ma = std::get_if<ExactMatrix>(&f[a].second);
  auto* mb = std::get_if<ExactMatrix>(&f[b].second);
  std::vector<std::pair<Exact*, Exact*>> at;  // the entries changed, in both
  if (ma && mb) {
    if (rng.Chance(30)) {
      for (size_t k = 0; k < ma->data.size(); ++k) at.push_back({&ma->data[k], &mb->data[k]});
    } else {
      const size_t k = rng.Below(ma->data.size());
      at.push_back({&ma->data[k], &mb->data[k]});
    }
  } else if (auto* xa = std::get_if<Exact>(&f[a].second)) {
    at.push_back({xa, &std::get<Exact>(f[b].second)});
  }
  const double factor = rng.Chance(25) ? (rng.Chance(50) ? 2.0 : 0.5) : NudgeFactor(rng);
  for (auto [x, y] : at) {
    const auto gap = Gap(*x, *y);
    *x = Times(*x, factor);
    *y = gap ? Plus(*x, *gap) : Times(*y, factor);
  }
}

/// The pair move: field `to` := field `from` + delta, delta at from's scale
/// (NearStep), in every entry or in one. Two inputs of one shape that a
/// claim relates (a Lipschitz bound, a monotonicity, an order) have their
/// witnesses near each other, where independent draws almost never are.
void MoveNear(Case& c, size_t from, size_t to, EditRng& rng) {
  auto& f = c.mutable_fields();
  if (const auto* a = std::get_if<ExactMatrix>(&f[from].second)) {
    ExactMatrix b = *a;
    double scale = 0;
    for (const Exact& x : a->data) scale = std::fmax(scale, std::fabs(x.ToDouble()));
    if (!(scale > 0) || !std::isfinite(scale)) scale = 1;
    const int k = GapExponent(rng);
    if (rng.Chance(70)) {
      // Every entry: steps at the matrix's scale (a direction of every
      // coordinate), or at each entry's own (a relative perturbation).
      const bool own = rng.Chance(30);
      for (Exact& x : b.data) x = PlusDistinct(x, NearStep(x, scale, k, own, rng));
    } else {
      const size_t at = rng.Below(b.data.size());
      b.data[at] = PlusDistinct(b.data[at], NearStep(b.data[at], scale, k, true, rng));  // the others equal from's
    }
    f[to].second = std::move(b);
  } else if (const auto* x = std::get_if<Exact>(&f[from].second)) {
    f[to].second = PlusDistinct(*x, NearStep(*x, 1, GapExponent(rng), true, rng));
  }
}

}  // namespace

bool HasNearPair(const Case& c) {
  for (const auto& [a, b] : FieldPairs(c))
    if (IsNearPair(c, a, b)) return true;
  return false;
}

uint64_t EditRng::Next() {
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

Case Mutate(const Case& c, EditRng& rng, const CaseDims& declared) {
  if (c.fields().empty()) return c;
  // A dimension grows or shrinks in one move out of ten.
  if (rng.Chance(10)) {
    const auto dims = declared.Dimensions();
    if (!dims.empty()) {
      const auto& d = dims[rng.Below(dims.size())];
      const bool grow = d.size < 2 || rng.Chance(50);
      const auto at = static_cast<int64_t>(rng.Below(static_cast<uint64_t>(d.size)));
      return grow ? declared.Grow(d, at) : declared.Drop(d, at, 1);
    }
  }
  // Tied values move together in one move out of seven: every entry and
  // scalar of one absolute value (of the first 16) scaled by 2, 1/2 or a
  // factor near 1, so that phi0 = max |X| still holds after X grows.
  if (rng.Chance(15)) {
    constexpr size_t kValueClasses = 16;
    const std::vector<Exact> classes = AbsoluteValueClasses(c, kValueClasses);
    if (!classes.empty()) {
      const Exact a = classes[rng.Below(classes.size())];
      const double f = rng.Chance(30) ? (rng.Chance(50) ? 2.0 : 0.5) : NudgeFactor(rng);
      return SetClass(c, a, Times(a, f));
    }
  }
  // Two inputs of one shape made near, or moved as one, in one move out of
  // seven (MoveNear, MoveTogether); a pair already near is moved as a pair
  // in every other move (as one, or its direction turned, or made near
  // again): the other moves change one side alone, and throw it away.
  const auto pairs = FieldPairs(c);
  std::vector<std::pair<size_t, size_t>> near;
  for (const auto& p : pairs)
    if (IsNearPair(c, p.first, p.second)) near.push_back(p);
  if (!near.empty() && rng.Chance(75)) {
    const auto [a, b] = near[rng.Below(near.size())];
    Case out = c;
    switch (rng.Below(3)) {
      case 0: MoveTogether(out, a, b, rng); break;
      case 1: TurnGap(out, a, b, rng); break;
      default: MoveNear(out, a, b, rng); break;
    }
    return out;
  }
  if (!pairs.empty() && rng.Chance(15)) {
    const auto [from, to] = pairs[rng.Below(pairs.size())];
    Case out = c;
    if (rng.Chance(50)) MoveNear(out, from, to, rng);
    else MoveTogether(out, from, to, rng);
    return out;
  }
  Case out = c;
  auto& fields = out.mutable_fields();
  auto& v = fields[rng.Below(fields.size())].second;
  if (auto* m = std::get_if<ExactMatrix>(&v)) {
    MutateMatrix(*m, rng);
  } else if (auto* e = std::get_if<Exact>(&v)) {
    MutateScalar(*e, rng);
  } else if (auto* i = std::get_if<int64_t>(&v)) {
    *i += rng.Chance(50) ? 1 : -1;
  }
  return out;
}

std::vector<DimensionDrop> DimensionDrops(const CaseDims& declared) {
  std::vector<DimensionDrop> out;
  const auto dims = declared.Dimensions();
  // Blocks first, halves before quarters (delta debugging): a long
  // dimension loses half its indices in one step, not one index per try.
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t n = dims[i].size;
    if (n <= kBlockDropsAbove) continue;
    for (int64_t block = n / 2; block >= 2; block /= 2)
      for (int64_t at = n - block; at >= 0; at -= block) out.push_back({i, at, block});
  }
  for (size_t i = 0; i < dims.size(); ++i)
    for (int64_t at = dims[i].size - 1; at >= 0 && dims[i].size >= 2; --at) out.push_back({i, at, 1});
  return out;
}

Case ApplyDrop(const CaseDims& declared, const DimensionDrop& drop) {
  return declared.Drop(declared.Dimensions().at(drop.dimension), drop.at, drop.count);
}

std::vector<Case> RepairsAfterDrop(const Case& dropped, int64_t size_before) {
  std::vector<Case> out;
  if (size_before < 2) return out;
  // n/(n-1) keeps a sum over the dropped dimension; 2 and 1/2 a margin.
  const std::pair<int64_t, int64_t> factors[] = {
      {size_before, size_before - 1}, {size_before - 1, size_before}, {2, 1}, {1, 2}};
  // Scales the values x with pick(x) by num/den; false if one would become
  // inexact (a double stays a double), and no candidate is made then.
  auto scaled = [&dropped](int64_t num, int64_t den, auto pick, size_t only_field, Case* e) {
    *e = dropped;
    bool ok = true, changed = false;
    auto& fields = e->mutable_fields();
    for (size_t g = 0; g < fields.size(); ++g) {
      if (only_field < fields.size() && g != only_field) continue;
      ForEachValue(fields[g].second, [&](Exact& x) {
        if (!ok || !pick(x)) return;
        const auto y = ScaleBy(x, num, den);
        if (!y) { ok = false; return; }
        changed = changed || !(*y == x);
        x = *y;
      });
    }
    return ok && changed;
  };
  const auto& fields = dropped.fields();
  for (const auto& [num, den] : factors)
    // Each value field alone, then all of them together.
    for (size_t f = 0; f <= fields.size(); ++f) {
      Case e;
      if (scaled(num, den, [](const Exact&) { return true; }, f, &e)) out.push_back(std::move(e));
    }
  // Values tied by the hypotheses (phi0 = max |X|, a weight equal to eta)
  // move together: every entry and scalar of one absolute value, for each
  // of the first kValueClasses nonzero absolute values in field order.
  constexpr size_t kValueClasses = 8;
  const std::vector<Exact> classes = AbsoluteValueClasses(dropped, kValueClasses);
  for (const auto& [num, den] : factors)
    for (const Exact& a : classes) {
      Case e;
      if (scaled(num, den, [&a](const Exact& x) { return x == a || Negate(x) == a; }, fields.size(), &e))
        out.push_back(std::move(e));
    }
  // One class set to another (signs kept): what a drop took from a sum can
  // come back from a value the case already holds (X's rows (1/16, -3/16) ->
  // (3/16, -3/16) gives Lemma C.2's refutation back the margin a dropped
  // column took, collapse.lemmaC.2.part1/mpfr), and the case gets simpler.
  for (const Exact& a : classes)
    for (const Exact& b : classes) {
      if (!(a == b)) out.push_back(SetClass(dropped, a, b));
    }
  return out;
}

std::vector<Case> TowardUnitScale(const Case& c) {
  std::vector<Case> out;
  const auto& fields = c.fields();
  // The binade of the largest finite nonzero |value| in field f (or all).
  auto top_exponent = [&](size_t only) -> std::optional<int> {
    double top = 0;
    for (size_t f = 0; f < fields.size(); ++f) {
      if (only < fields.size() && f != only) continue;
      ForEachValue(fields[f].second, [&](const Exact& x) {
        const double a = std::fabs(x.ToDouble());
        if (std::isfinite(a)) top = std::fmax(top, a);
      });
    }
    if (!(top > 0)) return std::nullopt;
    int ex = 0;
    std::frexp(top, &ex);  // 2^(ex-1) <= top < 2^ex: scaled by 2^(1-ex) it lands in [1, 2)
    return ex;
  };
  // Every value of field `only` (or of all) times 2^k; nothing when a
  // double would round (underflow) or overflow.
  auto scaled = [&](size_t only, int k) -> std::optional<Case> {
    Case e = c;
    bool ok = true;
    auto& mf = e.mutable_fields();
    for (size_t f = 0; f < mf.size(); ++f) {
      if (only < mf.size() && f != only) continue;
      ForEachValue(mf[f].second, [&](Exact& x) {
        if (!ok || !std::isfinite(x.ToDouble())) return;
        const Exact y = Scale2(x, k);
        if (y.IsDouble() && (!std::isfinite(y.ToDouble()) || std::ldexp(y.ToDouble(), -k) != x.ToDouble())) ok = false;
        x = y;
      });
    }
    if (!ok) return std::nullopt;
    return e;
  };
  std::vector<size_t> targets{fields.size()};  // all fields, then each value field alone
  for (size_t f = 0; f < fields.size(); ++f)
    if (std::holds_alternative<ExactMatrix>(fields[f].second) || std::holds_alternative<Exact>(fields[f].second))
      targets.push_back(f);
  // How far the case is from O(1): the sum over value fields of how many
  // binades their largest magnitude is from [1, 2). Every candidate lowers
  // it, so accepting them ends.
  auto distance = [&](const Case& x) {
    int64_t sum = 0;
    const auto& xf = x.fields();
    for (size_t f = 1; f < targets.size(); ++f) {
      double top = 0;
      ForEachValue(xf[targets[f]].second, [&](const Exact& v) {
        const double a = std::fabs(v.ToDouble());
        if (std::isfinite(a)) top = std::fmax(top, a);
      });
      int ex = 1;
      if (top > 0) std::frexp(top, &ex);
      sum += std::abs(ex - 1);
    }
    return sum;
  };
  const int64_t now = distance(c);
  // One value field: "all" is it.
  for (const size_t only : targets.size() == 2 ? std::vector<size_t>{targets[0]} : targets)
    if (const auto ex = top_exponent(only); ex && *ex != 1)
      if (auto e = scaled(only, 1 - *ex); e && distance(*e) < now) out.push_back(std::move(*e));
  return out;
}

std::vector<ValueSlot> ValueSlots(const Case& c, const CaseDims& declared) {
  std::set<size_t> dimension_fields;
  for (const auto& d : declared.Dimensions()) dimension_fields.insert(d.int_fields.begin(), d.int_fields.end());
  std::vector<ValueSlot> out;
  const auto& fields = c.fields();
  for (size_t f = 0; f < fields.size(); ++f) {
    const auto& v = fields[f].second;
    if (const auto* m = std::get_if<ExactMatrix>(&v)) {
      for (size_t k = 0; k < m->data.size(); ++k) out.push_back({f, k});
    } else if (std::holds_alternative<Exact>(v) ||
               (std::holds_alternative<int64_t>(v) && !dimension_fields.count(f))) {
      out.push_back({f, 0});  // an int that is a dimension changes with its dimension only
    }
  }
  return out;
}

namespace {

/// The entry of a slot (a matrix's entry or a scalar), or null.
Exact* EntryAt(Case& c, size_t field, size_t entry) {
  auto& v = c.mutable_fields().at(field).second;
  if (auto* m = std::get_if<ExactMatrix>(&v)) return entry < m->data.size() ? &m->data[entry] : nullptr;
  return std::get_if<Exact>(&v);
}

/// Candidates that keep a near pair near (MoveNear's cases): for each field
/// of the slot's shape whose entry there is within a quarter of the slot's
/// value, the slot set to a simpler value with the partner moved by the same
/// amount (the gap kept), then the gap itself made simpler. Shrinking one
/// side of a Lipschitz witness alone would throw the witness away.
void NearPairCandidates(const Case& c, const ValueSlot& slot, std::vector<Case>& out) {
  const auto& fields = c.fields();
  Case probe = c;
  const Exact* a = EntryAt(probe, slot.field, slot.entry);
  if (!a) return;
  const double ad = a->ToDouble();
  for (size_t g = 0; g < fields.size(); ++g) {
    if (g == slot.field || !SameShape(fields[slot.field].second, fields[g].second)) continue;
    const Exact* b = EntryAt(probe, g, slot.entry);
    if (!b || *a == *b) continue;
    const auto gap = Gap(*a, *b);
    if (!gap || !(std::fabs(gap->ToDouble()) <= std::fabs(ad) / 4)) continue;
    // The first field of the pair leads (the second follows), so that the
    // two sides do not take turns undoing each other's simplification.
    for (const Exact& s : slot.field < g ? SimplerValues(*a) : std::vector<Exact>{}) {
      Case e = c;
      *EntryAt(e, slot.field, slot.entry) = s;
      *EntryAt(e, g, slot.entry) = Plus(s, *gap);
      out.push_back(std::move(e));
    }
    // The slot's own entry moved: slot := partner + (a simpler slot -
    // partner), only from a partner no more complex than the slot (else the
    // slot takes the partner's bits, its plain simplification takes them
    // away again, and the two turns cycle until the budget is spent).
    const auto own_gap = Gap(*b, *a);
    if (!own_gap || SignificantBits(*b) > SignificantBits(*a)) continue;
    for (const Exact& d : SimplerValues(*own_gap)) {
      if (d.ToDouble() == 0) continue;  // the pair made equal: no longer a pair
      Case e = c;
      *EntryAt(e, slot.field, slot.entry) = Plus(*b, d);
      out.push_back(std::move(e));
    }
  }
}

}  // namespace

std::vector<Case> SimplerAt(const Case& c, const ValueSlot& slot) {
  std::vector<Case> out;
  const auto& v = c.fields().at(slot.field).second;
  if (const auto* m = std::get_if<ExactMatrix>(&v)) {
    if (slot.entry >= m->data.size()) return out;
    for (const Exact& s : SimplerValues(m->data[slot.entry])) {
      Case e = c;
      std::get<ExactMatrix>(e.mutable_fields()[slot.field].second).data[slot.entry] = s;
      out.push_back(std::move(e));
    }
    NearPairCandidates(c, slot, out);
  } else if (const auto* x = std::get_if<Exact>(&v)) {
    for (const Exact& s : SimplerValues(*x)) {
      Case e = c;
      e.mutable_fields()[slot.field].second = s;
      out.push_back(std::move(e));
    }
    NearPairCandidates(c, slot, out);
  } else if (const auto* i = std::get_if<int64_t>(&v)) {
    for (const int64_t s : {int64_t{0}, *i / 2, *i - 1}) {
      if (s < 0 || s >= *i) continue;
      Case e = c;
      e.mutable_fields()[slot.field].second = s;
      out.push_back(std::move(e));
    }
  }
  return out;
}

int64_t CaseSize(const Case& c) {
  int64_t n = 0;
  for (const auto& [name, v] : c.fields())
    if (const auto* m = std::get_if<ExactMatrix>(&v)) n += m->rows + m->cols;
  return n;
}

}  // namespace attnprop
