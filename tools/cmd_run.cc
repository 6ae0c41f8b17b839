// attnprop run, attnprop audit and attnprop check-kernel: one run path. The
// selected properties (kernel backends bound to the run's kernels) go
// through the one runner (the counterexample store first), Judge says what
// each result means, a line each is printed, and (audit, or --out) the
// report is written in four formats. check-kernel is this path restricted
// to the kernel properties of one library, with a store of its own.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "properties/framework/program.h"
#include "properties/framework/catalog.h"
#include "properties/framework/judge.h"
#include "properties/framework/options.h"
#include "properties/framework/registry.h"
#include "properties/framework/run.h"
#include "properties/framework/store.h"
#include "reports/format.h"
#include "reports/report.h"
#include "reports/summary.h"
#include "tools/cli.h"
#include "tools/report_diagnosis.h"

namespace attnprop::cli {
namespace {

/// The audit's tier: candidates of the targeted search per property (the
/// default audit takes about 3 to 5 minutes on 2 cores with them), and a
/// wall-time cap on the searches of the whole run, spread over the
/// properties: a guard for slow machines, not the pace (a property it
/// stops says so, and its bytes then depend on the machine).
constexpr int kAuditSearchSteps = 300;
constexpr double kAuditBudgetSeconds = 900;
/// check-kernel searches by default too (issue 34): 100 candidates per
/// property after its random cases pass, at most 30 s of searching in all
/// (attnprop's own kernel: 25 s of random cases + about 20 s of search on
/// the 2-core machine, under the 60 s a kernel check may take).
constexpr int kCheckKernelSearchSteps = 100;
constexpr double kCheckKernelBudgetSeconds = 30;
constexpr const char* kRunUsage =
    "usage: attnprop run [--filter PATTERN]... [--exclude PATTERN]... [--backend B] [--expect E] [--cases N]\n"
    "                    [--seed S]\n"
    "                    [--store DIR [--create-store]] [--no-store] [--no-save] [--out DIR] [--junit FILE]\n"
    "                    [--kernel PATH.so] [--timeout S] [--search N] [--budget S] [--deep]\n"
    "                    [-q|-v] [--fail-fast] [--rerun-failed] [--shard INDEX/TOTAL] [--list]\n"
    "  Runs properties (stored cases first, then N random cases), one line each. Kernel backends run\n"
    "  against attnprop's own kernel on every dispatch target (kernel-f32@avx2, ...; a target this CPU\n"
    "  lacks is reported as skipped) and, with --kernel, against that library too (kernel-f32, kernel-f64).\n"
    "  --filter PATTERN only these properties: a claim id (every backend, e.g. attend2.additivity), an\n"
    "                   id/backend (attend2.additivity/double; kernel-f32 names every @target), or a\n"
    "                   glob on either ('lecture4.*', '*/mpfr'); repeatable (union)\n"
    "  --exclude PATTERN  leave these out (same patterns; repeatable)\n"
    "  --backend B      only backend B (double, float, mpfr, rational, kernel-f32, kernel-f64, kernel-bf16,\n"
    "                   kernel-f16, or a full\n"
    "                   name such as kernel-f32@avx2)\n"
    "  --expect E       only the claims registry.tsv expects to E (holds or refuted): `--expect refuted\n"
    "                   --store EMPTY --no-save` checks that every known-false claim is found from scratch\n"
    "  --cases N        random cases per property (default 100)\n"
    "  --seed S         base seed (default 20261129; same seed, same cases)\n"
    "  --store DIR      counterexample store (default: the source tree's properties/counterexamples;\n"
    "                   a --kernel library's cases live in DIR/kernels/<library name>); it must exist\n"
    "  --create-store   create --store's directory if it does not exist (a new, empty store)\n"
    "  --no-store       replay no stored cases and save none\n"
    "  --no-save        replay the store but do not add new counterexamples to it\n"
    "  --allow-undecided  a claim expected to hold whose cases interval arithmetic leaves undecided\n"
    "                   (neither certified nor dismissed) is as expected; without it, and without\n"
    "                   the registry label `undecided`, it is not (undecided is never a pass)\n"
    "  --out DIR        also write report.json, report.md, report.html, junit.xml into DIR\n"
    "  --junit FILE     also write junit.xml to FILE\n"
    "  -q, --quiet      print only the summary (and errors)\n"
    "  -v, --verbose    also print every property's metrics (max err/bound)\n"
    "  --fail-fast      stop after the first unexpected result (the report holds what ran)\n"
    "  --rerun-failed   run only the unexpected results of the last report (DIR/report.json of --out;\n"
    "                   default ./attnprop-report)\n"
    "  --kernel PATH.so also check this kernel library (kernels/attnprop_kernel.h), in a sandbox\n"
    "  --timeout S      time limit of one kernel call, seconds (default 5)\n"
    "  --shrink-budget S  time spent shrinking one failure, seconds (default 20)\n"
    "  --search N       after the random cases pass, a targeted search of N candidates per property\n"
    "                   (mutations of the best case of each niche, a shape and a count of distinct\n"
    "                   values, kept when they raise observed/bound; default 0; a claim with no\n"
    "                   HypothesesHold is not searched, and a Domain always gives one)\n"
    "  --budget S       wall-time budget of the run's searches: each property may search S/N seconds\n"
    "                   (N the properties selected before sharding; at least 30 s), the same in every\n"
    "                   shard; the run stops searching when S (a shard: its part, S x its properties\n"
    "                   / N) is spent, and a property stopped by it says so; audit: 900 by default\n"
    "  --deep           the deep tier: 10x the cases and the search candidates (budget 9000 s)\n"
    "  --shard I/T      run only shard I of T (0 <= I < T): the properties whose FNV-1a-64 hash of\n"
    "                   \"<id>/<backend>\" is I mod T; without it, GTEST_SHARD_INDEX and\n"
    "                   GTEST_TOTAL_SHARDS when set (GTEST_SHARD_STATUS_FILE is then touched).\n"
    "                   `attnprop merge` joins the shards' reports into the unsharded run's report\n"
    "  --list           print the selected properties (this shard's), one per line, and exit\n"
    "Options take their value as --opt VALUE or --opt=VALUE.\n"
    "exit status: 0 every verdict as registry.tsv expects, 1 some verdict differs (an undecided\n"
    "             claim included), 2 bad usage or input\n";

constexpr const char* kAuditUsage =
    "usage: attnprop audit [--out DIR] [--filter PATTERN]... [--exclude PATTERN]... [--backend B] [--expect E]\n"
    "                      [--cases N]\n"
    "                      [--seed S] [--store DIR [--create-store]] [--no-store] [--no-save] [--junit FILE]\n"
    "                      [--kernel PATH.so] [--timeout S] [--search N] [--budget S] [--deep]\n"
    "                      [-q|-v] [--fail-fast] [--rerun-failed] [--shard INDEX/TOTAL] [--list]\n"
    "  The main job: runs every registered property (stored cases first), the kernel properties against\n"
    "  attnprop's own kernel on every dispatch target this CPU supports (and --kernel's library), and\n"
    "  writes the report with the tolerance audit (observed error against each declared bound; flags\n"
    "  FAIL, LOOSE, UNJUSTIFIED, NONFINITE) into DIR: report.json, report.md, report.html, junit.xml.\n"
    "  --out DIR        report directory (default ./attnprop-report); created if needed\n"
    "  --search N       targeted-search candidates per property (default 300; 0 for none)\n"
    "  --shard I/T      only shard I of T (or GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS), as for `attnprop\n"
    "                   run`; `attnprop merge --out DIR SHARD_DIR...` joins the shards' reports\n"
    "  other options as for `attnprop run`\n"
    "exit status: 0 every verdict as registry.tsv expects, 1 some verdict differs (an undecided\n"
    "             claim included), 2 bad usage or input\n";

constexpr const char* kCheckUsage =
    "usage: attnprop check-kernel PATH.so [options]\n"
    "  Checks an attention kernel library (kernels/attnprop_kernel.h, ABI v1 and v2): the attention claims and\n"
    "  the ABI contract, as <id>/kernel-f32 and <id>/kernel-f64, against the MPFR reference. The library\n"
    "  is loaded with dlopen; every call runs in a forked child (guard pages, canaries, a time limit).\n"
    "  --cases N        random cases per property (default 100)\n"
    "  --seed S         base seed (default 20261129; same seed, same cases)\n"
    "  --filter PATTERN only these properties: a claim id, an <id>/<backend> or a glob ('abi.*',\n"
    "                   '*/kernel-f64'); repeatable; --exclude PATTERN leaves some out\n"
    "  --backend B      only kernel-f32, kernel-f64, kernel-bf16 or kernel-f16 (the last two: ABI v2)\n"
    "  --timeout S      time limit of one kernel call (default 5)\n"
    "  --shrink-budget S  time spent shrinking one failure (default 20)\n"
    "  --search N       after a property's random cases pass, a targeted search of N candidates\n"
    "                   (default 100; 0 for none), at most --budget S seconds in all (default 30)\n"
    "  --deep           the deep tier, as for `attnprop run`\n"
    "  --store DIR      this kernel's counterexample store: replayed first, new counterexamples saved\n"
    "                   (default ./attnprop-counterexamples/kernels/<library name>)\n"
    "  --no-store, --no-save   as for `attnprop run`\n"
    "  --out DIR        write report.json, report.md, report.html, junit.xml into DIR\n"
    "  --json FILE      write report.json to FILE too\n"
    "  --junit FILE     write junit.xml to FILE too\n"
    "  -q, -v, --fail-fast, --rerun-failed, --create-store   as for `attnprop run`\n"
    "  --shard I/T, --list   one shard of the properties (or GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS),\n"
    "                   and the selection's list, as for `attnprop run` (--list exits 77 when every\n"
    "                   property listed is skipped here)\n"
    "  A failure prints its shrunk counterexample and the command that replays it:\n"
    "    attnprop reproduce ID --kernel PATH.so STORE_FILE\n"
    "environment: ATTNPROP_KERNEL_TARGET (a dispatch target, for kernels with attnprop's extension),\n"
    "             ATTNPROP_MPFR_BITS\n"
    "exit status: 0 all hold, 1 some property fails, 2 usage or library error, 77 the dispatch target\n"
    "             asked for is not supported here (skipped)\n";

/// Reads every store file the run will replay, before any property runs:
/// a malformed file stops the command with its name and line.
void CheckStores(const std::vector<PropertyDef>& defs, const std::vector<RunOptions>& options) {
  std::set<std::string> seen;
  for (size_t i = 0; i < defs.size(); ++i)
    if (!options[i].store_dir.empty() && seen.insert(options[i].store_dir + "\n" + defs[i].id).second)
      LoadStore(options[i].store_dir, defs[i].id);
  // A store file whose claim is not registered is replayed by nothing.
  std::set<std::string> dirs;
  for (const auto& o : options)
    if (!o.store_dir.empty()) dirs.insert(o.store_dir);
  for (const auto& dir : dirs) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) continue;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
      if (e.path().extension() != ".txt") continue;
      const std::string id = e.path().stem().string();
      const bool registered =
          std::any_of(Registry().begin(), Registry().end(), [&](const PropertyDef& d) { return d.id == id; });
      if (!registered) std::cerr << "attnprop: warning: " << e.path().string() << " names no registered claim\n";
    }
  }
}

