// A test case: the named, exact inputs a property's hypotheses produced.
//
// Cases are backend-neutral (see model/exact.h): the same Case is checked in
// double, MPFR and rationals, printed exactly, stored in the counterexample
// store and read back. Text form (ToText / Parse), one field per entry:
//   s0: scalar 0x1.8p+1  # 3
//   n: int 5
//   V: matrix 2x3
//     0x1p+0 0x1p+1 1/3  # 1 2 0.333333
//     ...
// Text after '#' is a decimal aid for people and is ignored when read.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "model/exact.h"

namespace attnprop {

/// Limits on a parsed case (Case::Parse; the store README states them): rows
/// or columns of one matrix, matrix elements of the whole case, characters of
/// one value. Larger input is an error naming its line, never an allocation.
inline constexpr int64_t kMaxCaseDim = 1 << 16;
inline constexpr int64_t kMaxCaseElements = 1 << 20;
inline constexpr size_t kMaxValueChars = 4096;

class Case {
 public:
  using Value = std::variant<int64_t, Exact, ExactMatrix>;

  Case& Int(std::string name, int64_t v) { return Set(std::move(name), v); }
  Case& Scalar(std::string name, Exact v) { return Set(std::move(name), std::move(v)); }
  Case& Matrix(std::string name, ExactMatrix v) { return Set(std::move(name), std::move(v)); }

  /// Typed reads; throw std::out_of_range naming the field when it is
  /// missing or of another kind (a stored case that does not fit the claim).
  int64_t GetInt(const std::string& name) const;
  const Exact& GetScalar(const std::string& name) const;
  const ExactMatrix& GetMatrix(const std::string& name) const;
  template <class S>
  S Get(const std::string& name) const { return GetScalar(name).As<S>(); }
  template <class S>
  Mat<S> GetMat(const std::string& name) const { return GetMatrix(name).As<S>(); }

  const std::vector<std::pair<std::string, Value>>& fields() const { return fields_; }
  /// For edits that keep the names (search mutations, shrinking: case_edit.h).
  std::vector<std::pair<std::string, Value>>& mutable_fields() { return fields_; }

  std::string ToText() const;
  /// Parses ToText's form; on error returns nullopt and sets *error to a
  /// message naming the line ("line N: why"): a malformed line, a field given
  /// twice, a shape beyond the limits above.
  static std::optional<Case> Parse(const std::string& text, std::string* error);

  friend bool operator==(const Case& a, const Case& b) { return a.fields_ == b.fields_; }

 private:
  Case& Set(std::string name, Value v);
  const Value& Find(const std::string& name) const;
  std::vector<std::pair<std::string, Value>> fields_;
};

/// RapidCheck prints counterexamples through showValue (found by ADL).
void showValue(const Case& c, std::ostream& os);

}  // namespace attnprop
