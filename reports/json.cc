// report.json; its schema is documented in docs/cli-and-reports.md.
#include <nlohmann/json.hpp>

#include <cmath>

#include "reports/report.h"
#include "reports/summary.h"

namespace attnprop::report {
namespace {

using Json = nlohmann::ordered_json;  // keys in insertion order: stable bytes

/// A finite number, or null for NaN and infinities (JSON has neither).
Json Num(double x) { return std::isfinite(x) ? Json(x) : Json(nullptr); }

Json TextOrNull(const std::string& s) { return s.empty() ? Json(nullptr) : Json(s); }

/// Numbers as Num writes them, and the non-finite ones also spelled out
/// ("nonfinite_numbers": {"max_ratio": "inf"}, present only when one is),
/// so that ReadReport gives back inf, -inf or nan, not one null for all.
class Numbers {
 public:
  explicit Numbers(Json* obj) : obj_(obj) {}
  void Set(const char* key, double x) {
    (*obj_)[key] = Num(x);
    Note(key, x);
  }
  /// Only the spelling (the number itself is written elsewhere, e.g. nested).
  void Note(const char* key, double x) {
    if (!std::isfinite(x)) spelled_[key] = std::isnan(x) ? "nan" : x > 0 ? "inf" : "-inf";
  }
  void Finish() {
    if (!spelled_.empty()) (*obj_)["nonfinite_numbers"] = spelled_;
  }

