#include "properties/framework/judge.h"

namespace attnprop {

Judgement Judge(const PropertyResult& r, Expectation expect) {
  using S = Judgement::Status;
  switch (r.verdict) {
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
  return Judge(r, def.row ? def.row->expect : Expectation::kHolds);
}

}  // namespace attnprop
