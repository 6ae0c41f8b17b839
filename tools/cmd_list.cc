// attnprop list: every registered property with its kind, expectation,
// stored cases and source file.
#include <cctype>
#include <iomanip>
#include <iostream>

#include "properties/framework/registry.h"
#include "properties/framework/store.h"
#include "reports/report.h"
#include "tools/cli.h"

namespace attnprop::cli {
namespace {

constexpr const char* kUsage =
    "usage: attnprop list [--store DIR]\n"
    "  Lists every registered property: id/backend, kind (from the id: prop, lemma, thm, def, ...),\n"
    "  expectation (registry.tsv), stored cases (counterexample store), source file, and where the\n"
    "  claim is stated when the claim says (kSource).\n"
    "  --store DIR   counterexample store to count (default: the source tree's properties/counterexamples)\n";

/// The claim's kind, from its id "<doc>.<kind><number>.<slug>" (prop3.1,
/// lemma2, def...); "-" when the id does not say (e.g. "attend2.additivity").
std::string KindOf(const std::string& id) {
  const auto a = id.find('.');
  if (a == std::string::npos) return "-";
  std::string kind;
  size_t i = a + 1;
  for (; i < id.size() && std::isalpha(static_cast<unsigned char>(id[i])); ++i) kind += id[i];
  const bool numbered = i < id.size() && std::isdigit(static_cast<unsigned char>(id[i]));
  const bool has_slug = id.find('.', a + 1) != std::string::npos;
  return !kind.empty() && (numbered || has_slug) ? kind : "-";
}

}  // namespace

int List(const std::vector<std::string>& args) {
  std::string store = DefaultStoreDir();
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-h") {
      std::cout << kUsage;
      return kOk;
    } else if (args[i] == "--store" && i + 1 < args.size()) {
      store = args[++i];
    } else {
      return UsageError("list", "unknown argument '" + args[i] + "'", kUsage);
    }
  }
  std::cout << std::left << std::setw(56) << "property" << " " << std::setw(6) << "kind" << " " << std::setw(8)
            << "expect" << " " << std::setw(6) << "stored" << " source\n";
  for (const auto& d : Registry()) {
    const RegistryRow* row = FindRow(d.id);
    size_t stored = 0;
    for (const auto& c : LoadStore(store, d.id)) stored += c.AppliesTo(d.backend);
    std::cout << std::left << std::setw(56) << d.Name() << " " << std::setw(6) << KindOf(d.id) << " " << std::setw(8)
              << (row && row->expect == Expectation::kRefuted ? "refuted" : "holds") << " " << std::setw(6) << stored
              << " " << report::RelativeSource(d.file) << (d.source.empty() ? "" : "  (" + d.source + ")") << "\n";
  }
  return kOk;
}

}  // namespace attnprop::cli
