// junit.xml: one testcase per property and backend (classname = claim id,
// name = backend). Judge decides which element each gets:
//  - a verdict other than registry.tsv's expectation: <failure>, its message
//    the expectation, what was seen and the counterexample (CI systems show
//    the message, not always the body); for the property check-kernel's
//    diagnosis ranks first the message starts with "diagnosis: <class>; ";
//  - an error verdict: <error>;
//  - a property that could not run here (a dispatch target this CPU lacks):
//    <skipped message="not run here: ...">;
//  - a claim false as stated whose refutation is confirmed, as registered:
//    <skipped type="xfail" message="refuted as stated: <statement>">,
//    pytest's xfail convention. Chosen over an annotated pass because CI
//    systems (GitLab, Jenkins) list skipped tests with their message, so the
//    false claims stay visible instead of hiding among the passes, and
//    because the common JUnit schema has no per-testcase <properties>.
// The file validates against reports/junit.xsd (test reports.junit_xsd).
#include <sstream>

#include "properties/framework/program.h"
#include "reports/format.h"
#include "reports/report.h"
#include "reports/summary.h"

namespace attnprop::report {

namespace {

/// A claim registered refuted whose refutation is confirmed (xfail).
bool ExpectedRefutation(const Entry& e) {
  return e.as_expected() && !e.judgement.skipped() && e.expect == Expectation::kRefuted &&
         e.result.verdict == Verdict::kRefuted;
}

/// The counterexample on one line, at most `limit` characters (for a
/// message attribute).
std::string OneLine(const std::string& text, size_t limit) {
  std::string out;
  for (char ch : text) {
    if (ch == '\n') {
      if (!out.empty() && out.back() != ' ') out += "; ";
      continue;
    }
    out += ch;
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == ';')) out.pop_back();
  if (out.size() > limit) out = out.substr(0, limit) + " ...";
  return out;
}

}  // namespace

std::string ToJUnit(const Report& r) {
  int failures = 0, errors = 0, skipped = 0;
  double total = 0;
  for (const auto& e : r.entries) {
    total += e.result.seconds;
    if (e.result.verdict == Verdict::kError) {
      ++errors;
    } else if (e.judgement.skipped() || ExpectedRefutation(e)) {
      ++skipped;
    } else if (!e.as_expected()) {
      ++failures;
    }
  }
  std::ostringstream x;
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x << "<testsuites name=\"attnprop\" tests=\"" << r.entries.size() << "\" failures=\"" << failures << "\" errors=\""
    << errors << "\" time=\"" << Seconds(total) << "\">\n";
  x << "  <testsuite name=\"attnprop." << Escape(r.run.command) << "\" tests=\"" << r.entries.size()
    << "\" failures=\"" << failures << "\" errors=\"" << errors << "\" skipped=\"" << skipped << "\" time=\"" << Seconds(total)
    << "\" timestamp=\"" << Escape(r.run.generated) << "\">\n";
  x << "    <properties>\n";
  const std::pair<const char*, std::string> props[] = {
      {"attnprop_version", r.run.version}, {"seed", std::to_string(r.run.seed)},
      {"cases", std::to_string(r.run.cases)}, {"max_size", std::to_string(r.run.max_size)},
      {"mpfr_bits", std::to_string(r.run.mpfr_bits)}, {"kernel", r.run.kernel}, {"store", r.run.store}};
  for (const auto& [k, v] : props) x << "      <property name=\"" << k << "\" value=\"" << Escape(v) << "\"/>\n";
  x << "    </properties>\n";
  for (const auto& e : r.entries) {
    const auto& p = e.result;
    x << "    <testcase classname=\"" << Escape(p.id) << "\" name=\"" << Escape(p.backend) << "\" time=\""
      << Seconds(p.seconds) << "\" file=\"" << Escape(e.file) << "\">\n";
    std::string detail = p.message;
    if (!p.counterexample.empty()) detail += "\ncounterexample:\n" + p.counterexample;
    if (!p.replay_file.empty())
      detail += "\nreplay: " + ShellWord(ThisProgram().command) + " reproduce " + ShellWord(p.id + "/" + p.backend) + " " + ShellWord(p.replay_file);
    if (!p.reproduce.empty()) detail += "\nreproduce: " + ShellWord(ThisProgram().command) + " reproduce " + p.id + "/" + p.backend + " " + p.reproduce;
    const std::string summary = std::string("expected ") + ExpectationName(e.expect) + ", got " + VerdictName(p.verdict);
    constexpr size_t kMessageLimit = 2000;
    // The property the diagnosis ranks first names the bug class first
    // (what a CI system shows of a failed run); every ranked one its rank.
    const int rank = DiagnosisRank(r, e);
    std::string headline = rank == 0 ? "diagnosis: " + r.diagnosis.bug_class + "; " + summary : summary;
    if (rank >= 0)
      detail = "diagnosis: " + r.diagnosis.bug_class + " (ranked " + std::to_string(rank + 1) + " of " +
               std::to_string(r.diagnosis.ranked.size()) + ", group " +
               std::to_string(r.diagnosis.ranked[static_cast<size_t>(rank)].group + 1) + ")\n" + detail;
    if (!p.message.empty()) headline += ": " + OneLine(p.message, kMessageLimit);
    if (!p.counterexample.empty()) headline += "; counterexample: " + OneLine(p.counterexample, kMessageLimit);
    if (e.judgement.skipped()) {
      x << "      <skipped message=\"" << Escape("not run here: " + p.message) << "\"/>\n";
    } else if (ExpectedRefutation(e)) {
      const std::string statement = StatementOf(p.id);
      x << "      <skipped type=\"xfail\" message=\""
        << Escape("refuted as stated" + (statement.empty() ? std::string() : ": " + statement) + " (registered refuted; "
                  + (FoundByText(p).empty() ? std::string("refutation confirmed") : "found by " + FoundByText(p)) + ")")
        << "\"/>\n";
    } else if (p.verdict == Verdict::kError) {
      x << "      <error message=\"" << Escape(headline) << "\" type=\"error\">" << Escape(detail) << "</error>\n";
    } else if (!e.as_expected()) {
      x << "      <failure message=\"" << Escape(headline) << "\" type=\"unexpected-verdict\">" << Escape(detail)
        << "</failure>\n";
    }
    x << "      <system-out>" << Escape(std::string("verdict ") + VerdictName(p.verdict) + " (expected " +
                                        ExpectationName(e.expect) + "), " + std::to_string(p.cases) + " cases, " +
                                        std::to_string(p.discarded) + " discarded, " +
                                        std::to_string(p.replayed.size()) + " stored cases replayed" +
                                        (e.as_expected() && !detail.empty() ? "\n" + detail : ""))
      << "</system-out>\n";
    x << "    </testcase>\n";
  }
  x << "  </testsuite>\n</testsuites>\n";
  return x.str();
}

}  // namespace attnprop::report
