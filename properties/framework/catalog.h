// claims/claims.tsv: the claim catalogue (a verbatim copy of
// shared/claims/claims.tsv; the test claims.catalog_in_sync checks the copy).
// Every claim id, with its source, kind and statement, compiled in so that
// `attnprop list` can say what each property encodes and which claims have
// no property yet (a visible gap).
#pragma once

#include <string>
#include <vector>

namespace attnprop {

struct CatalogClaim {
  std::string id;
  std::string source;     // document and its own numbering, e.g. "003 §3 Prop 3.1"
  std::string kind;       // identity, inequality, statistical, limit, existence, ...
  std::string statement;  // one line; "[R]" marks a reconstructed formula
};

/// The catalogue's rows in file order.
const std::vector<CatalogClaim>& Catalog();
/// The claim with this id, or null.
const CatalogClaim* FindClaim(const std::string& id);
/// The claim an id is, or is a variant or reading of (the longest catalogue
/// id that is the id's prefix up to a '.': collapse.lemmaD.4 for
/// collapse.lemmaD.4.ours), or null.
const CatalogClaim* FindClaimOrBase(const std::string& id);

/// Parses the TSV text (exposed for tests); throws std::runtime_error naming
/// the line on a row without 4 fields.
std::vector<CatalogClaim> ParseCatalog(const std::string& tsv);

}  // namespace attnprop
