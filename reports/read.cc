// Reading a written report back: the unexpected results of the last run
// (attnprop run/audit --rerun-failed), and the whole Report (attnprop merge
// joins the shards' report.json files and writes the set again).
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "reports/report.h"
#include "reports/report_set.h"

namespace attnprop::report {
namespace {

using Json = nlohmann::json;

constexpr const char* kSchema = "attnprop-report/1";

Json ParseDocument(const std::string& text, const std::string& name) {
  Json doc;
  try {
    doc = Json::parse(text);
  } catch (const std::exception& e) {
    throw std::runtime_error(name + ": not a report: " + e.what());
  }
  if (!doc.is_object() || !doc.contains("schema") || doc["schema"] != kSchema || !doc["properties"].is_array())
    throw std::runtime_error(name + ": not an attnprop-report/1 report");
  return doc;
}

std::string ReadText(const std::string& path, const char* why) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path + why);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Typed access to one object of the report, naming the field on error.
class Fields {
 public:
  Fields(const Json& obj, std::string where) : obj_(obj), where_(std::move(where)) {
    if (!obj_.is_object()) Fail("", "is not an object");
  }
  [[noreturn]] void Fail(const std::string& key, const std::string& why) const {
    throw std::runtime_error(where_ + (key.empty() ? "" : "." + key) + " " + why);
  }
  bool Has(const std::string& key) const { return obj_.contains(key); }
  const Json& At(const std::string& key) const {
    if (!obj_.contains(key)) Fail(key, "is missing");
    return obj_.at(key);
  }
  std::string Text(const std::string& key) const {  // a string, or null for ""
    const Json& v = At(key);
    if (v.is_null()) return "";
    if (!v.is_string()) Fail(key, "is not a string");
    return v.get<std::string>();
  }
  bool Bool(const std::string& key) const {
    const Json& v = At(key);
    if (!v.is_boolean()) Fail(key, "is not a boolean");
    return v.get<bool>();
  }
  int64_t Int(const std::string& key) const {
    const Json& v = At(key);
    if (!v.is_number_integer()) Fail(key, "is not an integer");
    return v.get<int64_t>();
  }
  uint64_t Uint(const std::string& key) const {  // a non-negative integer
    const int64_t v = Int(key);
    if (v < 0) Fail(key, "is negative");
    return static_cast<uint64_t>(v);
  }
  uint64_t UintText(const std::string& key) const {  // a 64-bit integer written as a string (seeds)
    const std::string t = Text(key);
    if (t.empty() || t.size() > 20 || t.find_first_not_of("0123456789") != std::string::npos) Fail(key, "is not a seed");
    return std::stoull(t);
  }
  /// A number; null is the non-finite value spelled in "nonfinite_numbers".
  double Number(const std::string& key) const {
    const Json& v = At(key);
    if (v.is_number()) return v.get<double>();
    if (!v.is_null()) Fail(key, "is not a number");
    return Spelled(key);
  }
  /// The non-finite number "nonfinite_numbers" spells for `key` (nan when none does).
  double Spelled(const std::string& key) const {
    const Json* spelled = obj_.contains("nonfinite_numbers") ? &obj_["nonfinite_numbers"] : nullptr;
    const std::string s = spelled && spelled->contains(key) && (*spelled)[key].is_string()
                              ? (*spelled)[key].get<std::string>()
                              : "nan";
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    return std::numeric_limits<double>::quiet_NaN();
  }
  const Json& Array(const std::string& key) const {
    const Json& v = At(key);
    if (!v.is_array()) Fail(key, "is not an array");
    return v;
  }
  const std::string& where() const { return where_; }

