// The tolerance audit's numbers: per metric, the observed error against its
// bound over the counted cases. Observations of a case are held until the
// runner says whether the case counts (a random case) or not (a shrink step).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "properties/framework/check.h"
#include "properties/framework/runner.h"

namespace attnprop {

class MetricAccumulator : public ObservationSink {
 public:
  /// One MetricStats per tolerance checked, in the order first checked; `u`
  /// is the backend's unit roundoff (0 for exact backends).
  explicit MetricAccumulator(double u) : u_(u) {}

  /// A new case begins: observations until Commit or Drop belong to it.
  void StartCase(const Case& c);
  void Observe(const Observation& o) override;
  void NoteUndecided(const std::string& why) override {
    if (pending_undecided_.empty()) pending_undecided_ = why;
  }
  /// The case's score so far: its largest observed/bound (0 when none).
  double PendingScore() const;
  /// The case counts: its observations enter the statistics.
  void Commit();
  /// A targeted-search candidate's observations: they raise the metrics'
  /// search_max_ratio (the counted statistics stay the random cases').
  void ObserveSearch(const std::vector<Observation>& seen, const Case& c);
  /// The case does not count (a shrink step, a discarded case).
  void Drop() {
    pending_.clear();
    pending_undecided_.clear();
  }

  /// The case being run (the last StartCase), if any.
  const std::optional<Case>& current() const { return current_; }
  std::vector<MetricStats>& stats() { return stats_; }
  /// Counted cases whose candidate failure interval arithmetic left
  /// undecided (certify.h), and the first one's reason.
  int undecided() const { return undecided_; }
  const std::string& undecided_example() const { return undecided_example_; }

 private:
  MetricStats& StatsFor(const Tolerance& tolerance);

  std::vector<MetricStats> stats_;
  double u_;
  std::vector<Observation> pending_;
  std::string pending_undecided_;
  int undecided_ = 0;
  std::string undecided_example_;
  std::optional<Case> current_;
};

}  // namespace attnprop
