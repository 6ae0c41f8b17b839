// Small helpers for drawing from rc::Random inside hand-written generators.
#pragma once

#include <rapidcheck.h>

#include <cmath>
#include <cstdint>

namespace attnprop::gen {

/// Uniform in [0, 1), 53 random bits.
inline double UniformUnit(rc::Random& r) { return std::ldexp(static_cast<double>(r.next() >> 11), -53); }

/// Uniform integer in [lo, hi] (lo <= hi); the modulo bias (< 2^-40 for the
/// ranges used here) does not matter for test inputs.
inline int64_t UniformInt(rc::Random& r, int64_t lo, int64_t hi) {
  const auto span = static_cast<uint64_t>(hi - lo) + 1;
  if (span == 0) return static_cast<int64_t>(r.next());
  return lo + static_cast<int64_t>(r.next() % span);
}

}  // namespace attnprop::gen
