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

namespace {
/// Keeps the first NoteUndecided of a run (nothing else).
class UndecidedNote : public ObservationSink {
 public:
  void Observe(const Observation&) override {}
  void NoteUndecided(const std::string& why) override {
    if (first.empty()) first = why;
  }
  std::string first;
};
}  // namespace

CaseCheck CheckCaseDecided(const std::function<void(const Case&)>& conclusion, const Case& c) {
  UndecidedNote note;
  std::optional<std::string> failure;
  {
    ScopedObservationSink sink(&note);
    failure = CheckCase(conclusion, c);
  }
  if (IsMisfit(failure)) return {CaseCheck::Kind::kMisfit, *failure};
  if (failure) return {CaseCheck::Kind::kFails, *failure};
  if (!note.first.empty()) return {CaseCheck::Kind::kUndecided, note.first};
  return {};
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
  const CaseCheck check = CheckCaseDecided(def.conclusion, stored.value);
  const std::optional<std::string> failure =
      check.kind == CaseCheck::Kind::kFails ? std::optional<std::string>(check.detail) : std::nullopt;
  o.undecided = check.kind == CaseCheck::Kind::kUndecided;
  if (check.kind == CaseCheck::Kind::kMisfit) {
    o.detail = check.detail + " (restrict the entry's backends=)";
  } else if (o.undecided) {
    // Counted as an undecided case whatever the entry expects; as expected
    // only for expect=undecided (expect=holds: it did not hold; refutes: it
    // is no longer certified).
    o.ok = stored.expect != StoredCase::Expect::kRefutes;
    o.detail = std::string(stored.expect == StoredCase::Expect::kRefutes ? "no longer refutes: " : "") +
               "undecided: " + check.detail;
  } else if (stored.expect == StoredCase::Expect::kHolds || stored.expect == StoredCase::Expect::kUndecided) {
    o.regression = failure.has_value();
    o.ok = stored.expect == StoredCase::Expect::kHolds && !failure;
    o.detail = failure ? "fails: " + *failure
                       : stored.expect == StoredCase::Expect::kHolds
                             ? "holds"
                             : "now holds, decided (it was pinned expect=undecided: make it expect=holds)";
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
    if (o.undecided && phase.undecided++ == 0)
      phase.undecided_example = "stored case " + sc.name + " (" + sc.origin + "): " + o.detail;
    phase.outcomes.push_back(std::move(o));
  }
  return phase;
}

}  // namespace attnprop
