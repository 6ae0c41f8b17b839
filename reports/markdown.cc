// report.md: the verdicts, the tolerance audit and the counterexamples.
#include <map>
#include <set>
#include <sstream>

#include "properties/framework/program.h"
#include "reports/format.h"
#include "reports/report.h"
#include "reports/summary.h"

namespace attnprop::report {
namespace {

/// A table cell: pipes escaped (GitHub tables split on them even in code).
std::string Cell(const std::string& s) {
  std::string out;
  for (char ch : s) {
    if (ch == '|') out += '\\';
    if (ch == '\n') {
      out += ' ';
      continue;
    }
    out += ch;
  }
  return out;
}

std::string Code(const std::string& s) {
  std::string out = "`";  // appended, not "`" + ...: g++ 12 warns falsely (-Wrestrict)
  out.append(Cell(s)).append("`");
  return out;
}

/// The cases where the backend's own comparison failed and interval
/// arithmetic decided that the claim holds (certify.h): their err is the
/// backend's error, their err/bound is counted as 1.
std::string CertifiedNote(const MetricStats& m) {
  // Two outcomes, never one count: a dismissed failure held, an undecided one did not decide.
  std::string s;
  if (m.certified > 0)
    s = "a backend failure dismissed by intervals (it holds) in " + std::to_string(m.certified) + " of " +
        std::to_string(m.count) + " checks";
  if (m.undecided > 0)
    s += (s.empty() ? "" : "; ") + std::string("undecided by intervals in ") + std::to_string(m.undecided) + " of " +
         std::to_string(m.count) + " checks";
  return s;
}

}  // namespace

std::string ToMarkdown(const Report& r) {
  std::ostringstream md;
  const RunInfo& run = r.run;
  md << "# attnprop report\n\n";
  // check-kernel's diagnosis first: which bug, and the property that points at it.
  if (!r.diagnosis.empty()) {
    const Diagnosis& d = r.diagnosis;
    md << "## Diagnosis\n\n**Bug class: " << Cell(d.bug_class) << "**\n\n" << d.ranked.size()
       << (d.ranked.size() == 1 ? " failing property in " : " failing properties in ") << d.groups << (d.groups == 1 ? " group" : " groups")
       << " of one shrunk counterexample each, most specific first (the first points at the bug):\n\n";
    for (size_t k = 0; k < d.ranked.size(); ++k) {
      const Entry* e = DiagnosedEntry(r, d.ranked[k]);
      md << k + 1 << ". " << Code(d.ranked[k].id + "/" + d.ranked[k].backend) << " (group " << d.ranked[k].group + 1
         << ")" << (e && !e->result.message.empty() ? ": " + Cell(FirstLine(e->result.message, 160)) : "") << "\n";
    }
    md << "\n";
  }
  // The summary first: a newcomer reads it in ten seconds.
  const Summary sum = Summarize(r);
  const Counts& n = sum.counts;
  md << "## Summary\n\n";
  md << "**" << Headline(sum) << "**";
  md << InThisProgramsWords(sum.unexpected.empty() ? " (every verdict is what `properties/registry.tsv` expects).\n\n"
                                                    : " (verdicts that differ from `properties/registry.tsv`).\n\n");
  md << "- " << n.holds << " hold, " << n.refuted << " refuted, " << n.errors << " errors"
     << (n.skipped ? ", " + std::to_string(n.skipped) + " skipped (each with its reason: a dispatch target this CPU lacks, an optional entry point the kernel lacks, or a format it does not implement here)" : "") << ".\n";
  md << "- " << sum.refuted.size() << (sum.refuted.size() == 1 ? " claim is" : " claims are")
     << " false as stated, as registered (next section): not a problem of the run.\n";
  md << "- Audit: " << sum.metrics << " metrics, " << sum.problem_metrics << " with a problem flag (";
  for (size_t i = 0; i < AllFlags().size(); ++i) md << (i ? ", " : "") << AllFlags()[i].second << " " << sum.problems[i];
  md << ").";
  if (sum.refutation_flags || sum.exact_metrics)
    md << " Not counted: " << sum.refutation_flags << " FAIL/NONFINITE on claims false as stated (their refutations), "
       << sum.exact_metrics << (sum.exact_metrics == 1 ? " LOOSE metric whose error was" : " LOOSE metrics whose error was")
       << " exactly 0 on every case (marked *exact*).";
  md << "\n";
  if (!sum.unexpected.empty()) {
    md << "\n### Unexpected results\n\n";
    for (const Entry* e : sum.unexpected)
      md << "- " << Code(e->result.id + "/" + e->result.backend) << ": " << Cell(e->judgement.why) << "  \n  replay: "
         << Code(ReproduceCommand(r, *e)) << "\n";
  }
  md << "\n## Claims false as stated\n\n";
  if (sum.refuted.empty()) md << "None in this run.\n";
  for (const auto& c : sum.refuted) {
    md << "- " << Code(c.id) << " (" << BackendsAndProvenance(c)
       << "): " << (c.statement.empty() ? "*(no statement)*" : Cell(c.statement))
       << "\n";
  }
  md << "\n";
  {
    // Certified claims (properties/framework/certify.h): cases neither
    // certified nor dismissed are listed, never folded into a verdict.
    std::ostringstream undecided;
    for (const auto& e : r.entries)
      if (e.result.undecided > 0)
        undecided << "- " << Code(e.result.id + "/" + e.result.backend) << ": " << e.result.undecided
                  << (e.result.undecided == 1 ? " case" : " cases") << "; the first:\n\n```text\n"
                  << e.result.undecided_example << "\n```\n";
    if (!undecided.str().empty())
      md << "## Undecided by interval arithmetic\n\nCases where this backend's check failed and interval arithmetic "
            "up to the cap (ATTNPROP_CERTIFY_BITS, default 1,024 bits) could neither certify the violation nor show the claim holds (typically a claim "
            "attained with equality): not refutations, not passes.\n\n"
         << undecided.str() << "\n";
  }

  md << "## Run\n\nattnprop " << run.version << " | seed " << run.seed << " | cases " << run.cases << " (max_size "
     << run.max_size << (run.shrink ? "" : ", noshrink") << ") | mpfr " << run.mpfr_bits << " bits | kernel "
     << run.kernel << " | search " << run.search_steps << " per property"
     << (run.budget_s > 0 ? ", budget " + Short(run.budget_s) + " s" : std::string()) << "\n\n";
  md << "Generated " << run.generated << " by `attnprop " << run.command << "`"
     << (run.store.empty() ? "" : "; counterexample store `" + run.store + "`") << ".\n\n";

  md << "## Verdicts\n\n";
  md << "| property | backend | expected | verdict | as expected | found by | cases | discarded | stored cases | time (s) |\n";
  md << "| --- | --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: |\n";
  for (const auto& e : r.entries) {
    const auto& p = e.result;
    md << "| " << Code(p.id) << " | " << p.backend << " | " << ExpectationName(e.expect) << " | "
       << VerdictName(p.verdict) << " | " << (e.judgement.skipped() ? "skipped" : e.as_expected() ? "ok" : "**UNEXPECTED**") << " | " << FoundByText(p) << " | " << p.cases << " | "
       << p.discarded << " | " << p.replayed.size() << " | " << Seconds(p.seconds) << " |\n";
  }

  md << "\n## Tolerance audit\n\n";
  md << "Observed error per metric over the random cases, as a fraction of the declared bound (err/bound) and in "
        "units of the backend's unit roundoff u (empty for exact backends and non-finite errors). Flags (problems only): FAIL observed above the bound; "
        "LOOSE bound more than "
     << static_cast<int>(kLooseFactor)
     << "x the worst observed error; UNJUSTIFIED no stated reason; NONFINITE a NaN or infinite error. \"refutation\": the "
        "FAIL of a claim false as stated; *exact*: the error was exactly 0 on every case (a positive bound is not "
        "weak there). Claim metrics (inequalities) are in the tightness table below. In a claim certified by "
        "interval arithmetic an identity's bound is 0: where the backend's own number exceeded a bound and "
        "intervals showed the claim holds there (\"dismissed by intervals\"), its err/bound counts as 1 and its "
        "err (u) is the backend's error against the exact value; cases they left undecided are counted apart.\n\n";
  md << "| property | backend | metric | n | max err/bound | mean err/bound | max err (u) | mean err (u) | flags |\n";
  md << "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |\n";
  for (const auto& e : r.entries) {
    const auto& p = e.result;
    const bool exact = p.backend == "rational";
    for (const auto& m : p.metrics) {
      if (m.tolerance.kind == MetricKind::kClaim) continue;  // the tightness table below
      const std::string flags = FlagText(ProblemFlags(e, m));
      std::string note = IsRefutationFlag(e, m) ? "refutation" : IsExactEverywhere(m) ? "*exact*" : "";
      if (m.certified > 0 || m.undecided > 0) note += (note.empty() ? "" : ", ") + CertifiedNote(m);
      if (!flags.empty() && !note.empty()) note = " " + note;
      md << "| " << Code(p.id) << " | " << p.backend << " | " << Code(m.tolerance.metric) << " | " << m.count << " | "
         << Short(m.max_ratio) << " | " << (m.nonfinite ? "" : Short(m.mean_ratio)) << " | "
         << (exact || m.count == 0 ? "" : m.nonfinite ? "non-finite" : Short(m.max_in_u)) << " | "
         << (exact || m.nonfinite || m.count == 0 ? "" : Short(m.mean_in_u)) << " | "
         << (flags.empty() ? "" : "**" + flags + "**") << note << " |\n";
    }
  }
  // Claim metrics: how close the search came to each inequality's bound.
  std::ostringstream claims;
  for (const auto& e : r.entries)
    for (const auto& m : e.result.metrics) {
      if (m.tolerance.kind != MetricKind::kClaim) continue;
      const bool from_search = m.search_max_ratio > m.max_ratio;
      claims << "| " << Code(e.result.id) << " | " << e.result.backend << " | " << Code(m.tolerance.metric) << " | "
             << Short(BestRatio(m)) << " | " << Tightness(m) << " | " << (from_search ? "search" : "random")
             << (m.certified > 0 || m.undecided > 0 ? "; " + CertifiedNote(m) : "") << " |\n";
    }
  if (!claims.str().empty()) {
    md << "\n### Claim metrics: tightness\n\nFor an inequality, lhs/(rhs + budget) at the best case found by the random "
          "cases or the targeted search: exceeded > 1 (refuted), attained >= 0.999, close >= 0.5, far < 0.5 (a far bound is loose by design, "
          "with the reason in its registry note, or its generator does not reach the boundary).\n\n";
    md << "| property | backend | metric | best ratio | tightness | found by |\n| --- | --- | --- | ---: | --- | --- |\n"
       << claims.str();
  }
  // Statistical claims: the probability of a false alarm and the power.
  std::ostringstream stats;
  for (const auto& e : r.entries) {
    if (!e.statistics) continue;
    const Statistics& st = *e.statistics;
    stats << "| " << Code(e.result.id) << " | " << e.result.backend << " | " << Short(st.alpha) << " | "
          << Cell(st.alpha_scope) << " | " << Cell(st.basis) << " | " << (st.rigorous ? "yes" : "no (approximation)")
          << " | " << Short(st.power) << " | " << Cell(st.detects) << " | " << Cell(st.sample) << " |\n";
  }
  if (!stats.str().empty()) {
    md << "\n### Statistical properties: false-alarm rate and power\n\nalpha bounds the probability that the check "
          "fails although the claim holds (0: exact enumeration, no sampling); power is the probability with which "
          "the stated error in the claimed value is caught, at the default sample size.\n\n";
    md << "| property | backend | alpha | per | basis | rigorous | power | detects | sample |\n"
          "| --- | --- | ---: | --- | --- | --- | ---: | --- | --- |\n"
       << stats.str();
  }
  md << "\nBounds and their reasons (one per claim and metric):\n\n";
  std::set<std::string> seen;
  for (const auto& e : r.entries) {
    for (const auto& m : e.result.metrics) {
      if (!seen.insert(e.result.id + "\n" + m.tolerance.metric).second) continue;
      md << "- " << Code(e.result.id) << " " << Code(m.tolerance.metric) << " <= "
         << (m.tolerance.bound.empty() ? "*(no bound formula)*" : Code(m.tolerance.bound)) << ": "
         << (m.tolerance.reason.empty() ? "**no reason stated**" : m.tolerance.reason) << "\n";
    }
  }
  if (seen.empty()) md << "- (no tolerance checks)\n";

  md << "\n## Counterexamples and stored cases\n";
  bool any = false;
  for (const auto& e : r.entries) {
    const auto& p = e.result;
    if (p.verdict == Verdict::kSkipped || (p.counterexample.empty() && p.replayed.empty() && p.verdict == Verdict::kHolds)) continue;
    any = true;
    md << "\n### " << p.id << "/" << p.backend << ": "
       << (p.verdict == Verdict::kRefuted ? "refuted as stated" : VerdictName(p.verdict))
       << (e.as_expected() ? " (as expected)" : " (UNEXPECTED)") << "\n\n";
    if (const std::string st = StatementOf(p.id); !st.empty()) md << "Claim: " << st << "\n\n";
    if (!p.message.empty()) md << "```text\n" << p.message << "\n```\n\n";
    if (!p.counterexample.empty()) {
      md << "Counterexample (exact values; "
         << (p.confirmed ? ConfirmationText(p) : "not re-checked")
         << "):\n\n```text\n"
         << p.counterexample << "```\n\n";
    }
    if (!p.reproduce.empty())
      md << "Reproduce: `" << ShellWord(ThisProgram().command) << " reproduce " << p.id << "/" << p.backend << " " << p.reproduce << "`\n\n";
    if (!p.saved_to.empty()) md << "Saved to the store: `" << p.saved_to << "`\n\n";
    if (!p.replay_file.empty()) md << "Replay: `" << ReproduceCommand(r, e) << "`\n\n";
    for (const auto& o : p.replayed)
      md << "- stored case `" << o.name << "` (" << o.origin << ", expect " << ExpectName(o.expect)
         << "): " << (o.ok ? "ok" : "**NOT OK**") << ", " << o.detail << "\n";
  }
  if (!any) md << "\nNone: every property held on every case.\n";
  return md.str();
}

}  // namespace attnprop::report
