// The report writers: the audit's flags, the histograms, the heatmaps, and
// approval tests of all four formats on a fixed set of small claims of our
// own (not registered). Timestamps and timings are normalised (set to fixed
// values); everything else comes from real runs with a fixed seed.
//   ATTNPROP_UPDATE_APPROVAL=1 attnprop_reports_test   rewrites the baselines
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <cctype>
#include <set>
#include <sstream>

#include "properties/framework/property.h"
#include "model/lecture_examples.h"
#include "reports/report.h"

#ifndef ATTNPROP_REPORTS_TESTDATA
#error "ATTNPROP_REPORTS_TESTDATA must name reports/testdata"
#endif

namespace attnprop::report {
namespace {

// ---- Fixture claims (each shows one thing an audit must catch) ----

Case X(double x) { return Case().Scalar("x", x); }
rc::Gen<Case> Xs(int hi) {
  return rc::gen::map(rc::gen::inRange<int>(0, hi + 1), [](int x) { return X(x / 8.0); });
}

/// (x + x/3) computed in S against the exact 4x/3: a rounding error with a
/// derived bound (holds; errors spread over several decades).
struct ThirdClaim : ClaimId<"approval.third"> {
  static inline const Tolerance kThird{"|x + x/3 - 4x/3|", "gamma_2(u) * 4|x|/3",
                                       "one division and one addition, each one rounding", MetricKind::kRounding};
  template <class S>
  static rc::Gen<Case> Hypotheses() { return Xs(800); }
  template <class S>
  static void Conclusion(const Case& c) {
    const S x = c.Get<S>("x");
    const S got = x + x / S(3);
    const Mpfr exact = Mpfr(4) * c.Get<Mpfr>("x") / Mpfr(3);
    const double err = ToDouble(Mpfr(abs(Mpfr(got) - exact)));
    ExpectWithin(kThird, err, Gamma(2, ScalarTraits<S>::UnitRoundoff()) * 4 * std::fabs(ToDouble(x)) / 3);
  }
};

/// The same error against a bound far too weak (LOOSE), and one with no
/// stated reason (UNJUSTIFIED).
struct WeakClaim : ClaimId<"approval.weak"> {
  static inline const Tolerance kGuess{"|x + x/3 - 4x/3|", "1e6 * u * |x|", "a guess, far above the two roundings' gamma_2", MetricKind::kRounding};
  static inline const Tolerance kZero{"|x - x|", "u", "", MetricKind::kRounding};
  template <class S>
  static rc::Gen<Case> Hypotheses() { return Xs(800); }
  template <class S>
  static void Conclusion(const Case& c) {
    const S x = c.Get<S>("x");
    const double u = ScalarTraits<S>::UnitRoundoff();
    const double err = ToDouble(Mpfr(abs(Mpfr(S(x + x / S(3))) - Mpfr(4) * c.Get<Mpfr>("x") / Mpfr(3))));
    ExpectWithin(kGuess, err, 1e6 * u * std::fabs(ToDouble(x)));
    ExpectWithin(kZero, ToDouble(S(x - x)), u);
  }
};

/// "x <= 50" for x in [0, 100]: false. Its error measure sqrt(50 - x) is NaN
/// past 50 (NONFINITE, FAIL). Registered refuted in the fixture, with a pin.
struct FalseClaim : ClaimId<"approval.pinned"> {
  static inline const Tolerance kDefect{"sqrt(50 - x) defect", "1", "0 when x <= 50; NaN (never within a bound) past it", MetricKind::kRounding};
  static bool HypothesesHold(const Case& c) { return c.GetScalar("x").ToDouble() >= 0; }
  template <class S>
  static rc::Gen<Case> Hypotheses() { return Xs(800); }
  template <class S>
  static void Conclusion(const Case& c) {
    const double x = ToDouble(c.Get<S>("x"));
    ExpectWithin(kDefect, x <= 50 ? 0.0 : std::sqrt(50 - x), 1.0);
  }
};

/// The same false claim, expected to hold (an UNEXPECTED refutation).
// FalseClaim under another id (a member kId hides the base's).
struct UnexpectedClaim : FalseClaim {
  static constexpr const char* kId = "approval.unexpected";
};

/// "A fair coin has mean 1/2", checked on N = 4096 flips drawn from the
/// case's seed: a statistical claim (its false-alarm rate and power in
/// every report). Hoeffding: P(|mean - 1/2| > t) <= 2 exp(-2 N t^2) = alpha
/// for t = sqrt(ln(2/alpha) / (2N)) = 0.0421 at alpha = 1e-6; a mean off by
/// delta >= t + sqrt(ln(100) / (2N)) = 0.0658 is caught w.p. >= 0.99.
struct CoinClaim : ClaimId<"approval.coin"> {
  static constexpr int kFlips = 4096;
  static constexpr double kAlpha = 1e-6;
  static inline const Statistics kStatistics{kAlpha, "case", "Hoeffding", true, 0.99,
                                             "a mean off by >= 0.0658", "N = 4096 flips per case"};
  static inline const Tolerance kMean{"|mean - 1/2|", "sqrt(ln(2/alpha)/(2N))",
                                      "Hoeffding for N bounded flips: exceeded with probability <= alpha = 1e-6", MetricKind::kRounding};
  template <class S>
  static rc::Gen<Case> Hypotheses() {
    return rc::gen::map(rc::gen::inRange<int>(0, 1 << 20), [](int s) { return Case().Scalar("seed", s); });
  }
  template <class S>
  static void Conclusion(const Case& c) {
    std::mt19937_64 flips(static_cast<uint64_t>(c.GetScalar("seed").ToDouble()));
    int heads = 0;
    for (int i = 0; i < kFlips; ++i) heads += static_cast<int>(flips() >> 63);
    ExpectWithin(kMean, std::fabs(double(heads) / kFlips - 0.5), std::sqrt(std::log(2 / kAlpha) / (2.0 * kFlips)));
  }
};

template <class Claim, class S>
Entry Run(Expectation expect, uint64_t seed) {
  const PropertyDef def = internal::MakeDef<Claim, S>(__FILE__);
  RunOptions o;
  o.seed = seed;
  o.max_success = 60;
  o.store_dir = "store";  // relative: the test runs in reports/testdata
  o.replay_dir = (std::filesystem::temp_directory_path() / "attnprop-approval-replay").string();
  Entry e;
  e.result = RunProperty(def, o);
  // The baselines name a replay file as they name the store: relatively.
  if (!e.result.replay_file.empty())
    e.result.replay_file = "replay/" + std::filesystem::path(e.result.replay_file).filename().string();
  e.result.seconds = 0.25;  // normalised timing
  e.file = RelativeSource(def.file);
  e.expect = expect;
  e.judgement = Judge(e.result, expect);
  e.statistics = def.statistics;
  return e;
}

Report FixtureReport(uint64_t seed) {
  MpfrPrecisionScope bits(256);
  Report r;
  r.run.version = "0.1.0";
  r.run.command = "audit";
  r.run.seed = seed;
  r.run.cases = 60;
  r.run.max_size = 100;
  r.run.mpfr_bits = 256;
  r.run.kernel = "none";
  r.run.store = "store";
  r.run.generated = "2000-01-01T00:00:00Z";  // normalised timestamp
  r.entries.push_back(Run<ThirdClaim, double>(Expectation::kHolds, seed));
  r.entries.push_back(Run<ThirdClaim, float>(Expectation::kHolds, seed));
  r.entries.push_back(Run<WeakClaim, double>(Expectation::kHolds, seed));
  r.entries.push_back(Run<FalseClaim, double>(Expectation::kRefuted, seed));
  r.entries.push_back(Run<UnexpectedClaim, double>(Expectation::kHolds, seed));
  r.entries.push_back(Run<CoinClaim, double>(Expectation::kHolds, seed));
  r.run.selection = "--filter 'approval.*'";
  r.run.selected = r.entries.size();
  r.run.registry = "fnv1a64:0123456789abcdef";
  for (size_t i = 0; i < r.entries.size(); ++i) r.entries[i].index = i;
  return r;
}

std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Compares `actual` with the baseline; on a difference writes the actual
/// text beside the build and says how to look.
void Approve(const std::string& name, const std::string& actual) {
  const std::filesystem::path baseline = std::filesystem::path(ATTNPROP_REPORTS_TESTDATA) / "approval" / name;
  if (const char* up = std::getenv("ATTNPROP_UPDATE_APPROVAL"); up && std::string(up) == "1") {
    std::ofstream(baseline, std::ios::binary) << actual;
    GTEST_SKIP() << "rewrote " << baseline;
  }
  ASSERT_TRUE(std::filesystem::exists(baseline)) << baseline << " is missing (ATTNPROP_UPDATE_APPROVAL=1 writes it)";
  const std::string expected = ReadFile(baseline);
  if (expected == actual) return;
  const char* out_env = std::getenv("ATTNPROP_APPROVAL_OUT");
  const std::filesystem::path out = out_env ? out_env : std::filesystem::temp_directory_path() / "attnprop-approval";
  std::filesystem::create_directories(out);
  std::ofstream(out / name, std::ios::binary) << actual;
  ADD_FAILURE() << name << " differs from its baseline. Compare:\n  diff " << baseline.string() << " "
                << (out / name).string() << "\nIf the change is intended: ATTNPROP_UPDATE_APPROVAL=1 " 
                << "attnprop_reports_test (from reports/testdata).";
}

const Report& Fixture() {
  static const Report r = FixtureReport(20261129);
  return r;
}

/// The fixture as check-kernel reports it: with a diagnosis (set by hand;
/// tools/report_diagnosis.h computes it from properties/abi/
/// diagnosis.h, whose own tests check the classes) naming the failing entry.
const Report& Diagnosed() {
  static const Report r = [] {
    Report d = Fixture();
    d.run.command = "check-kernel";
    d.diagnosis.bug_class = "a planted class: sqrt of a negative <above 50>";
    d.diagnosis.ranked = {{"approval.unexpected", "double", 0}};
    d.diagnosis.groups = 1;
    return d;
  }();
  return r;
}

// ---- The fixture behaves as designed (so the baselines show real things) ----

TEST(Fixture, VerdictsAndFlagsAreTheIntendedOnes) {
  const Report& r = Fixture();
  ASSERT_EQ(r.entries.size(), 6u);
  EXPECT_EQ(r.entries[0].result.verdict, Verdict::kHolds) << r.entries[0].result.message;
  EXPECT_EQ(AuditFlags(r.entries[0].result.metrics[0]), 0u);
  EXPECT_EQ(r.entries[1].result.verdict, Verdict::kHolds) << r.entries[1].result.message;
  EXPECT_EQ(AuditFlags(r.entries[2].result.metrics[0]), unsigned{kLoose});
  // x - x is exactly 0: any positive bound is loose, and this one has no reason.
  EXPECT_EQ(AuditFlags(r.entries[2].result.metrics[1]), unsigned{kUnjustified | kLoose});
  const auto& pinned = r.entries[3];
  EXPECT_TRUE(pinned.as_expected());
  EXPECT_TRUE(pinned.result.pinned_refutation);
  ASSERT_EQ(pinned.result.replayed.size(), 1u);
  EXPECT_EQ(pinned.result.replayed[0].origin, "store/approval.pinned.txt:3");
  EXPECT_EQ(AuditFlags(pinned.result.metrics[0]), unsigned{kFail | kNonfinite});
  const auto& unexpected = r.entries[4];
  EXPECT_FALSE(unexpected.as_expected());
  ASSERT_TRUE(unexpected.result.counterexample_case.has_value());
  EXPECT_EQ(unexpected.result.counterexample_case->GetScalar("x"), Exact(50.125));  // shrunk to the edge
  EXPECT_FALSE(unexpected.result.reproduce.empty());
  const auto& coin = r.entries[5];
  EXPECT_EQ(coin.result.verdict, Verdict::kHolds) << coin.result.message;
  ASSERT_TRUE(coin.statistics.has_value());
  EXPECT_EQ(coin.statistics->alpha, 1e-6);
  EXPECT_FALSE(r.entries[0].statistics.has_value());
}

TEST(Fixture, SameSeedSameBytes) {
  const Report again = FixtureReport(20261129);
  EXPECT_EQ(ToJson(again), ToJson(Fixture()));
  EXPECT_EQ(ToMarkdown(again), ToMarkdown(Fixture()));
  EXPECT_EQ(ToHtml(again), ToHtml(Fixture()));
  EXPECT_EQ(ToJUnit(again), ToJUnit(Fixture()));
  EXPECT_NE(ToJson(FixtureReport(7)), ToJson(Fixture())) << "the seed should change the cases";
}

// ---- Approval: one per format ----

TEST(Approval, Json) { Approve("report.json", ToJson(Fixture())); }
TEST(Approval, Markdown) { Approve("report.md", ToMarkdown(Fixture())); }
TEST(Approval, Html) { Approve("report.html", ToHtml(Fixture())); }
TEST(Approval, JUnit) { Approve("junit.xml", ToJUnit(Fixture())); }
// With check-kernel's diagnosis (in every format; JUnit validated in reports.junit_xsd).
TEST(Approval, DiagnosedJson) { Approve("diagnosed.report.json", ToJson(Diagnosed())); }
TEST(Approval, DiagnosedMarkdown) { Approve("diagnosed.report.md", ToMarkdown(Diagnosed())); }
TEST(Approval, DiagnosedHtml) { Approve("diagnosed.report.html", ToHtml(Diagnosed())); }
TEST(Approval, DiagnosedJUnit) { Approve("diagnosed.junit.xml", ToJUnit(Diagnosed())); }

// ---- Read back (attnprop merge): the same bytes in every format ----

TEST(Read, ReportReadBackWritesTheSameBytesInEveryFormat) {
  Report shard = Fixture();
  shard.run.shard_index = 2;
  shard.run.shard_total = 4;
  const Report back = ParseReport(ToJson(shard), "fixture");
  EXPECT_EQ(back.run.shard_index, 2u);
  EXPECT_EQ(back.run.shard_total, 4u);
  EXPECT_EQ(ToJson(back), ToJson(shard));
  const Report whole = ParseReport(ToJson(Fixture()), "fixture");
  EXPECT_EQ(ToJson(whole), ToJson(Fixture()));
  EXPECT_EQ(ToMarkdown(whole), ToMarkdown(Fixture()));
  EXPECT_EQ(ToHtml(whole), ToHtml(Fixture()));
  EXPECT_EQ(ToJUnit(whole), ToJUnit(Fixture()));
  EXPECT_TRUE(whole.diagnosis.empty());
  // check-kernel's diagnosis reads back too.
  const Report diagnosed = ParseReport(ToJson(Diagnosed()), "diagnosed");
  EXPECT_EQ(diagnosed.diagnosis.bug_class, Diagnosed().diagnosis.bug_class);
  EXPECT_EQ(ToJson(diagnosed), ToJson(Diagnosed()));
  EXPECT_EQ(ToMarkdown(diagnosed), ToMarkdown(Diagnosed()));
  EXPECT_EQ(ToHtml(diagnosed), ToHtml(Diagnosed()));
  EXPECT_EQ(ToJUnit(diagnosed), ToJUnit(Diagnosed()));
  // A report written before the diagnosis was reported (no key) reads as none.
  auto old = nlohmann::json::parse(ToJson(Fixture()));
  old.erase("diagnosis");
  EXPECT_TRUE(ParseReport(old.dump(), "old").diagnosis.empty());
  // The non-finite numbers come back as they were (JSON writes null for all).
  const MetricStats& m = whole.entries[3].result.metrics[0];
  const MetricStats& was = Fixture().entries[3].result.metrics[0];
  EXPECT_EQ(std::isnan(m.max_ratio), std::isnan(was.max_ratio));
  EXPECT_EQ(std::isinf(m.max_ratio), std::isinf(was.max_ratio));
  EXPECT_EQ(RatioHistogram(m.ratios).counts, RatioHistogram(was.ratios).counts);
}

TEST(Read, MalformedReportNamesTheField) {
  auto j = nlohmann::json::parse(ToJson(Fixture()));
  j["properties"][1]["verdict"] = "maybe";
  try {
    ParseReport(j.dump(), "r.json");
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("r.json: properties[1].verdict has an unknown value 'maybe'"), std::string::npos)
        << e.what();
  }
  j = nlohmann::json::parse(ToJson(Fixture()));
  j["run"].erase("seed");
  EXPECT_THROW(ParseReport(j.dump(), "r.json"), std::runtime_error);
  EXPECT_THROW(ParseReport("{\"schema\": \"other/1\", \"properties\": []}", "r.json"), std::runtime_error);
  j = nlohmann::json::parse(ToJson(Diagnosed()));
  j["diagnosis"]["ranked"][0]["group"] = 2;
  try {
    ParseReport(j.dump(), "r.json");
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("r.json: diagnosis.ranked[0].group is not in 1..1"), std::string::npos)
        << e.what();
  }
  j = nlohmann::json::parse(ToJson(Fixture()));
  j["properties"][5]["statistics"]["power"] = 2;
  try {
    ParseReport(j.dump(), "r.json");
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("properties[5].statistics power outside (0, 1]"), std::string::npos)
        << e.what();
  }
  j = nlohmann::json::parse(ToJson(Fixture()));
  j["properties"][5].erase("statistics");  // a report written before the rates were reported
  EXPECT_FALSE(ParseReport(j.dump(), "r.json").entries[5].statistics.has_value());
}