/// What the claim states (report::StatementOf: the catalogue's, ours, or
/// the one its source declares).
std::string Statement(const PropertyDef& d) { return report::StatementOf(d.id); }

std::string Indent(const std::string& text, const char* pad) {
  std::istringstream in(text);
  std::string out;
  for (std::string line; std::getline(in, line);) out += pad + line + "\n";
  return out;
}

/// Where a check-kernel failure stands in the diagnosis: its rank, and the
/// earlier rank that already showed its (shared) counterexample, if any.
struct FailureRank {
  size_t rank = 0, total = 0, group = 0;
  std::optional<size_t> case_shown_at;
  bool quiet = false;  // -q: the first line of the message, at most kQuietCaseLines of the case
};
constexpr size_t kQuietCaseLines = 10;

/// The first `limit` lines of `text`, then "... (N more lines)".
std::string FirstLines(const std::string& text, size_t limit) {
  std::istringstream in(text);
  std::string out, line;
  std::vector<std::string> lines;
  while (std::getline(in, line)) lines.push_back(line);
  const size_t shown = lines.size() <= limit ? lines.size() : limit - 1;
  for (size_t n = 0; n < shown; ++n) out += lines[n] + "\n";
  if (shown < lines.size())
    out += "... (" + std::to_string(lines.size() - shown) + " more lines: the replay command shows the whole case)\n";
  return out;
}

