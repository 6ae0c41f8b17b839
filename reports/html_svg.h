// report.html's plots, compact: inline SVG with a few <path> elements per
// plot (one per colour), never one element per bin, cell or point, and the
// histograms as text sparklines, so the default audit's page stays small
// (internal to reports/).
#pragma once

#include <string>
#include <vector>

#include "reports/report.h"

namespace attnprop::report {

/// A sparkline of an err/bound histogram (bins as in RatioHistogram), as
/// text (block characters, 3 bytes a bin: the cheapest plot there is): the
/// "0" bin grey, the ">1" and "non-finite" bins red; a title with the counts.
std::string HistogramSparkline(const Histogram& h);

/// Attention weights (rows x cols) as a heatmap (white 0 to dark blue 1,
/// sqrt scale, 12 colour levels), masked cells (NaN) hatched; `hatch_id`
/// must be unique in the page.
std::string HeatmapSvg(const std::vector<std::vector<double>>& weights, const std::string& label,
                       const std::string& hatch_id);
/// The heatmaps' colour legend.
std::string HeatmapLegendSvg();

/// One point per claim: its worst observed/bound (rounding metrics) or best
/// ratio (claim metrics), log scale, sorted; `bad` points (refuted or
/// unexpected) in red. The line at 1 is the bound.
struct RatioPoint {
  double ratio = 0;
  bool bad = false;
};
std::string RatioStripSvg(std::vector<RatioPoint> points);

}  // namespace attnprop::report