 private:
  Json* obj_;
  Json spelled_ = Json::object();
};

}  // namespace

std::string ToJson(const Report& r) {
  Json doc;
  doc["schema"] = "attnprop-report/1";
  doc["generated"] = r.run.generated;
  Json run;
  run["attnprop_version"] = r.run.version;
  run["command"] = r.run.command;
  run["seed"] = std::to_string(r.run.seed);  // a string: 64-bit seeds exceed 2^53
  run["cases"] = r.run.cases;
  run["max_size"] = r.run.max_size;
  run["shrink"] = r.run.shrink;
  run["mpfr_bits"] = r.run.mpfr_bits;
  run["search_steps"] = r.run.search_steps;
  run["budget_s"] = Num(r.run.budget_s);
  run["kernel"] = r.run.kernel;
  run["kernel_path"] = TextOrNull(r.run.kernel_path);
  run["store"] = TextOrNull(r.run.store);
  run["selection"] = r.run.selection;
  run["selected"] = r.run.selected;
  run["registry"] = r.run.registry;
  run["shard"] = r.run.shard_total == 0 ? Json(nullptr)
                                        : Json({{"index", r.run.shard_index}, {"total", r.run.shard_total}});
  doc["run"] = run;

  const Counts counts = CountVerdicts(r);
  std::vector<int> flag_counts(AllFlags().size(), 0);
  Json props = Json::array();
  for (const auto& e : r.entries) {
    const PropertyResult& p = e.result;
    Json j;
    j["id"] = p.id;
    j["backend"] = p.backend;
    j["index"] = e.index;
    j["file"] = e.file;
    j["statement"] = TextOrNull(StatementOf(p.id));
    j["expect"] = ExpectationName(e.expect);
    j["undecided_allowed"] = e.undecided_allowed;
    j["verdict"] = VerdictName(p.verdict);
    j["as_expected"] = e.as_expected();
    // A statistical claim's false-alarm rate and power (statistics.h); null otherwise.
    if (e.statistics) {
      const Statistics& st = *e.statistics;
      j["statistics"] = {{"alpha", st.alpha},       {"alpha_scope", st.alpha_scope}, {"basis", st.basis},
                         {"rigorous", st.rigorous}, {"power", st.power},             {"detects", st.detects},
                         {"sample", st.sample}};
    } else {
      j["statistics"] = nullptr;
    }
    j["cases"] = p.cases;
    j["discarded"] = p.discarded;
    j["shrink_steps"] = p.shrink_steps;
    Numbers nums(&j);
    nums.Set("seconds", p.seconds);
    j["seed"] = std::to_string(p.seed);
    j["message"] = TextOrNull(p.message);
    j["counterexample"] = TextOrNull(p.counterexample);
    j["confirmed"] = p.confirmed ? Json(*p.confirmed) : Json(nullptr);
    j["certificate"] = TextOrNull(p.certificate);
    j["undecided"] = p.undecided;
    j["undecided_example"] = TextOrNull(p.undecided_example);
    j["search_undecided"] = p.search_undecided;
    j["pinned_refutation"] = p.pinned_refutation;
    j["reproduce"] = TextOrNull(p.reproduce);
    j["found_by"] = FoundByName(p.found_by);
    j["search"] = {{"tried", p.search_tried}, {"outside", p.search_outside},
                   {"best_score", Num(p.search_best_score)}, {"capped", p.search_capped},
                   {"note", TextOrNull(p.search_note)}};
    nums.Note("search_best_score", p.search_best_score);
    j["store_entry"] = TextOrNull(p.store_entry);
    j["saved_to"] = TextOrNull(p.saved_to);
    j["replay_file"] = TextOrNull(p.replay_file);
    Json stored = Json::array();
    for (const auto& o : p.replayed) {
      Json s;
      s["name"] = o.name;
      s["origin"] = o.origin;
      s["expect"] = ExpectName(o.expect);
      s["ok"] = o.ok;
      s["detail"] = o.detail;
      stored.push_back(s);
    }
    j["stored_cases"] = stored;
    Json metrics = Json::array();
    for (const auto& m : p.metrics) {
      const unsigned flags = AuditFlags(m);
      Json k;
      Numbers mn(&k);
      k["metric"] = m.tolerance.metric;
      k["kind"] = m.tolerance.kind == MetricKind::kClaim ? "claim" : "rounding";
      if (m.tolerance.kind == MetricKind::kClaim) {
        k["best_ratio"] = Num(BestRatio(m));
        k["tightness"] = Tightness(m);
      }
      k["bound"] = m.tolerance.bound;
      k["reason"] = m.tolerance.reason;
      k["count"] = m.count;
      k["certified_cases"] = m.certified;
      k["undecided_cases"] = m.undecided;
      mn.Set("max_ratio", m.max_ratio);
      mn.Set("mean_ratio", m.mean_ratio);
      mn.Set("max_observed", m.max_observed);
      mn.Set("mean_observed", m.mean_observed);
      mn.Set("max_in_u", m.max_in_u);
      mn.Set("mean_in_u", m.mean_in_u);
      mn.Set("max_bound", m.max_bound);
      k["nonfinite"] = m.nonfinite;
      Json f = Json::array();
      for (size_t i = 0; i < AllFlags().size(); ++i) {
        if (flags & AllFlags()[i].first) {
          f.push_back(AllFlags()[i].second);
          ++flag_counts[i];
        }
      }
      k["flags"] = f;
      Json problems = Json::array();
      const unsigned pf = ProblemFlags(e, m);
      for (const auto& [bit, name] : AllFlags())
        if (pf & bit) problems.push_back(name);
      k["problem_flags"] = problems;
      k["exact_everywhere"] = IsExactEverywhere(m);
      const Histogram h = RatioHistogram(m.ratios);
      k["histogram"] = {{"bins", h.labels}, {"counts", h.counts}};
      k["worst_case"] = TextOrNull(m.worst_case);
      mn.Set("search_max_ratio", m.search_max_ratio);
      k["search_worst_case"] = TextOrNull(m.search_worst_case);
      mn.Finish();
      metrics.push_back(k);
    }
    j["metrics"] = metrics;
    nums.Finish();
    props.push_back(j);
  }
  Json summary;
  summary["properties"] = r.entries.size();
  summary["holds"] = counts.holds;
  summary["refuted"] = counts.refuted;
  summary["error"] = counts.errors;
  summary["skipped"] = counts.skipped;
  summary["undecided"] = counts.undecided;
  summary["unexpected"] = counts.unexpected;
  Json flags;
  for (size_t i = 0; i < AllFlags().size(); ++i) flags[AllFlags()[i].second] = flag_counts[i];
  summary["flags"] = flags;
  // Counted as the summaries count them (summary.h): problems only.
  const Summary sum = Summarize(r);
  Json problem_flags;
  for (size_t i = 0; i < AllFlags().size(); ++i) problem_flags[AllFlags()[i].second] = sum.problems[i];
  summary["problem_flags"] = problem_flags;
  summary["headline"] = Headline(sum);
  Json refuted = Json::array();
  for (const auto& c : sum.refuted) refuted.push_back({{"id", c.id}, {"backends", c.backends}, {"statement", c.statement}});
  summary["refuted_as_stated"] = refuted;
  doc["summary"] = summary;
  // check-kernel's diagnosis (null when there is none): the bug class, the
  // failing properties most specific first, and how many groups of one
  // shrunk counterexample they fall into (group numbers from 1).
  if (r.diagnosis.empty()) {
    doc["diagnosis"] = nullptr;
  } else {
    Json ranked = Json::array();
    for (size_t k = 0; k < r.diagnosis.ranked.size(); ++k) {
      const DiagnosedFailure& f = r.diagnosis.ranked[k];
      ranked.push_back({{"rank", k + 1}, {"id", f.id}, {"backend", f.backend}, {"group", f.group + 1}});
    }
    doc["diagnosis"] = {{"bug_class", r.diagnosis.bug_class}, {"groups", r.diagnosis.groups}, {"ranked", ranked}};
  }
  doc["properties"] = props;
  return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace attnprop::report
