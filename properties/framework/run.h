// One run of a selection of properties, for every front end: each property
// gets its share of the search budget, runs through the one runner
// (RunProperty), is judged (Judge), and the outcome goes to the listeners.
// `attnprop run`, `audit` and `check-kernel` (tools/cmd_run.cc) listen with
// the console line, the progress bar, the report builder and the kernel
// diagnosis; the property test binary (test_main.cc) with gtest.
#pragma once

#include <chrono>
#include <cstddef>
#include <vector>

#include "properties/framework/judge.h"
#include "properties/framework/runner.h"

namespace attnprop {

/// The search budget per property: the same in every shard and in the
/// unsharded run, whatever else runs, so that a shard's work depends on
/// nothing outside it. Each property may search for budget / selected
/// seconds (selected: the properties of the whole selection, before
/// sharding), at least kMinSearchShareSeconds; the run stops searching when
/// its part of the budget (budget x its properties / selected: all of it
/// unsharded) is spent, a guard for slow machines (a property it stops says
/// so). A budget of 0: no cap (each property's own search_seconds).
class SearchBudget {
 public:
  /// A property's search may use at least this much of the budget: most
  /// properties use a fraction of their even share, and a cap that bites
  /// makes a run's search depend on the machine's speed (the same seed then
  /// no longer gives the same report).
  static constexpr double kMinSearchShareSeconds = 30;

  SearchBudget() = default;
  SearchBudget(double budget_s, size_t selected, size_t here);
  bool capped() const { return budget_s_ > 0; }
  /// Seconds the next property may search, `elapsed` seconds into the run.
  double Share(double elapsed) const;
  double share() const { return share_; }
  double guard() const { return guard_; }

 private:
  double budget_s_ = 0, share_ = 0, guard_ = 0;
};

/// One property's outcome, as the listeners see it.
struct PropertyOutcome {
  size_t index = 0;  // in the run's properties
  const PropertyDef* def = nullptr;
  const RunOptions* options = nullptr;  // what it ran with (its budget share included)
  PropertyResult result;
  Judgement judgement;
};

/// What a front end hears. Listeners are told in the order they were added.
class RunListener {
 public:
  virtual ~RunListener() = default;
  virtual void Started(size_t /*index*/, const PropertyDef& /*def*/) {}
  virtual void Finished(const PropertyOutcome& /*outcome*/) {}
  /// After RunAll (the properties that ran; fewer than all after fail_fast).
  virtual void Ended(size_t /*ran*/) {}
};

class PropertyRun {
 public:
  /// options: one per property (its store, its cases, its search).
  PropertyRun(std::vector<PropertyDef> defs, std::vector<RunOptions> options, SearchBudget budget = {});
  void Listen(RunListener& listener) { listeners_.push_back(&listener); }

  /// Runs property i and tells the listeners. What RunProperty throws (a
  /// malformed store file, a bad reproduce token: bad input, for the front
  /// end to report) is thrown again as a std::runtime_error that starts
  /// with the property's name.
  const PropertyOutcome& RunOne(size_t i);
  /// Every property in order; with fail_fast, stops after the first
  /// unexpected outcome. Returns how many ran, after telling the listeners
  /// (Ended).
  size_t RunAll(bool fail_fast);

  const std::vector<PropertyDef>& defs() const { return defs_; }
  const RunOptions& options(size_t i) const { return options_[i]; }
  size_t size() const { return defs_.size(); }
  /// Seconds since the first property started.
  double seconds() const;

 private:
  std::vector<PropertyDef> defs_;
  std::vector<RunOptions> options_;
  SearchBudget budget_;
  std::vector<RunListener*> listeners_;
  std::chrono::steady_clock::time_point start_{};
  bool started_ = false;
  PropertyOutcome last_;
};

}  // namespace attnprop
