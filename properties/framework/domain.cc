#include "properties/framework/domain.h"

#include <algorithm>
#include <limits>
#include <cmath>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "properties/framework/hypotheses_checks.h"

namespace attnprop {

namespace {

std::string Num(double x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

}  // namespace

std::optional<std::string> Admit::Refuses(const Exact& x) const {
  if (!hyp::Finite(x)) return "not finite";
  // Compared exactly: a rational just above a bound may round onto it.
  const double d = std::fabs(x.ToDouble());
  const bool zero = x.IsDouble() ? x.ToDouble() == 0 : x.ToRational() == 0;
  if (x.IsDouble() ? d > max_abs : std::isfinite(max_abs) && abs(x.ToRational()) > Rational(max_abs))
    return "|x| = " + Num(d) + " > " + Num(max_abs);
  if (!zero && (x.IsDouble() ? d < min_abs : abs(x.ToRational()) < Rational(min_abs)))
    return "0 < |x| = " + Num(d) + " < " + Num(min_abs);
  if (sign != Sign::kAny) {
    const int s = x.IsDouble() ? (x.ToDouble() > 0) - (x.ToDouble() < 0) : x.ToRational().sign();
    if (s < 0 || (sign == Sign::kPositive && s == 0)) return sign == Sign::kPositive ? "not > 0" : "negative";
  }
  if (representable == Representable::kDouble && !hyp::ExactDouble(x)) return "not exactly a double";
  if (representable == Representable::kFloat && !hyp::ExactFloat(x)) return "not exactly a float";
  if (grid > 0) {
    const Rational q = x.ToRational() / Rational(grid);
    if (denominator(q) != 1) return "not a multiple of " + Num(grid);
  }
  return std::nullopt;
}

int64_t Domain::Drawn::Dim(Axis a) const { return d_.Dim(dom_.axes_.at(static_cast<size_t>(dom_.AxisIndex(a))).layout_axis); }

int Domain::AxisIndex(Axis a) const {
  for (size_t i = 0; i < axes_.size(); ++i)
    if (std::string_view(axes_[i].name) == a.name) return static_cast<int>(i);
  throw std::invalid_argument(std::string("Domain: axis '") + a.name + "' is not declared (Dim)");
}

Domain& Domain::Dim(Axis a, gen::DimRange range, int64_t admit_max) {
  for (const AxisDecl& x : axes_)
    if (std::string_view(x.name) == a.name) throw std::invalid_argument(std::string("Domain: axis '") + a.name + "' twice");
  if (admit_max < 0) admit_max = 4 * range.max + 16;
  axes_.push_back({a.name, range, std::max(admit_max, range.max), layout_.Axis(range)});
  return *this;
}

Domain& Domain::AddMatrix(MatrixField f, Axis rows, Axis cols, int param, std::function<ExactMatrix(const Drawn&)> build,
                          Admit admit) {
  for (const FieldDecl& x : fields_)
    if (std::string_view(x.name) == f.name) throw std::invalid_argument(std::string("Domain: field '") + f.name + "' twice");
  FieldDecl d;
  d.name = f.name;
  d.kind = Kind::kMatrix;
  d.rows = AxisIndex(rows);
  d.cols = AxisIndex(cols);
  d.param = param;
  d.build_matrix = std::move(build);
  d.admit = admit;
  fields_.push_back(std::move(d));
  return *this;
}

Domain& Domain::Matrix(MatrixField f, Axis rows, Axis cols, gen::Regime draw, Admit admit) {
  return AddMatrix(f, rows, cols, Param(rows, cols, draw), nullptr, admit);
}

Domain& Domain::Matrix(MatrixField f, Axis rows, Axis cols, rc::Gen<Exact> entry, Admit admit) {
  return AddMatrix(f, rows, cols, Param(rows, cols, std::move(entry)), nullptr, admit);
}

Domain& Domain::Built(MatrixField f, Axis rows, Axis cols, std::function<ExactMatrix(const Drawn&)> build, Admit admit) {
  return AddMatrix(f, rows, cols, -1, std::move(build), admit);
}

Domain& Domain::Scalar(ScalarField f, rc::Gen<Exact> g, Admit admit) {
  FieldDecl d;
  d.name = f.name;
  d.kind = Kind::kScalar;
  d.param = ScalarParam(std::move(g));
  d.admit = admit;
  fields_.push_back(std::move(d));
  return *this;
}

Domain& Domain::Built(ScalarField f, std::function<Exact(const Drawn&)> build, Admit admit) {
  FieldDecl d;
  d.name = f.name;
  d.kind = Kind::kScalar;
  d.build_scalar = std::move(build);
  d.admit = admit;
  fields_.push_back(std::move(d));
  return *this;
}

Domain& Domain::Derived(ScalarField f, std::function<Exact(const Values&)> derive) {
  FieldDecl d;
  d.name = f.name;
  d.kind = Kind::kScalar;
  d.derive = std::move(derive);
  d.admit = Admit::Finite();
  fields_.push_back(std::move(d));
  return *this;
}

Domain& Domain::Derived(IntField f, std::function<int64_t(const Values&)> derive) {
  FieldDecl d;
  d.name = f.name;
  d.kind = Kind::kInt;
  d.derive_int = std::move(derive);
  d.int_lo = std::numeric_limits<int64_t>::min();
  d.int_hi = std::numeric_limits<int64_t>::max();
  fields_.push_back(std::move(d));
  return *this;
}

Domain& Domain::Int(IntField f, Axis a) {
  FieldDecl d;
  d.name = f.name;
  d.kind = Kind::kInt;
  d.rows = AxisIndex(a);
  fields_.push_back(std::move(d));
  return *this;
}

Domain& Domain::Int(IntField f, rc::Gen<int64_t> g, int64_t lo, int64_t hi) {
  FieldDecl d;
  d.name = f.name;
  d.kind = Kind::kInt;
  // A layout scalar holds the draw (integers are exact doubles; the law's
  // own shrinking is kept by the map).
  d.param = ScalarParam(rc::gen::map(std::move(g), [](int64_t v) { return Exact(static_cast<double>(v)); }));
  d.int_lo = lo, d.int_hi = hi;
  fields_.push_back(std::move(d));
  return *this;
}

Domain& Domain::Built(IntField f, std::function<int64_t(const Drawn&)> build, int64_t lo, int64_t hi) {
  FieldDecl d;
  d.name = f.name;
  d.kind = Kind::kInt;
  d.build_int = std::move(build);
  d.int_lo = lo, d.int_hi = hi;
  fields_.push_back(std::move(d));
  return *this;
}

int Domain::Param(Axis rows, Axis cols, gen::Regime draw) {
  return layout_.Matrix(axes_.at(static_cast<size_t>(AxisIndex(rows))).layout_axis,
                        axes_.at(static_cast<size_t>(AxisIndex(cols))).layout_axis, draw);
}

int Domain::Param(Axis rows, Axis cols, rc::Gen<Exact> entry) {
  return layout_.Raw(axes_.at(static_cast<size_t>(AxisIndex(rows))).layout_axis,
                     axes_.at(static_cast<size_t>(AxisIndex(cols))).layout_axis, std::move(entry));
}

int Domain::ScalarParam(rc::Gen<Exact> g) { return layout_.Scalar(std::move(g)); }

int Domain::PositiveAtomParam(Axis one) {
  gen::Regime regime;
  regime.nonnegative = true;
  regime.structured = false;
  regime.full_bits = 24;
  return Param(one, one, regime);
}

Rational Domain::Drawn::PositiveAtom(int param) const {
  const Rational v = Param(param)(0, 0).ToRational();
  return v == 0 ? Rational(1) : v;
}

std::vector<int> Domain::Axes(const std::vector<Axis>& axes) const {
  std::vector<int> out;
  for (const Axis a : axes) out.push_back(AxisIndex(a));
  return out;
}

int Domain::Param(std::vector<Axis> outer, Axis rows, Axis cols, gen::Regime draw) {
  std::vector<int> o;
  for (const int a : Axes(outer)) o.push_back(axes_[static_cast<size_t>(a)].layout_axis);
  return layout_.Stack(std::move(o), axes_.at(static_cast<size_t>(AxisIndex(rows))).layout_axis,
                       axes_.at(static_cast<size_t>(AxisIndex(cols))).layout_axis, draw);
}

int Domain::Param(std::vector<Axis> outer, Axis rows, Axis cols, rc::Gen<Exact> entry) {
  std::vector<int> o;
  for (const int a : Axes(outer)) o.push_back(axes_[static_cast<size_t>(a)].layout_axis);
  return layout_.RawStack(std::move(o), axes_.at(static_cast<size_t>(AxisIndex(rows))).layout_axis,
                          axes_.at(static_cast<size_t>(AxisIndex(cols))).layout_axis, std::move(entry));
}

Domain& Domain::Group(std::vector<Axis> outer, std::function<std::string(const std::vector<int64_t>&)> prefix,
                      std::vector<Member> members) {
  return Group(std::move(outer), std::move(members),
               [prefix = std::move(prefix)](const char* member, const std::vector<int64_t>& index) {
                 return prefix(index) + member;
               });
}

Domain& Domain::Group(std::vector<Axis> outer, std::vector<Member> members,
                      std::function<std::string(const char*, const std::vector<int64_t>&)> name) {
  FieldDecl d;
  d.name = "";
  d.kind = Kind::kGroup;
  d.outer = Axes(outer);
  d.member_name = std::move(name);
  for (const Member& m : members) {  // declared axes only (throws otherwise)
    if (m.build_int || m.build_scalar) continue;
    static_cast<void>(AxisIndex(m.rows));
    static_cast<void>(AxisIndex(m.cols));
  }
  d.members = std::move(members);
  fields_.push_back(std::move(d));
  return *this;
}

Domain::Member Domain::IntMember(const char* suffix,
                                 std::function<int64_t(const Drawn&, const std::vector<int64_t>&)> build, int64_t lo,
                                 int64_t hi) {
  Member m{suffix, Axis{""}, Axis{""}, nullptr, Admit::Finite()};
  m.build_int = std::move(build);
  m.int_lo = lo, m.int_hi = hi;
  return m;
}

Domain::Member Domain::ScalarMember(const char* suffix,
                                    std::function<Exact(const Drawn&, const std::vector<int64_t>&)> build,
                                    Admit admit) {
  Member m{suffix, Axis{""}, Axis{""}, nullptr, admit};
  m.build_scalar = std::move(build);
  return m;
}

namespace {

/// Every index of extents (row-major); one empty index when there are none.
std::vector<std::vector<int64_t>> Indices(const std::vector<int64_t>& extents) {
  std::vector<std::vector<int64_t>> out;
  for (const int64_t e : extents)
    if (e <= 0) return out;
  std::vector<int64_t> i(extents.size(), 0);
  while (true) {
    out.push_back(i);
    size_t k = extents.size();
    while (k > 0 && ++i[k - 1] == extents[k - 1]) i[--k] = 0;
    if (k == 0) return out;
  }
}

}  // namespace

Domain& Domain::Assume(std::string why, std::function<bool(const Values&)> holds) {
  assumptions_.push_back({std::move(why), std::move(holds)});
  return *this;
}

Case Domain::Build(const gen::Layout::Drawn& d) const {
  Case c;
  for (const FieldDecl& f : fields_) {
    const Drawn drawn(d, *this, c);
    switch (f.kind) {
      case Kind::kMatrix: c.Matrix(f.name, f.build_matrix ? f.build_matrix(drawn) : d.Matrix(f.param)); break;
      case Kind::kScalar:
        c.Scalar(f.name, f.derive ? f.derive(Values(c)) : f.build_scalar ? f.build_scalar(drawn) : d.Scalar(f.param));
        break;
      case Kind::kInt:
        if (f.rows >= 0) c.Int(f.name, d.Dim(axes_[static_cast<size_t>(f.rows)].layout_axis));
        else if (f.derive_int) c.Int(f.name, f.derive_int(Values(c)));
        else if (f.build_int) c.Int(f.name, f.build_int(drawn));
        else c.Int(f.name, std::llround(d.Scalar(f.param).ToDouble()));
        break;
      case Kind::kGroup: {
        std::vector<int64_t> extents;
        for (const int a : f.outer) extents.push_back(d.Dim(axes_[static_cast<size_t>(a)].layout_axis));
        for (const auto& index : Indices(extents))
          for (const Member& m : f.members) {
            const std::string name = f.member_name(m.suffix, index);
            if (m.build_int) c.Int(name, m.build_int(Drawn(d, *this, c), index));
            else if (m.build_scalar) c.Scalar(name, m.build_scalar(Drawn(d, *this, c), index));
            else c.Matrix(name, m.build(Drawn(d, *this, c), index));
          }
        break;
      }
    }
  }
  return c;
}

rc::Gen<Case> Domain::Generator() const {
  const auto self = std::make_shared<const Domain>(*this);
  rc::Gen<Case> g = layout_.Build<Case>([self](const gen::Layout::Drawn& d) { return self->Build(d); });
  if (assumptions_.empty()) return g;
  return rc::gen::suchThat(std::move(g), [self](const Case& c) {
    const Values v(c);
    for (const Assumption& a : self->assumptions_)
      if (!a.holds(v)) return false;
    return true;
  });
}

std::optional<std::string> Domain::Walk(const Case& c, std::vector<Expected>* expected) const {
  // The extent of each axis, from the first field indexed by it.
  std::vector<int64_t> extent(axes_.size(), -1);
  std::vector<std::string> seen_in(axes_.size());
  auto fits = [&](int axis, int64_t n, const std::string& where) -> std::optional<std::string> {
    const AxisDecl& a = axes_[static_cast<size_t>(axis)];
    int64_t& e = extent[static_cast<size_t>(axis)];
    if (e < 0) {
      if (n < a.range.min || n > a.admit_max)
        return where + " is " + std::to_string(n) + ", outside axis " + a.name + "'s [" + std::to_string(a.range.min) +
               ", " + std::to_string(a.admit_max) + "]";
      e = n;
      seen_in[static_cast<size_t>(axis)] = where;
    } else if (e != n) {
      return where + " is " + std::to_string(n) + ", but axis " + a.name + " is " + std::to_string(e) + " (" +
             seen_in[static_cast<size_t>(axis)] + ")";
    }
    return std::nullopt;
  };
  size_t at = 0;  // the case's next field
  auto next = [&](const Expected& want, size_t kind) -> std::optional<std::string> {
    if (at >= c.fields().size()) return "the case ends before field '" + want.name + "'";
    const auto& [name, value] = c.fields()[at];
    if (name != want.name)
      return "field " + std::to_string(at + 1) + " is '" + name + "', the claim's is '" + want.name + "'";
    if (value.index() != kind) return "field '" + want.name + "' is of another kind";
    if (kind == 2) {
      const ExactMatrix& m = std::get<ExactMatrix>(value);
      if (m.rows < 0 || m.cols < 0 || static_cast<int64_t>(m.data.size()) != m.rows * m.cols)
        return "field '" + want.name + "' is malformed";
      if (auto why = fits(want.rows, m.rows, want.name + "'s rows")) return why;
      if (auto why = fits(want.cols, m.cols, want.name + "'s columns")) return why;
    } else if (kind == 0 && want.rows >= 0) {
      if (auto why = fits(want.rows, std::get<int64_t>(value), want.name)) return why;
    }
    if (expected) expected->push_back(want);
    ++at;
    return std::nullopt;
  };
  for (const FieldDecl& f : fields_) {
    std::optional<std::string> why;
    switch (f.kind) {
      case Kind::kMatrix: why = next({f.name, &f, nullptr, f.rows, f.cols, &f.admit}, 2); break;
      case Kind::kScalar: why = next({f.name, &f, nullptr, -1, -1, &f.admit}, 1); break;
      case Kind::kInt: why = next({f.name, &f, nullptr, f.rows, -1, nullptr}, 0); break;
      case Kind::kGroup: {
        std::vector<int64_t> extents;
        for (const int a : f.outer) {
          if (extent[static_cast<size_t>(a)] < 0)
            return std::string("axis ") + axes_[static_cast<size_t>(a)].name + " has no extent before its fields";
          extents.push_back(extent[static_cast<size_t>(a)]);
        }
        for (const auto& index : Indices(extents))
          for (const Member& m : f.members) {
            const std::string name = f.member_name(m.suffix, index);
            if (m.build_int) why = next({name, &f, &m, -1, -1, nullptr}, 0);
            else if (m.build_scalar) why = next({name, &f, &m, -1, -1, &m.admit}, 1);
            else why = next({name, &f, &m, AxisIndex(m.rows), AxisIndex(m.cols), &m.admit}, 2);
            if (why) break;
          }
        break;
      }
    }
    if (why) return why;
  }
  if (at != c.fields().size())
    return "the case has " + std::to_string(c.fields().size()) + " fields, the claim " + std::to_string(at);
  return std::nullopt;
}

std::optional<std::string> Domain::Misfit(const Case& c) const { return Walk(c, nullptr); }

CaseDims Domain::Dims(const Case& c) const {
  CaseDims dims(c);
  std::vector<Expected> expected;
  if (Walk(c, &expected)) return dims;  // a case the domain cannot read: no dimensions
  // An axis whose extent cannot change (its range's min is its admitted max) is no dimension.
  auto editable = [this](int axis) {
    return axis >= 0 && axes_[static_cast<size_t>(axis)].range.min != axes_[static_cast<size_t>(axis)].admit_max;
  };
  for (size_t i = 0; i < expected.size(); ++i) {
    const Expected& e = expected[i];
    const Case::Value& value = c.fields()[i].second;
    if (std::holds_alternative<ExactMatrix>(value)) {
      if (editable(e.rows)) dims.Rows(e.name, std::to_string(e.rows));
      if (editable(e.cols)) dims.Cols(e.name, std::to_string(e.cols));
    } else if (std::holds_alternative<int64_t>(value) && editable(e.rows)) {
      dims.Size(e.name, std::to_string(e.rows));
    }
  }
  return dims;
}

Case Domain::Rederived(Case c) const {
  if (Misfit(c)) return c;
  try {
    for (const FieldDecl& f : fields_)
      if (f.derive) {
        const Exact value = f.derive(Values(c));
        c.Scalar(f.name, value);
      } else if (f.derive_int) {
        const int64_t value = f.derive_int(Values(c));
        c.Int(f.name, value);
      }
  } catch (const std::exception&) {
    // A case the derivation cannot read is left as it is: Violation says why.
  }
  return c;
}

std::optional<std::string> Domain::Violation(const Case& c) const {
  std::vector<Expected> expected;
  if (auto why = Walk(c, &expected)) return why;
  for (size_t i = 0; i < expected.size(); ++i) {
    const Expected& e = expected[i];
    const Case::Value& value = c.fields()[i].second;
    if (const auto* n = std::get_if<int64_t>(&value)) {
      const bool free_int = e.decl->kind == Kind::kInt && e.decl->rows < 0;
      if (!free_int && !e.member) continue;
      const int64_t lo = e.member ? e.member->int_lo : e.decl->int_lo, hi = e.member ? e.member->int_hi : e.decl->int_hi;
      if (*n < lo || *n > hi)
        return e.name + " = " + std::to_string(*n) + ", outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
      continue;
    }
    if (!e.admit) continue;
    if (const auto* m = std::get_if<ExactMatrix>(&value)) {
      for (size_t k = 0; k < m->data.size(); ++k)
        if (auto why = e.admit->Refuses(m->data[k]))
          return e.name + "(" + std::to_string(k / static_cast<size_t>(m->cols)) + "," +
                 std::to_string(k % static_cast<size_t>(m->cols)) + "): " + *why;
    } else if (const auto* x = std::get_if<Exact>(&value)) {
      if (auto why = e.admit->Refuses(*x)) return e.name + ": " + *why;
    }
  }
  const Values v(c);
  try {
    for (const FieldDecl& f : fields_)
      if ((f.derive && !hyp::SameReal(f.derive(v), v[ScalarField{f.name}])) ||
          (f.derive_int && f.derive_int(v) != v[IntField{f.name}]))
        return std::string(f.name) + " is not its derivation from the other fields";
    for (const Assumption& a : assumptions_)
      if (!a.holds(v)) return "assumption " + a.why;
  } catch (const std::exception& e) {
    return std::string("the hypotheses cannot be evaluated: ") + e.what();
  }
  return std::nullopt;
}

const Domain& DomainCache::Get() const {
  if (!domain_ || bits_ != MpfrPrecisionBits()) {
    domain_.emplace(make_());
    bits_ = MpfrPrecisionBits();
  }
  return *domain_;
}

}  // namespace attnprop
