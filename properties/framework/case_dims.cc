#include "properties/framework/case_dims.h"

#include <algorithm>
#include <numeric>
#include <variant>

namespace attnprop {
namespace {

/// The source indices of an extent spanning `span` after dimension d's
/// indices became `along` (the other dimension's indices kept).
std::vector<int64_t> ExtentIndices(int outer, int inner, int64_t outer_size, int64_t inner_size, int d,
                                   const std::vector<int64_t>& along) {
  auto indices = [&](int dim, int64_t size) {
    if (dim == d) return along;
    std::vector<int64_t> all(static_cast<size_t>(size));
    std::iota(all.begin(), all.end(), int64_t{0});
    return all;
  };
  const std::vector<int64_t> in = indices(inner, inner_size);
  if (outer < 0) return in;
  std::vector<int64_t> out;
  for (const int64_t o : indices(outer, outer_size))
    for (const int64_t i : in) out.push_back(o * inner_size + i);
  return out;
}

ExactMatrix GatherRows(const ExactMatrix& m, const std::vector<int64_t>& rows) {
  ExactMatrix out(static_cast<int64_t>(rows.size()), m.cols);
  for (size_t k = 0; k < rows.size(); ++k)
    for (int64_t j = 0; j < m.cols; ++j) out(static_cast<int64_t>(k), j) = m(rows[k], j);
  return out;
}

ExactMatrix GatherCols(const ExactMatrix& m, const std::vector<int64_t>& cols) {
  ExactMatrix out(m.rows, static_cast<int64_t>(cols.size()));
  for (int64_t i = 0; i < m.rows; ++i)
    for (size_t k = 0; k < cols.size(); ++k) out(i, static_cast<int64_t>(k)) = m(i, cols[k]);
  return out;
}

}  // namespace

CaseDims::CaseDims(const Case& c) : case_(&c), fields_(c.fields().size()) {}

int CaseDims::DimNamed(const std::string& name) {
  const auto it = std::find(names_.begin(), names_.end(), name);
  if (it != names_.end()) return static_cast<int>(it - names_.begin());
  names_.push_back(name);
  sizes_.push_back(-1);
  return static_cast<int>(names_.size()) - 1;
}

bool CaseDims::SetSize(int dim, int64_t size) {
  int64_t& s = sizes_[static_cast<size_t>(dim)];
  if (s >= 0 && s != size) return false;
  s = size;
  return size >= 0;
}

template <class T>
const T* CaseDims::FieldOf(const std::string& field, size_t* index) {
  const auto& f = case_->fields();
  const auto it = std::find_if(f.begin(), f.end(), [&](const auto& p) { return p.first == field; });
  const T* value = it == f.end() ? nullptr : std::get_if<T>(&it->second);
  fits_ = fits_ && value;  // a declared field the case lacks, or of another kind
  *index = static_cast<size_t>(it - f.begin());
  return value;
}

CaseDims& CaseDims::Extent(const std::string& field, bool cols, const std::string& outer, const std::string& inner) {
  size_t index = 0;
  const ExactMatrix* m = FieldOf<ExactMatrix>(field, &index);
  if (!m) return *this;
  Span& span = cols ? fields_[index].cols : fields_[index].rows;
  const int64_t extent = cols ? m->cols : m->rows;
  span.inner = DimNamed(inner);
  if (outer.empty()) {
    fits_ = fits_ && SetSize(span.inner, extent);
    return *this;
  }
  span.outer = DimNamed(outer);
  const int64_t outer_size = sizes_[static_cast<size_t>(span.outer)];
  fits_ = fits_ && outer_size >= 1 && extent % outer_size == 0 && SetSize(span.inner, extent / outer_size);
  return *this;
}

CaseDims& CaseDims::Size(const std::string& field, const std::string& dim) {
  size_t index = 0;
  const int64_t* n = FieldOf<int64_t>(field, &index);
  if (!n) return *this;
  fields_[index].size_of = DimNamed(dim);
  fits_ = fits_ && SetSize(fields_[index].size_of, *n);
  return *this;
}

std::vector<CaseDims::Dimension> CaseDims::Dimensions() const {
  std::vector<Dimension> out;
  if (!fits_) return out;
  // First met in field order: rows (outer, inner), columns, an int's size.
  std::vector<int> order;
  std::vector<bool> spans_matrix(names_.size(), false);
  auto meet = [&](int dim, bool matrix) {
    if (dim < 0) return;
    if (std::find(order.begin(), order.end(), dim) == order.end()) order.push_back(dim);
    if (matrix) spans_matrix[static_cast<size_t>(dim)] = true;
  };
  for (const FieldDims& fd : fields_) {
    meet(fd.rows.outer, true), meet(fd.rows.inner, true);
    meet(fd.cols.outer, true), meet(fd.cols.inner, true);
    meet(fd.size_of, false);
  }
  for (const int dim : order) {
    if (!spans_matrix[static_cast<size_t>(dim)]) continue;  // an int alone is a value
    Dimension d;
    d.id = static_cast<size_t>(dim);
    d.size = sizes_[d.id];
    for (size_t f = 0; f < fields_.size(); ++f)
      if (fields_[f].size_of == dim) d.int_fields.push_back(f);
    out.push_back(std::move(d));
  }
  std::stable_sort(out.begin(), out.end(), [](const Dimension& x, const Dimension& y) { return x.size > y.size; });
  return out;
}

Case CaseDims::Reindexed(const Dimension& d, const std::vector<int64_t>& along) const {
  Case out = *case_;
  auto& f = out.mutable_fields();
  const int dim = static_cast<int>(d.id);
  auto size_of = [this](int k) { return k < 0 ? int64_t{0} : sizes_[static_cast<size_t>(k)]; };
  for (size_t i = 0; i < fields_.size(); ++i) {
    const FieldDims& fd = fields_[i];
    auto& value = f[i].second;
    if (fd.size_of == dim) std::get<int64_t>(value) = static_cast<int64_t>(along.size());
    auto* m = std::get_if<ExactMatrix>(&value);
    if (!m) continue;
    if (fd.rows.outer == dim || fd.rows.inner == dim)
      *m = GatherRows(*m, ExtentIndices(fd.rows.outer, fd.rows.inner, size_of(fd.rows.outer), size_of(fd.rows.inner),
                                        dim, along));
    if (fd.cols.outer == dim || fd.cols.inner == dim)
      *m = GatherCols(*m, ExtentIndices(fd.cols.outer, fd.cols.inner, size_of(fd.cols.outer), size_of(fd.cols.inner),
                                        dim, along));
  }
  return out;
}

Case CaseDims::Drop(const Dimension& d, int64_t at, int64_t count) const {
  std::vector<int64_t> along;
  for (int64_t i = 0; i < d.size; ++i)
    if (i < at || i >= at + count) along.push_back(i);
  return Reindexed(d, along);
}

Case CaseDims::Grow(const Dimension& d, int64_t at) const {
  std::vector<int64_t> along(static_cast<size_t>(d.size));
  std::iota(along.begin(), along.end(), int64_t{0});
  along.push_back(at);
  return Reindexed(d, along);
}

}  // namespace attnprop
