#include "properties/framework/judge.h"

namespace attnprop {

namespace {
bool g_allow_undecided = false;
}  // namespace

void SetAllowUndecided(bool allow) { g_allow_undecided = allow; }
bool AllowUndecided() { return g_allow_undecided; }

Judgement Judge(const PropertyResult& r, Expectation expect) { return Judge(r, expect, false); }

Judgement Judge(const PropertyResult& r, Expectation expect, bool undecided_allowed) {
  using S = Judgement::Status;
  switch (r.verdict) {
    case Verdict::kUndecided: {
      const std::string seen = std::to_string(r.undecided) + (r.undecided == 1 ? " case" : " cases") +
                               (r.search_undecided > 0 ? " and " + std::to_string(r.search_undecided) + " search candidates"
                                                       : std::string()) +
                               " undecided by interval arithmetic (neither certified nor dismissed), none refuted";
      if (expect == Expectation::kRefuted)
        return {S::kUnexpected, "registered refuted, but no refutation was certified: " + seen};
      if (undecided_allowed || g_allow_undecided)
        return {S::kAsExpected, "holds where decided, as expected; " + seen + " (allowed" +
                                    (undecided_allowed ? std::string(" by its registry row)") : " by the run)")};
      return {S::kUnexpected, "undecided: " + seen +
                                  "; not a pass (allow it with the registry label `undecided`, or "
                                  "--allow-undecided / ATTNPROP_ALLOW_UNDECIDED=1)"};
    }
    case Verdict::kSkipped: return {S::kSkipped, "skipped: " + r.message};
    case Verdict::kError: return {S::kUnexpected, "error: " + r.message};
    case Verdict::kHolds:
      if (expect == Expectation::kHolds) return {S::kAsExpected, "holds, as expected"};
      return {S::kUnexpected,
              "registered refuted, but no stored case reproduces the refutation and the search found none"};
    case Verdict::kRefuted:
      if (expect == Expectation::kHolds) return {S::kUnexpected, "refuted, but registered to hold: " + r.message};
      if (r.pinned_refutation || r.confirmed.value_or(false))
        return {S::kAsExpected, r.pinned_refutation ? "refuted as stated (pinned counterexample)"
                                                    : "refuted as stated (found by the search, confirmed)"};
      return {S::kUnexpected,
              "registered refuted, but the counterexample does not survive higher precision: " + r.message};
  }
  return {S::kUnexpected, "unknown verdict"};
}

Judgement Judge(const PropertyResult& r, const PropertyDef& def) {
  return Judge(r, def.row ? def.row->expect : Expectation::kHolds, def.row && def.row->undecided_allowed);
}

}  // namespace attnprop
