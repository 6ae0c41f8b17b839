// Case sizes per backend. MPFR and exact rational arithmetic cost 10^2 to
// 10^3 times double (NOTES.md), so a property states its largest size once
// for the cheap backends (double, float) and once for the costly ones (MPFR,
// rationals), in one place:
//   template <class S> constexpr int64_t kMaxLen = SizeBudget<S>::Pick(40, 12);
#pragma once

#include <cstdint>
#include <type_traits>

namespace attnprop {

template <class S>
struct SizeBudget {
  /// Whether S is a costly backend (anything but a hardware float).
  static constexpr bool kCostly = !std::is_floating_point_v<S>;
  /// `cheap` for double/float, `costly` for MPFR and rationals.
  static constexpr int64_t Pick(int64_t cheap, int64_t costly) { return kCostly ? costly : cheap; }
};

}  // namespace attnprop