/// The details of a result that is not as expected (or not a plain pass);
/// a check-kernel failure (`rank`) with its place in the diagnosis.
void PrintDetails(std::ostream& out, const PropertyDef& d, const PropertyResult& r, const Judgement& j,
                  const Selection& s, const RunOptions& o, const FailureRank* rank) {
  if (rank) {
    out << (rank->quiet ? "" : "\n") << Paint("FAIL", "31") << " " << d.Name() << " (" << VerdictName(r.verdict) << "; " << rank->rank + 1
        << " of " << rank->total << ", group " << rank->group + 1 << ")\n  claim: " << Statement(d) << "\n";
  } else {
    out << "    " << j.why << "\n";
  }
  if (!r.message.empty() && (rank || j.why.find(r.message) == std::string::npos))
    out << Indent(rank && rank->quiet ? report::FirstLine(r.message, 200) : r.message, "    ");
  if (!r.counterexample.empty() && rank && rank->case_shown_at)
    out << "    counterexample: the one shown for failure " << *rank->case_shown_at + 1 << " (group " << rank->group + 1
        << ")\n";
  else if (!r.counterexample.empty())
    out << "    shrunk counterexample (" << r.shrink_steps << " shrink steps)"
              << (r.confirmed ? ", " + ConfirmationText(r) : "") << ":\n"
              << Indent(rank && rank->quiet ? FirstLines(r.counterexample, kQuietCaseLines) : r.counterexample, "      ");
  const std::string kernel = s.kernel_path.empty() || BaseBackend(d.backend) != d.backend
                                 ? ""
                                 : " --kernel " + ShellQuote(s.kernel_path);
  // The store file that holds the counterexample: just saved, or replayed from.
  std::string file = r.saved_to;
  for (const auto& rep : r.replayed)
    if (file.empty() && rep.regression) file = StorePath(o.store_dir, d.id);
  if (file.empty()) file = r.replay_file;  // no store keeps it: its case file
  if (!file.empty())
    out << "    replay: " << report::ShellWord(ThisProgram().command) << " reproduce " << ShellQuote(d.Name()) << kernel << " " << ShellQuote(file) << "\n";
  if (!r.reproduce.empty() && !(rank && rank->quiet && !file.empty()))
    out << "    rerun:  " << report::ShellWord(ThisProgram().command) << " reproduce " << ShellQuote(d.Name()) << kernel << " " << r.reproduce << "\n";
  if (!r.saved_to.empty() || o.save_dir.empty() || r.store_entry.empty()) return;
  out << "    as a store entry:\n" << Indent(r.store_entry, "      ");
}

