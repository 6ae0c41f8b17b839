// report.html's compact SVG plots (html_svg.h).
#include "reports/html_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "reports/format.h"

namespace attnprop::report {
namespace {

constexpr const char* kSvgOpen = "<svg xmlns=\"http://www.w3.org/2000/svg\" ";

/// White (0) to dark blue (1); sqrt so small weights stay visible.
std::string Colour(double t) {
  const double from[3] = {247, 251, 255}, to[3] = {8, 48, 107};
  char buf[16];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", static_cast<int>(std::lround(from[0] + t * (to[0] - from[0]))),
                static_cast<int>(std::lround(from[1] + t * (to[1] - from[1]))),
                static_cast<int>(std::lround(from[2] + t * (to[2] - from[2]))));
  return buf;
}

constexpr int kLevels = 12;

int Level(double w) {
  const double t = std::sqrt(std::clamp(w, 0.0, 1.0));
  return std::min(kLevels - 1, static_cast<int>(t * kLevels));
}

std::string HatchDefs(const std::string& id) {
  std::string d = "<defs><pattern id=\"";
  d.append(id).append(
      "\" width=\"4\" height=\"4\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
      "<path d=\"M0 0h4v4h-4z\" fill=\"#fff\"/><path d=\"M0 0V4\" stroke=\"#c8ccd2\" stroke-width=\"1.5\"/>"
      "</pattern></defs>");
  return d;
}

}  // namespace

std::string HistogramSparkline(const Histogram& h) {
  // One block character per bin (U+2581..U+2588, height by count; a space
  // for an empty bin): a sparkline in text, 3 bytes a bin. Grey for the
  // exact-zero bin, red for ">1" and "non-finite"; the counts in the title.
  static const char* const kBlocks[] = {"\u2581", "\u2582", "\u2583", "\u2584",
                                        "\u2585", "\u2586", "\u2587", "\u2588"};
  const size_t n = h.counts.size();
  const int64_t max_count = std::max<int64_t>(1, *std::max_element(h.counts.begin(), h.counts.end()));
  std::string title, bars[3];  // grey, blue, red
  for (size_t i = 0; i < n; ++i) {
    const int64_t c = h.counts[i];
    std::string& out = bars[i == 0 ? 0 : i + 2 >= n ? 2 : 1];
    if (c == 0) {
      out.append(" ");  // in the monospace font a space is a bin wide
      continue;
    }
    if (!title.empty()) title.append(", ");
    title.append(h.labels[i]).append(": ").append(std::to_string(c));
    const auto level = static_cast<size_t>(std::min<int64_t>(7, (c * 8 - 1) / max_count));
    out.append(kBlocks[level]);
  }
  std::string s = "<span class=\"sp\" title=\"";
  s.append(Escape(title.empty() ? "no checks" : title)).append("\"><i>").append(bars[0]).append("</i>");
  s.append(bars[1]).append("<b>").append(bars[2]).append("</b></span>");
  return s;
}

std::string HeatmapSvg(const std::vector<std::vector<double>>& weights, const std::string& label,
                       const std::string& hatch_id) {
  // Each row's runs of cells at the same colour level are one stroke, a cell
  // high: one path per level, a few bytes per run. NaN cells are masked.
  const int cell = 12, left = 4, top = 4;
  const int rows = static_cast<int>(weights.size());
  const int cols = rows ? static_cast<int>(weights[0].size()) : 0;
  std::vector<std::string> paths(kLevels);
  std::string masked;
  auto level_at = [&](int i, int j) {
    const double w = weights[static_cast<size_t>(i)][static_cast<size_t>(j)];
    return std::isnan(w) ? -1 : Level(w);
  };
  for (int i = 0; i < rows; ++i) {
    int j = 0;
    while (j < cols) {
      const int level = level_at(i, j);
      int end = j + 1;
      while (end < cols && level_at(i, end) == level) ++end;
      char run[48];
      std::snprintf(run, sizeof run, "M%d %dh%d", left + j * cell, top + i * cell + cell / 2, (end - j) * cell);
      (level < 0 ? masked : paths[static_cast<size_t>(level)]).append(run);
      j = end;
    }
  }
  std::ostringstream s;
  s << "<svg width=\"" << left + cols * cell + 4 << "\" height=\"" << top + rows * cell + 4
    << "\" role=\"img\" aria-label=\"" << Escape(label) << "\" stroke-width=\"" << cell << "\">" << HatchDefs(hatch_id);
  for (int k = 0; k < kLevels; ++k)
    if (!paths[static_cast<size_t>(k)].empty())
      s << "<path d=\"" << paths[static_cast<size_t>(k)] << "\" stroke=\"" << Colour((k + 0.5) / kLevels) << "\"/>";
  if (!masked.empty()) s << "<path d=\"" << masked << "\" stroke=\"url(#" << hatch_id << ")\"/>";
  s << "</svg>";
  return s.str();
}

