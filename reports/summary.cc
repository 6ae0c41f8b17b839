// The summary shared by the console, report.md and report.html.
#include "reports/summary.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "properties/framework/backend.h"
#include "properties/framework/catalog.h"
#include "properties/framework/program.h"
#include "properties/framework/registry.h"
#include "reports/format.h"

namespace attnprop::report {

bool IsRefutationFlag(const Entry& e, const MetricStats& m) {
  return e.expect == Expectation::kRefuted && e.as_expected() && e.result.verdict == Verdict::kRefuted &&
         (AuditFlags(m) & (kFail | kNonfinite)) != 0;
}

bool IsExactEverywhere(const MetricStats& m) {
  return (AuditFlags(m) & kLoose) && !m.nonfinite && m.max_observed == 0;
}

unsigned ProblemFlags(const Entry& e, const MetricStats& m) {
  if (e.judgement.skipped()) return 0;
  unsigned f = AuditFlags(m);
  if (IsRefutationFlag(e, m)) f &= ~unsigned{kFail | kNonfinite};
  if (IsExactEverywhere(m)) f &= ~unsigned{kLoose};
  return f;
}

std::string BackendsAndProvenance(const RefutedClaim& c) {
  const bool same = std::all_of(c.found_by.begin(), c.found_by.end(),
                                [&](const std::string& f) { return f == c.found_by.front(); });
  std::string out;
  for (size_t i = 0; i < c.backends.size(); ++i) {
    out += (i ? same ? ", " : "; " : "") + c.backends[i];
    if (!same && !c.found_by[i].empty()) out += ": " + c.found_by[i];
  }
  if (same && !c.found_by.empty() && !c.found_by.front().empty()) out += "; found by " + c.found_by.front();
  return out;
}

Summary Summarize(const Report& r) {
  Summary s;
  s.properties = r.entries.size();
  s.counts = CountVerdicts(r);
  const auto flags = AllFlags();
  s.problems.assign(flags.size(), 0);
  std::map<std::string, size_t> refuted_at;
  for (const auto& e : r.entries) {
    if (!e.as_expected()) s.unexpected.push_back(&e);
    if (e.as_expected() && e.expect == Expectation::kRefuted && e.result.verdict == Verdict::kRefuted) {
      auto [it, fresh] = refuted_at.emplace(e.result.id, s.refuted.size());
      if (fresh) s.refuted.push_back({e.result.id, StatementOf(e.result.id), {}, {}});
      s.refuted[it->second].backends.push_back(e.result.backend);
      s.refuted[it->second].found_by.push_back(FoundByText(e.result));
    }
    for (const auto& m : e.result.metrics) {
      ++s.metrics;
      const unsigned p = ProblemFlags(e, m);
      for (size_t i = 0; i < flags.size(); ++i) s.problems[i] += (p & flags[i].first) != 0;
      s.problem_metrics += p != 0;
      s.refutation_flags += IsRefutationFlag(e, m);
      s.exact_metrics += IsExactEverywhere(m);
    }
  }
  // With a diagnosis, the most specific failure first (the headline and a
  // log's last line name rank 1 first); the undiagnosed after, in report order.
  if (!r.diagnosis.ranked.empty()) {
    auto rank = [&](const Entry* e) {
      const int k = DiagnosisRank(r, *e);
      return k < 0 ? r.diagnosis.ranked.size() : static_cast<size_t>(k);
    };
    std::stable_sort(s.unexpected.begin(), s.unexpected.end(),
                     [&](const Entry* a, const Entry* b) { return rank(a) < rank(b); });
  }
  return s;
}

std::string Headline(const Summary& s) {
  const size_t expected = s.properties - s.unexpected.size();
  std::ostringstream o;
  if (s.unexpected.empty()) {
    o << s.properties << (s.properties == 1 ? " property" : " properties") << ", all " << expected
      << " as expected, 0 unexpected";
    return o.str();
  }
  o << s.properties << (s.properties == 1 ? " property" : " properties") << ": " << expected << " as expected, "
    << s.unexpected.size() << " UNEXPECTED: ";
  o << UnexpectedNames(s, 0, 8);
  return o.str();
}

std::string UnexpectedNames(const Summary& s, size_t first, size_t limit) {
  std::string o;
  for (size_t i = first; i < s.unexpected.size() && i < first + limit; ++i)
    o += (i > first ? ", " : "") + s.unexpected[i]->result.id + "/" + s.unexpected[i]->result.backend;
  if (s.unexpected.size() > first + limit) o += " and " + std::to_string(s.unexpected.size() - first - limit) + " more";
  return o;
}

std::string StatementOf(const std::string& id) {
  if (const CatalogClaim* c = FindClaim(id)) {
    std::string st = c->statement;
    if (st.rfind("[R]", 0) == 0) st += " (formula reconstructed: claims/CATALOG.md)";
    return st;
  }
  if (const CatalogClaim* c = FindOurClaim(id)) return "(ours) " + c->statement;
  if (const CatalogClaim* c = FindDeclaredClaim(id)) return c->statement;
  return "";
}

const Entry* DiagnosedEntry(const Report& r, const DiagnosedFailure& f) {
  for (const auto& e : r.entries)
    if (e.result.id == f.id && e.result.backend == f.backend) return &e;
  return nullptr;
}

std::string FirstLine(const std::string& text, size_t limit) {
  std::string line = text.substr(0, text.find('\n'));
  if (line.size() > limit) line = line.substr(0, limit) + " ...";
  return line;
}

std::string ReproduceCommand(const Report& r, const Entry& e) {
  const PropertyResult& p = e.result;
  std::string cmd = ShellWord(ThisProgram().command) + " reproduce " + ShellWord(p.id + "/" + p.backend);
  // A plain kernel backend (no @target) is the --kernel library of the run.
  if (!r.run.kernel_path.empty() && BaseBackend(p.backend) == p.backend && FindBackend(p.backend) &&
      FindBackend(p.backend)->kernel)
    cmd += " --kernel " + ShellWord(r.run.kernel_path);
  if (!p.saved_to.empty()) return cmd + " " + ShellWord(p.saved_to);
  if (!p.replay_file.empty()) return cmd + " " + ShellWord(p.replay_file);
  if (!p.reproduce.empty()) return cmd + " " + p.reproduce;
  if (!r.run.store.empty() && !p.replayed.empty()) return cmd + " --store " + ShellWord(r.run.store);
  return cmd;
}

std::string ConsoleSummary(const Report& r, ConsoleSummaryParts parts) {
  const Summary s = Summarize(r);
  const auto flags = AllFlags();
  std::ostringstream o;
  o << "\nSummary: " << Headline(s) << "\n";
  o << "  " << s.counts.holds << " hold, " << s.counts.refuted << " refuted, " << s.counts.errors << " errors";
  if (s.counts.undecided)
    o << ", " << s.counts.undecided
      << " undecided (no refutation; some case neither certified nor dismissed by interval arithmetic)";
  if (s.counts.skipped) o << ", " << s.counts.skipped << " skipped (each with its reason: a dispatch target this CPU lacks, an optional entry point the kernel lacks, or a format it does not implement here)";
  o << "\n  audit: " << s.metrics << " metrics, " << s.problem_metrics << " with a problem flag (";
  for (size_t i = 0; i < flags.size(); ++i) o << (i ? ", " : "") << flags[i].second << " " << s.problems[i];
  o << ")\n";
  {
    // The targeted search's share of the run (check-kernel spends more where
    // the random cases came closest to a bound).
    long tried = 0, searched = 0, found = 0;
    for (const auto& e : r.entries) {
      tried += e.result.search_tried;
      searched += e.result.search_tried > 0 ? 1 : 0;
      found += e.result.found_by == FoundBy::kSearch ? 1 : 0;
    }
    if (tried > 0)
      o << "  search: " << tried << " candidates over " << searched << (searched == 1 ? " property" : " properties")
        << ", " << found << " found a failure the random cases missed\n";
  }
  if (s.refutation_flags || s.exact_metrics)
    o << "  not counted: " << s.refutation_flags << " FAIL/NONFINITE on claims false as stated (their refutations), "
      << s.exact_metrics << (s.exact_metrics == 1 ? " LOOSE metric whose error was" : " LOOSE metrics whose error was")
      << " exactly 0 on every case\n";
  if (!s.refuted.empty()) {
    o << "\n" << s.refuted.size() << (s.refuted.size() == 1 ? " claim is" : " claims are")
      << InThisProgramsWords(" false as stated (registry.tsv expects it; each refutation confirmed):\n");
    for (const auto& c : s.refuted) {
      o << "  " << c.id << " (" << BackendsAndProvenance(c) << ")\n";
      if (!c.statement.empty()) o << "      " << c.statement << "\n";
    }
  }
  if (!s.unexpected.empty() && parts.unexpected_list) {
    o << "\nUnexpected results (" << s.unexpected.size() << "), each with the command that replays it:\n";
    for (const Entry* e : s.unexpected) {
      o << "  " << e->result.id << "/" << e->result.backend << ": " << e->judgement.why << "\n";
      o << "      " << ReproduceCommand(r, *e) << "\n";
    }
  }
  // The last line again, for whoever reads only the end of a log.
  if (parts.closing_headline) o << "\nattnprop " << r.run.command << ": " << Headline(s) << "\n";
  return o.str();
}

}  // namespace attnprop::report
