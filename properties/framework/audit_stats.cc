#include "properties/framework/audit_stats.h"

#include <algorithm>
#include <cmath>

namespace attnprop {

void MetricAccumulator::StartCase(const Case& c) {
  pending_.clear();
  pending_undecided_.clear();
  current_ = c;
}

void MetricAccumulator::Observe(const Observation& o) { pending_.push_back(o); }

MetricStats& MetricAccumulator::StatsFor(const Tolerance& tolerance) {
  for (auto& s : stats_)
    if (s.tolerance.metric == tolerance.metric) return s;
  MetricStats m;
  m.tolerance = tolerance;
  stats_.push_back(m);
  return stats_.back();
}

double MetricAccumulator::PendingScore() const {
  double s = 0;
  for (const auto& o : pending_) s = std::max(s, ObservationRatio(o));
  return s;
}

void MetricAccumulator::ObserveSearch(const std::vector<Observation>& seen, const Case& c) {
  for (const auto& o : seen) {
    MetricStats& m = StatsFor(o.tolerance);
    const double ratio = ObservationRatio(o);
    if (ratio > m.search_max_ratio) {
      m.search_max_ratio = ratio;
      m.search_worst_case = c.ToText();
    }
  }
}

void MetricAccumulator::Commit() {
  if (!pending_undecided_.empty()) {
    if (undecided_++ == 0) undecided_example_ = pending_undecided_ + (current_ ? "\n" + current_->ToText() : "");
    pending_undecided_.clear();
  }
  for (const auto& o : pending_) {
    MetricStats& m = StatsFor(o.tolerance);
    const bool finite = std::isfinite(o.observed) && std::isfinite(o.bound);
    const double ratio = ObservationRatio(o);
    // A pair decided by intervals holds whatever the backend computed (its
    // overflow included): non-finite there is not the check's failure.
    m.nonfinite = m.nonfinite || (!finite && !o.certified && !o.undecided);
    if (o.certified) ++m.certified;
    if (o.undecided) ++m.undecided;
    m.ratios.push_back(ratio);
    ++m.count;
    m.mean_ratio += (ratio - m.mean_ratio) / static_cast<double>(m.count);
    if (m.count == 1 || ratio > m.max_ratio) {
      m.max_ratio = ratio;
      if (current_) m.worst_case = current_->ToText();
    }
    if (finite) {
      ++m.finite_count;
      m.max_observed = std::max(m.max_observed, o.observed);
      m.max_bound = std::max(m.max_bound, o.bound);
      m.mean_observed += (o.observed - m.mean_observed) / static_cast<double>(m.finite_count);
      if (u_ > 0) {
        m.max_in_u = std::max(m.max_in_u, o.observed / u_);
        m.mean_in_u = m.mean_observed / u_;
      }
    }
  }
  pending_.clear();
}

}  // namespace attnprop
