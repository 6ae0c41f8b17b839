// Reading a written report back: the unexpected results of the last run
// (attnprop run/audit --rerun-failed).
#include <nlohmann/json.hpp>

#include <fstream>
#include <stdexcept>

#include "reports/report.h"

namespace attnprop::report {

std::vector<std::string> UnexpectedInReport(const std::string& json_path) {
  std::ifstream in(json_path);
  if (!in) throw std::runtime_error("cannot read " + json_path + " (--rerun-failed reads the last report there)");
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    throw std::runtime_error(json_path + ": not a report: " + e.what());
  }
  if (!doc.contains("schema") || doc["schema"] != "attnprop-report/1" || !doc["properties"].is_array())
    throw std::runtime_error(json_path + ": not an attnprop-report/1 report");
  std::vector<std::string> names;
  for (const auto& p : doc["properties"]) {
    if (!p.value("as_expected", true))
      names.push_back(p.value("id", std::string()) + "/" + p.value("backend", std::string()));
  }
  return names;
}

}  // namespace attnprop::report