/// The progress bar (on a terminal): cleared before each result line.
class ProgressBar : public RunListener {
 public:
  explicit ProgressBar(Progress& progress) : progress_(progress) {}
  void Started(size_t index, const PropertyDef& def) override { progress_.Start(index, def.Name()); }
  void Finished(const PropertyOutcome&) override { progress_.Clear(); }

 private:
  Progress& progress_;
};

/// The report's entries, in run order, each at its position in the whole
/// selection (by which `attnprop merge` orders shards).
class ReportBuilder : public RunListener {
 public:
  ReportBuilder(report::Report& report, const std::vector<size_t>& positions) : rep(report), positions_(positions) {}
  void Finished(const PropertyOutcome& o) override {
    report::Entry e;
    e.index = positions_[o.index];
    e.result = o.result;
    e.expect = o.def->row ? o.def->row->expect : Expectation::kHolds;
    e.undecided_allowed = (o.def->row && o.def->row->undecided_allowed) || AllowUndecided();
    e.judgement = o.judgement;
    e.file = report::RelativeSource(o.def->file);
    e.statistics = o.def->statistics;
    unexpected += !e.as_expected();
    skipped += e.judgement.skipped();
    rep.entries.push_back(std::move(e));
  }
  report::Report& rep;
  size_t unexpected = 0, skipped = 0;

 private:
  const std::vector<size_t>& positions_;
};

