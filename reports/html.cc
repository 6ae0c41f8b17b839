// report.html: one self-contained page a person navigates (inline CSS,
// SVG and a small script; nothing loaded from anywhere): a table of
// contents; the summary with links to every claim; the claims false as
// stated; one verdict table row per claim (filter and sort with the script,
// readable without it); one section per document with each claim's
// statement, its verdict per backend, its audit rows with an err/bound
// sparkline, and its counterexample; the kernel results by bug class; a plot
// of the worst err/bound per claim; heatmaps of the run's counterexamples
// that are attention problems, and of the lecture's controlled examples. Plots are a few <path> elements each (html_svg.h).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "model/lecture_examples.h"
#include "properties/framework/backend.h"
#include "properties/framework/catalog.h"
#include "properties/framework/registry.h"
#include "reports/format.h"
#include "reports/html_attention.h"
#include "reports/html_assets.h"
#include "reports/html_svg.h"
#include "reports/report.h"
#include "reports/summary.h"
#include "properties/framework/program.h"

namespace attnprop::report {
namespace {

/// One claim's entries (its backends), in report order.
struct ClaimView {
  std::string id;
  std::vector<const Entry*> entries;
  std::string status;  // "unexpected", "false" (as stated, as expected), "skipped", "holds"
  double worst = 0;    // worst err/bound (rounding) or best ratio (claim metrics)
};

std::string DocOf(const std::string& id) { return id.substr(0, id.find('.')); }

std::string Anchor(const std::string& id) {
  std::string a = "c-";
  for (char ch : id) a += std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '_' || ch == '-' ? ch : '-';
  return a;
}

double WorstOf(const MetricStats& m) {
  if (m.nonfinite) return HUGE_VAL;
  return m.tolerance.kind == MetricKind::kClaim ? BestRatio(m) : m.max_ratio;
}

std::vector<ClaimView> Claims(const Report& r) {
  std::vector<ClaimView> claims;
  std::map<std::string, size_t> at;
  for (const auto& e : r.entries) {
    auto [it, fresh] = at.emplace(e.result.id, claims.size());
    if (fresh) claims.push_back({e.result.id, {}, "", 0});
    claims[it->second].entries.push_back(&e);
  }
  for (auto& c : claims) {
    bool unexpected = false, all_skipped = true, refuted = false;
    for (const Entry* e : c.entries) {
      unexpected |= !e->as_expected();
      all_skipped &= e->judgement.skipped();
      refuted |= !e->judgement.skipped() && e->result.verdict == Verdict::kRefuted;
      for (const auto& m : e->result.metrics) c.worst = std::max(c.worst, WorstOf(m));
    }
    c.status = unexpected ? "unexpected" : all_skipped ? "skipped" : refuted ? "false" : "holds";
  }
  return claims;
}

const char* StatusText(const std::string& status) {
  if (status == "unexpected") return "UNEXPECTED";
  if (status == "false") return "false as stated";
  if (status == "skipped") return "skipped";
  return "holds";
}

/// A backend's verdict badge: ok (holds as expected), xf (refuted as
/// registered), bad (unexpected), sk (skipped).
std::string Badge(const Entry& e, const std::string& text) {
  const PropertyResult& p = e.result;
  const char* cls = e.judgement.skipped() ? "sk" : !e.as_expected() ? "bad" : p.verdict == Verdict::kRefuted ? "xf" : "ok";
  // The colour says it; a title only where it is not what was expected.
  std::string b = std::string("<span class=\"b ") + cls + "\"";
  if (!e.as_expected()) b.append(" title=\"").append(VerdictName(p.verdict)).append(", UNEXPECTED\"");
  return b.append(">").append(Escape(text)).append("</span>");
}
std::string Badge(const Entry& e) { return Badge(e, e.result.backend); }

std::string FlagBadges(unsigned flags) {
  std::string s;
  for (const auto& [bit, name] : AllFlags())
    if (flags & bit) s += std::string("<span class=\"flag ") + name + "\">" + name + "</span>";
  return s;
}

std::string Num(double x) { return std::isfinite(x) ? Short(x) : x > 0 ? "inf" : "nan"; }
std::string SortKey(double x) { return std::isfinite(x) ? Short(x) : "1e300"; }

std::string LinkTo(const std::string& id) {
  return "<a href=\"#" + Anchor(id) + "\"><code>" + Escape(id) + "</code></a>";
}

void Header(std::ostringstream& h, const Report& r) {
  const RunInfo& run = r.run;
  h << "<header><h1>attnprop report</h1><div class=\"banner\">attnprop " << Escape(run.version) << " | seed "
    << run.seed << " | cases " << run.cases << " (max_size " << run.max_size << (run.shrink ? "" : ", noshrink")
    << ") | search " << run.search_steps << " per property | mpfr " << run.mpfr_bits << " bits | kernel "
    << Escape(run.kernel) << "<br>generated " << Escape(run.generated) << " by <code>attnprop "
    << Escape(run.command) << "</code>" << (run.store.empty() ? "" : " | store " + Escape(run.store))
    << "</div></header>\n";
}

void Toc(std::ostringstream& h, const std::vector<ClaimView>& claims, bool kernels, bool diagnosis) {
  h << "<nav aria-label=\"contents\"><b>Contents</b>" << (diagnosis ? "<a href=\"#diagnosis\">Diagnosis</a>" : "")
    << "<a href=\"#summary\">Summary</a><a href=\"#false\">Claims false as stated</a>"
    << "<a href=\"#verdicts-h\">Verdicts</a><a href=\"#documents\">Claims by document</a>";
  std::set<std::string> seen;
  for (const auto& c : claims)
    if (seen.insert(DocOf(c.id)).second)
      h << "<a class=\"sub\" href=\"#d-" << Escape(DocOf(c.id)) << "\">" << Escape(DocOf(c.id)) << "</a>";
  if (kernels) h << "<a href=\"#kernels\">Kernel results</a>";
  h << "<a href=\"#plots\">Worst err/bound</a><a href=\"#cx-heatmaps\">Counterexample heatmaps</a>"
       "<a href=\"#heatmaps\">Attention heatmaps</a></nav>\n";
}

/// check-kernel's diagnosis, first: the bug class, then the failing
/// properties most specific first with their group of one shrunk counterexample.
void DiagnosisSection(std::ostringstream& h, const Report& r) {
  const Diagnosis& d = r.diagnosis;
  if (d.empty()) return;
  h << "<h2 id=\"diagnosis\">Diagnosis</h2>\n<p class=\"headline bad\">Bug class: " << Escape(d.bug_class)
    << "</p>\n<p class=\"note\">" << d.ranked.size()
    << (d.ranked.size() == 1 ? " failing property in " : " failing properties in ") << d.groups
    << (d.groups == 1 ? " group" : " groups")
    << " of one shrunk counterexample each, most specific first (the first points at the bug):</p>\n<ol>\n";
  for (const auto& f : d.ranked) {
    const Entry* e = DiagnosedEntry(r, f);
    h << "<li>" << LinkTo(f.id) << " / " << Escape(f.backend) << " (group " << f.group + 1 << ")";
    if (e && !e->result.message.empty()) h << ": <code>" << Escape(FirstLine(e->result.message, 160)) << "</code>";
    h << "</li>\n";
  }
  h << "</ol>\n";
}

void SummarySection(std::ostringstream& h, const Report& r, const Summary& s) {
  h << "<h2 id=\"summary\">Summary</h2>\n<p class=\"headline " << (s.unexpected.empty() ? "ok" : "bad") << "\">"
    << Escape(Headline(s)) << "</p>\n";
  h << "<div class=\"cards\"><div class=\"card\"><b>" << s.properties << "</b>properties</div><div class=\"card\"><b>"
    << s.counts.holds << "</b>hold</div><div class=\"card\"><b>" << s.refuted.size()
    << "</b>claims false as stated</div><div class=\"card\"><b class=\"" << (s.unexpected.empty() ? "ok" : "bad")
    << "\">" << s.unexpected.size() << "</b>unexpected</div><div class=\"card\"><b>" << s.problem_metrics
    << "</b>audit problems</div>" << (s.counts.skipped ? "<div class=\"card\"><b>" + std::to_string(s.counts.skipped) +
                                                             "</b>skipped</div>"
                                                       : "")
    << "</div>\n";
  h << "<p>Audit: " << s.metrics << " metrics;";
  for (size_t i = 0; i < AllFlags().size(); ++i) h << (i ? ", " : " ") << AllFlags()[i].second << " " << s.problems[i];
  h << ". Not counted as problems: " << s.refutation_flags << " FAIL/NONFINITE on claims false as stated (their "
    << "refutations), " << s.exact_metrics << " LOOSE metrics whose error was exactly 0 on every case.</p>\n";
  if (!s.unexpected.empty()) {
    h << "<h3>Unexpected results</h3>\n<ul>\n";
    for (const Entry* e : s.unexpected)
      h << "<li>" << LinkTo(e->result.id) << " " << Escape(e->result.backend) << ": " << Escape(e->judgement.why)
        << "<br>replay: <code>" << Escape(ReproduceCommand(r, *e)) << "</code></li>\n";
    h << "</ul>\n";
  }
}

/// One line per document: its claims by status, linked to its section.
void DocumentCounts(std::ostringstream& h, const std::vector<ClaimView>& claims) {
  std::vector<std::string> docs;
  std::map<std::string, std::map<std::string, int>> counts;
  for (const auto& c : claims) {
    if (!counts.count(DocOf(c.id))) docs.push_back(DocOf(c.id));
    ++counts[DocOf(c.id)][c.status];
  }
  h << "<table class=\"docs\"><thead><tr><th>document</th><th>claims</th><th>hold</th><th>false as stated</th>"
       "<th>unexpected</th><th>skipped</th></tr></thead><tbody>\n";
  for (const auto& d : docs) {
    auto& n = counts[d];
    h << "<tr><td><a href=\"#d-" << Escape(d) << "\">" << Escape(d) << "</a></td><td class=\"n\">"
      << n["holds"] + n["false"] + n["unexpected"] + n["skipped"] << "</td><td class=\"n\">" << n["holds"]
      << "</td><td class=\"n\">" << n["false"] << "</td><td class=\"n" << (n["unexpected"] ? " bad" : "") << "\">"
      << n["unexpected"] << "</td><td class=\"n\">" << n["skipped"] << "</td></tr>\n";
  }
  h << "</tbody></table>\n";
}

void FalseSection(std::ostringstream& h, const Summary& s) {
  h << InThisProgramsWords("<h2 id=\"false\">Claims false as stated</h2>\n<p class=\"note\">Registered refuted in "
                           "<code>properties/registry.tsv</code>, and refuted in this run with a confirmed "
                           "counterexample: findings about the documents, not problems of the run.</p>\n<ul>\n");
  if (s.refuted.empty()) h << "<li>None in this run.</li>\n";
  for (const auto& c : s.refuted) {
    h << "<li>" << LinkTo(c.id) << " (" << Escape(BackendsAndProvenance(c)) << "): " << Escape(c.statement) << "</li>\n";
  }
  h << "</ul>\n";
}

void VerdictTable(std::ostringstream& h, const std::vector<ClaimView>& claims) {
  h << "<h2 id=\"verdicts-h\">Verdicts</h2>\n<div id=\"controls\" hidden><input id=\"q\" type=\"search\" "
       "placeholder=\"filter: id, statement, section, backend...\" size=\"36\" aria-label=\"filter\"><select id=\"st\" "
       "aria-label=\"status\"><option value=\"\">every status</option><option value=\"unexpected\">unexpected</option>"
       "<option value=\"false\">false as stated</option><option value=\"holds\">holds</option><option "
       "value=\"skipped\">skipped</option></select><span id=\"shown\"></span><span class=\"note\">click a column "
       "heading to sort</span></div>\n";
  h << "<table id=\"verdicts\"><thead><tr><th>claim</th><th>status</th><th>backends</th><th>found by</th>"
       "<th>worst err/bound</th><th>time (s)</th></tr></thead><tbody>\n";
  for (const auto& c : claims) {
    double seconds = 0;
    std::string found;
    for (const Entry* e : c.entries) {
      seconds += e->result.seconds;
      if (found.empty()) found = FoundByText(e->result);
    }
    // The filter also searches what the row does not show: the statement, its source and kind.
    const CatalogClaim* cat = FindAnyClaim(c.id);
    const std::string words = StatementOf(c.id) + (cat ? " " + cat->source + " " + cat->kind : std::string());
    h << "<tr data-status=\"" << c.status << "\""
      << (words.empty() ? std::string() : " data-text=\"" + Escape(words) + "\"") << "><td>" << LinkTo(c.id) << "</td><td><span class=\"s " << c.status
      << "\">" << StatusText(c.status) << "</span></td><td>";
    for (const Entry* e : c.entries) h << Badge(*e);
    // The script sorts numbers by their text; data-v only where the text is not a number.
    h << "</td><td>" << Escape(found) << "</td><td class=\"n\""
      << (std::isfinite(c.worst) ? "" : " data-v=\"" + SortKey(c.worst) + "\"") << ">" << Num(c.worst)
      << "</td><td class=\"n t\">" << Seconds(seconds) << "</td></tr>\n";
  }
  h << "</tbody></table>\n";
}

void ClaimSection(std::ostringstream& h, const Report& r, const ClaimView& c) {
  h << "<section class=\"claim\" id=\"" << Anchor(c.id) << "\"><h3><code>" << Escape(c.id) << "</code> <span class=\"s " << c.status << "\">" << StatusText(c.status) << "</span></h3>\n";
  const std::string statement = StatementOf(c.id);
  h << "<p class=\"st\">" << (statement.empty() ? "<i>(no statement in the catalogue)</i>" : Escape(statement)) << "</p>\n";
  const CatalogClaim* cat = FindAnyClaim(c.id);
  const RegistryRow* row = FindRow(c.id);
  h << "<p class=\"meta\">" << (cat ? Escape(cat->kind) + " | " + Escape(cat->source) + " | " : "") << "<code>"
    << Escape(c.entries.front()->file) << "</code> | expected "
    << ExpectationName(c.entries.front()->expect);
  if (row && !row->note.empty() && cat) h << " | registry: " << Escape(row->note);
  h << "</p>\n";
  if (const auto& st = c.entries.front()->statistics)
    h << "<p class=\"meta\">false-alarm rate and power: " << Escape(StatisticsText(*st)) << "</p>\n";
  // One metric for every backend (most claims): named once, above the table.
  std::set<std::string> metric_names;
  for (const Entry* e : c.entries)
    for (const auto& m : e->result.metrics) metric_names.insert(m.tolerance.metric);
  const bool one_metric = metric_names.size() == 1;
  if (one_metric) h << "<p class=\"meta\">metric <code>" << Escape(*metric_names.begin()) << "</code></p>\n";
  h << "<table><thead><tr><th>backend</th><th>cases</th>" << (one_metric ? "" : "<th>metric</th>")
    << "<th>n</th><th>max err/bound</th><th>mean</th><th>max err (u)</th><th>flags</th><th>err/bound per decade</th>"
       "</tr></thead><tbody>\n";
  for (const Entry* e : c.entries) {
    const PropertyResult& p = e->result;
    const size_t rows = std::max<size_t>(1, p.metrics.size());
    const std::string span = rows > 1 ? " rowspan=\"" + std::to_string(rows) + "\"" : "";
    const std::string found = FoundByText(p);
    h << "<tr><td" << span << ">" << Badge(*e) << (found.empty() ? "" : " " + Escape(found)) << "</td><td" << span
      << " class=\"n\">" << p.cases << (p.replayed.empty() ? "" : " +" + std::to_string(p.replayed.size()) + " stored")
      << "</td>";
    if (p.metrics.empty())
      h << "<td colspan=\"" << (one_metric ? 6 : 7) << "\">" << (e->judgement.skipped() ? Escape(e->judgement.why) : "")
        << "</td></tr>\n";
    const bool exact = p.backend == "rational";
    for (size_t k = 0; k < p.metrics.size(); ++k) {
      const MetricStats& m = p.metrics[k];
      if (k) h << "<tr>";
      const bool claim_metric = m.tolerance.kind == MetricKind::kClaim;
      if (!one_metric) h << "<td><code>" << Escape(m.tolerance.metric) << "</code></td>";
      h << "<td class=\"n\">" << m.count << "</td>";
      if (claim_metric) {
        h << "<td class=\"n\" title=\"best ratio found (claim metric)\">" << Num(BestRatio(m)) << " " << Tightness(m)
          << "</td><td></td><td></td>";
      } else {
        h << "<td class=\"n\">" << Num(m.nonfinite ? HUGE_VAL : m.max_ratio) << "</td><td class=\"n\">"
          << (m.nonfinite ? "" : Short(m.mean_ratio)) << "</td><td class=\"n\">"
          << (exact || m.nonfinite || m.count == 0 ? "" : Short(m.max_in_u)) << "</td>";
      }
      h << "<td>" << FlagBadges(ProblemFlags(*e, m)) << (IsRefutationFlag(*e, m) ? "refutation" : "")
        << (IsExactEverywhere(m) ? "<i>exact</i>" : "") << "</td><td>" << HistogramSparkline(RatioHistogram(m.ratios))
        << "</td></tr>\n";
    }
  }
  h << "</tbody></table>\n";
  // Each bound once, with its reason.
  std::set<std::string> seen;
  std::ostringstream bounds;
  for (const Entry* e : c.entries)
    for (const auto& m : e->result.metrics) {
      if (!seen.insert(m.tolerance.metric).second) continue;
      bounds << "<li><code>" << Escape(m.tolerance.metric) << "</code> &le; "
             << (m.tolerance.bound.empty() ? "<i>(no bound formula)</i>" : "<code>" + Escape(m.tolerance.bound) + "</code>")
             << ": " << (m.tolerance.reason.empty() ? "<b class=\"bad\">no reason stated</b>" : Escape(m.tolerance.reason))
             << "</li>";
    }
  if (!seen.empty()) h << "<ul>" << bounds.str() << "</ul>\n";
  // The counterexample: the first backend's (an unexpected one first), open when unexpected.
  const Entry* shown = nullptr;
  for (const Entry* e : c.entries)
    if (!e->result.counterexample.empty() && (!shown || (!e->as_expected() && shown->as_expected()))) shown = e;
  if (shown) {
    const PropertyResult& p = shown->result;
    h << "<details" << (shown->as_expected() ? "" : " open") << "><summary>counterexample (" << Escape(p.backend)
      << "; "
      << Escape(p.confirmed ? ConfirmationText(p) : "not re-checked")
      << ")</summary>";
    if (!p.message.empty()) h << "<pre>" << Escape(p.message) << "</pre>";
    h << "<pre>" << Escape(p.counterexample) << "</pre><p>replay: <code>" << Escape(ReproduceCommand(r, *shown))
      << "</code></p></details>\n";
  }
  for (const Entry* e : c.entries)
    for (const auto& o : e->result.replayed)
      if (!o.ok)
        h << "<p class=\"bad\">stored case <code>" << Escape(o.name) << "</code> (" << Escape(o.origin) << ", "
          << Escape(e->result.backend) << "): NOT OK, " << Escape(o.detail) << "</p>\n";
  h << "</section>\n";
}

/// What a kernel property catches, by the claim's kind of bug.
const char* BugClass(const std::string& id) {
  static const std::pair<const char*, const char*> kClasses[] = {
      {"abi.argument_validation", "argument validation"}, {"abi.empty_rows", "edge case: empty rows"},
      {"abi.lse_", "lse output"},                          {"abi.batch_independence", "strides and batching"},
      {"abi.dk_ne_dv", "shapes"},                         {"abi.tq_ne_tk", "causal alignment"},
      {"abi.no_writes", "memory safety"},                 {"abi.no_reads", "memory safety"},
      {"abi.inputs_unchanged", "memory safety"},          {"abi.repeatable", "determinism"},
      {"abi.f64_in_double", "precision"}};
  for (const auto& [prefix, cls] : kClasses)
    if (id.rfind(prefix, 0) == 0) return cls;
  return "accuracy against the MPFR reference";
}

void KernelSection(std::ostringstream& h, const std::vector<ClaimView>& claims) {
  std::vector<std::string> backends;  // kernel backends in report order
  for (const auto& c : claims)
    for (const Entry* e : c.entries) {
      const BackendInfo* b = FindBackend(e->result.backend);
      if (b && b->kernel && std::find(backends.begin(), backends.end(), e->result.backend) == backends.end())
        backends.push_back(e->result.backend);
    }
  if (backends.empty()) return;
  h << "<h2 id=\"kernels\">Kernel results</h2>\n<p class=\"note\">Each kernel property on each kernel of the run "
       "(attnprop's own on every dispatch target, a <code>--kernel</code> library as plain kernel-f32/f64), "
       "grouped by the kind of bug it catches.</p>\n<table><thead><tr><th>bug class</th><th>claim</th>";
  for (const auto& b : backends) h << "<th>" << Escape(b) << "</th>";
  h << "</tr></thead><tbody>\n";
  std::vector<std::pair<std::string, const ClaimView*>> rows;
  for (const auto& c : claims) {
    bool kernel = false;
    for (const Entry* e : c.entries) kernel |= std::find(backends.begin(), backends.end(), e->result.backend) != backends.end();
    if (kernel) rows.emplace_back(BugClass(c.id), &c);
  }
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [cls, c] : rows) {
    h << "<tr><td>" << Escape(cls) << "</td><td>" << LinkTo(c->id) << "</td>";
    for (const auto& b : backends) {
      const Entry* e = nullptr;
      for (const Entry* x : c->entries)
        if (x->result.backend == b) e = x;
      h << "<td>" << (e ? Badge(*e, VerdictName(e->result.verdict)) : "") << "</td>";
    }
    h << "</tr>\n";
  }
  h << "</tbody></table>\n";
}

void Plots(std::ostringstream& h, const std::vector<ClaimView>& claims) {
  std::vector<RatioPoint> points;
  for (const auto& c : claims) {
    bool any = false;
    for (const Entry* e : c.entries) any |= !e->result.metrics.empty();
    if (any) points.push_back({c.worst, c.status == "unexpected" || c.status == "false"});
  }
  h << "<h2 id=\"plots\">Worst err/bound per claim</h2>\n<p class=\"note\">For each claim, the largest observed "
       "error as a fraction of its bound over every backend and metric (for an inequality, the best ratio of lhs "
       "to rhs that the random cases or the targeted search found): how close the checks came to the bound. Points "
       "above the dashed line exceed it.</p>\n<div class=\"fig\">"
    << RatioStripSvg(points) << "</div>\n";
}

void CounterexampleHeatmaps(std::ostringstream& h, const Report& r) {
  constexpr int kMaxMaps = 12;
  std::ostringstream maps;
  int n = 0;
  for (const auto& e : r.entries) {
    if (n >= kMaxMaps || !e.result.counterexample_case) continue;
    const auto w = AttentionWeightsOf(*e.result.counterexample_case);
    if (!w) continue;
    const std::string name = e.result.id + "/" + e.result.backend;
    maps << "<div class=\"fig\"><div class=\"cap\">" << LinkTo(e.result.id) << " " << Escape(e.result.backend)
         << (e.as_expected() ? "" : " <b class=\"bad\">UNEXPECTED</b>") << "<br>" << w->size() << " x "
         << w->front().size() << ", batch item 0</div>" << HeatmapSvg(*w, name, "hatch-cx-" + std::to_string(n))
         << "</div>\n";
    ++n;
  }
  h << "<h2 id=\"cx-heatmaps\">Attention heatmaps of this run's counterexamples</h2>\n";
  if (n == 0) {
    h << "<p class=\"note\">No counterexample of this run is an attention problem (Q, K, V).</p>\n";
    return;
  }
  h << "<p class=\"note\">The weights softmax(scale Q K<sup>T</sup>) of each counterexample that is an attention "
       "problem, computed by the model in double (at most "
    << kMaxMaps << ").</p>\n<div class=\"grid\">\n" << maps.str() << "</div>\n";
}

void Heatmaps(std::ostringstream& h) {
  h << "<h2 id=\"heatmaps\">Attention heatmaps: the lecture's controlled examples</h2>\n<p class=\"note\">Attention "
       "weights A = softmax(S) row by row, causal mask (key j visible to query i iff j &le; i), computed by the "
       "reference model (<code>model/attention.h</code>) in double.</p>\n"
    << HeatmapLegendSvg() << "\n<div class=\"grid\">\n";
  int k = 0;
  for (const auto& m : LectureExamples()) {
    auto w = m.weights;  // causal: j > i is masked
    for (size_t i = 0; i < w.size(); ++i)
      for (size_t j = i + 1; j < w[i].size(); ++j) w[i][j] = std::nan("");
    h << "<div class=\"fig\"><div class=\"cap\"><b>" << Escape(m.title) << "</b><br>" << Escape(m.caption) << "</div>"
      << HeatmapSvg(w, m.title, "hatch-" + std::to_string(k++)) << "</div>\n";
  }
  h << "</div>\n";
}

}  // namespace

