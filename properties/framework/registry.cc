#include "properties/framework/registry.h"

#include "properties/framework/catalog.h"
#include "properties/framework/program.h"

#include <algorithm>
#include <deque>
#include <set>
#include <sstream>
#include <stdexcept>

namespace attnprop {

extern const char* const kRegistryTsv;  // generated from properties/registry.tsv

const char* RegistryTsvText() { return kRegistryTsv; }

namespace {
std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : s) {
    if (ch == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  out.push_back(cur);
  return out;
}
}  // namespace

std::vector<PropertyDef>& Registry() {
  static std::vector<PropertyDef> defs;
  return defs;
}

const PropertyDef* FindProperty(const std::string& name) {
  for (const auto& d : Registry())
    if (d.Name() == name) return &d;
  return nullptr;
}

const char* ClaimKindName(ClaimKind k) {
  switch (k) {
    case ClaimKind::kAsStated: return "as-stated";
    case ClaimKind::kOurs: return "ours";
    case ClaimKind::kNew: return "new";
  }
  return "?";
}

std::vector<RegistryRow> ParseRegistry(const std::string& tsv) {
  std::vector<RegistryRow> rows;
  std::istringstream in(tsv);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty() || line[0] == '#') continue;
    const auto f = Split(line, '\t');
    if (f[0] == "id") continue;  // header
    const std::string at = "registry.tsv line " + std::to_string(n) + ": ";
    if (f.size() != 5) throw std::runtime_error(at + "expected 5 tab-separated fields (id kind expect labels why)");
    RegistryRow r;
    r.id = f[0];
    if (f[1] == "as-stated") {
      r.kind = ClaimKind::kAsStated;
    } else if (f[1] == "ours") {
      r.kind = ClaimKind::kOurs;
    } else if (f[1] == "new") {
      r.kind = ClaimKind::kNew;
    } else {
      throw std::runtime_error(at + "kind must be as-stated, ours or new, not '" + f[1] + "'");
    }
    if (f[2] == "holds") {
      r.expect = Expectation::kHolds;
    } else if (f[2] == "refuted") {
      r.expect = Expectation::kRefuted;
    } else {
      throw std::runtime_error(at + "expect must be holds or refuted");
    }
    if (!f[3].empty() && f[3] != "-") r.labels = Split(f[3], ',');
    r.undecided_allowed = std::find(r.labels.begin(), r.labels.end(), "undecided") != r.labels.end();
    r.note = f[4];
    r.line = n;
    rows.push_back(std::move(r));
  }
  return rows;
}

const std::vector<RegistryRow>& RegistryRows() {
  static const std::vector<RegistryRow> rows = ParseRegistry(kRegistryTsv);
  return rows;
}

const RegistryRow* FindRow(const std::string& id) {
  for (const auto& r : RegistryRows())
    if (r.id == id) return &r;
  return nullptr;
}

std::vector<std::string> JoinRegistry() {
  std::vector<std::string> problems;
  std::set<std::string> registered, seen;
  for (const auto& d : Registry()) registered.insert(d.id);
  for (const auto& r : RegistryRows()) {
    const std::string at = "registry.tsv line " + std::to_string(r.line) + ": ";
    if (!seen.insert(r.id).second) problems.push_back(at + r.id + " has a second row");
    // Ids are the contract: an as-stated row is a catalogue claim; ours is a
    // catalogue id + ".ours"; a new claim is not in the catalogue.
    const bool suffix = r.id.size() > 5 && r.id.compare(r.id.size() - 5, 5, ".ours") == 0;
    switch (r.kind) {
      case ClaimKind::kAsStated:
        if (!FindClaim(r.id))
          problems.push_back(at + r.id +
                             (ThisProgram().user_claims
                                  ? " is of kind as-stated, which names a claim of attnprop's documents: a claim of "
                                    "yours is of kind new"
                                  : " is not in claims/claims.tsv (ids are verbatim; a claim we add is "
                                    "of kind new, our variant of kind ours)"));
        break;
      case ClaimKind::kOurs:
        if (!suffix || !FindClaim(r.id.substr(0, r.id.size() - 5)))
          problems.push_back(at + r.id + " is of kind ours: its id is a claims/claims.tsv id + \".ours\"");
        break;
      case ClaimKind::kNew:
        if (FindClaim(r.id) || suffix)
          problems.push_back(at + r.id + " is of kind new but its id is a catalogue claim's (or ends .ours)");
        break;
    }
    // A user's runner has no catalogue of statements: its claims are its own.
    if (r.kind != ClaimKind::kAsStated && !FindOurClaim(r.id) && !ThisProgram().user_claims)
      problems.push_back(at + r.id + " is a claim of ours without its statement in claims/ours.tsv");
    if (!registered.count(r.id)) problems.push_back(at + r.id + " has a row but no property is registered under it");
  }
  // A user's claim without a row is its author's claim, expected to hold.
  static std::deque<RegistryRow> unlisted;
  for (auto& d : Registry()) {
    d.row = FindRow(d.id);
    if (!d.row && ThisProgram().user_claims) {
      for (const auto& u : unlisted)
        if (u.id == d.id) d.row = &u;
      if (!d.row) d.row = &unlisted.emplace_back(RegistryRow{d.id, ClaimKind::kNew, Expectation::kHolds, {},
                                                              "no registry row: expected to hold", 0});
    }
    // A statistical claim states its false-alarm rate and power where its
    // test is (Claim::kStatistics), and only a statistical claim does.
    const bool labelled = d.row && std::find(d.row->labels.begin(), d.row->labels.end(), "statistical") != d.row->labels.end();
    if (labelled && !d.statistics)
      problems.push_back(d.Name() + " (registered in " + d.file +
                         ") is labelled statistical but declares no kStatistics (false-alarm rate and power)");
    if (d.statistics && d.row && !labelled)
      problems.push_back(d.Name() + " (registered in " + d.file + ") declares kStatistics but registry.tsv line " +
                         std::to_string(d.row->line) + " does not label it statistical");
    if (d.statistics)
      if (const std::string why = StatisticsProblem(*d.statistics); !why.empty())
        problems.push_back(d.Name() + " (registered in " + d.file + ") kStatistics: " + why);
    if (!d.row) problems.push_back(d.Name() + " (registered in " + d.file + ") has no row in registry.tsv");
  }
  return problems;
}

}  // namespace attnprop
