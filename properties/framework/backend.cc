#include "properties/framework/backend.h"

namespace attnprop {

const std::vector<BackendInfo>& Backends() {
  static const std::vector<BackendInfo> all = {
      {"double", false, false, &ScalarTraits<double>::UnitRoundoff},
      {"float", false, false, &ScalarTraits<float>::UnitRoundoff},
      {"mpfr", false, false, &ScalarTraits<Mpfr>::UnitRoundoff},
      {"rational", true, false, &ScalarTraits<Rational>::UnitRoundoff},
      {"kernel-f32", false, true, [] { return 0x1p-24; }},
      {"kernel-f64", false, true, [] { return 0x1p-53; }},
      // ABI v2 half-precision storage: u of the storage format (the
      // arithmetic's is the kernel's declared accumulation, accuracy.h).
      {"kernel-bf16", false, true, [] { return 0x1p-8; }},
      {"kernel-f16", false, true, [] { return 0x1p-11; }},
  };
  return all;
}

std::string_view BaseBackend(std::string_view full_name) {
  const auto at = full_name.find('@');
  return at == std::string_view::npos ? full_name : full_name.substr(0, at);
}

const BackendInfo* FindBackend(std::string_view full_name) {
  const std::string_view base = BaseBackend(full_name);
  for (const auto& b : Backends())
    if (base == b.name && (b.kernel || base.size() == full_name.size())) return &b;
  return nullptr;
}

double UnitRoundoffOf(std::string_view full_name) {
  const BackendInfo* b = FindBackend(full_name);
  return b ? b->unit_roundoff() : 0.0;
}

std::string BackendNames() {
  std::string s;
  for (const auto& b : Backends()) s += (s.empty() ? "" : ", ") + std::string(b.name);
  return s;
}

}  // namespace attnprop
