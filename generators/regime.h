// Matrices drawn in every regime, on shared shrinkable axes (issue 11).
//
// Short dyadic entries at one scale make double and MPFR arithmetic exact on
// most algebraic claims, so the derived rounding bounds are never tested,
// and bounds that are tight only when one weight is tiny and another large
// are never approached. A regime matrix therefore draws, per matrix:
//   - a scale 2^s, s uniform in [min_scale, max_scale] (log-uniform
//     magnitudes; default 2^-20 .. 2^6);
//   - a mantissa length: a short dyadic (2 bits after the point), 10
//     significant bits, or a full 53-bit significand, a third each (float
//     backends: 24 bits, the nearest float);
//   - a structure, in 40% of the cases: all entries equal, a +-1 sign
//     pattern, rank one, one dominant entry (x 2^10), a zero block (the last
//     half of the rows), a multiple of the identity (square), equal rows (a
//     collapsed token sequence).
// All three are shrinkable parameters (toward scale 2^0, short dyadics,
// dense), built on the Shaped mechanism (shape.h): axes are shared between
// the matrices of a case, so dropping a row of X drops it wherever the axis
// appears, and dimensions keep shrinking after the entries shrank.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <string>
#include <vector>

#include "generators/matrices.h"
#include "generators/shape.h"
#include "model/exact.h"

namespace attnprop::gen {

/// How one matrix is drawn. Entries before scaling lie in [-max_abs,
/// max_abs] ([0, max_abs] when nonnegative); after scaling and structure
/// every |entry| <= max_abs * 2^max_scale * 2^10 (the dominant entry) -- set
/// structured = false where a claim needs |entry| <= max_abs * 2^max_scale.
struct Regime {
  double max_abs = 1;
  int min_scale = -20;
  int max_scale = 6;
  bool nonnegative = false;
  bool structured = true;
  /// kRoundToFloat for float backends (entries are floats); otherwise the
  /// entries are doubles, or rationals of full_bits significant bits.
  Arith arith = Arith::kRoundToDouble;
  /// Significant bits of a full-mantissa entry (> 53: an exact dyadic
  /// rational, so that MPFR at that precision rounds as a double does on
  /// doubles; double inputs are exact in 256-bit MPFR arithmetic; < 53 for a
  /// claim whose domain limits the significand).
  int full_bits = 53;
};

/// `r` with the arithmetic of backend S: floats for float, entries of the
/// working precision for MPFR, doubles else (rationals get doubles too: their
/// arithmetic is exact whatever the inputs).
template <class S>
Regime RegimeFor(Regime r) {
  r.arith = ArithFor<S>() == Arith::kRoundToFloat ? Arith::kRoundToFloat : Arith::kRoundToDouble;
  if constexpr (std::is_same_v<S, Mpfr>) r.full_bits = MpfrPrecisionBits();
  return r;
}

/// How an input derived from regime entries (a sum, a product) is handed to
/// backend S: rounded to S's inputs for double and float, kept exact for
/// MPFR (its entries carry its working precision; a longer value is rounded
/// once on conversion) and rationals.
template <class S>
constexpr Arith DerivedArithFor() {
  return std::is_same_v<S, Mpfr> ? Arith::kExact : ArithFor<S>();
}

/// The structures a regime matrix can have (index = the shrinkable kind).
enum class Structure { kDense, kAllEqual, kSigns, kRankOne, kDominant, kZeroBlock, kIdentity, kEqualRows };
const char* StructureName(Structure s);

/// A case layout: named axes and the regime matrices and scalars over them.
/// Build(f) gives the shaped generator whose value is f(drawn).
class Layout {
 public:
  /// A new axis; returns its index.
  int Axis(DimRange range);
  /// A rows_axis x cols_axis regime matrix; returns its index for Drawn::Matrix.
  int Matrix(int rows_axis, int cols_axis, Regime regime);
  /// A rows_axis x cols_axis matrix whose entries are drawn by `entry` as
  /// they are (no scale, mantissa or structure: for entries whose law is
  /// the claim's, e.g. +-1 signs); an index for Drawn::Matrix like Matrix's.
  int Raw(int rows_axis, int cols_axis, rc::Gen<Exact> entry);
  /// A stack of rows_axis x cols_axis matrices indexed by `outer` axes
  /// (e.g. layers x heads), one scale, mantissa and structure for the
  /// stack; dropping an index of an outer axis drops its matrices (a layer,
  /// a head). Drawn::Matrix(m, index) gives one. Raw entries when `entry`.
  int Stack(std::vector<int> outer, int rows_axis, int cols_axis, Regime regime);
  int RawStack(std::vector<int> outer, int rows_axis, int cols_axis, rc::Gen<Exact> entry);
  /// A scalar drawn by `g` (shrinks by g); returns its index for Drawn::Scalar.
  int Scalar(rc::Gen<Exact> g);

  /// What the build function sees.
  class Drawn {
   public:
    Drawn(const Layout& layout, const Params& p) : layout_(layout), p_(p) {}
    ExactMatrix Matrix(int m) const;
    /// Matrix `index` (one value per outer axis) of stack m.
    ExactMatrix Matrix(int m, const std::vector<int64_t>& index) const;
    Exact Scalar(int s) const;
    int64_t Dim(int axis) const { return p_.dims.at(static_cast<size_t>(axis)); }
    /// The drawn parameters of matrix m (for the generator tests).
    int Scale(int m) const;
    int Mantissa(int m) const;  // 0 short dyadic, 1 ten bits, 2 full
    Structure StructureOf(int m) const;

   private:
    const Layout& layout_;
    const Params& p_;
  };

  template <class T, class F>
  rc::Gen<T> Build(F build, DimsOk ok = {}) const {
    const Layout self = *this;
    return Shaped<T>(axes_, arrays_, [self, build](const Params& p) -> T { return build(Drawn(self, p)); },
                     std::move(ok));
  }

 private:
  struct MatrixSlot {
    size_t entries, scale, mantissa, structure;
    Regime regime;
    bool raw = false;
    size_t outer = 0;  // leading axes of a stack
  };
  std::vector<gen::Axis> axes_;
  std::vector<ParamArray> arrays_;
  std::vector<MatrixSlot> matrices_;
  std::vector<size_t> scalars_;
};

/// One regime matrix of shape rows x cols (its own two axes).
rc::Gen<ExactMatrix> RegimeMatrix(DimRange rows, DimRange cols, Regime regime);

/// An integer-valued Exact uniform in [lo, hi] at every RapidCheck size,
/// shrinking toward the simplest value of the range (0 when inside).
rc::Gen<Exact> UniformInteger(int64_t lo, int64_t hi);
/// The same as an int64_t (a count: heads, layers), shrinking toward lo.
rc::Gen<int64_t> UniformCount(int64_t lo, int64_t hi);

}  // namespace attnprop::gen