 private:
  const Json& obj_;
  std::string where_;
};

/// The enumerator whose name (as `name_of` spells it) is `text`.
template <typename E, size_t N>
E EnumNamed(const Fields& f, const std::string& key, const E (&all)[N], const char* (*name_of)(E)) {
  const std::string text = f.Text(key);
  for (E e : all)
    if (text == name_of(e)) return e;
  f.Fail(key, "has an unknown value '" + text + "'");
}

const char* MetricKindName(MetricKind k) { return k == MetricKind::kClaim ? "claim" : "rounding"; }

/// One ratio per case inside each histogram bin: what RatioHistogram
/// counts is all the writers read of the per-case ratios.
std::vector<double> RatiosFromHistogram(const Fields& m) {
  const Fields h(m.At("histogram"), m.where() + ".histogram");
  const Json& counts = h.Array("counts");
  const Histogram bins = RatioHistogram({});
  if (counts.size() != bins.labels.size()) h.Fail("counts", "does not have " + std::to_string(bins.labels.size()) + " bins");
  std::vector<double> ratios;
  for (size_t b = 0; b < counts.size(); ++b) {
    if (!counts[b].is_number_unsigned()) h.Fail("counts", "holds a count that is not a non-negative integer");
    const std::string& label = bins.labels[b];
    double v = 0;  // "0"
    if (label == "<1e-16") v = 1e-17;
    else if (label == ">1") v = 2;
    else if (label == "non-finite") v = std::numeric_limits<double>::quiet_NaN();
    else if (label != "0") v = 2 * std::pow(10.0, std::stoi(label.substr(2)));  // decade [1e-k, 1e-k+1)
    ratios.insert(ratios.end(), counts[b].get<size_t>(), v);
  }
  if (RatioHistogram(ratios).counts != std::vector<int64_t>(counts.begin(), counts.end()))
    h.Fail("counts", "cannot be restored");  // a representative outside its bin: a bug here
  return ratios;
}

MetricStats ReadMetric(const Fields& m) {
  MetricStats s;
  s.tolerance.metric = m.Text("metric");
  s.tolerance.bound = m.Text("bound");
  s.tolerance.reason = m.Text("reason");
  s.tolerance.kind = EnumNamed(m, "kind", {MetricKind::kRounding, MetricKind::kClaim}, MetricKindName);
  s.count = m.Int("count");
  s.certified = m.Int("certified_cases");
  if (m.Has("undecided_cases")) s.undecided = m.Int("undecided_cases");
  s.max_ratio = m.Number("max_ratio");
  s.mean_ratio = m.Number("mean_ratio");
  s.max_observed = m.Number("max_observed");
  s.mean_observed = m.Number("mean_observed");
  s.max_in_u = m.Number("max_in_u");
  s.mean_in_u = m.Number("mean_in_u");
  s.max_bound = m.Number("max_bound");
  s.nonfinite = m.Bool("nonfinite");
  s.ratios = RatiosFromHistogram(m);
  s.worst_case = m.Text("worst_case");
  s.search_max_ratio = m.Number("search_max_ratio");
  s.search_worst_case = m.Text("search_worst_case");
  return s;
}

ReplayOutcome ReadReplay(const Fields& o) {
  ReplayOutcome r;
  r.name = o.Text("name");
  r.origin = o.Text("origin");
  r.expect = EnumNamed(o, "expect", {StoredCase::Expect::kRefutes, StoredCase::Expect::kHolds, StoredCase::Expect::kUndecided},
                        ExpectName);
  r.ok = o.Bool("ok");
  r.detail = o.Text("detail");
  return r;
}

Entry ReadEntry(const Fields& p) {
  Entry e;
  PropertyResult& r = e.result;
  r.id = p.Text("id");
  r.backend = p.Text("backend");
  e.index = p.Uint("index");
  e.file = p.Text("file");
  e.expect = EnumNamed(p, "expect", {Expectation::kHolds, Expectation::kRefuted}, ExpectationName);
  r.verdict = EnumNamed(p, "verdict", {Verdict::kHolds, Verdict::kRefuted, Verdict::kError, Verdict::kSkipped, Verdict::kUndecided},
                        VerdictName);
  r.cases = static_cast<int>(p.Int("cases"));
  r.discarded = static_cast<int>(p.Int("discarded"));
  r.shrink_steps = static_cast<int>(p.Int("shrink_steps"));
  r.seconds = p.Number("seconds");
  r.seed = p.UintText("seed");
  r.message = p.Text("message");
  r.counterexample = p.Text("counterexample");
  if (!r.counterexample.empty()) {
    std::string error;
    r.counterexample_case = Case::Parse(r.counterexample, &error);
    if (!r.counterexample_case) p.Fail("counterexample", "is not a case: " + error);
  }
  if (!p.At("confirmed").is_null()) r.confirmed = p.Bool("confirmed");
  r.certificate = p.Text("certificate");
  r.undecided = static_cast<int>(p.Uint("undecided"));
  r.undecided_example = p.Text("undecided_example");
  if (p.Has("search_undecided")) r.search_undecided = static_cast<int>(p.Uint("search_undecided"));
  r.pinned_refutation = p.Bool("pinned_refutation");
  r.reproduce = p.Text("reproduce");
  r.found_by = EnumNamed(p, "found_by", {FoundBy::kNone, FoundBy::kStore, FoundBy::kRandom, FoundBy::kSearch},
                         FoundByName);
  const Fields search(p.At("search"), p.where() + ".search");
  r.search_tried = static_cast<int>(search.Int("tried"));
  r.search_outside = static_cast<int>(search.Int("outside"));
  r.search_capped = search.Bool("capped");
  r.search_note = search.Text("note");
  r.search_best_score = search.At("best_score").is_null() ? p.Spelled("search_best_score")
                                                          : search.Number("best_score");
  r.store_entry = p.Text("store_entry");
  r.saved_to = p.Text("saved_to");
  r.replay_file = p.Has("replay_file") ? p.Text("replay_file") : "";
  const Json& stored = p.Array("stored_cases");
  for (size_t i = 0; i < stored.size(); ++i)
    r.replayed.push_back(ReadReplay(Fields(stored[i], p.where() + ".stored_cases[" + std::to_string(i) + "]")));
  const Json& metrics = p.Array("metrics");
  for (size_t i = 0; i < metrics.size(); ++i)
    r.metrics.push_back(ReadMetric(Fields(metrics[i], p.where() + ".metrics[" + std::to_string(i) + "]")));
  // A statistical claim's rates (json.cc); null, or absent in a report
  // written before they were reported, is none.
  if (p.Has("statistics") && !p.At("statistics").is_null()) {
    const Fields st(p.At("statistics"), p.where() + ".statistics");
    Statistics s;
    s.alpha = st.Number("alpha");
    s.alpha_scope = st.Text("alpha_scope");
    s.basis = st.Text("basis");
    s.rigorous = st.Bool("rigorous");
    s.power = st.Number("power");
    s.detects = st.Text("detects");
    s.sample = st.Text("sample");
    if (const std::string why = StatisticsProblem(s); !why.empty()) st.Fail("", why);
    e.statistics = s;
  }
  e.undecided_allowed = p.Has("undecided_allowed") && p.Bool("undecided_allowed");
  e.judgement = Judge(r, e.expect, e.undecided_allowed);  // the one verdict policy, as the run judged it
  return e;
}

/// The diagnosis (json.cc): null or absent (a report of another command, or
/// one written before it was reported) is none.
Diagnosis ReadDiagnosis(const Json& doc, const std::string& name) {
  Diagnosis d;
  if (!doc.contains("diagnosis") || doc["diagnosis"].is_null()) return d;
  const Fields f(doc["diagnosis"], name + ": diagnosis");
  d.bug_class = f.Text("bug_class");
  if (d.bug_class.empty()) f.Fail("bug_class", "is empty");
  d.groups = f.Uint("groups");
  const Json& ranked = f.Array("ranked");
  for (size_t k = 0; k < ranked.size(); ++k) {
    const Fields e(ranked[k], f.where() + ".ranked[" + std::to_string(k) + "]");
    if (e.Uint("rank") != k + 1) e.Fail("rank", "is not " + std::to_string(k + 1));
    const uint64_t group = e.Uint("group");
    if (group < 1 || group > d.groups) e.Fail("group", "is not in 1.." + std::to_string(d.groups));
    d.ranked.push_back({e.Text("id"), e.Text("backend"), static_cast<size_t>(group - 1)});
  }
  return d;
}

}  // namespace

