// A claim's domain: the one declaration of its inputs, from which come the
// generator of its cases, the predicate of its hypotheses and the schema of
// its stored cases (issue 30: a field name is written once, as a typed
// constant; a generator and its predicate cannot drift apart).
//
//   constexpr Axis kT{"T"}, kD{"d"};
//   constexpr MatrixField kX{"X"};
//   constexpr ScalarField kEps{"eps"};
//   template <class S> Domain Inputs() {
//     Domain d;
//     d.Dim(kT, {1, SizeBudget<S>::Pick(12, 6), 12}).Dim(kD, {1, 8, 8});
//     d.Matrix(kX, kT, kD, gen::RegimeFor<S>({}), Admit::Within(0x1p200));
//     d.Scalar(kEps, gen::Dyadic(2, 10), Admit::Within(2).Positive());
//     d.Assume("eps < 1", [](const Values& v) { return v[kEps] < 1; });  // exact
//     return d;
//   }
//
// Declaring a field says three things at once: how it is drawn (a regime
// matrix, a raw entry law, a scalar law, or Built from the drawn
// parameters), where it may lie (`Admit`: the claim's domain, usually wider
// than what is drawn, so that the targeted search and stored cases may go
// beyond the random cases), and its shape (the axes it is indexed by).
// The hypotheses predicate is derived: every field present with its kind,
// every axis one extent wherever it appears (the rows of K and V), extents
// within the axis's admitted range, entries within `Admit`, derived fields
// equal to their derivation (phi0 = max |X|), then the `Assume`s (the
// document's side conditions, in its words). Cases hold the fields in
// declaration order, so their text and the store are those of a generator
// that built the same fields by hand.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "generators/regime.h"
#include "generators/shape.h"
#include "model/exact.h"
#include "properties/framework/case.h"
#include "properties/framework/case_dims.h"

namespace attnprop {

/// Typed names of a domain's axes and fields: declared once as constants
/// (`constexpr MatrixField kX{"X"};`), read as `v[kX]` (exact) or `in[kX]`
/// (in the backend's scalar). A misspelt field does not compile.
struct Axis {
  const char* name;
};
struct MatrixField {
  const char* name;
};
struct ScalarField {
  const char* name;
};
struct IntField {
  const char* name;
};

/// Where a field's values may lie (every entry of a matrix): finite always;
/// |x| <= max_abs; x = 0 or |x| >= min_abs (a relative rounding model needs
/// normal products); a sign; exactly a double or a float; on a grid.
struct Admit {
  enum class Sign { kAny, kNonnegative, kPositive };
  enum class Representable { kAny, kDouble, kFloat };
  double max_abs = std::numeric_limits<double>::infinity();
  double min_abs = 0;
  Sign sign = Sign::kAny;
  Representable representable = Representable::kAny;
  double grid = 0;  // > 0: every value a multiple of grid

  /// Any finite value.
  static Admit Finite() { return {}; }
  /// Finite with |x| <= m.
  static Admit Within(double m) {
    Admit a;
    a.max_abs = m;
    return a;
  }
  Admit NonzeroAtLeast(double m) const { return With([m](Admit& a) { a.min_abs = m; }); }
  Admit Nonnegative() const { return With([](Admit& a) { a.sign = Sign::kNonnegative; }); }
  Admit Positive() const { return With([](Admit& a) { a.sign = Sign::kPositive; }); }
  Admit Doubles() const { return With([](Admit& a) { a.representable = Representable::kDouble; }); }
  Admit Floats() const { return With([](Admit& a) { a.representable = Representable::kFloat; }); }
  Admit OnGrid(double g) const { return With([g](Admit& a) { a.grid = g; }); }

  /// nullopt when x lies here; else why not ("|x| > 2^200").
  std::optional<std::string> Refuses(const Exact& x) const;

