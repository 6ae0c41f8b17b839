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

}  // namespace

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
  } else if (const auto* x = std::get_if<Exact>(&v)) {
    for (const Exact& s : SimplerValues(*x)) {
      Case e = c;
      e.mutable_fields()[slot.field].second = s;
      out.push_back(std::move(e));
    }
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
