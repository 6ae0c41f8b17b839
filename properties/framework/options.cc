#include "properties/framework/options.h"

#include <cstdlib>
#include <ostream>
#include <stdexcept>

#include "rapidcheck/detail/Configuration.h"

namespace attnprop {

RunOptions OptionsFromEnvironment() {
  RunOptions o;
  const char* env = std::getenv("RC_PARAMS");
  if (!env || !*env) return o;
  rc::detail::Configuration config;
  try {
    config = rc::detail::configFromString(env);
  } catch (const std::exception& e) {
    throw std::invalid_argument(std::string("malformed RC_PARAMS: ") + e.what());
  }
  const std::string s(env);
  if (s.find("seed=") != std::string::npos) o.seed = config.testParams.seed;
  o.max_success = config.testParams.maxSuccess;
  o.max_size = config.testParams.maxSize;
  o.shrink = !config.testParams.disableShrinking;
  return o;
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
  return SetMpfrPrecisionBits(bits);
}

std::string ActiveKernelPath() {
  const char* env = std::getenv("ATTNPROP_KERNEL");
  return env && *env ? env : "none";
}

void PrintBanner(std::ostream& os, const RunOptions& o, const std::string& kernel_path) {
  os << "attnprop | seed " << o.seed << " | cases " << o.max_success << " (max_size " << o.max_size
     << (o.shrink ? "" : ", noshrink") << ") | mpfr " << MpfrPrecisionBits() << " bits | kernel " << kernel_path
     << "\n";
}

}  // namespace attnprop
