// attnprop merge: the shards of one sharded run (--shard I/T, or
// GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS) joined into the report the unsharded
// run writes: each shard's report.json read back (report::ReadReport), the
// shards checked to be of one run and to cover it exactly once, the entries
// put back in the selection's order, and the set written by the same
// writers. attnprop store merge: the shards' counterexample stores folded
// into one (MergeStore, under the store's flock).
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>

#include "properties/framework/store.h"
#include "reports/report.h"
#include "reports/summary.h"
#include "tools/cli.h"
#include "tools/report_diagnosis.h"
#include "properties/framework/program.h"

namespace attnprop::cli {
namespace {

constexpr const char* kMergeUsage =
    "usage: attnprop merge --out DIR [--junit FILE] [-q] SHARD_DIR...\n"
    "  Joins the reports of the shards of one run (attnprop run/audit/check-kernel --shard I/T --out\n"
    "  SHARD_DIR, or GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS) into one report set in DIR: report.json,\n"
    "  report.md, report.html, junit.xml, the same bytes as the unsharded run with the same seed and\n"
    "  options writes, apart from the timestamp and the timings. Refuses (exit 2, naming the mismatch)\n"
    "  shards of different runs (seed, cases, search candidates, budget, version, registry, kernels,\n"
    "  store, selection), a report that is not a shard, a shard given twice (overlapping), a missing\n"
    "  shard, and a shard that did not run all its properties (--fail-fast).\n"
    "  SHARD_DIR        a shard's --out directory (its report.json), or the report.json itself\n"
    "  --out DIR        where the merged report set goes (created if needed)\n"
    "  --junit FILE     also write the merged junit.xml to FILE\n"
    "  -q, --quiet      print nothing but errors (else the merged run's summary)\n"
    "  The shards' new counterexamples: attnprop store merge --into STORE SHARD_STORE...\n"
    "exit status: 0 every verdict as registry.tsv expects, 1 some verdict differs, 2 bad usage or\n"
    "             inputs that do not merge\n";

constexpr const char* kStoreUsage =
    "usage: attnprop store merge --into STORE FROM_STORE...\n"
    "  Folds counterexample stores (the store directories of a sharded run's jobs) into STORE (created\n"
    "  if needed): each entry STORE lacks (same case values and backends) is appended to its claim's\n"
    "  file, a name already taken gets a suffix (-2, -3, ...); kernel stores (kernels/<name>/) too.\n"
    "  Holds STORE's lock (the flock every run saving there takes) for the whole fold: no entry is lost\n"
    "  or stored twice, and merging the same store again adds nothing.\n"
    "  --into STORE     the store merged into\n"
    "exit status: 0 merged, 2 bad usage or a malformed or unwritable store\n";

std::string ReportPath(const std::string& arg) {
  const std::filesystem::path p(arg);
  return p.extension() == ".json" ? arg : (p / "report.json").string();
}

/// The facts every shard of one run shares, as "name value" pairs, in the
/// order they are compared (the first that differs is named).
std::vector<std::pair<std::string, std::string>> RunFacts(const report::RunInfo& r) {
  std::ostringstream budget;
  budget << r.budget_s;
  return {{"attnprop version", r.version},
          {"registry (registry.tsv hash)", r.registry},
          {"command", r.command},
          {"seed", std::to_string(r.seed)},
          {"cases", std::to_string(r.cases)},
          {"search candidates", std::to_string(r.search_steps)},
          {"budget", budget.str() + " s"},
          {"max size", std::to_string(r.max_size)},
          {"shrink", r.shrink ? "on" : "off"},
          {"MPFR bits", std::to_string(r.mpfr_bits)},
          {"kernels", r.kernel},
          {"kernel library", r.kernel_path.empty() ? "none" : r.kernel_path},
          {"store", r.store.empty() ? "none" : r.store},
          {"selection", r.selection},
          {"selected properties", std::to_string(r.selected)},
          {"shard total", std::to_string(r.shard_total)}};
}

/// The shards joined, or the reason they do not join.
std::string Join(const std::vector<std::string>& paths, const std::vector<report::Report>& shards,
                 report::Report* merged) {
  // This attnprop writes the merged report with its own claim statements
  // and registry: the shards must come from the same one.
  if (shards[0].run.version != ATTNPROP_VERSION)
    return paths[0] + " was written by attnprop " + shards[0].run.version + ", this is attnprop " + ATTNPROP_VERSION;
  if (shards[0].run.registry != report::RegistryHash())
    return paths[0] + " was run with another registry.tsv (" + shards[0].run.registry + ") than this attnprop's (" +
           report::RegistryHash() + ")";
  const auto first = RunFacts(shards[0].run);
  for (size_t k = 0; k < shards.size(); ++k) {
    if (shards[k].run.shard_total == 0)
      return paths[k] + " is not a shard's report (it was run without --shard or GTEST_TOTAL_SHARDS)";
    const auto facts = RunFacts(shards[k].run);
    for (size_t f = 0; f < facts.size(); ++f)
      if (facts[f].second != first[f].second)
        return "the shards are not of one run: " + first[f].first + " '" + first[f].second + "' in " + paths[0] +
               ", '" + facts[f].second + "' in " + paths[k];
  }
  const uint64_t total = shards[0].run.shard_total;
  std::map<uint64_t, size_t> by_index;
  for (size_t k = 0; k < shards.size(); ++k) {
    const uint64_t i = shards[k].run.shard_index;
    if (i >= total) return paths[k] + " is shard " + std::to_string(i) + " of " + std::to_string(total) + ": no such shard";
    if (!by_index.emplace(i, k).second)
      return "overlapping shards: " + paths[by_index[i]] + " and " + paths[k] + " are both shard " + std::to_string(i) +
             "/" + std::to_string(total);
  }
  std::string missing;
  for (uint64_t i = 0; i < total; ++i)
    if (!by_index.count(i)) missing += (missing.empty() ? "" : ", ") + std::to_string(i) + "/" + std::to_string(total);
  if (!missing.empty()) return "missing shards: " + missing + " (" + std::to_string(shards.size()) + " of " +
                               std::to_string(total) + " given)";
  const size_t selected = shards[0].run.selected;
  std::vector<const report::Entry*> at(selected, nullptr);
  std::vector<size_t> from(selected, 0);
  for (size_t k = 0; k < shards.size(); ++k) {
    const Shard shard{shards[k].run.shard_index, total};
    for (const auto& e : shards[k].entries) {
      const std::string name = e.result.id + "/" + e.result.backend;
      if (e.index >= selected)
        return paths[k] + ": " + name + " is at position " + std::to_string(e.index) + " of a selection of " +
               std::to_string(selected);
      if (!InShard(name, shard))
        return paths[k] + ": " + name + " does not belong to shard " + std::to_string(shard.index) + "/" +
               std::to_string(total);
      if (at[e.index])
        return "overlapping shards: " + name + " is in " + paths[from[e.index]] + " and " + paths[k];
      at[e.index] = &e;
      from[e.index] = k;
    }
  }
  const size_t absent = static_cast<size_t>(std::count(at.begin(), at.end(), nullptr));
  if (absent)
    return std::to_string(absent) + " of the " + std::to_string(selected) +
           " selected properties are in no shard's report (a shard stopped early: --fail-fast, an error)";
  merged->run = shards[0].run;
  merged->run.shard_index = 0;
  merged->run.shard_total = 0;
  for (const auto& s : shards) merged->run.generated = std::max(merged->run.generated, s.run.generated);
  for (const auto* e : at) merged->entries.push_back(*e);
  // check-kernel's diagnosis is recomputed over the joined entries, not
  // taken from a shard: its class and ranking depend on the pattern of all
  // the failing properties, and each shard's covers only its own (the
  // entries read back are the run's, so this is the unsharded diagnosis).
  if (merged->run.command == "check-kernel") merged->diagnosis = DiagnoseReport(*merged);
  return "";
}

}  // namespace

int Merge(const std::vector<std::string>& args) {
  std::string out, junit;
  bool quiet = false;
  std::vector<std::string> inputs;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::cout << InThisProgramsWords(kMergeUsage);
      return kOk;
    } else if (a == "--out" || a == "--junit") {
      if (i + 1 >= args.size() || args[i + 1].empty()) return UsageError("merge", a + " needs a path", kMergeUsage);
      (a == "--out" ? out : junit) = args[++i];
    } else if (a == "-q" || a == "--quiet") {
      quiet = true;
    } else if (!a.empty() && a[0] == '-') {
      return UsageError("merge", "unknown option '" + a + "'", kMergeUsage);
    } else {
      inputs.push_back(a);
    }
  }
  if (out.empty()) return UsageError("merge", "no --out directory given", kMergeUsage);
  if (inputs.empty()) return UsageError("merge", "no shard report given", kMergeUsage);
  std::vector<std::string> paths;
  std::vector<report::Report> shards;
  report::Report merged;
  try {
    for (const auto& in : inputs) {
      paths.push_back(ReportPath(in));
      shards.push_back(report::ReadReport(paths.back()));
    }
    if (const std::string e = Join(paths, shards, &merged); !e.empty()) {
      std::cerr << "attnprop merge: " << e << "\n";
      return kBadInput;
    }
    report::WriteReports(merged, out);
    if (!junit.empty()) report::WriteJUnitReport(merged, junit);
  } catch (const std::exception& e) {
    std::cerr << "attnprop merge: " << e.what() << "\n";
    return kBadInput;
  }
  if (!quiet)
    std::cout << "merged " << shards.size() << " shards (" << merged.entries.size() << " properties) into " << out
              << "\n" << report::ConsoleSummary(merged);
  return report::CountVerdicts(merged).unexpected ? kUnexpected : kOk;
}

