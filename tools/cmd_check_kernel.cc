// attnprop check-kernel PATH.so [--cases N] [--seed S] [--json FILE]
//   [--filter GLOB] [--timeout SECONDS] [--budget SECONDS] [--save-dir DIR]
//   [--replay FILE] [--list]
// Runs the kernel property suite (properties/kernel_suite) on a plug-in.
// Exit status: 0 every property holds; 1 some property fails (or errs);
// 2 usage error, or the library cannot be used (missing file,
// missing ABI symbols, other ABI version); 77 the dispatch target named by
// ATTNPROP_KERNEL_TARGET is not supported on this CPU (skipped).
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "properties/framework/options.h"
#include "properties/kernel_suite/suite.h"
#include "tools/commands.h"

namespace attnprop {
namespace {

constexpr const char* kCheckUsage =
    "usage: attnprop check-kernel PATH.so [options]\n"
    "  --cases N           random cases per property (default 100)\n"
    "  --seed S            base seed (default 20261129; same seed, same cases)\n"
    "  --json FILE         write the report as JSON\n"
    "  --filter GLOB       only properties whose <id>/<dtype> matches (e.g. 'abi.*', '*/kernel-f64')\n"
    "  --timeout SECONDS   time limit of one kernel call (default 5)\n"
    "  --budget SECONDS    time spent shrinking one failure (default 20)\n"
    "  --save-dir DIR      where shrunk counterexamples are written (default attnprop-counterexamples)\n"
    "  --replay FILE       run only the case in FILE (with --filter naming one property)\n"
    "  --list              list the suite's properties and exit\n"
    "Each kernel call runs in a child process; a crash or hang is reported with its case.\n"
    "environment: ATTNPROP_KERNEL_TARGET (passed to attnprop's own kernel), ATTNPROP_MPFR_BITS\n"
    "exit status: 0 all hold, 1 some property fails, 2 usage or library error, 77 target not supported here\n";

int CheckUsage(const std::string& error) {
  std::cerr << "attnprop check-kernel: " << error << "\n\n" << kCheckUsage;
  return 2;
}

bool ParseNumber(const std::string& s, double lo, double hi, double* out) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end || !(v >= lo && v <= hi)) return false;
  *out = v;
  return true;
}

}  // namespace

int CmdCheckKernel(const std::vector<std::string>& args) {
  using namespace ksuite;
  SuiteOptions o;
  std::string json;
  bool list = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string* v) {
      if (i + 1 >= args.size()) return false;
      *v = args[++i];
      return true;
    };
    std::string v;
    double x = 0;
    if (a == "--cases") {
      if (!value(&v) || !ParseNumber(v, 1, 1e6, &x) || x != static_cast<int>(x)) return CheckUsage("--cases needs an integer in [1, 1e6]");
      o.cases = static_cast<int>(x);
    } else if (a == "--seed") {
      if (!value(&v) || v.empty() || v.find_first_not_of("0123456789") != std::string::npos || v.size() > 19)
        return CheckUsage("--seed needs a non-negative integer");
      o.seed = std::stoull(v);
    } else if (a == "--json") {
      if (!value(&json)) return CheckUsage("--json needs a file name");
    } else if (a == "--filter") {
      if (!value(&o.filter)) return CheckUsage("--filter needs a glob");
    } else if (a == "--timeout") {
      if (!value(&v) || !ParseNumber(v, 0.01, 3600, &o.timeout_s)) return CheckUsage("--timeout needs seconds in [0.01, 3600]");
    } else if (a == "--budget") {
      if (!value(&v) || !ParseNumber(v, 0.1, 36000, &o.budget_s)) return CheckUsage("--budget needs seconds in [0.1, 36000]");
    } else if (a == "--save-dir") {
      if (!value(&o.save_dir)) return CheckUsage("--save-dir needs a directory");
    } else if (a == "--replay") {
      if (!value(&o.replay_file)) return CheckUsage("--replay needs a case file");
    } else if (a == "--list") {
      list = true;
    } else if (a == "--help" || a == "-h") {
      std::cout << kCheckUsage;
      return 0;
    } else if (!a.empty() && a[0] == '-') {
      return CheckUsage("unknown option '" + a + "'");
    } else if (o.path.empty()) {
      o.path = a;
    } else {
      return CheckUsage("more than one library given ('" + o.path + "', '" + a + "')");
    }
  }
  if (list) {
    for (const auto& p : KernelProperties())
      std::cout << std::left << std::setw(58) << p.id << (p.f64_only ? " f64     " : " f32,f64 ") << p.statement << "\n";
    return 0;
  }
  if (o.path.empty()) return CheckUsage("no kernel library given");

  RunOptions banner;
  banner.seed = o.seed;
  banner.max_success = o.cases;
  PrintBanner(std::cout, banner, o.path);
  SuiteReport r;
  try {
    r = RunSuite(o, std::cout);
  } catch (const std::exception& e) {
    return CheckUsage(e.what());
  }
  if (r.load.status != LoadStatus::kOk) {
    std::cerr << "attnprop check-kernel: " << r.load.error << "\n";
    return 2;
  }
  if (r.skipped) {
    std::cout << "SKIPPED: dispatch target '" << r.load.requested_target << "' is not supported on this CPU\n";
    return 77;
  }
  if (!json.empty()) {
    std::ofstream f(json);
    WriteJson(r, o, f);
    if (!f) std::cerr << "attnprop check-kernel: cannot write " << json << "\n";
  }
  if (r.properties.empty()) return CheckUsage("no property matches --filter '" + o.filter + "'");
  int failed = 0;
  for (const auto& p : r.properties) {
    if (p.result.verdict == Verdict::kHolds) continue;
    ++failed;
    std::cout << "\nFAIL " << p.name << " (" << VerdictName(p.result.verdict) << ")\n  claim: " << p.statement << "\n";
    std::cout << "  " << p.result.message << "\n";
    if (!p.result.counterexample.empty()) {
      std::cout << "  shrunk counterexample (" << p.result.shrink_steps << " shrink steps):\n";
      std::istringstream lines(p.result.counterexample);
      for (std::string line; std::getline(lines, line);) std::cout << "    " << line << "\n";
    }
    if (!p.replay.empty()) std::cout << "  replay: " << p.replay << "\n";
    std::cout << "  rerun:  " << p.rerun << "\n";
  }
  std::cout << "\n" << r.properties.size() - static_cast<size_t>(failed) << " of " << r.properties.size()
            << " properties hold on " << o.path << " (" << std::fixed << std::setprecision(1) << r.seconds << " s)\n";
  return failed ? 1 : 0;
}

}  // namespace attnprop
