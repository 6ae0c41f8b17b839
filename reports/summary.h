// The summary every output starts with (console, report.md, report.html):
// one headline a newcomer reads in ten seconds ("N properties, all as
// expected" or the unexpected ones), the claims that are false as stated in
// a section of their own (with each claim's statement), and the audit flags
// counted only where they mean a problem:
//  - FAIL and NONFINITE on a claim registered refuted, whose refutation is
//    as expected, are that refutation, not a problem;
//  - LOOSE on a metric whose observed error is exactly 0 on every case says
//    the computation was exact on the cases drawn, not that the bound is
//    weak: counted apart as "exact on every case".
#pragma once

#include <string>
#include <vector>

#include "reports/report.h"

namespace attnprop::report {

/// A claim registered refuted whose refutation is confirmed (one row per
/// claim, over its backends).
struct RefutedClaim {
  std::string id;
  std::string statement;              // StatementOf(id)
  std::vector<std::string> backends;  // in report order
  std::vector<std::string> found_by;  // FoundByText of each backend, in the same order
};

/// "double, mpfr; found by random" when every backend found it the same
/// way, else "double: search (12 candidates); mpfr: pin only": each
/// backend's own provenance, never the first one's for all.
std::string BackendsAndProvenance(const RefutedClaim& c);

struct Summary {
  size_t properties = 0;
  Counts counts;
  std::vector<const Entry*> unexpected;  // the diagnosis's rank order, else report order
  std::vector<RefutedClaim> refuted;     // false as stated, as registry.tsv expects
  size_t metrics = 0;
  std::vector<int> problems;  // per AllFlags(): metrics with that flag as a problem
  int refutation_flags = 0;   // metrics whose FAIL/NONFINITE is an expected refutation
  int exact_metrics = 0;      // LOOSE metrics whose error was exactly 0 on every case
  int problem_metrics = 0;    // metrics with at least one problem flag
};

Summary Summarize(const Report& r);

/// The flags of metric `m` of entry `e` that mean a problem (see above).
unsigned ProblemFlags(const Entry& e, const MetricStats& m);
/// Whether a metric's FAIL/NONFINITE is its claim's expected refutation.
bool IsRefutationFlag(const Entry& e, const MetricStats& m);
/// Whether a metric is LOOSE only because its error was exactly 0 throughout.
bool IsExactEverywhere(const MetricStats& m);

/// The first line: "N properties, all N as expected, 0 unexpected" or
/// "N properties: K as expected, M UNEXPECTED: a/b, c/d, ...".
std::string Headline(const Summary& s);

/// What a claim states: the catalogue's statement (claims/claims.tsv, with
/// a pointer to claims/CATALOG.md for a reconstructed formula), else the
/// registry note of a claim of ours; "" when neither.
std::string StatementOf(const std::string& id);

/// The command that replays an entry's failure without a new search: the
/// store file it was saved to, its reproduce token, or its stored cases.
std::string ReproduceCommand(const Report& r, const Entry& e);

/// The entry a diagnosed failure names (nullptr when the report has none).
const Entry* DiagnosedEntry(const Report& r, const DiagnosedFailure& f);
/// The first line of a message, at most `limit` characters (" ..." after).
std::string FirstLine(const std::string& text, size_t limit);

/// What the console's closing block leaves to its caller.
struct ConsoleSummaryParts {
  /// The unexpected results listed with their reproduce commands (check-kernel
  /// prints each failure above instead, in rank order, with its command).
  bool unexpected_list = true;
  /// The headline again as the last line (check-kernel closes with the kernel's
  /// own verdict lines instead).
  bool closing_headline = true;
};

/// The console's closing block (plain text): the headline, the counts and
/// the audit's problem counts, the claims false as stated, the unexpected
/// results with their reproduce commands, and the headline again as the
/// last line ("attnprop audit: ...", for a log's tail).
std::string ConsoleSummary(const Report& r, ConsoleSummaryParts parts = {});

/// The names of the first `limit` unexpected results (rank order), then
/// "and N more": "a/b, c/d and 3 more".
std::string UnexpectedNames(const Summary& s, size_t first, size_t limit);

}  // namespace attnprop::report
