// The attnprop command line as a function: attnprop's main (tools/main.cc)
// and a user's claim runner (cmake/attnprop_claims_main.cc.in, which first
// says which program it is: SetProgram, properties/framework/program.h).
#pragma once

namespace attnprop::cli {

/// Runs the command line (list, run, audit, reproduce, check-kernel, merge,
/// store, --version, --help) over the registered properties; returns the
/// exit status (0 as expected, 1 a verdict differs, 2 bad usage or input).
int Main(int argc, char** argv);

}  // namespace attnprop::cli
