// A run's report: what `attnprop audit` (and `run --out`) writes, in four
// formats: report.json (schema in README.md), report.md, report.html
// (self-contained: inline CSS and SVG, no network) and junit.xml.
//
// Every writer is a pure function of the Report: the same seed gives the same
// bytes, except the timestamp and the timings (RunInfo::generated,
// PropertyResult::seconds), which approval tests set to fixed values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "properties/framework/judge.h"
#include "properties/framework/registry.h"
#include "properties/framework/runner.h"

namespace attnprop::report {

/// How the run was made (the banner's facts).
struct RunInfo {
  std::string version;     // attnprop's version
  std::string command;     // "audit", "run"
  uint64_t seed = 0;
  int cases = 0;           // random cases per property
  int search_steps = 0;    // targeted-search candidates per property (0 = no search)
  double budget_s = 0;     // the run's search budget, seconds (0 = none)
  int max_size = 0;
  bool shrink = true;
  int mpfr_bits = 0;
  std::string kernel;      // the kernels the kernel backends ran against (KernelSummary), or "none"
  std::string kernel_path; // the --kernel / check-kernel library ("" = none): reproduce commands name it
  std::string store;       // the counterexample store replayed ("" = none)
  std::string generated;   // UTC, ISO 8601 ("2026-11-29T14:00:00Z")
  // What `attnprop merge` compares and joins (docs/sharding.md):
  std::string selection;   // the selection as given (--filter/--exclude/--backend text)
  size_t selected = 0;     // properties that selection names, before sharding
  std::string registry;    // registry.tsv compiled in: "fnv1a64:<16 hex digits>"
  uint64_t shard_index = 0;
  uint64_t shard_total = 0;  // 0: the whole selection (a plain run, or a merge of every shard)
};

/// One property x backend.
struct Entry {
  PropertyResult result;
  std::string file;        // source file, relative to the repository
  Expectation expect = Expectation::kHolds;
  /// Undecided cases allowed (the registry label `undecided`, or the run's
  /// --allow-undecided): part of what Judge reads.
  bool undecided_allowed = false;
  Judgement judgement;     // Judge(result, expect, undecided_allowed): the one verdict policy
  std::optional<Statistics> statistics;  // a statistical claim's alpha and power (PropertyDef::statistics)
  size_t index = 0;        // position in the whole selection (a shard's entries keep theirs)
  bool as_expected() const { return judgement.as_expected(); }
};

/// check-kernel's diagnosis (properties/abi/diagnosis.h), as the
/// reports carry it: the bug class line, the failing properties ranked with
/// the one that points at the bug first, and the groups of failures that
/// share their shrunk counterexample. Empty (no bug class) when no kernel
/// property failed, or the run was not check-kernel.
struct DiagnosedFailure {
  std::string id;       // claim id
  std::string backend;  // as in the entry ("kernel-f32")
  size_t group = 0;     // 0-based group; failures in one group share their shrunk counterexample
};
struct Diagnosis {
  std::string bug_class;                 // one line; "" = no diagnosis
  std::vector<DiagnosedFailure> ranked;  // most specific first
  size_t groups = 0;
  bool empty() const { return bug_class.empty(); }
};

struct Report {
  RunInfo run;
  std::vector<Entry> entries;
  Diagnosis diagnosis;
};

/// The rank (0 = first) of the entry's property in the diagnosis, or -1.
int DiagnosisRank(const Report& r, const Entry& e);

/// Verdict counts over a report's entries (every writer's summary).
struct Counts {
  int holds = 0, refuted = 0, errors = 0, skipped = 0, undecided = 0, unexpected = 0;
};
Counts CountVerdicts(const Report& r);

const char* ExpectationName(Expectation e);

/// A source path relative to the repository ("properties/...") from a
/// __FILE__ path: absolute (under the source tree), or relative to the build
/// directory as ccache's base_dir makes it ("../../properties/..."); an
/// absolute path outside the tree is unchanged.
std::string RelativeSource(const std::string& file);
/// The current UTC time, ISO 8601.
std::string UtcNow();

// ---- The tolerance audit (Boost.Math's accuracy tables, per metric) ----

/// Flags, as bits.
enum AuditFlag : unsigned {
  kFail = 1,         // observed above the bound on some case
  kLoose = 2,        // the bound more than kLooseFactor x the worst observed error
  kUnjustified = 4,  // no stated reason (or no bound formula)
  kNonfinite = 8,    // a NaN or infinite error or bound (always fails)
};
inline constexpr double kLooseFactor = 1000;

/// The flags of one metric's statistics. LOOSE needs a positive bound: a
/// zero bound is an exact check, never loose.
unsigned AuditFlags(const MetricStats& m);
/// How a refutation was found, for the verdict tables: "pin only" (the
/// store's case; the search did not re-find it), "random", "search (N
/// candidates)"; "" when the property was not refuted.
std::string FoundByText(const PropertyResult& r);

/// A claim metric's best ratio found (random cases and targeted search) and
/// its class: "exceeded" (> 1: the inequality failed, a refutation's
/// ratio), "attained" (>= 0.999), "close" (>= 0.5) or "far".
double BestRatio(const MetricStats& m);
const char* Tightness(const MetricStats& m);
/// "FAIL LOOSE ..." in a fixed order; "" when none.
std::string FlagText(unsigned flags);
/// Flag names in the fixed order, for counting.
std::vector<std::pair<AuditFlag, const char*>> AllFlags();

// ---- Histograms of err/bound (one per property x backend x metric) ----

/// Bins: "0" (exactly zero), "<1e-16", one per decade 1e-16..1, ">1" (above
/// the bound: FAIL) and "non-finite".
struct Histogram {
  std::vector<std::string> labels;
  std::vector<int64_t> counts;
};
Histogram RatioHistogram(const std::vector<double>& ratios);

// ---- Writers ----

std::string ToJson(const Report& r);
std::string ToMarkdown(const Report& r);
std::string ToHtml(const Report& r);
std::string ToJUnit(const Report& r);

/// The file names written into the output directory, in order.
std::vector<std::string> ReportFileNames();

/// Creates `dir` if needed and checks a file can be written there (before a
/// long run). Throws std::runtime_error naming the directory if not.
void EnsureWritableDir(const std::string& dir);

/// Writes the four files into `dir`, each through a temporary file and a
/// rename. Throws std::runtime_error on failure.
void WriteReports(const Report& r, const std::string& dir);

/// The "<id>/<backend>" names of the results that were not as expected in a
/// report.json (read.cc). Throws std::runtime_error when the file cannot be
/// read or is not an attnprop-report/1.
std::vector<std::string> UnexpectedInReport(const std::string& json_path);

/// A report.json read back into the Report it was written from
/// (read.cc): every writer gives the same bytes for both. Per-case ratios
/// are not in report.json; each metric gets one ratio per case inside its
/// histogram bin, which is all the writers read of them. Throws
/// std::runtime_error naming the file and the field when the file cannot be
/// read or is not an attnprop-report/1.
Report ReadReport(const std::string& json_path);
/// The same from report.json's text; `name` names it in errors.
Report ParseReport(const std::string& json_text, const std::string& name);

/// registry.tsv's text as compiled in, hashed: "fnv1a64:<16 hex digits>".
std::string RegistryHash();

/// Writes report.json's text to `path` (check-kernel --json). Throws
/// std::runtime_error on failure.
void WriteJsonReport(const Report& r, const std::string& path);
/// Writes junit.xml's text to `path` (--junit FILE).
void WriteJUnitReport(const Report& r, const std::string& path);

}  // namespace attnprop::report
