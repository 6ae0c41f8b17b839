#include "generators/shape.h"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "generators/random_util.h"

namespace attnprop::gen {

DimRange Capped(DimRange r, int64_t cap) {
  r.max = std::min(r.max, cap);
  r.min = std::min(r.min, r.max);
  r.large_from = std::min(r.large_from, r.max);
  return r;
}

int64_t DrawDim(rc::Random& r, int size, const DimRange& range) {
  const int64_t lo = std::max(range.min, range.draw_min);
  if (range.uniform) return UniformInt(r, lo, range.max);
  const double frac = std::min(1.0, (std::clamp(size, 0, 100) + 1) / 50.0);
  const int64_t cap = std::max(lo, lo + static_cast<int64_t>(static_cast<double>(range.max - lo) * frac));
  auto in = [&](int64_t n) { return n >= lo && n <= cap; };
  auto uniform = [&](int64_t a, int64_t b) { return UniformInt(r, std::max(a, lo), std::min(b, cap)); };
  for (int attempt = 0; attempt < 8; ++attempt) {
    const int64_t kind = UniformInt(r, 0, 99);
    if (kind < 10) {
      if (in(1)) return 1;
    } else if (kind < 28) {
      if (std::max<int64_t>(2, lo) <= std::min<int64_t>(7, cap)) return uniform(2, 7);
    } else if (kind < 40) {
      if (std::max<int64_t>(9, lo) <= cap) {
        const int64_t n = uniform(9, cap) | 1;
        if (in(n)) return n;
      }
    } else if (kind < 52) {
      if (std::max<int64_t>(9, lo) <= cap) {
        const int64_t n = uniform(9, cap);
        if (r.next() & 1) {
          if (n % 8 != 0 && in(n)) return n;
        } else {
          const int64_t m = (n / 16) * 16 + 8;  // 8 x odd
          if (in(m)) return m;
        }
      }
    } else if (kind < 80) {
      static constexpr int64_t kBlocks[] = {16, 32, 64, 128};
      const int64_t b = kBlocks[UniformInt(r, 0, 3)];
      const int64_t n = b + UniformInt(r, -1, 1);
      if (in(n)) return n;
    } else if (kind < 92) {
      const int64_t from = std::max(range.large_from, lo);
      if (from <= cap && range.large_from > 7) return uniform(from, cap);
    } else {
      return uniform(lo, cap);
    }
  }
  return uniform(lo, cap);
}

std::vector<std::string> DimClasses(int64_t n, const DimRange& range) {
  std::vector<std::string> c;
  if (n == 1) c.push_back("one");
  if (n >= 2 && n <= 7) c.push_back("small");
  if (n >= 9 && n % 2 == 1) c.push_back("odd");
  if (n >= 9 && n % 8 != 0) c.push_back("not_mult8");
  if (n % 8 == 0 && n % 16 != 0) c.push_back("mult8_not16");
  for (int64_t b : {16, 32, 64, 128}) {
    if (n == b - 1) c.push_back("below_block");
    if (n == b) c.push_back("at_block");
    if (n == b + 1) c.push_back("above_block");
  }
  if (n >= range.large_from && range.large_from > 7) c.push_back("large");
  return c;
}

rc::Gen<int64_t> EdgeDim(DimRange range) {
  return rc::Gen<int64_t>([range](const rc::Random& random, int size) {
    rc::Random r = random;
    const int64_t n = DrawDim(r, size, range);
    return rc::shrinkable::shrinkRecur(n, [range](int64_t v) { return rc::shrink::towards<int64_t>(v, range.min); });
  });
}

ExactMatrix Params::Matrix(size_t a) const {
  const std::vector<int64_t>& shape = shapes.at(a);
  if (shape.size() != 2) throw std::logic_error("Params::Matrix: array is not of rank 2");
  ExactMatrix m(shape[0], shape[1]);
  m.data = arrays[a];
  return m;
}

ExactMatrix Params::Slice(size_t a, int64_t i) const {
  const std::vector<int64_t>& shape = shapes.at(a);
  if (shape.size() != 3) throw std::logic_error("Params::Slice: array is not of rank 3");
  ExactMatrix m(shape[1], shape[2]);
  const auto begin = arrays[a].begin() + static_cast<std::ptrdiff_t>(i * shape[1] * shape[2]);
  std::copy(begin, begin + static_cast<std::ptrdiff_t>(m.data.size()), m.data.begin());
  return m;
}

namespace {

struct Spec {
  std::vector<Axis> axes;
  std::vector<ParamArray> arrays;
  DimsOk ok;
};

// The state that shrinks: current dims and every entry as a Shrinkable.
struct State {
  std::vector<int64_t> dims;
  std::vector<std::vector<rc::Shrinkable<Exact>>> arrays;
};

size_t ArraySize(const std::vector<int>& axes, const std::vector<int64_t>& dims) {
  size_t n = 1;
  for (int a : axes) n *= static_cast<size_t>(dims[static_cast<size_t>(a)]);
  return n;
}

// The state with only the indices `keep` (ascending, old numbering) of axis
// `axis` kept.
State Restrict(const Spec& spec, const State& s, int axis, const std::vector<int64_t>& keep) {
  State out;
  out.dims = s.dims;
  out.dims[static_cast<size_t>(axis)] = static_cast<int64_t>(keep.size());
  out.arrays.resize(s.arrays.size());
  for (size_t a = 0; a < s.arrays.size(); ++a) {
    const std::vector<int>& ax = spec.arrays[a].axes;
    if (std::find(ax.begin(), ax.end(), axis) == ax.end()) {
      out.arrays[a] = s.arrays[a];
      continue;
    }
    out.arrays[a].reserve(ArraySize(ax, out.dims));
    // Odometer over the new multi-index; map each coordinate to the old one.
    const size_t rank = ax.size();
    std::vector<int64_t> idx(rank, 0);
    std::vector<int64_t> new_dims(rank), old_dims(rank);
    for (size_t k = 0; k < rank; ++k) {
      new_dims[k] = out.dims[static_cast<size_t>(ax[k])];
      old_dims[k] = s.dims[static_cast<size_t>(ax[k])];
    }
    const size_t total = ArraySize(ax, out.dims);
    for (size_t flat = 0; flat < total; ++flat) {
      size_t old_flat = 0;
      for (size_t k = 0; k < rank; ++k) {
        const int64_t old_k = ax[k] == axis ? keep[static_cast<size_t>(idx[k])] : idx[k];
        old_flat = old_flat * static_cast<size_t>(old_dims[k]) + static_cast<size_t>(old_k);
      }
      out.arrays[a].push_back(s.arrays[a][old_flat]);
      for (size_t k = rank; k-- > 0;) {
        if (++idx[k] < new_dims[k]) break;
        idx[k] = 0;
      }
    }
  }
  return out;
}

Params ValueOf(const Spec& spec, const State& s) {
  Params p;
  p.dims = s.dims;
  p.arrays.resize(s.arrays.size());
  p.shapes.resize(s.arrays.size());
  for (size_t a = 0; a < s.arrays.size(); ++a) {
    for (int ax : spec.arrays[a].axes) p.shapes[a].push_back(s.dims[static_cast<size_t>(ax)]);
    p.arrays[a].reserve(s.arrays[a].size());
    for (const auto& e : s.arrays[a]) p.arrays[a].push_back(e.value());
  }
  return p;
}

rc::Seq<State> Shrinks(std::shared_ptr<const Spec> spec, const State& state) {
  // Shared, so that the lazy candidates do not copy the whole state.
  auto s = std::make_shared<const State>(state);
  // Dimension shrinks: for each axis, keep a prefix of k indices (k toward
  // min), then drop single indices (last first).
  rc::Seq<State> dims = rc::seq::mapcat(rc::seq::range<size_t>(0, s->dims.size()), [spec, s](size_t axis) {
    const int64_t n = s->dims[axis], lo = spec->axes[axis].range.min;
    if (n <= lo) return rc::Seq<State>();
    const int ax = static_cast<int>(axis);
    rc::Seq<State> prefixes = rc::seq::map(rc::shrink::towards<int64_t>(n, lo), [spec, s, ax](int64_t k) {
      std::vector<int64_t> keep(static_cast<size_t>(k));
      for (int64_t i = 0; i < k; ++i) keep[static_cast<size_t>(i)] = i;
      return Restrict(*spec, *s, ax, keep);
    });
    rc::Seq<State> drops = rc::seq::map(rc::seq::range<int64_t>(n - 1, -1), [spec, s, ax, n](int64_t drop) {
      std::vector<int64_t> keep;
      keep.reserve(static_cast<size_t>(n - 1));
      for (int64_t i = 0; i < n; ++i)
        if (i != drop) keep.push_back(i);
      return Restrict(*spec, *s, ax, keep);
    });
    // The prefix of n - 1 duplicates dropping the last index.
    return rc::seq::concat(std::move(prefixes), rc::seq::drop(1, std::move(drops)));
  });
  if (spec->ok) dims = rc::seq::filter(std::move(dims), [spec](const State& c) { return spec->ok(c.dims); });
  // Entry shrinks, one entry at a time, in order.
  rc::Seq<State> entries = rc::seq::mapcat(rc::seq::range<size_t>(0, s->arrays.size()), [s](size_t a) {
    return rc::seq::mapcat(rc::seq::range<size_t>(0, s->arrays[a].size()), [s, a](size_t i) {
      return rc::seq::map(s->arrays[a][i].shrinks(), [s, a, i](rc::Shrinkable<Exact> e) {
        State c = *s;
        c.arrays[a][i] = std::move(e);
        return c;
      });
    });
  });
  return rc::seq::concat(std::move(dims), std::move(entries));
}

rc::Shrinkable<State> MakeShrinkable(std::shared_ptr<const Spec> spec, State s) {
  return rc::shrinkable::shrinkRecur(std::move(s), [spec](const State& v) { return Shrinks(spec, v); });
}

}  // namespace

rc::Gen<Params> ShapedParams(std::vector<Axis> axes, std::vector<ParamArray> arrays, DimsOk ok) {
  auto spec = std::make_shared<const Spec>(Spec{std::move(axes), std::move(arrays), std::move(ok)});
  return rc::Gen<Params>([spec](const rc::Random& random, int size) {
    // rc::Random cannot split once it has produced numbers: split first.
    rc::Random r = random;
    rc::Random rd = r.split();
    State s;
    s.dims.resize(spec->axes.size());
    // Draw the shape; redraw when the predicate fails, widening the size
    // step by step (at size 0 every cap is the minimum, and t_q != t_k
    // needs two lengths).
    bool found = false;
    for (int attempt = 0; attempt < 64 && !found; ++attempt) {
      const int eff_size = std::min(100, size + 4 * (attempt / 4));
      for (size_t a = 0; a < s.dims.size(); ++a) s.dims[a] = DrawDim(rd, eff_size, spec->axes[a].range);
      found = !spec->ok || spec->ok(s.dims);
    }
    if (!found) throw rc::GenerationFailure("ShapedParams: no shape satisfies the dimension predicate");
    s.arrays.resize(spec->arrays.size());
    for (size_t a = 0; a < spec->arrays.size(); ++a) {
      const size_t n = ArraySize(spec->arrays[a].axes, s.dims);
      s.arrays[a].reserve(n);
      rc::Random ra = r.split();
      for (size_t i = 0; i < n; ++i) s.arrays[a].push_back(spec->arrays[a].entry(ra.split(), size));
    }
    return rc::shrinkable::map(MakeShrinkable(spec, std::move(s)), [spec](const State& v) { return ValueOf(*spec, v); });
  });
}

}  // namespace attnprop::gen
