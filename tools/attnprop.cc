// The attnprop command.
//   attnprop list                     claims with id, source file, backends, expectation
//   attnprop run [--filter GLOB] [--backend B] [--cases N] [--seed S]
// Exit status: 0 when every verdict matches registry.tsv, 1 otherwise, 2 on
// bad usage.
#include <fnmatch.h>

#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "properties/framework/options.h"
#include "properties/framework/registry.h"
#include "tools/commands.h"

namespace attnprop {
namespace {

constexpr const char* kUsage =
    "usage: attnprop <command> [options]\n"
    "\n"
    "commands:\n"
    "  list                      list every registered property: id/backend, expectation, source file\n"
    "  run [options]             run properties, one summary line each\n"
    "      --filter GLOB         only properties whose id/backend matches GLOB (e.g. 'lecture4.*')\n"
    "      --backend B           only backend B (double, mpfr, rational, float)\n"
    "      --cases N             random cases per property (default 100)\n"
    "      --seed S              base seed (default 20261129; same seed, same cases)\n"
    "\n"
    "environment: ATTNPROP_MPFR_BITS (MPFR precision, default 256)\n"
    "exit status: 0 every verdict as registry.tsv expects, 1 some verdict differs, 2 usage error\n";

int Usage(const std::string& error) {
  std::cerr << "attnprop: " << error << "\n\n" << kUsage;
  return 2;
}

bool ParseUint(const std::string& s, uint64_t* out) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 19) return false;
  *out = std::stoull(s);
  return true;
}

int List() {
  for (const auto& d : Registry()) {
    const RegistryRow* row = FindRow(d.id);
    std::cout << std::left << std::setw(64) << d.Name() << " "
              << std::setw(8) << (row && row->expect == Expectation::kRefuted ? "refuted" : "holds") << " "
              << d.file.substr(d.file.find("properties/")) << "\n";
  }
  return 0;
}

int Run(const std::vector<std::string>& args) {
  std::string filter = "*", backend;
  RunOptions o = OptionsFromEnvironment();
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string* v) {
      if (i + 1 >= args.size()) return false;
      *v = args[++i];
      return true;
    };
    std::string v;
    uint64_t n = 0;
    if (a == "--filter") {
      if (!value(&filter)) return Usage("--filter needs a glob");
    } else if (a == "--backend") {
      if (!value(&backend)) return Usage("--backend needs a name");
      if (backend != "double" && backend != "mpfr" && backend != "rational" && backend != "float")
        return Usage("unknown backend '" + backend + "' (double, mpfr, rational, float)");
    } else if (a == "--cases") {
      if (!value(&v) || !ParseUint(v, &n) || n < 1 || n > 1000000) return Usage("--cases needs an integer in [1, 1e6]");
      o.max_success = static_cast<int>(n);
    } else if (a == "--seed") {
      if (!value(&v) || !ParseUint(v, &n)) return Usage("--seed needs a non-negative integer");
      o.seed = n;
    } else if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    } else {
      return Usage("unknown option '" + a + "' for run");
    }
  }
  PrintBanner(std::cout, o, "none");
  int ran = 0, unexpected = 0;
  for (const auto& d : Registry()) {
    if (fnmatch(filter.c_str(), d.Name().c_str(), 0) != 0) continue;
    if (!backend.empty() && d.backend != backend) continue;
    const RegistryRow* row = FindRow(d.id);
    const bool expect_refuted = row && row->expect == Expectation::kRefuted;
    const PropertyResult r = RunProperty(d, o);
    const bool as_expected = (r.verdict == Verdict::kHolds && !expect_refuted) ||
                             (r.verdict == Verdict::kRefuted && expect_refuted);
    ++ran;
    if (!as_expected) ++unexpected;
    double worst = 0;
    for (const auto& m : r.metrics) worst = std::max(worst, m.max_ratio);
    std::cout << std::left << std::setw(56) << d.Name() << " " << std::setw(8) << VerdictName(r.verdict)
              << (as_expected ? "ok      " : "UNEXPECTED ") << std::right << std::setw(5) << r.cases << " cases "
              << std::setw(4) << r.discarded << " discarded  worst err/bound " << std::setprecision(3) << worst
              << std::setprecision(6) << "  " << std::fixed << std::setprecision(2) << r.seconds << " s"
              << std::defaultfloat << "\n";
    if (r.verdict != Verdict::kHolds) {
      std::cout << "    " << r.message << "\n";
      if (!r.counterexample.empty()) std::cout << "    counterexample:\n" << r.counterexample;
      if (!r.reproduce.empty())
        std::cout << "    reproduce: RC_PARAMS=\"" << r.reproduce << "\" ctest -R '^" << d.Name() << "$'\n";
    }
  }
  if (ran == 0) {
    std::cerr << "attnprop: no property matches --filter '" << filter << "'"
              << (backend.empty() ? "" : " --backend " + backend) << "\n";
    return 2;
  }
  std::cout << ran - unexpected << " as expected, " << unexpected << " unexpected\n";
  return unexpected ? 1 : 0;
}

}  // namespace
}  // namespace attnprop

int main(int argc, char** argv) {
  using namespace attnprop;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return Usage("no command given");
  try {
    InitMpfrPrecisionFromEnvironment();
    const auto problems = RegistryProblems();
    if (!problems.empty()) {
      for (const auto& p : problems) std::cerr << "attnprop: " << p << "\n";
      return 2;
    }
    const std::string cmd = args[0];
    args.erase(args.begin());
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
      std::cout << kUsage;
      return 0;
    }
    if (cmd == "list") return List();
    if (cmd == "run") return Run(args);
    if (cmd == "check-kernel") return CmdCheckKernel(args);
    return Usage("unknown command '" + cmd + "'");
  } catch (const std::exception& e) {
    std::cerr << "attnprop: " << e.what() << "\n";
    return 2;
  }
}
