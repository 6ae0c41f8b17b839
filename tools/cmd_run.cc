// attnprop run and attnprop audit: run the selected properties through the
// one runner (the counterexample store first), print a line each, and (audit,
// or run --out) write the report in four formats.
#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <set>

#include "properties/framework/options.h"
#include "properties/framework/registry.h"
#include "properties/framework/store.h"
#include "reports/report.h"
#include "tools/cli.h"

namespace attnprop::cli {
namespace {

constexpr const char* kRunUsage =
    "usage: attnprop run [--filter GLOB] [--backend B] [--cases N] [--seed S] [--store DIR] [--no-store]\n"
    "                    [--no-save] [--out DIR]\n"
    "  Runs properties (stored cases first, then N random cases), one line each.\n"
    "  --filter GLOB   only properties whose id/backend matches GLOB (e.g. 'lecture4.*')\n"
    "  --backend B     only backend B (double, mpfr, rational, float)\n"
    "  --cases N       random cases per property (default 100)\n"
    "  --seed S        base seed (default 20261129; same seed, same cases)\n"
    "  --store DIR     counterexample store (default: the source tree's properties/counterexamples)\n"
    "  --no-store      replay no stored cases and save none\n"
    "  --no-save       replay the store but do not add new counterexamples to it\n"
    "  --out DIR       also write report.json, report.md, report.html, junit.xml into DIR\n"
    "exit status: 0 every verdict as registry.tsv expects, 1 some verdict differs, 2 bad usage or input\n";

constexpr const char* kAuditUsage =
    "usage: attnprop audit [--out DIR] [--filter GLOB] [--backend B] [--cases N] [--seed S] [--store DIR]\n"
    "                      [--no-store] [--no-save]\n"
    "  The main job: runs every registered property (stored cases first) and writes the report with\n"
    "  the tolerance audit (observed error against each declared bound; flags FAIL, LOOSE,\n"
    "  UNJUSTIFIED, NONFINITE) into DIR: report.json, report.md, report.html, junit.xml.\n"
    "  --out DIR       report directory (default ./attnprop-report); created if needed\n"
    "  other options as for `attnprop run`\n"
    "exit status: 0 every verdict as registry.tsv expects, 1 some verdict differs, 2 bad usage or input\n";

/// Reads every store file the run will replay, before any property runs:
/// a malformed file stops the command with its name and line.
void CheckStore(const std::vector<const PropertyDef*>& defs, const std::string& dir) {
  if (dir.empty()) return;
  std::set<std::string> ids;
  for (const auto* d : defs)
    if (ids.insert(d->id).second) LoadStore(dir, d->id);
  // A store file whose claim is not registered is replayed by nothing.
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    if (e.path().extension() != ".txt") continue;
    const std::string id = e.path().stem().string();
    if (!FindRow(id)) std::cerr << "attnprop: warning: " << e.path().string() << " names no registered claim\n";
  }
}

int Execute(const std::string& cmd, const std::vector<std::string>& args, bool audit) {
  const char* usage = audit ? kAuditUsage : kRunUsage;
  Selection s;
  s.options = OptionsFromEnvironment();
  bool help = false;
  std::string error;
  if (!ParseSelection(args, audit, &s, &help, &error)) return UsageError(cmd, error, usage);
  if (help) {
    std::cout << usage;
    return kOk;
  }
  const auto defs = Select(s);
  if (defs.empty())
    return UsageError(cmd, "no property matches --filter '" + s.filter + "'" +
                               (s.backend.empty() ? "" : " --backend " + s.backend) + " (attnprop list shows them)",
                      usage);
  try {
    CheckStore(defs, s.options.store_dir);
    if (!s.out.empty()) report::EnsureWritableDir(s.out);
  } catch (const std::exception& e) {
    std::cerr << "attnprop " << cmd << ": " << e.what() << "\n";
    return kBadInput;
  }

  PrintBanner(std::cout, s.options, ActiveKernelPath());
  std::cout << "store " << (s.options.store_dir.empty() ? "none" : s.options.store_dir)
            << (s.options.save_dir.empty() ? " (read only)" : "") << " | " << defs.size() << " properties\n";

  report::Report rep;
  rep.run.version = ATTNPROP_VERSION;
  rep.run.command = cmd;
  rep.run.seed = s.options.seed;
  rep.run.cases = s.options.max_success;
  rep.run.max_size = s.options.max_size;
  rep.run.shrink = s.options.shrink;
  rep.run.mpfr_bits = MpfrPrecisionBits();
  rep.run.kernel = ActiveKernelPath();
  rep.run.store = s.options.store_dir;
  rep.run.generated = report::UtcNow();

  Progress progress(defs.size());
  int unexpected = 0;
  for (size_t i = 0; i < defs.size(); ++i) {
    const PropertyDef& d = *defs[i];
    progress.Start(i, d.Name());
    report::Entry e;
    try {
      e.result = RunProperty(d, s.options);
    } catch (const std::exception& ex) {
      progress.Clear();
      std::cerr << "attnprop " << cmd << ": " << d.Name() << ": " << ex.what() << "\n";
      return kBadInput;
    }
    const RegistryRow* row = FindRow(d.id);
    e.expect = row ? row->expect : Expectation::kHolds;
    e.as_expected = report::AsExpected(e.result.verdict, e.expect);
    e.file = report::RelativeSource(d.file);
    unexpected += !e.as_expected;
    const PropertyResult& r = e.result;
    double worst = 0;
    for (const auto& m : r.metrics) worst = std::max(worst, m.max_ratio);
    progress.Clear();
    std::cout << "[" << i + 1 << "/" << defs.size() << "] " << std::left << std::setw(52) << d.Name() << " "
              << std::setw(8) << VerdictName(r.verdict) << (e.as_expected ? "ok         " : "UNEXPECTED ")
              << std::right << std::setw(5) << r.cases << " cases " << std::setw(4) << r.discarded << " discarded "
              << std::setw(2) << r.replayed.size() << " stored  worst err/bound " << std::setprecision(3) << worst
              << "  " << std::fixed << std::setprecision(2) << r.seconds << " s" << std::defaultfloat
              << std::setprecision(6) << "\n";
    if (!e.as_expected || r.verdict != Verdict::kHolds) {
      if (!r.message.empty()) std::cout << "    " << r.message << "\n";
      if (!r.counterexample.empty()) std::cout << "    counterexample:\n" << r.counterexample;
      if (!r.reproduce.empty()) std::cout << "    reproduce: attnprop reproduce " << d.Name() << " " << r.reproduce << "\n";
      if (!r.saved_to.empty()) std::cout << "    saved to " << r.saved_to << "\n";
    }
    rep.entries.push_back(std::move(e));
  }
  progress.Clear();
  std::cout << defs.size() - static_cast<size_t>(unexpected) << " as expected, " << unexpected << " unexpected\n";
  if (audit) {
    // The audit's flagged rows; the full table is in the report.
    size_t metrics = 0, flagged = 0;
    for (const auto& e : rep.entries) {
      for (const auto& m : e.result.metrics) {
        ++metrics;
        const unsigned flags = report::AuditFlags(m);
        if (!flags) continue;
        ++flagged;
        std::cout << "  " << std::left << std::setw(24) << report::FlagText(flags) << " " << e.result.id << "/"
                  << e.result.backend << "  " << m.tolerance.metric << "  max err/bound " << m.max_ratio << "\n";
      }
    }
    std::cout << "audit: " << metrics << " metrics, " << flagged << " flagged\n";
  }
  if (!s.out.empty()) {
    try {
      report::WriteReports(rep, s.out);
    } catch (const std::exception& ex) {
      std::cerr << "attnprop " << cmd << ": " << ex.what() << "\n";
      return kBadInput;
    }
    std::cout << "report written to " << s.out << "/{";
    const auto names = report::ReportFileNames();
    for (size_t k = 0; k < names.size(); ++k) std::cout << (k ? "," : "") << names[k];
    std::cout << "}\n";
  }
  return unexpected ? kUnexpected : kOk;
}

}  // namespace

int Run(const std::vector<std::string>& args) { return Execute("run", args, false); }
int Audit(const std::vector<std::string>& args) { return Execute("audit", args, true); }

}  // namespace attnprop::cli