int StoreCommand(const std::vector<std::string>& args) {
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    std::cout << InThisProgramsWords(kStoreUsage);
    return kOk;
  }
  if (args.empty() || args[0] != "merge")
    return UsageError("store", args.empty() ? "no subcommand given" : "unknown subcommand '" + args[0] + "'", kStoreUsage);
  std::string into;
  std::vector<std::string> from;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      std::cout << InThisProgramsWords(kStoreUsage);
      return kOk;
    } else if (a == "--into") {
      if (i + 1 >= args.size() || args[i + 1].empty()) return UsageError("store", "--into needs a directory", kStoreUsage);
      into = args[++i];
    } else if (!a.empty() && a[0] == '-') {
      return UsageError("store", "unknown option '" + a + "'", kStoreUsage);
    } else {
      from.push_back(a);
    }
  }
  if (into.empty()) return UsageError("store", "no --into store given", kStoreUsage);
  if (from.empty()) return UsageError("store", "no store to merge given", kStoreUsage);
  try {
    for (const auto& f : from) {
      const StoreMergeCount c = MergeStore(into, f);
      std::cout << "merged " << f << " into " << into << ": " << c.added << " entries added, " << c.present
                << " already there\n";
    }
  } catch (const std::exception& e) {
    std::cerr << "attnprop store: " << e.what() << "\n";
    return kBadInput;
  }
  return kOk;
}

}  // namespace attnprop::cli