/// One line per property (-q: none), the details of a result that is not a
/// plain pass (of an unexpected one even with -q), each metric with -v.
class ConsoleLines : public RunListener {
 public:
  ConsoleLines(std::ostream& info, const Selection& s, bool check_kernel, const std::vector<PropertyDef>& defs)
      : info_(info), s_(s), check_kernel_(check_kernel), defs_(defs) {}
  void Finished(const PropertyOutcome& o) override {
    const size_t i = o.index;
    const PropertyDef& d = *o.def;
    const PropertyResult& r = o.result;
    const Judgement& j = o.judgement;
    double worst = 0;
    for (const auto& m : r.metrics) worst = std::max(worst, m.max_ratio);
    // A property whose checks have no magnitude (ExpectThat) has no ratio.
    std::ostringstream worst_text;
    if (r.metrics.empty()) worst_text << "-";
    else worst_text << std::setprecision(3) << worst;
    info_ << "[" << i + 1 << "/" << defs_.size() << "] " << std::left << std::setw(60) << d.Name() << " "
          << std::setw(8) << VerdictName(r.verdict)
          << (std::string(VerdictName(r.verdict)).size() >= 8 ? " " : "")  // "undecided" is 9 letters
          << (j.skipped() ? Paint("skipped", "33") + "    " : j.as_expected() ? Paint("ok", "32") + "         "
                                                                : Paint("UNEXPECTED", "31") + " ")
          << std::right
          << std::setw(5) << r.cases << " cases " << std::setw(4) << r.discarded << " discarded " << std::setw(2)
          << r.replayed.size() << " stored  worst err/bound " << worst_text.str() << "  " << std::fixed
          << std::setprecision(2) << r.seconds << " s" << std::defaultfloat << std::setprecision(6) << "\n";
    // A claim that holds with its bound far from reached says so: a loose
    // bound, or a generator and search that never went where it is tight.
    if (r.verdict == Verdict::kHolds)
      for (const auto& m : r.metrics)
        if (m.tolerance.kind == MetricKind::kClaim && std::string(report::Tightness(m)) == "far")
          info_ << "    far: best lhs/rhs " << std::setprecision(3) << report::BestRatio(m) << std::setprecision(6)
                << " for " << m.tolerance.metric << " (the bound is loose, or no case went where it is tight)\n";
    if (j.skipped() && i + 1 < defs_.size() && defs_[i + 1].skip_reason == d.skip_reason) {
      // One reason line per run of skipped properties.
    } else if (j.skipped()) {
      info_ << "    " << j.why << "\n";
    } else if (!check_kernel_ && (!j.as_expected() || r.verdict != Verdict::kHolds)) {
      // Details of an unexpected result are printed even with -q.
      PrintDetails(!j.as_expected() ? std::cout : info_, d, r, j, s_, *o.options, nullptr);
    }
    if (r.undecided > 0 || r.search_undecided > 0)
      info_ << "    undecided by interval arithmetic (neither certified nor dismissed): " << r.undecided
            << (r.undecided == 1 ? " case" : " cases") << ", " << r.search_undecided << " search candidates"
            << (s_.out.empty() ? std::string("; the first:\n      ") + r.undecided_example
                               : "; " + s_.out + "/report.md lists the first")
            << "\n";
    if (s_.verbosity > 0)
      for (const auto& m : r.metrics)
        info_ << "    " << m.tolerance.metric << ": " << m.count << " checks, max err/bound " << m.max_ratio
              << (m.certified > 0 ? ", decided by intervals in " + std::to_string(m.certified) : std::string()) << "\n";
  }
  void Ended(size_t ran) override {
    if (ran < defs_.size())
      std::cout << "--fail-fast: stopped after the first unexpected result (" << ran << " of " << defs_.size()
                << " properties run)\n";
  }

 private:
  std::ostream& info_;
  const Selection& s_;
  bool check_kernel_;
  const std::vector<PropertyDef>& defs_;
};

/// check-kernel: when some property failed, the diagnosis (properties/abi/
/// diagnosis.h; into the report files too), then each failure once, most
/// specific first, a counterexample shared by a group shown at its first
/// member. -q: only the first failure, and the others named.
class KernelDiagnosis : public RunListener {
 public:
  KernelDiagnosis(const PropertyRun& run, ReportBuilder& builder, const Selection& s)
      : run_(run), builder_(builder), s_(s) {}
  void Ended(size_t) override {
    report::Report& rep = builder_.rep;
    if (builder_.unexpected == 0) return;
    rep.diagnosis = DiagnoseReport(rep);
    const report::Diagnosis& diag = rep.diagnosis;
    const bool quiet = s_.verbosity < 0;
    std::vector<size_t> order;  // entry indices (the run's order), most specific first
    for (const auto& f : diag.ranked)
      order.push_back(static_cast<size_t>(report::DiagnosedEntry(rep, f) - rep.entries.data()));
    std::cout << (quiet ? "" : "\n") << "diagnosis: " << diag.bug_class << " (" << order.size()
              << " failing properties in " << diag.groups
              << " group(s) of one shrunk counterexample each; most specific first"
              << (quiet ? ")\n" : ", each below)\n");
    std::map<size_t, size_t> first_of_group;  // group -> the rank that showed its counterexample
    for (size_t k = 0; k < order.size() && !(quiet && k > 0); ++k) {
      const size_t i = order[k];
      FailureRank rank{k, order.size(), diag.ranked[k].group, std::nullopt, quiet};
      if (auto [at, fresh] = first_of_group.emplace(rank.group, k); !fresh) rank.case_shown_at = at->second;
      PrintDetails(std::cout, run_.defs()[i], rep.entries[i].result, rep.entries[i].judgement, s_, run_.options(i),
                   &rank);
    }
    if (quiet && order.size() > 1)
      std::cout << order.size() - 1 << " more failing (without -q each is shown with its counterexample): "
                << report::UnexpectedNames(report::Summarize(rep), 1, 6) << "\n";
  }

