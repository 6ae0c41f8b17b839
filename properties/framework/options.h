// Run-wide settings shared by the test binary and the attnprop command: the
// RapidCheck parameters (from RC_PARAMS when set), the MPFR precision, and
// the banner every run prints first.
#pragma once

#include <iosfwd>
#include <string>

#include "properties/framework/runner.h"

namespace attnprop {

/// RunOptions from the RC_PARAMS environment variable (seed, max_success,
/// max_size, noshrink); the seed defaults to kDefaultSeed rather than
/// RapidCheck's random one, so runs are deterministic unless asked otherwise.
/// Throws std::invalid_argument on a malformed RC_PARAMS.
RunOptions OptionsFromEnvironment();

/// Sets the MPFR precision from ATTNPROP_MPFR_BITS (default 256). Throws
/// std::invalid_argument on a malformed or out-of-range value.
int InitMpfrPrecisionFromEnvironment();

/// "attnprop | seed S | cases N | mpfr B bits | kernel K": `kernels` says
/// which kernels the kernel backends run against (see KernelSummary).
void PrintBanner(std::ostream& os, const RunOptions& o, const std::string& kernels);

}  // namespace attnprop
