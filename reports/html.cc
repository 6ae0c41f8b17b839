// report.html: one self-contained page (inline CSS and SVG, no script, no
// network): verdicts, the tolerance audit, an err/bound histogram per
// property and metric, counterexamples, and attention heatmaps of the
// lecture's controlled examples.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

#include "reports/format.h"
#include "model/lecture_examples.h"
#include "reports/report.h"

namespace attnprop::report {
namespace {

constexpr const char* kStyle = R"css(
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1d2430; background: #f6f7f9; }
header { background: #1d2430; color: #fff; padding: 18px 32px; }
header h1 { margin: 0 0 4px; font-size: 22px; }
header .banner { font-family: ui-monospace, monospace; font-size: 12.5px; opacity: .85; }
main { padding: 8px 32px 40px; max-width: 1400px; }
h2 { margin-top: 32px; border-bottom: 1px solid #d6dae1; padding-bottom: 4px; }
.cards { display: flex; gap: 12px; flex-wrap: wrap; }
.card { background: #fff; border: 1px solid #d6dae1; border-radius: 6px; padding: 10px 16px; min-width: 110px; }
.card b { display: block; font-size: 22px; }
table { border-collapse: collapse; background: #fff; font-size: 13px; }
th, td { border: 1px solid #d6dae1; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #eef0f4; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
code, pre { font-family: ui-monospace, monospace; font-size: 12px; }
pre { background: #fff; border: 1px solid #d6dae1; padding: 8px; overflow-x: auto; }
.ok { color: #1a7f37; } .bad { color: #c62828; font-weight: 600; }
.flag { display: inline-block; padding: 0 6px; border-radius: 3px; font-size: 11px; font-weight: 600; color: #fff; margin-right: 3px; }
.flag.FAIL, .flag.NONFINITE { background: #c62828; } .flag.LOOSE { background: #b26a00; } .flag.UNJUSTIFIED { background: #6a3fb5; }
.grid { display: flex; flex-wrap: wrap; gap: 12px; }
.fig { background: #fff; border: 1px solid #d6dae1; border-radius: 6px; padding: 8px 10px; }
.fig .cap { font-size: 12px; max-width: 360px; }
.note { color: #555; max-width: 900px; }
td.nw { white-space: nowrap; }
ul.reasons li { margin: 3px 0; max-width: 1100px; }
)css";

std::string FlagBadges(unsigned flags) {
  std::string s;
  for (const auto& [bit, name] : AllFlags())
    if (flags & bit) s += std::string("<span class=\"flag ") + name + "\">" + name + "</span>";
  return s;
}


/// A bar chart of err/bound by decade.
std::string HistogramSvg(const Histogram& h) {
  const int bar = 19, gap = 3, left = 28, top = 14, plot_h = 80, bottom = 30;
  const int n = static_cast<int>(h.counts.size());
  const int width = left + n * (bar + gap) + 6, height = top + plot_h + bottom;
  const int64_t max_count = std::max<int64_t>(1, *std::max_element(h.counts.begin(), h.counts.end()));
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
    << "\" role=\"img\" aria-label=\"histogram of err/bound\" font-size=\"9\" font-family=\"sans-serif\">";
  s << "<line x1=\"" << left - 2 << "\" y1=\"" << top + plot_h << "\" x2=\"" << width - 4 << "\" y2=\"" << top + plot_h
    << "\" stroke=\"#888\"/>";
  s << "<text x=\"" << left - 4 << "\" y=\"" << top + 4 << "\" text-anchor=\"end\">" << max_count << "</text>";
  s << "<text x=\"" << left - 4 << "\" y=\"" << top + plot_h << "\" text-anchor=\"end\">0</text>";
  for (int i = 0; i < n; ++i) {
    const int64_t c = h.counts[static_cast<size_t>(i)];
    const int x = left + i * (bar + gap);
    const int bh = c == 0 ? 0 : std::max(1, static_cast<int>(std::lround(static_cast<double>(plot_h) * static_cast<double>(c) /
                                                                       static_cast<double>(max_count))));
    const std::string& label = h.labels[static_cast<size_t>(i)];
    const char* colour = i == 0 ? "#9aa3af" : i >= n - 2 ? "#c62828" : "#3b6fb6";
    s << "<rect x=\"" << x << "\" y=\"" << top + plot_h - bh << "\" width=\"" << bar << "\" height=\"" << bh
      << "\" fill=\"" << colour << "\"><title>" << Escape(label) << ": " << c << "</title></rect>";
    if (c > 0)
      s << "<text x=\"" << x + bar / 2 << "\" y=\"" << top + plot_h - bh - 2 << "\" text-anchor=\"middle\">" << c
        << "</text>";
    // Short tick labels: decades as their exponent.
    std::string tick = label;
    if (label.rfind("1e", 0) == 0) tick = label.substr(2);
    if (label == "<1e-16") tick = "<-16";
    if (label == "non-finite") tick = "NaN";
    s << "<text x=\"" << x + bar / 2 << "\" y=\"" << top + plot_h + 11 << "\" text-anchor=\"middle\">" << Escape(tick)
      << "</text>";
  }
  s << "<text x=\"" << left + n * (bar + gap) / 2 << "\" y=\"" << height - 4
    << "\" text-anchor=\"middle\">log10(err / bound): 0 = exact, &gt;1 = above the bound</text>";
  s << "</svg>";
  return s.str();
}

/// White (0) to dark blue (1); sqrt so small weights stay visible.
std::string Colour(double w) {
  const double t = std::sqrt(std::clamp(w, 0.0, 1.0));
  const double from[3] = {247, 251, 255}, to[3] = {8, 48, 107};
  char buf[16];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", static_cast<int>(std::lround(from[0] + t * (to[0] - from[0]))),
                static_cast<int>(std::lround(from[1] + t * (to[1] - from[1]))),
                static_cast<int>(std::lround(from[2] + t * (to[2] - from[2]))));
  return buf;
}

/// A light diagonal hatch for masked cells (an in-document pattern: `id`
/// must be unique in the page).
std::string HatchDefs(const std::string& id) {
  return "<defs><pattern id=\"" + id +
         "\" width=\"4\" height=\"4\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
         "<rect width=\"4\" height=\"4\" fill=\"#ffffff\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"4\" "
         "stroke=\"#c8ccd2\" stroke-width=\"1.5\"/></pattern></defs>";
}

std::string HeatmapSvg(const AttentionExample& m, const std::string& hatch) {
  const int cell = 16, left = 22, top = 18;
  const int t = static_cast<int>(m.weights.size());
  const int width = left + t * cell + 8, height = top + t * cell + 8;
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
    << "\" role=\"img\" aria-label=\"" << Escape(m.title) << "\" font-size=\"8\" font-family=\"sans-serif\">"
    << HatchDefs(hatch);
  s << "<text x=\"" << left + t * cell / 2 << "\" y=\"9\" text-anchor=\"middle\">key j &#8594;</text>";
  s << "<text x=\"8\" y=\"" << top + t * cell / 2 << "\" text-anchor=\"middle\" transform=\"rotate(-90 8 "
    << top + t * cell / 2 << ")\">query i &#8594;</text>";
  for (int i = 0; i < t; ++i) {
    for (int j = 0; j < t; ++j) {
      const bool masked = j > i;
      const double w = m.weights[static_cast<size_t>(i)][static_cast<size_t>(j)];
      s << "<rect x=\"" << left + j * cell << "\" y=\"" << top + i * cell << "\" width=\"" << cell << "\" height=\""
        << cell << "\" fill=\"" << (masked ? "url(#" + hatch + ")" : Colour(w))
        << "\" stroke=\"#ffffff\" stroke-width=\"0.5\"><title>A["
        << i << "][" << j << "] = " << (masked ? "masked" : Short(w)) << "</title></rect>";
    }
  }
  s << "</svg>";
  return s.str();
}

std::string LegendSvg() {
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"300\" height=\"34\" font-size=\"9\" "
       "font-family=\"sans-serif\">"
    << HatchDefs("hatch-legend");
  for (int k = 0; k < 50; ++k)
    s << "<rect x=\"" << 10 + k * 4 << "\" y=\"4\" width=\"4\" height=\"12\" fill=\"" << Colour(k / 49.0) << "\"/>";
  // Ticks where the sqrt ramp puts them: x = 10 + 200 sqrt(w).
  s << "<g text-anchor=\"middle\"><text x=\"10\" y=\"28\">0</text><text x=\"73\" y=\"28\">0.1</text>"
       "<text x=\"130\" y=\"28\">0.36</text><text x=\"210\" y=\"28\">1</text></g>"
       "<rect x=\"218\" y=\"4\" width=\"12\" height=\"12\" fill=\"url(#hatch-legend)\" stroke=\"#c8ccd2\"/><text x=\"234\" y=\"14\">masked</text></svg>";
  return s.str();
}

}  // namespace

std::string ToHtml(const Report& r) {
  const RunInfo& run = r.run;
  std::ostringstream h;
  h << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
       "<title>attnprop report</title>\n<style>"
    << kStyle << "</style>\n</head>\n<body>\n";
  h << "<header><h1>attnprop report</h1><div class=\"banner\">attnprop " << Escape(run.version) << " | seed "
    << run.seed << " | cases " << run.cases << " (max_size " << run.max_size << (run.shrink ? "" : ", noshrink")
    << ") | mpfr " << run.mpfr_bits << " bits | kernel " << Escape(run.kernel) << "<br>generated "
    << Escape(run.generated) << " by <code>attnprop " << Escape(run.command) << "</code>"
    << (run.store.empty() ? "" : " | store " + Escape(run.store)) << "</div></header>\n<main>\n";

  const Counts n = CountVerdicts(r);
  const int holds = n.holds, refuted = n.refuted, errors = n.errors, unexpected = n.unexpected;
  int flagged = 0;
  for (const auto& e : r.entries) {
    for (const auto& m : e.result.metrics) flagged += AuditFlags(m) != 0;
  }
  h << "<h2>Summary</h2>\n<div class=\"cards\">"
    << "<div class=\"card\"><b>" << r.entries.size() << "</b>properties</div>"
    << "<div class=\"card\"><b>" << holds << "</b>hold</div>"
    << "<div class=\"card\"><b>" << refuted << "</b>refuted</div>"
    << "<div class=\"card\"><b>" << errors << "</b>errors</div>"
    << "<div class=\"card\"><b class=\"" << (unexpected ? "bad" : "ok") << "\">" << unexpected
    << "</b>unexpected</div>"
    << "<div class=\"card\"><b>" << flagged << "</b>flagged metrics</div></div>\n";

  h << "<h2>Verdicts</h2>\n<table>\n<tr><th>property</th><th>backend</th><th>expected</th><th>verdict</th><th>as expected</th><th>found by</th>"
       "<th>cases</th><th>discarded</th><th>stored cases</th><th>time (s)</th><th>source</th></tr>\n";
  for (const auto& e : r.entries) {
    const auto& p = e.result;
    h << "<tr><td class=\"nw\"><code>" << Escape(p.id) << "</code></td><td>" << p.backend << "</td><td>"
      << ExpectationName(e.expect) << "</td><td>" << VerdictName(p.verdict) << "</td><td class=\""
      << (e.judgement.skipped() ? "ok\">skipped" : e.as_expected() ? "ok\">ok" : "bad\">UNEXPECTED") << "</td><td>"
      << Escape(FoundByText(p)) << "</td><td class=\"num\">" << p.cases
      << "</td><td class=\"num\">" << p.discarded << "</td><td class=\"num\">" << p.replayed.size()
      << "</td><td class=\"num\">" << Seconds(p.seconds) << "</td><td><code>" << Escape(e.file) << "</code></td></tr>\n";
  }
  h << "</table>\n";

  h << "<h2>Tolerance audit</h2>\n<p class=\"note\">Observed error per metric over the random cases, as a fraction "
       "of the declared bound and in units of the backend's unit roundoff u (&ndash; for exact backends). "
       "<span class=\"flag FAIL\">FAIL</span> observed above the bound; <span class=\"flag LOOSE\">LOOSE</span> bound "
       "more than "
    << static_cast<int>(kLooseFactor)
    << "&times; the worst observed error; <span class=\"flag UNJUSTIFIED\">UNJUSTIFIED</span> no stated reason; "
       "<span class=\"flag NONFINITE\">NONFINITE</span> a NaN or infinite error.</p>\n";
  h << "<table>\n<tr><th>property</th><th>backend</th><th>metric</th><th>n</th><th>max err/bound</th>"
       "<th>mean err/bound</th><th>max err (u)</th><th>mean err (u)</th><th>bound</th><th>flags</th>"
       "</tr>\n";
  for (const auto& e : r.entries) {
    const auto& p = e.result;
    const bool exact = p.backend == "rational";
    for (const auto& m : p.metrics) {
      h << "<tr><td class=\"nw\"><code>" << Escape(p.id) << "</code></td><td>" << p.backend
        << "</td><td class=\"nw\"><code>" << Escape(m.tolerance.metric) << "</code></td><td class=\"num\">" << m.count
        << "</td><td class=\"num\">" << Short(m.max_ratio) << "</td><td class=\"num\">" << Short(m.mean_ratio)
        << "</td><td class=\"num\">" << (exact ? "&ndash;" : m.nonfinite ? "non-finite" : Short(m.max_in_u))
        << "</td><td class=\"num\">" << (exact ? "&ndash;" : Short(m.mean_in_u)) << "</td><td><code>"
        << Escape(m.tolerance.bound) << "</code></td><td class=\"nw\">" << FlagBadges(AuditFlags(m)) << "</td></tr>\n";
    }
  }
  h << "</table>\n";
  // Each bound's reason once per claim and metric (the same for every backend).
  h << "<p>Bounds and their reasons:</p>\n<ul class=\"reasons\">\n";
  std::set<std::string> seen;
  for (const auto& e : r.entries) {
    for (const auto& m : e.result.metrics) {
      if (!seen.insert(e.result.id + "\n" + m.tolerance.metric).second) continue;
      h << "<li><code>" << Escape(e.result.id) << "</code> <code>" << Escape(m.tolerance.metric) << "</code> &le; "
        << (m.tolerance.bound.empty() ? "<i>(no bound formula)</i>" : "<code>" + Escape(m.tolerance.bound) + "</code>")
        << ": " << (m.tolerance.reason.empty() ? "<b class=\"bad\">no reason stated</b>" : Escape(m.tolerance.reason))
        << "</li>\n";
    }
  }
  if (seen.empty()) h << "<li>(no tolerance checks)</li>\n";
  h << "</ul>\n";

  h << "<h2>Error histograms</h2>\n<p class=\"note\">For each property, backend and metric: how many random cases "
       "fell in each decade of err/bound.</p>\n<div class=\"grid\">\n";
  bool any_metric = false;
  for (const auto& e : r.entries) {
    for (const auto& m : e.result.metrics) {
      any_metric = true;
      h << "<div class=\"fig\"><div class=\"cap\"><code>" << Escape(e.result.id) << "/" << e.result.backend
        << "</code><br><code>" << Escape(m.tolerance.metric) << "</code> " << FlagBadges(AuditFlags(m)) << "</div>"
        << HistogramSvg(RatioHistogram(m.ratios)) << "</div>\n";
    }
  }
  if (!any_metric) h << "<p>No tolerance checks were recorded.</p>\n";
  h << "</div>\n";

  h << "<h2>Counterexamples and stored cases</h2>\n";
  bool any = false;
  for (const auto& e : r.entries) {
    const auto& p = e.result;
    if (p.verdict == Verdict::kSkipped || (p.counterexample.empty() && p.replayed.empty() && p.verdict == Verdict::kHolds)) continue;
    any = true;
    h << "<h3><code>" << Escape(p.id) << "/" << p.backend << "</code>: "
      << (p.verdict == Verdict::kRefuted ? "refuted as stated" : VerdictName(p.verdict)) << " <span class=\""
      << (e.as_expected() ? "ok\">(as expected)" : "bad\">(UNEXPECTED)") << "</span></h3>\n";
    if (!p.message.empty()) h << "<pre>" << Escape(p.message) << "</pre>\n";
    if (!p.counterexample.empty())
      h << "<p>Counterexample (exact values; "
        << (p.confirmed ? (*p.confirmed ? "confirmed at higher precision" : "NOT confirmed at higher precision")
                        : "not re-checked")
        << "):</p>\n<pre>" << Escape(p.counterexample) << "</pre>\n";
    if (!p.reproduce.empty())
      h << "<p>Reproduce: <code>attnprop reproduce " << Escape(p.id) << "/" << p.backend << " " << Escape(p.reproduce)
        << "</code></p>\n";
    if (!p.saved_to.empty()) h << "<p>Saved to the store: <code>" << Escape(p.saved_to) << "</code></p>\n";
    if (!p.replayed.empty()) {
      h << "<ul>\n";
      for (const auto& o : p.replayed)
        h << "<li>stored case <code>" << Escape(o.name) << "</code> (" << Escape(o.origin) << ", expect "
          << ExpectName(o.expect) << "): <span class=\"" << (o.ok ? "ok\">ok" : "bad\">NOT OK") << "</span>, "
          << Escape(o.detail) << "</li>\n";
      h << "</ul>\n";
    }
  }
  if (!any) h << "<p>None: every property held on every case.</p>\n";

  h << "<h2>Attention heatmaps: the lecture's controlled examples</h2>\n<p class=\"note\">Attention weights A = "
       "softmax(S) row by row, causal mask (key j visible to query i iff j &le; i), computed by the reference model "
       "(<code>model/attention.h</code>) in double. Hover a cell for its value.</p>\n"
    << LegendSvg() << "\n<div class=\"grid\">\n";
  int k = 0;
  for (const auto& m : LectureExamples())
    h << "<div class=\"fig\"><div class=\"cap\"><b>" << Escape(m.title) << "</b><br>" << Escape(m.caption)
      << "</div>" << HeatmapSvg(m, "hatch-" + std::to_string(k++)) << "</div>\n";
  h << "</div>\n</main>\n</body>\n</html>\n";
  return h.str();
}

}  // namespace attnprop::report
