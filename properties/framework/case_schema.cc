#include "properties/framework/case_schema.h"

#include <algorithm>
#include <limits>

namespace attnprop {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max(), kMin = std::numeric_limits<int64_t>::min();

int64_t SatAdd(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_add_overflow(a, b, &r) ? (b > 0 ? kMax : kMin) : r;
}
int64_t SatMul(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? ((a < 0) != (b < 0) ? kMin : kMax) : r;
}

const char* KindName(size_t k) { return k == 0 ? "int" : k == 1 ? "scalar" : "matrix"; }

int64_t Axis(const Case::Value& v, size_t which) {
  const auto& m = std::get<ExactMatrix>(v);
  return which == 0 ? m.rows : m.cols;
}

std::string AxisName(const std::string& field, size_t which) { return field + (which == 0 ? " rows" : " cols"); }

}  // namespace

CaseSchema CaseSchema::Learn(const std::vector<Case>& samples) {
  CaseSchema s;
  if (samples.empty()) return s;
  const auto& first = samples.front().fields();
  for (const auto& [name, v] : first) {
    Field f;
    f.name = name;
    f.kind = v.index();
    s.fields_.push_back(f);
  }
  std::vector<int64_t> lo(first.size(), kMax), hi(first.size(), kMin);
  std::vector<int64_t> rows(first.size(), 0), cols(first.size(), 0);
  std::vector<std::vector<int64_t>> axes;  // per sample, every axis (matrices only; -1 otherwise)
  for (const Case& c : samples) {
    if (c.fields().size() != first.size()) return CaseSchema();  // the generator varies its fields: no schema
    std::vector<int64_t> a(2 * first.size(), -1);
    for (size_t i = 0; i < first.size(); ++i) {
      const auto& [name, v] = c.fields()[i];
      if (name != first[i].first || v.index() != first[i].second.index()) return CaseSchema();
      if (const auto* n = std::get_if<int64_t>(&v)) {
        lo[i] = std::min(lo[i], *n);
        hi[i] = std::max(hi[i], *n);
      } else if (const auto* m = std::get_if<ExactMatrix>(&v)) {
        rows[i] = std::max(rows[i], m->rows);
        cols[i] = std::max(cols[i], m->cols);
        a[2 * i] = m->rows;
        a[2 * i + 1] = m->cols;
      }
    }
    axes.push_back(std::move(a));
  }
  for (size_t i = 0; i < first.size(); ++i) {
    Field& f = s.fields_[i];
    if (f.kind == 0) {
      int64_t span;
      if (__builtin_sub_overflow(hi[i], lo[i], &span)) span = kMax;
      const int64_t slack = SatAdd(SatMul(span, 3), 16);
      f.lo = SatAdd(lo[i], -slack);
      f.hi = SatAdd(hi[i], slack);
    } else if (f.kind == 2) {
      f.max_rows = SatAdd(SatMul(rows[i], 4), 16);
      f.max_cols = SatAdd(SatMul(cols[i], 4), 16);
    }
  }
  if (samples.size() >= 2) {
    const size_t n = 2 * first.size();
    for (size_t x = 0; x < n; ++x)
      for (size_t y = x + 1; y < n; ++y) {
        if (axes[0][x] < 0 || axes[0][y] < 0) continue;
        bool equal = true;
        for (const auto& a : axes) equal = equal && a[x] == a[y];
        if (equal) s.equal_axes_.emplace_back(x, y);
      }
  }
  return s;
}

std::optional<std::string> CaseSchema::Misfit(const Case& c) const {
  if (fields_.empty()) return std::nullopt;
  std::vector<const Case::Value*> values(fields_.size(), nullptr);
  for (const auto& [name, v] : c.fields()) {
    size_t i = 0;
    while (i < fields_.size() && fields_[i].name != name) ++i;
    if (i == fields_.size()) return "field '" + name + "' is not one of the claim's";
    values[i] = &v;
  }
  for (size_t i = 0; i < fields_.size(); ++i) {
    const Field& f = fields_[i];
    if (!values[i]) return "field '" + f.name + "' (" + KindName(f.kind) + ") is missing";
    const Case::Value& v = *values[i];
    if (v.index() != f.kind)
      return "field '" + f.name + "' is " + KindName(v.index()) + ", the claim reads a " + KindName(f.kind);
    if (const auto* n = std::get_if<int64_t>(&v)) {
      if (*n < f.lo || *n > f.hi)
        return "field '" + f.name + "' = " + std::to_string(*n) + " is outside what the claim's cases can hold (" +
               std::to_string(f.lo) + " to " + std::to_string(f.hi) + ")";
    } else if (const auto* m = std::get_if<ExactMatrix>(&v)) {
      if (m->rows > f.max_rows || m->cols > f.max_cols)
        return "field '" + f.name + "' is " + std::to_string(m->rows) + "x" + std::to_string(m->cols) +
               ", beyond what the claim's cases can hold (" + std::to_string(f.max_rows) + "x" +
               std::to_string(f.max_cols) + ")";
    }
  }
  for (const auto& [x, y] : equal_axes_) {
    const int64_t a = Axis(*values[x / 2], x % 2), b = Axis(*values[y / 2], y % 2);
    if (a != b)
      return AxisName(fields_[x / 2].name, x % 2) + " (" + std::to_string(a) + ") must equal " +
             AxisName(fields_[y / 2].name, y % 2) + " (" + std::to_string(b) + ")";
  }
  return std::nullopt;
}

}  // namespace attnprop
