#include "properties/framework/run.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace attnprop {

SearchBudget::SearchBudget(double budget_s, size_t selected, size_t here)
    : budget_s_(budget_s),
      share_(selected ? std::max(budget_s / static_cast<double>(selected), kMinSearchShareSeconds) : 0),
      guard_(selected ? budget_s * static_cast<double>(here) / static_cast<double>(selected) : 0) {}

double SearchBudget::Share(double elapsed) const { return std::min(share_, std::max(0.0, guard_ - elapsed)); }

PropertyRun::PropertyRun(std::vector<PropertyDef> defs, std::vector<RunOptions> options, SearchBudget budget)
    : defs_(std::move(defs)), options_(std::move(options)), budget_(budget) {
  options_.resize(defs_.size(), RunOptions{});
}

double PropertyRun::seconds() const {
  return started_ ? std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() : 0;
}

const PropertyOutcome& PropertyRun::RunOne(size_t i) {
  if (!started_) {
    start_ = std::chrono::steady_clock::now();
    started_ = true;
  }
  const PropertyDef& def = defs_[i];
  for (RunListener* l : listeners_) l->Started(i, def);
  if (budget_.capped()) options_[i].search_seconds = budget_.Share(seconds());
  last_ = PropertyOutcome{};
  last_.index = i;
  last_.def = &def;
  last_.options = &options_[i];
  try {
    last_.result = RunProperty(def, options_[i]);
  } catch (const std::exception& e) {
    throw std::runtime_error(def.Name() + ": " + e.what());
  }
  last_.judgement = Judge(last_.result, def);
  for (RunListener* l : listeners_) l->Finished(last_);
  return last_;
}

size_t PropertyRun::RunAll(bool fail_fast) {
  size_t ran = 0;
  while (ran < defs_.size())
    if (!RunOne(ran++).judgement.as_expected() && fail_fast) break;
  for (RunListener* l : listeners_) l->Ended(ran);
  return ran;
}

}  // namespace attnprop