 private:
  template <class F>
  Admit With(F f) const {
    Admit a = *this;
    f(a);
    return a;
  }
};

/// A read-only view of a case's exact values by typed field (assumptions,
/// derived fields, builders). Throws std::out_of_range naming a missing field.
/// Compare them exactly (`v[kEps] < 1`, Exact's operators; ToRational() for
/// arithmetic): ToDouble() rounds a rational, and an Assume written on it
/// admits points just outside the hypothesis.
class Values {
 public:
  explicit Values(const Case& c) : c_(c) {}
  const ExactMatrix& operator[](MatrixField f) const { return c_.GetMatrix(f.name); }
  const Exact& operator[](ScalarField f) const { return c_.GetScalar(f.name); }
  int64_t operator[](IntField f) const { return c_.GetInt(f.name); }
  const Case& value() const { return c_; }

 private:
  const Case& c_;
};

/// The same view converted to backend S: what a claim's conclusion reads.
template <class S>
class In {
 public:
  explicit In(const Case& c) : c_(c) {}
  Mat<S> operator[](MatrixField f) const { return c_.GetMat<S>(f.name); }
  S operator[](ScalarField f) const { return c_.Get<S>(f.name); }
  int64_t operator[](IntField f) const { return c_.GetInt(f.name); }
  const ExactMatrix& exact(MatrixField f) const { return c_.GetMatrix(f.name); }
  const Exact& exact(ScalarField f) const { return c_.GetScalar(f.name); }
  const Case& value() const { return c_; }

 private:
  const Case& c_;
};

class Domain {
 public:
  /// What a builder sees: the drawn parameters, the axes' extents and the
  /// fields built before it (in declaration order).
  class Drawn {
   public:
    Drawn(const gen::Layout::Drawn& d, const Domain& dom, const Case& so_far) : d_(d), dom_(dom), so_far_(so_far) {}
    ExactMatrix Param(int param) const { return d_.Matrix(param); }
    /// Matrix `index` (one value per outer axis) of a stacked parameter.
    ExactMatrix Param(int param, const std::vector<int64_t>& index) const { return d_.Matrix(param, index); }
    Exact ScalarParam(int param) const { return d_.Scalar(param); }
    /// A PositiveAtomParam's value: the drawn 1 x 1 entry, 0 read as 1.
    Rational PositiveAtom(int param) const;
    int64_t Dim(Axis a) const;
    const Values fields() const { return Values(so_far_); }
    const gen::Layout::Drawn& layout() const { return d_; }

   private:
    const gen::Layout::Drawn& d_;
    const Domain& dom_;
    const Case& so_far_;
  };

  /// An axis: its drawn range (the generator) and, admitted by the
  /// hypotheses, extents in [range.min, admit_max] (default: 4 x range.max +
  /// 16, as far as a search may grow a case; beyond it a stored case is
  /// refused before it can allocate).
  Domain& Dim(Axis a, gen::DimRange range, int64_t admit_max = -1);

  /// A field drawn as a regime matrix over two axes (gen::Layout::Matrix).
  Domain& Matrix(MatrixField f, Axis rows, Axis cols, gen::Regime draw, Admit admit);
  /// A field whose entries are drawn by `entry` as they are (gen::Layout::Raw).
  Domain& Matrix(MatrixField f, Axis rows, Axis cols, rc::Gen<Exact> entry, Admit admit);
  /// A field built from the drawn parameters (and earlier fields): its shape
  /// is checked against the axes, its entries against `admit`.
  Domain& Built(MatrixField f, Axis rows, Axis cols, std::function<ExactMatrix(const Drawn&)> build, Admit admit);
  /// A scalar drawn by g.
  Domain& Scalar(ScalarField f, rc::Gen<Exact> g, Admit admit);
  /// A scalar built from the drawn parameters and earlier fields.
  Domain& Built(ScalarField f, std::function<Exact(const Drawn&)> build, Admit admit);
  /// A scalar that is a function of the other fields (phi0 = max |X|, a
  /// scale 1/sqrt(d_k)): computed when drawn, and the hypotheses require a
  /// case's value to equal it as a real number.
  Domain& Derived(ScalarField f, std::function<Exact(const Values&)> derive);
  /// An int that is a function of the other fields (a count, a rank, the
  /// number of positive entries): computed when drawn and after every edit
  /// of the search and the shrinker, and the hypotheses require it.
  Domain& Derived(IntField f, std::function<int64_t(const Values&)> derive);
  /// An int field equal to an axis's extent.
  Domain& Int(IntField f, Axis a);
  /// An int field drawn by g (a count, a variant's index:
  /// gen::UniformCount(lo, hi)), admitted in [lo, hi].
  Domain& Int(IntField f, rc::Gen<int64_t> g, int64_t lo, int64_t hi);
  /// An int field built from the drawn parameters and earlier fields,
  /// admitted in [lo, hi].
  Domain& Built(IntField f, std::function<int64_t(const Drawn&)> build, int64_t lo, int64_t hi);

