#include "properties/framework/replay.h"

#include <map>

#include "properties/framework/case_schema.h"
#include "properties/framework/rc_bridge.h"

namespace attnprop {

std::optional<std::string> CaseDoesNotFit(const PropertyDef& def, const Case& c) {
  if (def.misfit) {
    // A claim over a Domain knows its schema: no learning from samples.
    if (auto why = def.misfit(c)) return std::string(kCaseMisfit) + *why;
    return std::nullopt;
  }
  static std::map<std::string, CaseSchema> schemas;
  auto it = schemas.find(def.Name());
  if (it == schemas.end()) {
    // Fixed seed: the same schema on every run. 24 cases over sizes 0..100.
    it = schemas.emplace(def.Name(), CaseSchema::Learn(SampleCases(def.hypotheses(), 0x5c4e3a, 24))).first;
  }
  if (auto why = it->second.Misfit(c)) return std::string(kCaseMisfit) + *why;
  try {
    def.hypotheses_hold(c);
  } catch (const std::out_of_range& e) {
    return std::string(kCaseMisfit) + e.what();
  } catch (const std::exception&) {
    // Another error of the hypotheses check is the replay's to report.
  }
  return std::nullopt;
}

ReplayOutcome ReplayCase(const PropertyDef& def, const StoredCase& stored) {
  ReplayOutcome o;
  o.name = stored.name;
  o.origin = stored.origin;
  o.expect = stored.expect;
  // The case is checked before the claim's code runs on it: one that does
  // not fit, or is outside the hypotheses, is never run.
  if (const auto misfit = CaseDoesNotFit(def, stored.value)) {
    o.detail = *misfit + " (restrict the entry's backends=)";
    return o;
  }
  bool hypotheses = false;
  std::string why_not;
  try {
    hypotheses = def.hypotheses_hold(stored.value);
  } catch (const std::exception& e) {
    why_not = std::string(" (") + e.what() + ")";
  }
  if (!hypotheses) {
    if (def.why_outside && why_not.empty())
      if (const auto why = def.why_outside(stored.value)) why_not = " (" + *why + ")";
    o.detail = "no longer satisfies the claim's hypotheses" + why_not;
    return o;
  }
  const auto failure = CheckCase(def.conclusion, stored.value);
  if (IsMisfit(failure)) {
    o.detail = *failure + " (restrict the entry's backends=)";
  } else if (stored.expect == StoredCase::Expect::kHolds) {
    o.ok = !failure;
    o.regression = failure.has_value();
    o.detail = failure ? "fails: " + *failure : "holds";
  } else if (!failure) {
    o.detail = "no longer refutes the claim (the conclusion holds on it)";
  } else {
    const auto high = CheckCase(def.confirm, stored.value);
    o.ok = high.has_value();
    // A certified claim's failure carries its certificate already.
    o.detail = high ? "refutes: " + *failure + (def.certify ? "" : "; confirmed at higher precision: " + *high)
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
