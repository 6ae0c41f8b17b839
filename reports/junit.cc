// junit.xml: one testcase per property and backend (classname = claim id,
// name = backend). A verdict other than registry.tsv's expectation is a
// <failure>; an error verdict is an <error>; a property that could not run
// here (a dispatch target this CPU lacks) is <skipped>. Judge decides which.
#include <sstream>

#include "reports/format.h"
#include "reports/report.h"

namespace attnprop::report {

std::string ToJUnit(const Report& r) {
  int failures = 0, errors = 0, skipped = 0;
  double total = 0;
  for (const auto& e : r.entries) {
    total += e.result.seconds;
    if (e.result.verdict == Verdict::kError) {
      ++errors;
    } else if (e.judgement.skipped()) {
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
    if (!p.reproduce.empty()) detail += "\nreproduce: attnprop reproduce " + p.id + "/" + p.backend + " " + p.reproduce;
    const std::string summary = std::string("expected ") + ExpectationName(e.expect) + ", got " + VerdictName(p.verdict);
    if (e.judgement.skipped()) {
      x << "      <skipped message=\"" << Escape(p.message) << "\"/>\n";
    } else if (p.verdict == Verdict::kError) {
      x << "      <error message=\"" << Escape(summary) << "\" type=\"error\">" << Escape(detail) << "</error>\n";
    } else if (!e.as_expected()) {
      x << "      <failure message=\"" << Escape(summary) << "\" type=\"unexpected-verdict\">" << Escape(detail)
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
