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

/// The kernel the run checks, for the banner and the reports: the path in
/// ATTNPROP_KERNEL, or "none". The one place that says so.
std::string ActiveKernelPath();

/// "attnprop <version> | seed S | cases N | mpfr B bits | kernel K".
void PrintBanner(std::ostream& os, const RunOptions& o, const std::string& kernel_path);

}  // namespace attnprop