  /// One field of a Group: its name's suffix and, for one index of the
  /// group's outer axes, how it is built. A matrix (the default: its shape
  /// and where its entries may lie), or, made by IntMember / ScalarMember,
  /// an int admitted in [int_lo, int_hi] or a scalar admitted by `admit`
  /// (a head's potential and temperature).
  struct Member {
    const char* suffix;
    Axis rows, cols;
    std::function<ExactMatrix(const Drawn&, const std::vector<int64_t>& index)> build;
    Admit admit;
    std::function<int64_t(const Drawn&, const std::vector<int64_t>& index)> build_int = nullptr;
    int64_t int_lo = 0, int_hi = 0;
    std::function<Exact(const Drawn&, const std::vector<int64_t>& index)> build_scalar = nullptr;
  };
  static Member IntMember(const char* suffix, std::function<int64_t(const Drawn&, const std::vector<int64_t>&)> build,
                          int64_t lo, int64_t hi);
  static Member ScalarMember(const char* suffix, std::function<Exact(const Drawn&, const std::vector<int64_t>&)> build,
                             Admit admit);
  /// A family of matrix fields, for every index of the outer axes (layers x
  /// heads, in row-major order) the members named prefix(index) + suffix:
  /// a network's weights, one head after another. The outer axes' extents
  /// must be known from the fields before the group (an Int field, say), so
  /// that a stored case is read field by field.
  Domain& Group(std::vector<Axis> outer, std::function<std::string(const std::vector<int64_t>&)> prefix,
                std::vector<Member> members);
  /// The same with names made by `name(member suffix, index)` ("W" + head:
  /// W0, g0, W1, g1).
  Domain& Group(std::vector<Axis> outer, std::vector<Member> members,
                std::function<std::string(const char* member, const std::vector<int64_t>& index)> name);

  /// Parameters that are not fields themselves, for builders: a regime
  /// matrix, a raw matrix, a scalar (the returned index is Drawn::Param's or
  /// Drawn::ScalarParam's).
  int Param(Axis rows, Axis cols, gen::Regime draw);
  int Param(Axis rows, Axis cols, rc::Gen<Exact> entry);
  int ScalarParam(rc::Gen<Exact> g);
  /// A positive atom of a law (a two-point law's x or y): a 1 x 1 regime
  /// matrix over the extent-1 axis `one`, nonnegative, every scale, 24-bit
  /// mantissas (exact code gains nothing from more bits), no structure (a
  /// 1 x 1 matrix has none); read with Drawn::PositiveAtom.
  int PositiveAtomParam(Axis one);
  /// A stack of regime (or raw) matrices indexed by outer axes, one scale,
  /// mantissa and structure for the stack (gen::Layout::Stack); dropping an
  /// index of an outer axis drops its matrices.
  int Param(std::vector<Axis> outer, Axis rows, Axis cols, gen::Regime draw);
  int Param(std::vector<Axis> outer, Axis rows, Axis cols, rc::Gen<Exact> entry);

