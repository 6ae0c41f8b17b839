#include "properties/framework/options.h"

#include <cstdlib>
#include <ostream>
#include <stdexcept>

#include "properties/framework/certify.h"
#include "properties/framework/judge.h"
#include "properties/framework/rc_bridge.h"

namespace attnprop {

RunOptions OptionsFromEnvironment() {
  const char* env = std::getenv("RC_PARAMS");
  return OptionsFromRcParams(env ? env : "", RunOptions{});
}

int InitMpfrPrecisionFromEnvironment() {
  int bits = kDefaultMpfrBits;
  if (const char* env = std::getenv("ATTNPROP_MPFR_BITS"); env && *env) {
    char* end = nullptr;
    const long v = std::strtol(env, &end, 10);
    if (*end || v < 64 || v > 65536)
      throw std::invalid_argument(std::string("ATTNPROP_MPFR_BITS must be an integer in [64, 65536], got '") + env +
                                  "'");
    bits = static_cast<int>(v);
  }
  if (const char* env = std::getenv("ATTNPROP_CERTIFY_BITS"); env && *env) {
    char* end = nullptr;
    const long v = std::strtol(env, &end, 10);
    if (*end || v < 128 || v > 65536)
      throw std::invalid_argument(std::string("ATTNPROP_CERTIFY_BITS must be an integer in [128, 65536], got '") +
                                  env + "'");
    SetCertifyMaxBits(static_cast<int>(v));
  }
  if (const char* env = std::getenv("ATTNPROP_ALLOW_UNDECIDED"); env && *env) {
    const std::string v = env;
    if (v != "0" && v != "1")
      throw std::invalid_argument("ATTNPROP_ALLOW_UNDECIDED must be 0 or 1, got '" + v + "'");
    SetAllowUndecided(v == "1");
  }
  return SetMpfrPrecisionBits(bits);
}

void PrintBanner(std::ostream& os, const RunOptions& o, const std::string& kernels) {
  os << "attnprop | seed " << o.seed << " | cases " << o.max_success << " (max_size " << o.max_size
     << (o.shrink ? "" : ", noshrink") << ") | mpfr " << MpfrPrecisionBits() << " bits";
  // A run with no kernel property names none (a theorem author's runner).
  if (kernels != "none") os << " | kernel " << kernels;
  os << "\n";
}

}  // namespace attnprop
