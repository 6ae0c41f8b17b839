#include "properties/kernel_suite/suite.h"

#include <fnmatch.h>
#include <sys/stat.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <optional>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace attnprop::ksuite {
namespace {

std::string Quote(const std::string& s) {
  // Single-quoted for a POSIX shell.
  std::string r = "'";
  for (char ch : s) r += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return r + "'";
}

std::string FileName(const std::string& name) {
  std::string f = name;
  for (char& ch : f)
    if (ch == '/') ch = '@';
  return f + ".case";
}

std::string Json(const std::string& s) {
  std::string r = "\"";
  for (unsigned char ch : s) {
    switch (ch) {
      case '"': r += "\\\""; break;
      case '\\': r += "\\\\"; break;
      case '\n': r += "\\n"; break;
      case '\t': r += "\\t"; break;
      default:
        if (ch < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", ch);
          r += buf;
        } else {
          r += static_cast<char>(ch);
        }
    }
  }
  return r + "\"";
}

std::string JsonNumber(double x) {
  if (!std::isfinite(x)) return x > 0 ? "1e999" : (x < 0 ? "-1e999" : "null");
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

/// RapidCheck prefixes a failure with "file.cc:LINE:" and "RC_FAIL(expr)"
/// lines: keep the message.
std::string CleanMessage(const std::string& m) {
  size_t pos = 0;
  while (pos < m.size()) {
    const size_t nl = m.find('\n', pos);
    if (nl == std::string::npos) break;
    const std::string line = m.substr(pos, nl - pos);
    const bool location = !line.empty() && line.back() == ':' && line.find(".cc:") != std::string::npos;
    if (!(location || line.empty() || line.rfind("RC_FAIL(", 0) == 0)) break;
    pos = nl + 1;
  }
  return m.substr(pos);
}

std::string OneLine(std::string s) {
  for (char& ch : s)
    if (ch == '\n') ch = ' ';
  return s;
}

}  // namespace

const std::vector<KernelProperty>& KernelProperties() {
  static const std::vector<KernelProperty> all = [] {
    std::vector<KernelProperty> v;
    AddClaimProperties(&v);
    AddContractProperties(&v);
    return v;
  }();
  return all;
}

bool SuiteReport::AllHold() const {
  if (load.status != LoadStatus::kOk || skipped || properties.empty()) return false;
  for (const auto& p : properties)
    if (p.result.verdict != Verdict::kHolds) return false;
  return true;
}

SuiteReport RunSuite(const SuiteOptions& o, std::ostream& log) {
  SuiteReport report;
  const auto start = std::chrono::steady_clock::now();
  report.load = LoadKernel(o.path, o.timeout_s);
  if (report.load.status != LoadStatus::kOk) return report;
  if (!report.load.requested_supported) {
    report.skipped = true;
    return report;
  }
  const KernelLibrary& lib = *report.load.library;
  if (!report.load.target.empty())
    log << "kernel target: " << report.load.target
        << (report.load.requested_target.empty() ? "" : " (ATTNPROP_KERNEL_TARGET=" + report.load.requested_target + ")")
        << "\n";
  std::optional<Case> replay_case;
  if (!o.replay_file.empty()) {
    std::ifstream in(o.replay_file);
    std::stringstream text;
    text << in.rdbuf();
    std::string error;
    replay_case = Case::Parse(text.str(), &error);
    if (!in || !replay_case) throw std::invalid_argument("cannot read the case in " + o.replay_file + ": " + error);
  }
  for (const KernelProperty& prop : KernelProperties()) {
    for (DType t : {DType::kF32, DType::kF64}) {
      if (prop.f64_only && t != DType::kF64) continue;
      const std::string name = prop.id + "/" + DTypeName(t);
      if (fnmatch(o.filter.c_str(), name.c_str(), 0) != 0) continue;
      PropertyOutcome out;
      out.name = name;
      out.statement = prop.statement;
      KernelContext ctx{&lib, t, o.timeout_s};
      const auto p_start = std::chrono::steady_clock::now();
      bool exhausted = false;
      std::optional<std::chrono::steady_clock::time_point> first_failure;
      PropertyDef def;
      def.id = prop.id;
      def.backend = DTypeName(t);
      def.file = "properties/kernel_suite";
      def.tolerances = prop.tolerances;
      def.hypotheses = [&prop, t] { return prop.hypotheses(t); };
      def.conclusion = [&](const Case& c) {
        // Shrinking has a time budget (a kernel that hangs on every case
        // would take a timeout per shrink step): past it every case passes,
        // so shrinking stops with the smallest failure found so far.
        const auto now = std::chrono::steady_clock::now();
        if (first_failure && std::chrono::duration<double>(now - *first_failure).count() > o.budget_s) {
          exhausted = true;
          return;
        }
        try {
          prop.conclusion(ctx, t, c);
        } catch (const rc::detail::CaseResult& r) {
          if (r.type == rc::detail::CaseResult::Type::Failure && !first_failure) first_failure = now;
          throw;
        }
      };
      def.confirm = def.conclusion;
      if (replay_case) {
        out.result.id = def.id;
        out.result.backend = def.backend;
        const auto failure = CheckCase(def.conclusion, *replay_case);
        out.result.cases = 1;
        out.result.verdict = failure ? Verdict::kRefuted : Verdict::kHolds;
        if (failure) {
          out.result.message = *failure;
          out.result.counterexample_case = replay_case;
          out.result.counterexample = replay_case->ToText();
        }
      } else {
        RunOptions ro;
        ro.seed = o.seed;
        ro.max_success = o.cases;
        try {
          out.result = RunProperty(def, ro);
        } catch (const std::exception& e) {
          out.result.verdict = Verdict::kError;
          out.result.message = std::string("error: ") + e.what();
        }
      }
      if (out.result.verdict == Verdict::kRefuted && out.result.counterexample_case && !replay_case) {
        // The message RapidCheck keeps may come from another shrink step:
        // replay the final counterexample (without the budget) for its own.
        const auto failure = CheckCase([&](const Case& c) { prop.conclusion(ctx, t, c); }, *out.result.counterexample_case);
        out.result.message = failure ? *failure : "the shrunk case passed when replayed (a flaky kernel?): " + out.result.message;
        if (exhausted) out.result.message += " [shrinking stopped at the time budget]";
      }
      out.result.message = CleanMessage(out.result.message);
      out.result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - p_start).count();
      const std::string self = "attnprop check-kernel " + Quote(o.path);
      out.rerun = self + " --filter " + Quote(name) + " --seed " + std::to_string(o.seed) + " --cases " +
                  std::to_string(o.cases);
      if (out.result.verdict == Verdict::kRefuted && out.result.counterexample_case && !o.save_dir.empty() &&
          o.replay_file.empty()) {
        mkdir(o.save_dir.c_str(), 0777);
        out.case_file = o.save_dir + "/" + FileName(name);
        std::ofstream f(out.case_file);
        f << "# " << name << " on " << o.path << ": " << OneLine(out.result.message) << "\n" << out.result.counterexample;
        if (!f) out.case_file.clear();
      }
      if (!out.case_file.empty())
        out.replay = self + " --filter " + Quote(name) + " --replay " + Quote(out.case_file);
      const char* verdict = VerdictName(out.result.verdict);
      log << std::left << std::setw(66) << name << " " << std::setw(10) << verdict << std::right << std::setw(4)
          << out.result.cases << " cases " << std::fixed << std::setprecision(1) << std::setw(6)
          << out.result.seconds << " s" << std::defaultfloat << std::setprecision(6) << "\n";
      log.flush();
      report.properties.push_back(std::move(out));
    }
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

void WriteJson(const SuiteReport& r, const SuiteOptions& o, std::ostream& os) {
  os << "{\n  \"kernel\": " << Json(o.path) << ",\n  \"abi_version\": " << r.load.abi_version
     << ",\n  \"target\": " << Json(r.load.target) << ",\n  \"requested_target\": " << Json(r.load.requested_target)
     << ",\n  \"load_error\": " << Json(r.load.error) << ",\n  \"skipped\": " << (r.skipped ? "true" : "false")
     << ",\n  \"seed\": " << o.seed << ",\n  \"cases\": " << o.cases << ",\n  \"seconds\": " << JsonNumber(r.seconds)
     << ",\n  \"all_hold\": " << (r.AllHold() ? "true" : "false") << ",\n  \"properties\": [";
  for (size_t i = 0; i < r.properties.size(); ++i) {
    const PropertyOutcome& p = r.properties[i];
    os << (i ? ",\n" : "\n") << "    {\"name\": " << Json(p.name) << ", \"statement\": " << Json(p.statement)
       << ", \"verdict\": " << Json(VerdictName(p.result.verdict))
       << ", \"cases\": " << p.result.cases << ", \"discarded\": " << p.result.discarded
       << ", \"seconds\": " << JsonNumber(p.result.seconds) << ", \"shrink_steps\": " << p.result.shrink_steps
       << ",\n     \"message\": " << Json(p.result.message) << ", \"counterexample\": " << Json(p.result.counterexample)
       << ",\n     \"case_file\": " << Json(p.case_file) << ", \"replay\": " << Json(p.replay)
       << ", \"rerun\": " << Json(p.rerun) << ",\n     \"metrics\": [";
    for (size_t m = 0; m < p.result.metrics.size(); ++m) {
      const MetricStats& s = p.result.metrics[m];
      os << (m ? ", " : "") << "{\"metric\": " << Json(s.tolerance.metric) << ", \"bound\": " << Json(s.tolerance.bound)
         << ", \"reason\": " << Json(s.tolerance.reason) << ", \"count\": " << s.count
         << ", \"max_ratio\": " << JsonNumber(s.max_ratio) << ", \"mean_ratio\": " << JsonNumber(s.mean_ratio) << "}";
    }
    os << "]}";
  }
  os << "\n  ]\n}\n";
}

}  // namespace attnprop::ksuite