  /// A side condition of the claim, in the document's words: drawn cases
  /// are filtered by it, and the hypotheses require it.
  Domain& Assume(std::string why, std::function<bool(const Values&)> holds);

  /// The generator: the layout's parameters drawn and shrunk (shape.h),
  /// the fields built in order, the assumptions filtered.
  rc::Gen<Case> Generator() const;
  /// nullopt when c satisfies the hypotheses; else the first that fails
  /// ("W_K: 3 rows, but axis d is 4 (X: 3x4)", "assumption eps < 1").
  /// Never throws for a case read from a file.
  std::optional<std::string> Violation(const Case& c) const;
  /// Whether c can be read at all (fields present with their kinds, shapes
  /// consistent, extents admitted): nullopt, or why not.
  std::optional<std::string> Misfit(const Case& c) const;
  /// The dimensions of c as declared: each axis is one dimension over the
  /// rows and columns it indexes and the int fields that are its extent; an
  /// axis whose extent cannot change (its range's min equal to its admitted
  /// max) is none. The search and the shrinker edit c by them. None when c
  /// does not fit.
  CaseDims Dims(const Case& c) const;
  /// c with its Derived fields computed again from the others: an edit of
  /// X keeps phi0 = max |X| (unchanged when c does not fit).
  Case Rederived(Case c) const;

 private:
  struct AxisDecl {
    const char* name;
    gen::DimRange range;
    int64_t admit_max;
    int layout_axis;
  };
  enum class Kind { kMatrix, kScalar, kInt, kGroup };
  struct FieldDecl {
    const char* name;
    Kind kind;
    int rows = -1, cols = -1;  // AxisDecl indices (matrix), or the axis (int)
    int param = -1;            // layout matrix or scalar index when drawn
    std::function<ExactMatrix(const Drawn&)> build_matrix;
    std::function<Exact(const Drawn&)> build_scalar;
    std::function<Exact(const Values&)> derive;
    std::function<int64_t(const Values&)> derive_int;
    std::function<int64_t(const Drawn&)> build_int;
    int64_t int_lo = 0, int_hi = 0;  // an int that is no axis's extent
    Admit admit;
    std::vector<int> outer;  // a group's outer axes (AxisDecl indices)
    std::function<std::string(const char*, const std::vector<int64_t>&)> member_name;
    std::vector<Member> members;
  };
  /// One field a case must hold at this point: its declaration, and for a
  /// group member the member and the index.
  struct Expected {
    std::string name;
    const FieldDecl* decl;
    const Member* member = nullptr;
    int rows = -1, cols = -1;
    const Admit* admit = nullptr;
  };
  /// The fields c must hold, in order (groups expanded by the extents their
  /// outer axes take in the fields before them); why not, when an outer
  /// extent is unknown or a field does not fit.
  std::optional<std::string> Walk(const Case& c, std::vector<Expected>* expected) const;
  std::vector<int> Axes(const std::vector<Axis>& axes) const;
  struct Assumption {
    std::string why;
    std::function<bool(const Values&)> holds;
  };

  int AxisIndex(Axis a) const;
  Domain& AddMatrix(MatrixField f, Axis rows, Axis cols, int param, std::function<ExactMatrix(const Drawn&)> build,
                    Admit admit);
  Case Build(const gen::Layout::Drawn& d) const;

  gen::Layout layout_;
  std::vector<AxisDecl> axes_;
  std::vector<FieldDecl> fields_;
  std::vector<Assumption> assumptions_;
};

/// A claim's domain for one backend, made by `make` when first asked for and
/// again whenever the MPFR working precision has changed since.
class DomainCache {
 public:
  explicit DomainCache(std::function<Domain()> make) : make_(std::move(make)) {}
  const Domain& Get() const;

 private:
  std::function<Domain()> make_;
  mutable std::optional<Domain> domain_;
  mutable int bits_ = -1;
};

}  // namespace attnprop
