#include "properties/framework/replay.h"

namespace attnprop {

ReplayOutcome ReplayCase(const PropertyDef& def, const StoredCase& stored) {
  ReplayOutcome o;
  o.name = stored.name;
  o.origin = stored.origin;
  o.expect = stored.expect;
  bool hypotheses = false;
  std::string why_not;
  try {
    hypotheses = def.hypotheses_hold(stored.value);
  } catch (const std::exception& e) {
    why_not = std::string(" (") + e.what() + ")";
  }
  const auto failure = CheckCase(def.conclusion, stored.value);
  if (IsMisfit(failure)) {
    o.detail = *failure + " (restrict the entry's backends=)";
  } else if (!hypotheses) {
    o.detail = "no longer satisfies the claim's hypotheses" + why_not;
  } else if (stored.expect == StoredCase::Expect::kHolds) {
    o.ok = !failure;
    o.regression = failure.has_value();
    o.detail = failure ? "fails: " + *failure : "holds";
  } else if (!failure) {
    o.detail = "no longer refutes the claim (the conclusion holds on it)";
  } else {
    const auto high = CheckCase(def.confirm, stored.value);
    o.ok = high.has_value();
    o.detail = high ? "refutes: " + *failure + "; confirmed at higher precision: " + *high
                    : "refutes in " + def.backend + " (" + *failure +
                          ") but not at higher precision: a rounding artefact, not a refutation";
  }
  return o;
}

StorePhase ReplayStore(const PropertyDef& def, const std::string& dir) {
  StorePhase phase;
  if (dir.empty()) return phase;
  for (auto& sc : LoadStore(dir, def.id))
    if (sc.AppliesTo(def.backend)) phase.cases.push_back(std::move(sc));
  for (size_t i = 0; i < phase.cases.size(); ++i) {
    const StoredCase& sc = phase.cases[i];
    ReplayOutcome o = ReplayCase(def, sc);
    if (o.regression) {
      if (!phase.regression) phase.regression = i;
    } else if (!o.ok) {
      phase.problems.push_back("stored case " + sc.name + " (" + sc.origin + ") " + o.detail);
    }
    if (o.ok && sc.expect == StoredCase::Expect::kRefutes && !phase.pinned) phase.pinned = i;
    phase.outcomes.push_back(std::move(o));
  }
  return phase;
}

}  // namespace attnprop
