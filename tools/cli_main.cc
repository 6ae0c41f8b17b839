// The attnprop command line (tools/main.cc; a user's claim runner,
// cmake/AttnpropClaims.cmake, runs the same).
//   attnprop list                      properties: id/backend, kind, expectation, stored cases, source
//   attnprop run [options]             run properties, one line each
//   attnprop audit [--out DIR] [...]   the main job: run everything, write the report
//   attnprop reproduce ID [FILE|TOKEN] replay a case without a new search
//   attnprop check-kernel PATH.so ...  the kernel properties on a user's kernel library
//   attnprop merge --out DIR SHARD...  the shards of a sharded run joined into one report
//   attnprop store merge --into DIR .. counterexample stores folded into one
//   attnprop --version                 the project version and the kernel ABI version
// Each has --help. Exit status: 0 everything as registry.tsv expects, 1 a
// verdict differs, 2 bad usage or input (see tools/cli.h).
#include <csignal>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "kernels/attnprop_kernel.h"
#include "properties/framework/options.h"
#include "properties/framework/program.h"
#include "properties/framework/registry.h"
#include "tools/cli.h"
#include "tools/cli_main.h"

namespace {

constexpr const char* kUsage =
    "usage: attnprop <command> [options]       (attnprop <command> --help for each)\n"
    "\n"
    "commands:\n"
    "  list                         every registered property: id/backend, kind, expectation, stored cases, file\n"
    "  run [options]                run properties (stored cases first), one summary line each\n"
    "  audit [--out DIR] [options]  the main job: run every property, write report.json, report.md,\n"
    "                               report.html and junit.xml with the tolerance audit into DIR\n"
    "  reproduce ID [FILE|TOKEN]    replay a stored case, a case file or a reproduce token\n"
    "  check-kernel PATH.so         check an attention kernel library through the C ABI (the kernel\n"
    "                               properties only; run and audit check attnprop's own kernel too)\n"
    "  merge --out DIR SHARD_DIR... join the reports of a sharded run (--shard I/T) into one report set\n"
    "  store merge --into DIR FROM...\n"
    "                               fold counterexample stores (a sharded run's jobs') into one\n"
    "  --version                    attnprop's version and the kernel ABI version it checks\n"
    "\n"
    "environment: ATTNPROP_MPFR_BITS (MPFR precision, default 256), ATTNPROP_CERTIFY_BITS (the interval\n"
    "             precision up to which a candidate refutation is certified, default 4096),\n"
    "             ATTNPROP_ALLOW_UNDECIDED=1 (as --allow-undecided: cases interval arithmetic leaves\n"
    "             undecided do not make a claim expected to hold unexpected; default 0),\n"
    "             ATTNPROP_EXACT_SECONDS, ATTNPROP_EXACT_MB (the budget of an exact rational decision,\n"
    "             default 2 s and 1024 MB),\n"
    "             RC_PARAMS (seed, max_success, ...),\n"
    "             GTEST_TOTAL_SHARDS, GTEST_SHARD_INDEX (run, audit, check-kernel: one shard of the run)\n"
    "exit status: 0 everything as registry.tsv expects, 1 some verdict differs, 2 bad usage or input\n";

}  // namespace

namespace attnprop::cli {

namespace {

int RunCommand(int argc, char** argv) {
  // A file size limit (ulimit -f) makes a write fail with EFBIG, reported as
  // an error (exit 2), instead of killing the process half-way.
  std::signal(SIGXFSZ, SIG_IGN);
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return cli::UsageError("", "no command given", kUsage);
  if (args[0] == "--version" || args[0] == "version") {
    std::cout << "attnprop " << ATTNPROP_VERSION << "\nkernel ABI version " << ATTNPROP_KERNEL_ABI_VERSION << "\n";
    return cli::kOk;
  }
  try {
    InitMpfrPrecisionFromEnvironment();
    const auto problems = JoinRegistry();
    if (!problems.empty()) {
      for (const auto& p : problems) std::cerr << "attnprop: " << p << "\n";
      return cli::kBadInput;
    }
    const std::string cmd = args[0];
    args.erase(args.begin());
    args = cli::SplitOptionValues(args);  // --opt=value is --opt value everywhere
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
      // A user's claim runner (attnprop_add_claims) says what it is.
      if (ThisProgram().user_claims)
        std::cout << ThisProgram().command << ": your claims with attnprop's command line (the commands "
                  << "below; `attnprop` in them is this program)\n\n";
      std::cout << InThisProgramsWords(kUsage);
      return cli::kOk;
    }
    if (cmd == "list") return cli::List(args);
    if (cmd == "run") return cli::Run(args);
    if (cmd == "audit") return cli::Audit(args);
    if (cmd == "reproduce") return cli::Reproduce(args);
    if (cmd == "check-kernel") return cli::CheckKernel(args);
    if (cmd == "merge") return cli::Merge(args);
    if (cmd == "store") return cli::StoreCommand(args);
    const std::string near = cli::DidYouMean(cmd, {"list", "run", "audit", "reproduce", "check-kernel", "merge", "store"});
    std::cerr << "attnprop: unknown command '" << cmd << "'" << (near.empty() ? "" : " (did you mean '" + near + "'?)")
              << "\n\n" << InThisProgramsWords(kUsage);
    return cli::kBadInput;
  } catch (const std::exception& e) {
    std::cerr << "attnprop: " << e.what() << "\n";
    return cli::kBadInput;
  }
}

}  // namespace

int Main(int argc, char** argv) {
  const int rc = RunCommand(argc, argv);
  // Output that could not be written (a full disk, /dev/full) is an error,
  // not a success nobody saw.
  std::cout.flush();
  if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::cerr << "attnprop: cannot write to standard output\n";
    return kBadInput;
  }
  return rc;
}

}  // namespace attnprop::cli
