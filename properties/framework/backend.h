// The backends a property runs in, in one table: the model's scalar types
// (double, float, mpfr, rational) and the kernel's entry points (kernel-f32,
// kernel-f64). A kernel backend is run against one kernel at a time; its
// full name carries the kernel instance after '@' when the kernel is
// attnprop's own ("kernel-f32@avx2": that dispatch target) and nothing when
// it is the kernel under test given on the command line ("kernel-f32").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/scalar.h"

namespace attnprop {

struct BackendInfo {
  const char* name;      // "double", ..., "kernel-f64"
  bool exact;            // rational: no rounding at all
  bool kernel;           // runs through the kernel ABI
  double (*unit_roundoff)();  // u of the arithmetic (MPFR: at the current precision)
};

/// Every backend, in a fixed order (the order `attnprop list` and the
/// registry use).
const std::vector<BackendInfo>& Backends();

/// The backend of a full name ("kernel-f32@avx2" -> kernel-f32), or null.
const BackendInfo* FindBackend(std::string_view full_name);

/// "kernel-f32@avx2" -> "kernel-f32"; a model backend is returned unchanged.
std::string_view BaseBackend(std::string_view full_name);

/// The unit roundoff of a backend by its full name (0 for exact ones and
/// unknown names).
double UnitRoundoffOf(std::string_view full_name);

/// "double, float, mpfr, rational, kernel-f32, kernel-f64" (for messages).
std::string BackendNames();

/// The backend of a scalar type or kernel tag, for registration
/// (ATTNPROP_REGISTER(Claim, double, Mpfr, ...)): ScalarTraits<S>::kBackend.
/// kConfirmInItself: a refutation is confirmed by running the same
/// conclusion again (exact rationals; a kernel, whose check already uses the
/// MPFR reference) rather than in MPFR at twice the precision.
template <class S>
struct BackendOf {
  static constexpr const char* kName = ScalarTraits<S>::kBackend;
  static constexpr bool kConfirmInItself = ScalarTraits<S>::kExact;
};

}  // namespace attnprop
