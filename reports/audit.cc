// The tolerance audit's flags, the err/bound histograms, and what every
// writer shares about a report.
#include <algorithm>
#include <cmath>
#include <ctime>
#include <string_view>

#include "reports/report.h"

namespace attnprop::report {


Counts CountVerdicts(const Report& r) {
  Counts c;
  for (const auto& e : r.entries) {
    c.holds += e.result.verdict == Verdict::kHolds;
    c.refuted += e.result.verdict == Verdict::kRefuted;
    c.errors += e.result.verdict == Verdict::kError;
    c.skipped += e.result.verdict == Verdict::kSkipped;
    c.undecided += e.result.verdict == Verdict::kUndecided;
    c.unexpected += !e.as_expected();
  }
  return c;
}

int DiagnosisRank(const Report& r, const Entry& e) {
  for (size_t k = 0; k < r.diagnosis.ranked.size(); ++k)
    if (r.diagnosis.ranked[k].id == e.result.id && r.diagnosis.ranked[k].backend == e.result.backend)
      return static_cast<int>(k);
  return -1;
}

const char* ExpectationName(Expectation e) { return e == Expectation::kRefuted ? "refuted" : "holds"; }

std::string RelativeSource(const std::string& file) {
  // One literal, not std::string + "/": GCC 12 warns a false -Warray-bounds on the
  // concatenation for some lengths of the source path (CI's /check/work/main).
  constexpr std::string_view root = ATTNPROP_SOURCE_DIR "/";
  if (file.rfind(root, 0) == 0) return file.substr(root.size());
  if (!file.empty() && file[0] == '/') return file;
  size_t at = 0;  // relative: drop the leading ../ and ./ steps out of the build directory
  while (file.compare(at, 3, "../") == 0 || file.compare(at, 2, "./") == 0) at += file[at] == '.' && file[at + 1] == '/' ? 2 : 3;
  return file.substr(at);
}

std::string UtcNow() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

unsigned AuditFlags(const MetricStats& m) {
  unsigned f = 0;
  if (m.nonfinite) f |= kNonfinite | kFail;
  if (m.count > 0 && m.max_ratio > 1) f |= kFail;
  // LOOSE is a rounding bound's flag: a claim metric's distance from its
  // bound is the claim's tightness (Tightness), not a weak tolerance.
  if (m.tolerance.kind == MetricKind::kRounding && m.count > 0 && !m.nonfinite && m.max_bound > 0 &&
      m.max_ratio * kLooseFactor < 1)
    f |= kLoose;
  auto blank = [](const std::string& s) { return s.find_first_not_of(" \t") == std::string::npos; };
  if (blank(m.tolerance.reason) || blank(m.tolerance.bound)) f |= kUnjustified;
  return f;
}

std::string FoundByText(const PropertyResult& r) {
  if (r.verdict != Verdict::kRefuted) return "";
  switch (r.found_by) {
    case FoundBy::kStore: return r.pinned_refutation ? "pin only" : "stored case";
    case FoundBy::kRandom: return "random";
    case FoundBy::kSearch: return "search (" + std::to_string(r.search_tried) + " candidates)";
    case FoundBy::kNone: break;
  }
  return "";
}

double BestRatio(const MetricStats& m) { return std::max(m.max_ratio, m.search_max_ratio); }

const char* Tightness(const MetricStats& m) {
  const double best = BestRatio(m);
  if (!(best >= 0)) return "far";
  // Past 1 the inequality failed: a refutation's ratio (2, 1.5e219) is no
  // bound attained.
  if (best > 1) return "exceeded";
  return best >= 0.999 ? "attained" : best >= 0.5 ? "close" : "far";
}

std::vector<std::pair<AuditFlag, const char*>> AllFlags() {
  return {{kFail, "FAIL"}, {kLoose, "LOOSE"}, {kUnjustified, "UNJUSTIFIED"}, {kNonfinite, "NONFINITE"}};
}

std::string FlagText(unsigned flags) {
  std::string s;
  for (const auto& [bit, name] : AllFlags()) {
    if (!(flags & bit)) continue;
    if (!s.empty()) s += ' ';
    s += name;
  }
  return s;
}

Histogram RatioHistogram(const std::vector<double>& ratios) {
  constexpr int kLowestDecade = -16;
  Histogram h;
  h.labels.push_back("0");
  h.labels.push_back("<1e-16");
  for (int d = kLowestDecade; d < 0; ++d) h.labels.push_back("1e" + std::to_string(d));
  h.labels.push_back(">1");
  h.labels.push_back("non-finite");
  h.counts.assign(h.labels.size(), 0);
  const size_t over = h.labels.size() - 2, nonfinite = h.labels.size() - 1;
  for (double r : ratios) {
    size_t bin;
    if (!std::isfinite(r)) {
      bin = nonfinite;
    } else if (r <= 0) {
      bin = 0;
    } else if (r > 1) {
      bin = over;
    } else {
      // Decade [10^d, 10^(d+1)) is labelled 1e<d>; r == 1 joins 1e-1.
      const int d = static_cast<int>(std::floor(std::log10(r)));
      bin = d < kLowestDecade ? 1 : static_cast<size_t>(2 + std::min(d, -1) - kLowestDecade);
    }
    ++h.counts[bin];
  }
  return h;
}

}  // namespace attnprop::report