// ---- Format-level checks beyond the bytes ----

TEST(Json, ParsesAndFollowsTheDocumentedSchema) {
  const auto j = nlohmann::json::parse(ToJson(Fixture()));
  EXPECT_EQ(j["schema"], "attnprop-report/1");
  for (const char* k : {"attnprop_version", "command", "seed", "cases", "max_size", "shrink", "mpfr_bits", "kernel", "store"})
    EXPECT_TRUE(j["run"].contains(k)) << k;
  EXPECT_EQ(j["summary"]["properties"], 6);
  EXPECT_EQ(j["summary"]["unexpected"], 1);
  EXPECT_EQ(j["summary"]["flags"]["LOOSE"], 2);
  const auto& p = j["properties"][3];
  for (const char* k : {"id", "backend", "file", "expect", "verdict", "as_expected", "cases", "discarded",
                        "shrink_steps", "seconds", "seed", "message", "counterexample", "confirmed", "certificate",
                        "undecided", "undecided_example", "reproduce",
                        "store_entry", "saved_to", "stored_cases", "metrics"})
    EXPECT_TRUE(p.contains(k)) << k;
  const auto& m = p["metrics"][0];
  EXPECT_TRUE(m["max_ratio"].is_null()) << "a non-finite ratio is null in JSON";
  EXPECT_EQ(m["flags"], nlohmann::json::array({"FAIL", "NONFINITE"}));
  EXPECT_EQ(m["histogram"]["bins"].size(), m["histogram"]["counts"].size());
  EXPECT_TRUE(p["statistics"].is_null()) << "not a statistical claim: null";
  const auto& st = j["properties"][5]["statistics"];
  EXPECT_EQ(st["alpha"], 1e-6);
  EXPECT_EQ(st["power"], 0.99);
  EXPECT_EQ(st["rigorous"], true);
  for (const char* k : {"alpha_scope", "basis", "detects", "sample"}) EXPECT_TRUE(st[k].is_string()) << k;
  EXPECT_TRUE(j["diagnosis"].is_null()) << "no diagnosis: null";
  const auto d = nlohmann::json::parse(ToJson(Diagnosed()))["diagnosis"];
  EXPECT_EQ(d["bug_class"], Diagnosed().diagnosis.bug_class);
  EXPECT_EQ(d["groups"], 1);
  EXPECT_EQ(d["ranked"], nlohmann::json::parse(
                             R"([{"rank": 1, "id": "approval.unexpected", "backend": "double", "group": 1}])"));
}

