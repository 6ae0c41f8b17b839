// The portable scalar path: compiled with no -m flag, so it runs on any
// x86-64 (and any other architecture). Exp is the C library's exp.
#include <algorithm>
#include <array>
#include <cmath>
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
  static constexpr int kW = 1;
  static constexpr int kR = R;
  static constexpr int kC = C;
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
  // glibc exp (<= 1 ulp), flushed to 0 below e^kExpFlush* as on the vector
  // paths; -inf and NaN (an empty row's -inf - -inf) give 0.
  static V Exp(V x) {
    const T lo = static_cast<T>(std::is_same_v<T, float> ? kExpFlushF32 : kExpFlushF64);
    return x >= lo ? std::exp(x) : T{0};
  }
};

using F32Ops = ScalarOps<float, 4, 4>;
using F64Ops = ScalarOps<double, 4, 4>;

#include "kernels/flash_impl.inc"

}  // namespace
}  // namespace scalar

const TargetImpl kScalarImpl = {"scalar",          scalar::WorkspaceF32, scalar::WorkspaceF64,
                                scalar::RunF32,    scalar::RunF64,       scalar::ExpF32,
                                scalar::ExpF64};

}  // namespace attnprop::kernel