std::vector<std::string> UnexpectedInReport(const std::string& json_path) {
  const Json doc = ParseDocument(ReadText(json_path, " (--rerun-failed reads the last report there)"), json_path);
  std::vector<std::string> names;
  for (const auto& p : doc["properties"]) {
    if (!p.value("as_expected", true))
      names.push_back(p.value("id", std::string()) + "/" + p.value("backend", std::string()));
  }
  return names;
}

Report ParseReport(const std::string& json_text, const std::string& name) {
  const Json doc = ParseDocument(json_text, name);
  Report rep;
  const Fields top(doc, name);
  rep.run.generated = top.Text("generated");
  const Fields run(top.At("run"), name + ": run");
  rep.run.version = run.Text("attnprop_version");
  rep.run.command = run.Text("command");
  rep.run.seed = run.UintText("seed");
  rep.run.cases = static_cast<int>(run.Int("cases"));
  rep.run.max_size = static_cast<int>(run.Int("max_size"));
  rep.run.shrink = run.Bool("shrink");
  rep.run.mpfr_bits = static_cast<int>(run.Int("mpfr_bits"));
  rep.run.search_steps = static_cast<int>(run.Int("search_steps"));
  rep.run.budget_s = run.Number("budget_s");
  rep.run.kernel = run.Text("kernel");
  rep.run.kernel_path = run.Text("kernel_path");
  rep.run.store = run.Text("store");
  rep.run.selection = run.Text("selection");
  rep.run.selected = run.Uint("selected");
  rep.run.registry = run.Text("registry");
  if (!run.At("shard").is_null()) {
    const Fields shard(run.At("shard"), name + ": run.shard");
    rep.run.shard_index = shard.Uint("index");
    rep.run.shard_total = shard.Uint("total");
  }
  const Json& props = doc["properties"];
  for (size_t i = 0; i < props.size(); ++i)
    rep.entries.push_back(ReadEntry(Fields(props[i], name + ": properties[" + std::to_string(i) + "]")));
  rep.diagnosis = ReadDiagnosis(doc, name);
  return rep;
}

Report ReadReport(const std::string& json_path) { return ParseReport(ReadText(json_path, ""), json_path); }

std::string RegistryHash() {
  char hex[24];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(Fnv1a64(RegistryTsvText())));
  return std::string("fnv1a64:") + hex;
}

}  // namespace attnprop::report