TEST(Diagnosis, FirstInMarkdownAndHtmlOnlyWhenThereIsOne) {
  for (const Report* r : {&Fixture(), &Diagnosed()}) {
    const std::string md = ToMarkdown(*r), html = ToHtml(*r);
    if (r->diagnosis.empty()) {
      EXPECT_EQ(md.find("## Diagnosis"), std::string::npos);
      EXPECT_EQ(html.find("id=\"diagnosis\""), std::string::npos);
      continue;
    }
    EXPECT_NE(md.find("# attnprop report\n\n## Diagnosis\n\n**Bug class: a planted class: sqrt of a negative <above "
                      "50>**\n"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("1. `approval.unexpected/double` (group 1): sqrt(50 - x) defect"), std::string::npos) << md;
    EXPECT_LT(md.find("## Diagnosis"), md.find("## Summary"));
    const size_t at = html.find("<h2 id=\"diagnosis\">");
    ASSERT_NE(at, std::string::npos);
    EXPECT_LT(at, html.find("<h2 id=\"summary\">"));
    EXPECT_NE(html.find("Bug class: a planted class: sqrt of a negative &lt;above 50&gt;</p>"), std::string::npos);
    EXPECT_NE(html.find("<a href=\"#diagnosis\">Diagnosis</a>"), std::string::npos) << "in the contents";
  }
}

TEST(Html, IsSelfContained) {
  const std::string html = ToHtml(Fixture());
  for (const char* bad : {"src=", "@import", "<link", "<iframe", "<object", "fetch(", "XMLHttpRequest", "import("})
    EXPECT_EQ(html.find(bad), std::string::npos) << "report.html must not load anything: found " << bad;
  // One inline script (the verdict table's filter and sort), no other.
  const size_t script = html.find("<script");
  ASSERT_NE(script, std::string::npos);
  EXPECT_EQ(html.compare(script, 8, "<script>"), 0) << "an inline script only";
  EXPECT_EQ(html.find("<script", script + 1), std::string::npos);
  // Links only inside the page, and each to an element that exists.
  for (size_t at = html.find("href="); at != std::string::npos; at = html.find("href=", at + 1)) {
    ASSERT_EQ(html.compare(at, 7, "href=\"#"), 0) << html.substr(at, 60);
    const size_t end = html.find('"', at + 7);
    const std::string id = html.substr(at + 7, end - at - 7);
    EXPECT_NE(html.find("id=\"" + id + "\""), std::string::npos) << "a link to #" << id << " that goes nowhere";
  }
  // url(...) only for in-page references (the masked cells' hatch pattern).
  for (size_t at = html.find("url("); at != std::string::npos; at = html.find("url(", at + 1))
    EXPECT_EQ(html.compare(at, 5, "url(#"), 0) << html.substr(at, 40);
  // Every http(s) mention is an SVG namespace, not a resource.
  // (No std::regex here: g++ 12 warns falsely inside it under -fsanitize.)
  const std::string svg_ns = "http://www.w3.org/2000/svg\"";
  for (size_t at = html.find("http"); at != std::string::npos; at = html.find("http", at + 1))
    EXPECT_EQ(html.compare(at, svg_ns.size(), svg_ns), 0) << html.substr(at, 60);
  EXPECT_NE(html.find("Gaussian positional kernel, h = 0.5"), std::string::npos);
  EXPECT_NE(html.find("Causal, random scores"), std::string::npos);
}

TEST(Html, NavigableWithStatementsAndUniqueIds) {
  const std::string html = ToHtml(Fixture());
  EXPECT_NE(html.find("<nav aria-label=\"contents\">"), std::string::npos);
  // The summary links to the unexpected claim, which has its own section.
  EXPECT_NE(html.find("<li><a href=\"#c-approval.unexpected\">"), std::string::npos);
  EXPECT_NE(html.find("<section class=\"claim\" id=\"c-approval.unexpected\">"), std::string::npos);
  // One verdict row per claim (5 claims, 6 properties), filterable by status.
  size_t rows = 0;
  for (size_t at = html.find("<tr data-status="); at != std::string::npos; at = html.find("<tr data-status=", at + 1)) ++rows;
  EXPECT_EQ(rows, 5u);
  // A statistical claim's rates on its line.
  EXPECT_NE(html.find("<p class=\"meta\">false-alarm rate and power: alpha &lt;= 1e-06 per case (Hoeffding; rigorous); power 0.99"),
            std::string::npos);
  // No id twice.
  std::set<std::string> ids;
  for (size_t at = html.find(" id=\""); at != std::string::npos; at = html.find(" id=\"", at + 1)) {
    const size_t end = html.find('"', at + 5);
    EXPECT_TRUE(ids.insert(html.substr(at + 5, end - at - 5)).second) << "duplicate id " << html.substr(at + 5, end - at - 5);
  }
  // Plots are paths, not one element per bin.
  EXPECT_EQ(html.find("<rect x="), std::string::npos);
}

TEST(Markdown, TableCellsEscapePipes) {
  const std::string md = ToMarkdown(Fixture());
  EXPECT_NE(md.find("`\\|x + x/3 - 4x/3\\|`"), std::string::npos);
}

TEST(Markdown, StatisticalClaimsHaveTheirRates) {
  const std::string md = ToMarkdown(Fixture());
  EXPECT_NE(md.find("| `approval.coin` | double | 1e-06 | case | Hoeffding | yes | 0.99 | a mean off by >= 0.0658 | "
                    "N = 4096 flips per case |"),
            std::string::npos);
}

TEST(JUnit, CountsFailuresAndEscapes) {
  const std::string x = ToJUnit(Fixture());
  EXPECT_NE(x.find("tests=\"6\" failures=\"1\" errors=\"0\" skipped=\"1\""), std::string::npos) << x.substr(0, 300);
  // An unexpected verdict's message carries the counterexample (CI shows the message).
  EXPECT_NE(x.find("<failure message=\"expected holds, got refuted: sqrt(50 - x) defect: observed -nan &gt; bound "
                   "1 (NONFINITE); counterexample: x: scalar 0x1.91p+5  # 50.125\""),
            std::string::npos)
      << x;
  // The claim registered refuted, refuted as expected: skipped as xfail (pytest's convention).
  EXPECT_NE(x.find("<skipped type=\"xfail\" message=\"refuted as stated"), std::string::npos) << x;
  EXPECT_EQ(x.find("x <= 50"), std::string::npos) << "'<' must be escaped";
  // With a diagnosis, the first-ranked property's message starts with the bug class.
  const std::string d = ToJUnit(Diagnosed());
  EXPECT_NE(d.find("<failure message=\"diagnosis: a planted class: sqrt of a negative &lt;above 50&gt;; expected "
                   "holds, got refuted: sqrt(50 - x) defect"),
            std::string::npos)
      << d;
}

// ---- The audit's flags and the histogram, on hand-made statistics ----

MetricStats Stats(double max_ratio, double max_bound, const std::string& reason = "derived") {
  MetricStats m;
  m.tolerance = {"err", "bound", reason, MetricKind::kRounding};
  m.count = 10;
  m.max_ratio = max_ratio;
  m.max_bound = max_bound;
  return m;
}

TEST(Audit, Flags) {
  EXPECT_EQ(AuditFlags(Stats(0.5, 1)), 0u);
  EXPECT_EQ(AuditFlags(Stats(1.5, 1)), unsigned{kFail});
  EXPECT_EQ(AuditFlags(Stats(0.9e-3, 1)), unsigned{kLoose});
  EXPECT_EQ(AuditFlags(Stats(1.1e-3, 1)), 0u);
  EXPECT_EQ(AuditFlags(Stats(0, 0)), 0u) << "a zero bound is an exact check, never loose";
  EXPECT_EQ(AuditFlags(Stats(0.5, 1, "  ")), unsigned{kUnjustified});
  MetricStats nan = Stats(0.5, 1);
  nan.nonfinite = true;
  EXPECT_EQ(AuditFlags(nan), unsigned{kFail | kNonfinite});
  EXPECT_EQ(FlagText(kFail | kLoose | kUnjustified | kNonfinite), "FAIL LOOSE UNJUSTIFIED NONFINITE");
}

TEST(Histogram, Bins) {
  const Histogram h = RatioHistogram({0, 1e-20, 3e-16, 0.5, 1, 1.5, NAN, HUGE_VAL});
  ASSERT_EQ(h.labels.size(), h.counts.size());
  auto count = [&](const std::string& label) {
    for (size_t i = 0; i < h.labels.size(); ++i)
      if (h.labels[i] == label) return h.counts[i];
    ADD_FAILURE() << "no bin " << label;
    return int64_t{-1};
  };
  EXPECT_EQ(count("0"), 1);
  EXPECT_EQ(count("<1e-16"), 1);
  EXPECT_EQ(count("1e-16"), 1);
  EXPECT_EQ(count("1e-1"), 2);  // 0.5 and exactly 1
  EXPECT_EQ(count(">1"), 1);
  EXPECT_EQ(count("non-finite"), 2);
}

TEST(Heatmaps, RowsAreCausalDistributions) {
  const auto maps = LectureExamples();
  ASSERT_EQ(maps.size(), 5u);
  for (const auto& m : maps) {
    for (size_t i = 0; i < m.weights.size(); ++i) {
      double sum = 0;
      for (size_t j = 0; j < m.weights[i].size(); ++j) {
        if (j > i) {
          EXPECT_EQ(m.weights[i][j], 0.0) << m.title;
        }
        sum += m.weights[i][j];
      }
      EXPECT_NEAR(sum, 1.0, 1e-14) << m.title << " row " << i;
    }
  }
  // A narrow kernel attends to the diagonal, a wide one spreads out.
  EXPECT_GT(maps[1].weights[10][10], 0.8);
  EXPECT_LT(maps[4].weights[10][10], 0.2);
}

// ---- Writing files ----

TEST(Write, AllFourFilesNoLeftoversAndClearErrors) {
  const auto dir = std::filesystem::temp_directory_path() / "attnprop_reports_write_test";
  std::filesystem::remove_all(dir);
  WriteReports(Fixture(), (dir / "nested").string());
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir / "nested")) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"junit.xml", "manifest.json", "report.html", "report.json", "report.md"}));
  EXPECT_EQ(ReadFile(dir / "nested" / "report.md"), ToMarkdown(Fixture()));
  std::filesystem::remove_all(dir);
  try {
    WriteReports(Fixture(), "/dev/null/reports");
    ADD_FAILURE() << "wrote into /dev/null/reports";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/dev/null/reports"), std::string::npos) << e.what();
  }
}

TEST(Time, UtcNowIsIso8601) {
  const std::string t = UtcNow(), shape = "dddd-dd-ddTdd:dd:ddZ";
  ASSERT_EQ(t.size(), shape.size()) << t;
  for (size_t i = 0; i < t.size(); ++i)
    EXPECT_TRUE(shape[i] == 'd' ? std::isdigit(static_cast<unsigned char>(t[i])) != 0 : t[i] == shape[i]) << t;
}

}  // namespace
}  // namespace attnprop::report