 private:
  const PropertyRun& run_;
  ReportBuilder& builder_;
  const Selection& s_;
};

/// One line when the run saved counterexamples: how many, and where.
void PrintSaved(const report::Report& rep) {
  size_t saved = 0;
  std::set<std::string> dirs;
  for (const auto& e : rep.entries)
    if (!e.result.saved_to.empty()) ++saved, dirs.insert(std::filesystem::path(e.result.saved_to).parent_path().string());
  if (saved == 0) return;
  std::cout << "saved " << saved << (saved == 1 ? " new counterexample to " : " new counterexamples to ");
  for (auto it = dirs.begin(); it != dirs.end(); ++it) std::cout << (it != dirs.begin() ? ", " : "") << *it;
  std::cout << " (replayed first by the next run)\n";
}

int Execute(const std::string& cmd, const std::vector<std::string>& args, Mode mode) {
  const bool check_kernel = mode == Mode::kCheckKernel;
  const std::string usage_text =
      InThisProgramsWords(mode == Mode::kAudit ? kAuditUsage : check_kernel ? kCheckUsage : kRunUsage);
  const char* usage = usage_text.c_str();
  Selection s;
  s.options = OptionsFromEnvironment();
  bool help = false;
  std::string error;
  if (!ParseSelection(args, mode, &s, &help, &error)) return UsageError(cmd, error, usage);
  if (help) {
    std::cout << usage;
    return kOk;
  }
  // Outputs are checked before any work: an unwritable place is bad input.
  try {
    if (!s.out.empty()) report::EnsureWritableDir(s.out);
    for (const std::string* file : {&s.json, &s.junit}) {
      if (file->empty()) continue;
      const auto parent = std::filesystem::path(*file).parent_path();
      report::EnsureWritableDir(parent.empty() ? "." : parent.string());
    }
  } catch (const std::exception& e) {
    std::cerr << "attnprop " << cmd << ": " << e.what() << "\n";
    return kBadInput;
  }
  std::vector<ksuite::KernelInstance> kernels;
  try {
    kernels = KernelsFor(s);
  } catch (const std::exception& e) {
    std::cerr << "attnprop " << cmd << ": " << e.what() << "\n";
    return kBadInput;
  }
  if (s.rerun_failed) {
    const std::string last = (std::filesystem::path(s.out.empty() ? "attnprop-report" : s.out) / "report.json").string();
    try {
      s.rerun = report::UnexpectedInReport(last);
    } catch (const std::exception& e) {
      std::cerr << "attnprop " << cmd << ": " << e.what() << "\n";
      return kBadInput;
    }
    if (s.rerun.empty()) {
      std::cout << "--rerun-failed: no unexpected result in " << last << ", nothing to rerun\n";
      return kOk;
    }
    std::cout << "--rerun-failed: " << s.rerun.size() << " unexpected in " << last << "\n";
  }
  std::vector<PropertyDef> defs = Select(s, kernels, /*model=*/!check_kernel);
  if (const std::string e = UnmatchedPattern(s, kernels, !check_kernel); !e.empty()) return UsageError(cmd, e, usage);
  if (defs.empty())
    return UsageError(cmd, "no property matches " + SelectionText(s) +
                               (s.filters.size() == 1 ? NearestProperty(s.filters[0], kernels, !check_kernel)
                                                      : " (attnprop list shows them)"),
                      usage);
  // This shard's part of the selection (all of it unsharded); each keeps its
  // position in the whole selection, by which `attnprop merge` orders.
  const size_t selected = defs.size();
  const std::vector<size_t> positions = KeepShard(s.shard, &defs);
  if (s.shard.sharded()) {
    if (const std::string e = TouchShardStatusFile(); !e.empty()) {
      std::cerr << "attnprop " << cmd << ": " << e << "\n";
      return kBadInput;
    }
  }
  if (s.list_only) {
    for (const auto& d : defs) std::cout << d.Name() << "\n";
    // Every one skipped here (a dispatch target this CPU lacks): said, and
    // the exit status says it too (attnprop_add_kernel_tests then adds one
    // test that reports the skip, not one per property).
    const bool all_skipped = std::all_of(defs.begin(), defs.end(), [](const PropertyDef& d) { return !d.skip_reason.empty(); });
    if (check_kernel && all_skipped) {
      std::cerr << "SKIPPED: " << defs[0].skip_reason << "\n";
      return kSkipped;
    }
    return kOk;
  }
  // Tiers: the search's candidates per property are the unit (the same
  // seed, the same cases); the budget caps each property's share of wall
  // time, and a property whose search the cap stopped says so.
  RunOptions base = s.options;
  if (s.deep) {
    base.max_success *= 10;
    base.search_steps = std::max(base.search_steps, kAuditSearchSteps) * 10;
    if (s.budget_s == 0) s.budget_s = 10 * kAuditBudgetSeconds;
  } else if (mode == Mode::kAudit) {
    if (!s.search_given) base.search_steps = kAuditSearchSteps;
    if (s.budget_s == 0) s.budget_s = kAuditBudgetSeconds;
  } else if (mode == Mode::kCheckKernel) {
    if (!s.search_given) base.search_steps = kCheckKernelSearchSteps;
    if (s.budget_s == 0 && base.search_steps > 0) s.budget_s = kCheckKernelBudgetSeconds;
    base.search_by_closeness = true;
  }
  // Per property: the store it replays and saves to. A kernel under test
  // has its own directory; attnprop's own kernel shares the claims' store.
  std::vector<RunOptions> options(defs.size(), base);
  if (!check_kernel && !s.kernel_path.empty())
    for (size_t i = 0; i < defs.size(); ++i) {
      const BackendInfo* b = FindBackend(defs[i].backend);
      if (!(b && b->kernel && BaseBackend(defs[i].backend) == defs[i].backend)) continue;
      for (std::string* dir : {&options[i].store_dir, &options[i].save_dir})
        if (!dir->empty()) *dir = KernelStoreDir(*dir, s.kernel_path);
    }
  try {
    CheckStores(defs, options);
  } catch (const std::exception& e) {
    std::cerr << "attnprop " << cmd << ": " << e.what() << "\n";
    return kBadInput;
  }

  const SearchBudget budget = s.budget_s > 0 ? SearchBudget(s.budget_s, selected, defs.size()) : SearchBudget();

  // -q: the summary only; the banner and the per-property lines go nowhere.
  std::ostream quiet(nullptr);
  std::ostream& info = s.verbosity < 0 ? quiet : std::cout;
  // Kernels named only where a kernel property runs.
  const bool kernel_runs = std::any_of(defs.begin(), defs.end(), [](const PropertyDef& d) {
    const BackendInfo* b = FindBackend(d.backend);
    return b && b->kernel;
  });
  const std::string kernel_summary = kernel_runs ? ksuite::KernelSummary(kernels) : "none";
  PrintBanner(info, base, kernel_summary);
  info << "search " << base.search_steps << " candidates per property";
  if (base.search_by_closeness && base.search_steps > 0)
    info << " (twice that where the random cases came within 1/2 of a bound, half where under 1/100)";
  if (s.budget_s > 0)
    info << " | budget " << s.budget_s << " s: " << budget.share() << " s per property (" << s.budget_s << " s over "
         << selected << " properties, at least " << SearchBudget::kMinSearchShareSeconds << " s), " << budget.guard()
         << " s for this run";
  info << "\n";
  if (s.shard.sharded())
    info << "shard " << s.shard.index << "/" << s.shard.total << ": " << defs.size() << " of " << selected
         << " properties (FNV-1a-64 of id/backend mod " << s.shard.total << ")\n";
  std::string saving = s.options.save_dir.empty() ? " (read only)" : "";
  if (!s.options.save_dir.empty() && s.options.save_dir != s.options.store_dir)
    saving = " (new counterexamples saved to " + s.options.save_dir + ")";  // an installed attnprop's default
  info << "store " << (s.options.store_dir.empty() ? "none" : s.options.store_dir) << saving << " | " << defs.size()
       << " properties\n";

  report::Report rep;
  rep.run.version = ATTNPROP_VERSION;
  rep.run.command = cmd;
  rep.run.seed = s.options.seed;
  rep.run.cases = base.max_success;
  rep.run.search_steps = base.search_steps;
  rep.run.budget_s = s.budget_s;
  rep.run.max_size = s.options.max_size;
  rep.run.shrink = s.options.shrink;
  rep.run.mpfr_bits = MpfrPrecisionBits();
  rep.run.kernel = kernel_summary;
  rep.run.kernel_path = s.kernel_path;
  rep.run.store = s.options.store_dir;
  rep.run.generated = report::UtcNow();
  rep.run.selection = SelectionText(s);
  rep.run.selected = selected;
  rep.run.registry = report::RegistryHash();
  rep.run.shard_index = s.shard.index;
  rep.run.shard_total = s.shard.total;

  PropertyRun run(std::move(defs), std::move(options), budget);
  Progress progress(run.size());
  ProgressBar bar(progress);
  ReportBuilder builder(rep, positions);
  ConsoleLines lines(info, s, check_kernel, run.defs());
  KernelDiagnosis diagnosis(run, builder, s);
  run.Listen(bar);
  run.Listen(builder);
  run.Listen(lines);
  if (check_kernel) run.Listen(diagnosis);
  try {
    run.RunAll(s.fail_fast);
  } catch (const std::exception& ex) {
    progress.Clear();
    std::cerr << "attnprop " << cmd << ": " << ex.what() << "\n";
    return kBadInput;
  }
  progress.Clear();
  const double seconds = run.seconds();
  if (mode == Mode::kAudit) {
    // The audit's rows whose flags mean a problem (the full table is in the
    // report; a refuted claim's FAIL is its refutation, not a problem).
    for (const auto& e : rep.entries)
      for (const auto& m : e.result.metrics)
        if (const unsigned flags = report::ProblemFlags(e, m))
          info << "  " << std::left << std::setw(24) << report::FlagText(flags) << std::right << " "
                    << e.result.id << "/" << e.result.backend << "  " << m.tolerance.metric << "  max err/bound "
                    << m.max_ratio << "\n";
  }
  try {
    if (!s.out.empty()) {
      report::WriteReports(rep, s.out);
      info << "report written to " << s.out << "/{";
      const auto names = report::ReportFileNames();
      for (size_t k = 0; k < names.size(); ++k) info << (k ? "," : "") << names[k];
      info << "}\n";
    }
    if (!s.json.empty()) report::WriteJsonReport(rep, s.json);
    if (!s.junit.empty()) report::WriteJUnitReport(rep, s.junit);
  } catch (const std::exception& ex) {
    std::cerr << "attnprop " << cmd << ": " << ex.what() << "\n";
    return kBadInput;
  }
  const size_t checked = rep.entries.size() - builder.skipped;
  // check-kernel: each failure is above with its command, and its verdict lines close.
  if (!(check_kernel && s.verbosity < 0)) std::cout << report::ConsoleSummary(rep, {!check_kernel, !check_kernel});
  PrintSaved(rep);
  if (check_kernel) {
    std::cout << (s.verbosity < 0 ? "" : "\n") << checked - builder.unexpected << " of " << checked
              << " properties hold on " << s.kernel_path;
    if (builder.skipped) std::cout << " (" << builder.skipped << " skipped)";
    std::cout << " (" << std::fixed << std::setprecision(1) << seconds << " s)";
    // The last line, for a log's tail: the verdict, the most specific failure first.
    if (builder.unexpected > 0)
      std::cout << "; " << Paint("FAIL", "31") << ": " << builder.unexpected << " fail, most specific first: "
                << report::UnexpectedNames(report::Summarize(rep), 0, 6);
    std::cout << "\n";
    if (checked == 0 && run.size() > 0) {
      std::cout << "SKIPPED: " << run.defs()[0].skip_reason << "\n";
      return kSkipped;
    }
  }
  return builder.unexpected == 0 ? kOk : kUnexpected;
}

}  // namespace

int Run(const std::vector<std::string>& args) { return Execute("run", args, Mode::kRun); }
int Audit(const std::vector<std::string>& args) { return Execute("audit", args, Mode::kAudit); }
int CheckKernel(const std::vector<std::string>& args) { return Execute("check-kernel", args, Mode::kCheckKernel); }

}  // namespace attnprop::cli