std::string ToHtml(const Report& r) {
  const Summary s = Summarize(r);
  const std::vector<ClaimView> claims = Claims(r);
  bool kernels = false;
  for (const auto& e : r.entries) {
    const BackendInfo* b = FindBackend(e.result.backend);
    kernels |= b && b->kernel;
  }
  std::ostringstream h;
  h << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
       "<title>attnprop report: "
    << Escape(Headline(s)) << "</title>\n<style>" << kHtmlStyle << "</style>\n</head>\n<body>\n";
  Header(h, r);
  h << "<div class=\"wrap\">\n";
  Toc(h, claims, kernels, !r.diagnosis.empty());
  h << "<main>\n";
  DiagnosisSection(h, r);
  SummarySection(h, r, s);
  DocumentCounts(h, claims);
  FalseSection(h, s);
  VerdictTable(h, claims);
  h << "<h2 id=\"documents\">Claims by document</h2>\n";
  std::vector<std::string> docs;  // in order of first appearance
  for (const auto& c : claims)
    if (std::find(docs.begin(), docs.end(), DocOf(c.id)) == docs.end()) docs.push_back(DocOf(c.id));
  for (const auto& doc : docs) {
    h << "<h2 id=\"d-" << Escape(doc) << "\">" << Escape(doc) << "</h2>\n";
    for (const auto& c : claims)
      if (DocOf(c.id) == doc) ClaimSection(h, r, c);
  }
  KernelSection(h, claims);
  Plots(h, claims);
  CounterexampleHeatmaps(h, r);
  Heatmaps(h);
  h << "</main>\n</div>\n<script>" << kHtmlScript << "</script>\n</body>\n</html>\n";
  return h.str();
}

}  // namespace attnprop::report
