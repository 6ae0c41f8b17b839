// Subcommands of the attnprop command, one file each (tools/cmd_*.cc).
#pragma once

#include <string>
#include <vector>

namespace attnprop {

/// attnprop check-kernel PATH.so [--cases N] [--seed S] [--json FILE]
/// (tools/cmd_check_kernel.cc). Returns the process exit status.
int CmdCheckKernel(const std::vector<std::string>& args);

}  // namespace attnprop
