// attnprop list: every registered property with its kind, expectation,
// stored cases and source file.
#include <cctype>
#include <cstdio>
#include <set>
#include <iomanip>
#include <iostream>

#include "properties/framework/catalog.h"
#include "properties/framework/registry.h"
#include "properties/framework/store.h"
#include "reports/report.h"
#include "reports/summary.h"
#include "tools/cli.h"
#include "properties/framework/program.h"

namespace attnprop::cli {
namespace {

constexpr const char* kUsage =
    "usage: attnprop list [--store DIR] [--gaps] [--json] [--names]\n"
    "  Lists every registered property: id/backend, kind (from the claim catalogue claims/claims.tsv:\n"
    "  identity, inequality, ...; for a claim of ours, registry.tsv's kind: 'ours' or 'new'),\n"
    "  expectation (registry.tsv), stored cases (counterexample store), source file, and where the\n"
    "  claim is stated. Ends with the catalogue\n"
    "  coverage: how many catalogue claims have a property. Kernel backends are listed once\n"
    "  (kernel-f32, kernel-f64, kernel-bf16, kernel-f16); a run binds them to each kernel it checks\n"
    "  (kernel-f32@avx2, ...).\n"
    "  --store DIR   counterexample store to count (default: the source tree's properties/counterexamples)\n"
    "  --gaps        list instead the catalogue claims that have no property yet, with their statements\n"
    "  --json        the same as JSON, for tools: {\"properties\": [{id, backend, name, kind, expect, labels,\n"
    "                stored, file, source, statement}], \"gaps\": [{id, kind, source, statement}]}\n";

/// The property's registry row (a user's claim without one has its default).
const RegistryRow* RowOf(const PropertyDef& d) { return d.row ? d.row : FindRow(d.id); }

/// The claim's kind: the catalogue's (identity, inequality, ...) for a claim
/// as stated; "ours" or "new" (registry.tsv) for a claim of ours.
std::string KindOf(const PropertyDef& d) {
  const RegistryRow* row = RowOf(d);
  if (row && row->kind != ClaimKind::kAsStated) return ClaimKindName(row->kind);
  if (const CatalogClaim* c = FindClaim(d.id)) return c->kind;
  return "-";
}

/// Claim ids with a property.
std::set<std::string> CoveredIds() {
  std::set<std::string> ids;
  for (const auto& d : Registry()) ids.insert(d.id);
  return ids;
}

int Gaps() {
  const auto covered = CoveredIds();
  size_t missing = 0;
  for (const auto& c : Catalog()) {
    if (covered.count(c.id)) continue;
    ++missing;
    std::cout << std::left << std::setw(58) << c.id << " " << std::setw(12) << c.kind << " " << c.source << "\n    "
              << c.statement << "\n";
  }
  std::cout << missing << " of " << Catalog().size() << " catalogue claims have no property yet\n";
  return kOk;
}

/// A JSON string literal.
std::string J(const std::string& s) {
  std::string out = "\"";
  for (unsigned char ch : s) {
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += static_cast<char>(ch);
    } else if (ch < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", ch);
      out += buf;
    } else {
      out += static_cast<char>(ch);
    }
  }
  return out + "\"";
}

int ListJson(const std::string& store) {
  std::cout << "{\n  \"properties\": [";
  bool first = true;
  for (const auto& d : Registry()) {
    const RegistryRow* row = RowOf(d);
    const CatalogClaim* claim = FindAnyClaim(d.id);
    size_t stored = 0;
    for (const auto& c : LoadStore(store, d.id)) stored += c.AppliesTo(d.backend);
    std::string labels;
    if (row)
      for (const auto& l : row->labels) labels += (labels.empty() ? "" : ", ") + J(l);
    std::cout << (first ? "\n" : ",\n") << "    {\"id\": " << J(d.id) << ", \"backend\": " << J(d.backend)
              << ", \"name\": " << J(d.Name()) << ", \"kind\": " << J(KindOf(d)) << ", \"expect\": "
              << J(row && row->expect == Expectation::kRefuted ? "refuted" : "holds") << ", \"labels\": [" << labels
              << "], \"stored\": " << stored << ", \"file\": " << J(report::RelativeSource(d.file))
              << ", \"source\": " << J(claim ? claim->source : "")
              << ", \"statement\": " << J(report::StatementOf(d.id)) << "}";
    first = false;
  }
  std::cout << "\n  ],\n  \"gaps\": [";
  const auto covered = CoveredIds();
  first = true;
  for (const auto& c : Catalog()) {
    if (covered.count(c.id)) continue;
    std::cout << (first ? "\n" : ",\n") << "    {\"id\": " << J(c.id) << ", \"kind\": " << J(c.kind)
              << ", \"source\": " << J(c.source) << ", \"statement\": " << J(c.statement) << "}";
    first = false;
  }
  std::cout << "\n  ]\n}\n";
  return kOk;
}

}  // namespace

int List(const std::vector<std::string>& args) {
  std::string store = DefaultStoreDir();
  bool gaps = false, json = false, names = false;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-h") {
      std::cout << InThisProgramsWords(kUsage);
      return kOk;
    } else if (args[i] == "--gaps") {
      gaps = true;
    } else if (args[i] == "--json") {
      json = true;
    } else if (args[i] == "--names") {
      names = true;
    } else if (args[i] == "--store" && i + 1 < args.size()) {
      store = args[++i];
      if (const std::string e = CheckStoreDir(store, false); !e.empty()) return UsageError("list", e, kUsage);
    } else {
      return UsageError("list", "unknown argument '" + args[i] + "'", kUsage);
    }
  }
  if (names) {
    for (const auto& d : Registry()) std::cout << d.Name() << "\n";
    return kOk;
  }
  if (json) return ListJson(store);
  if (gaps) return Gaps();
  std::cout << std::left << std::setw(56) << "property" << " " << std::setw(12) << "kind" << " " << std::setw(8)
            << "expect" << " " << std::setw(6) << "stored" << " source\n";
  for (const auto& d : Registry()) {
    const RegistryRow* row = RowOf(d);
    const CatalogClaim* claim = FindAnyClaim(d.id);
    const std::string stated = claim ? claim->source : "";
    size_t stored = 0;
    for (const auto& c : LoadStore(store, d.id)) stored += c.AppliesTo(d.backend);
    std::cout << std::left << std::setw(56) << d.Name() << " " << std::setw(12) << KindOf(d) << " " << std::setw(8)
              << (row && row->expect == Expectation::kRefuted ? "refuted" : "holds") << " " << std::setw(6) << stored
              << " " << report::RelativeSource(d.file) << (stated.empty() ? "" : "  (" + stated + ")") << "\n";
    // A statement the claim's source declares (kStatement): a user's claim
    // has no catalogue to say it.
    if (const CatalogClaim* declared = FindDeclaredClaim(d.id)) std::cout << "    " << declared->statement << "\n";
  }
  if (Catalog().empty()) return kOk;  // a user's claim runner: no catalogue to cover
  const auto covered = CoveredIds();
  size_t have = 0;
  for (const auto& c : Catalog()) have += covered.count(c.id);
  std::cout << "catalogue coverage: " << have << " of " << Catalog().size()
            << " claims have a property; `attnprop list --gaps` lists the rest\n";
  return kOk;
}

}  // namespace attnprop::cli
