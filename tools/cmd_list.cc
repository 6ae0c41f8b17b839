// attnprop list: every registered property with its kind, expectation,
// stored cases and source file.
#include <cctype>
#include <set>
#include <iomanip>
#include <iostream>

#include "properties/framework/catalog.h"
#include "properties/framework/registry.h"
#include "properties/framework/store.h"
#include "reports/report.h"
#include "tools/cli.h"

namespace attnprop::cli {
namespace {

constexpr const char* kUsage =
    "usage: attnprop list [--store DIR] [--gaps]\n"
    "  Lists every registered property: id/backend, kind (from the claim catalogue claims/claims.tsv:\n"
    "  identity, inequality, ...; 'ours' for our variants), expectation (registry.tsv), stored cases\n"
    "  (counterexample store), source file, and where the claim is stated. Ends with the catalogue\n"
    "  coverage: how many catalogue claims have a property. Kernel backends are listed once\n"
    "  (kernel-f32, kernel-f64); a run binds them to each kernel it checks (kernel-f32@avx2, ...).\n"
    "  --store DIR   counterexample store to count (default: the source tree's properties/counterexamples)\n"
    "  --gaps        list instead the catalogue claims that have no property yet, with their statements\n";

/// The claim's kind from the catalogue; "ours" for a variant of ours.
std::string KindOf(const std::string& id) {
  if (const CatalogClaim* c = FindClaim(id)) return c->kind;
  if (id.size() > 5 && id.compare(id.size() - 5, 5, ".ours") == 0) return "ours";
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

}  // namespace

int List(const std::vector<std::string>& args) {
  std::string store = DefaultStoreDir();
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-h") {
      std::cout << kUsage;
      return kOk;
    } else if (args[i] == "--gaps") {
      return Gaps();
    } else if (args[i] == "--store" && i + 1 < args.size()) {
      store = args[++i];
    } else {
      return UsageError("list", "unknown argument '" + args[i] + "'", kUsage);
    }
  }
  std::cout << std::left << std::setw(56) << "property" << " " << std::setw(12) << "kind" << " " << std::setw(8)
            << "expect" << " " << std::setw(6) << "stored" << " source\n";
  for (const auto& d : Registry()) {
    const RegistryRow* row = FindRow(d.id);
    const CatalogClaim* claim = FindClaim(d.id);
    const std::string stated = !d.source.empty() ? d.source : claim ? claim->source : "";
    size_t stored = 0;
    for (const auto& c : LoadStore(store, d.id)) stored += c.AppliesTo(d.backend);
    std::cout << std::left << std::setw(56) << d.Name() << " " << std::setw(12) << KindOf(d.id) << " " << std::setw(8)
              << (row && row->expect == Expectation::kRefuted ? "refuted" : "holds") << " " << std::setw(6) << stored
              << " " << report::RelativeSource(d.file) << (stated.empty() ? "" : "  (" + stated + ")") << "\n";
  }
  const auto covered = CoveredIds();
  size_t have = 0;
  for (const auto& c : Catalog()) have += covered.count(c.id);
  std::cout << "catalogue coverage: " << have << " of " << Catalog().size()
            << " claims have a property; `attnprop list --gaps` lists the rest\n";
  return kOk;
}

}  // namespace attnprop::cli