std::string HeatmapLegendSvg() {
  std::ostringstream s;
  s << kSvgOpen << "width=\"300\" height=\"34\" font-size=\"9\" font-family=\"sans-serif\">" << HatchDefs("hatch-legend");
  for (int k = 0; k < kLevels; ++k)
    s << "<path d=\"M" << 10 + k * 16 << " 4h16v12h-16z\" fill=\"" << Colour((k + 0.5) / kLevels) << "\"/>";
  // Level k covers sqrt(w) in [k/12, (k+1)/12): w = 0, 0.25 (x = 106), 1 (x = 202).
  s << "<g text-anchor=\"middle\"><text x=\"10\" y=\"28\">0</text><text x=\"58\" y=\"28\">0.0625</text>"
       "<text x=\"106\" y=\"28\">0.25</text><text x=\"202\" y=\"28\">1</text></g>"
       "<path d=\"M214 4h12v12h-12z\" fill=\"url(#hatch-legend)\" stroke=\"#c8ccd2\"/><text x=\"230\" y=\"14\">masked</text></svg>";
  return s.str();
}

std::string RatioStripSvg(std::vector<RatioPoint> points) {
  const int left = 44, top = 8, plot_w = 560, plot_h = 150, bottom = 30;
  constexpr int kLo = -17, kHi = 3;  // log10 range; 0 (exact) sits at kLo
  std::sort(points.begin(), points.end(), [](const RatioPoint& a, const RatioPoint& b) { return a.ratio < b.ratio; });
  auto y_of = [&](double r) {
    const double l = !(r > 0) ? kLo : std::isinf(r) ? kHi : std::clamp(std::log10(r), double{kLo}, double{kHi});
    return top + plot_h * (kHi - l) / (kHi - kLo);
  };
  const size_t n = points.size();
  std::string ok, bad;
  for (size_t i = 0; i < n; ++i) {
    const double x = left + (n > 1 ? plot_w * static_cast<double>(i) / static_cast<double>(n - 1) : plot_w / 2.0);
    char buf[64];
    std::snprintf(buf, sizeof buf, "M%.1f %.1fh3v3h-3z", x - 1.5, y_of(points[i].ratio) - 1.5);
    (points[i].bad ? bad : ok) += buf;
  }
  std::ostringstream s;
  s << kSvgOpen << "width=\"" << left + plot_w + 10 << "\" height=\"" << top + plot_h + bottom
    << "\" font-size=\"10\" font-family=\"sans-serif\" role=\"img\" aria-label=\"worst err/bound per claim\">";
  std::string grid;
  for (int l = kLo; l <= kHi; l += 4) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "M%d %.1fH%d", left, y_of(std::pow(10.0, l)), left + plot_w);
    grid += buf;
    s << "<text x=\"" << left - 4 << "\" y=\"" << y_of(std::pow(10.0, l)) + 3 << "\" text-anchor=\"end\">"
      << (l == kLo ? "0" : "1e") << (l == kLo ? "" : std::to_string(l)) << "</text>";
  }
  s << "<path d=\"" << grid << "\" stroke=\"#e3e6ea\"/>";
  s << "<path d=\"M" << left << " " << y_of(1) << "H" << left + plot_w << "\" stroke=\"#c62828\" stroke-dasharray=\"4 3\"/>"
    << "<text x=\"" << left + plot_w << "\" y=\"" << y_of(1) - 3 << "\" text-anchor=\"end\" fill=\"#c62828\">bound</text>";
  if (!ok.empty()) s << "<path d=\"" << ok << "\" fill=\"#3b6fb6\"/>";
  if (!bad.empty()) s << "<path d=\"" << bad << "\" fill=\"#c62828\"/>";
  s << "<text x=\"" << left + plot_w / 2 << "\" y=\"" << top + plot_h + 22 << "\" text-anchor=\"middle\">" << n
    << " claims, sorted by their worst err/bound (red: refuted)</text></svg>";
  return s.str();
}

}  // namespace attnprop::report
