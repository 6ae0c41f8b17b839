// The portable scalar path: compiled with no -m flag, so it runs on any
// x86-64 (and any other architecture). One lane per "vector"; exp2 is the
// shared one (exp2_impl.inc), Fma two roundings (no FMA instruction).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "kernels/kernel_internal.h"

namespace attnprop::kernel {
namespace scalar {
namespace {

template <class TT, int R, int C>
struct ScalarOps {
  using T = TT;
  using V = TT;
  using M = bool;
  static constexpr int kW = 1;
  static constexpr int kR = R;
  static constexpr int kC = C;
  static constexpr int64_t kBlockK = 64;
  static V Zero() { return 0; }
  static V Set1(T x) { return x; }
  static V Load(const T* p) { return *p; }
  static void Store(T* p, V x) { *p = x; }
  static V Add(V a, V b) { return a + b; }
  static V Sub(V a, V b) { return a - b; }
  static V Mul(V a, V b) { return a * b; }
  // Two roundings: this path is built without FMA instructions.
  static V Fma(V a, V b, V c) { return a * b + c; }
  static V Max(V a, V b) { return a > b ? a : b; }
  static V MaskFirst(V x, int n) { return n > 0 ? -std::numeric_limits<T>::infinity() : x; }
  static M Ge(V a, V b) { return a >= b; }
  static V IfThenElseZero(M m, V a) { return m ? a : T{0}; }
  // a * 2^n, the power built in the exponent field (n in [kExp2Min, 0] is a
  // normal power of two); any other n (a discarded lane) gives 0 without
  // converting it (a NaN or huge n must not reach an integer conversion).
  static V MulPow2(V a, V n) {
    using Bits = std::conditional_t<std::is_same_v<T, float>, uint32_t, uint64_t>;
    constexpr int kMantissa = std::numeric_limits<T>::digits - 1;
    constexpr int kBias = std::numeric_limits<T>::max_exponent - 1;
    if (!(n >= static_cast<T>(1 - kBias) && n <= 0)) return T{0};
    const Bits bits = static_cast<Bits>(static_cast<Bits>(static_cast<int>(n) + kBias) << kMantissa);
    T scale;
    std::memcpy(&scale, &bits, sizeof scale);
    return a * scale;
  }
};

using F32Ops = ScalarOps<float, 4, 4>;
using F64Ops = ScalarOps<double, 4, 4>;

#include "kernels/flash_impl.inc"

}  // namespace

extern const TargetImpl kImpl;
const TargetImpl kImpl = MakeImpl("scalar");

}  // namespace scalar
}  // namespace attnprop::kernel
