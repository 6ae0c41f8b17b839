#include "properties/framework/catalog.h"

#include <sstream>
#include <stdexcept>

namespace attnprop {

extern const char* const kClaimsTsv;  // claims/claims.tsv (embedded_tsv.cc)
extern const char* const kOursTsv;    // claims/ours.tsv

std::vector<CatalogClaim> ParseCatalog(const std::string& tsv) {
  std::vector<CatalogClaim> rows;
  std::istringstream in(tsv);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty() || line.rfind("id\t", 0) == 0) continue;
    std::vector<std::string> f;
    std::istringstream fields(line);
    for (std::string x; std::getline(fields, x, '\t');) f.push_back(x);
    if (f.size() != 4)
      throw std::runtime_error("claims.tsv line " + std::to_string(n) + ": expected 4 tab-separated fields");
    rows.push_back({f[0], f[1], f[2], f[3]});
  }
  return rows;
}

const std::vector<CatalogClaim>& Catalog() {
  static const std::vector<CatalogClaim> rows = ParseCatalog(kClaimsTsv);
  return rows;
}

namespace {
const CatalogClaim* FindIn(const std::vector<CatalogClaim>& rows, const std::string& id) {
  for (const auto& c : rows)
    if (c.id == id) return &c;
  return nullptr;
}
}  // namespace

const CatalogClaim* FindClaim(const std::string& id) { return FindIn(Catalog(), id); }

const std::vector<CatalogClaim>& OursCatalog() {
  static const std::vector<CatalogClaim> rows = ParseCatalog(kOursTsv);
  return rows;
}

const CatalogClaim* FindOurClaim(const std::string& id) { return FindIn(OursCatalog(), id); }

namespace {
std::vector<CatalogClaim>& Declared() {
  static std::vector<CatalogClaim> declared;  // registration order
  return declared;
}
}  // namespace

void DeclareClaim(const CatalogClaim& c) {
  if (!FindDeclaredClaim(c.id)) Declared().push_back(c);
}

const CatalogClaim* FindDeclaredClaim(const std::string& id) {
  for (const auto& c : Declared())
    if (c.id == id) return &c;
  return nullptr;
}

const CatalogClaim* FindAnyClaim(const std::string& id) {
  if (const CatalogClaim* c = FindClaim(id)) return c;
  if (const CatalogClaim* c = FindOurClaim(id)) return c;
  return FindDeclaredClaim(id);
}

}  // namespace attnprop
