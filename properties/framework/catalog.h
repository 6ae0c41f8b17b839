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
/// claims/ours.tsv: the claims of ours (registry kinds ours and new: our
/// corrected variants, second readings, the kernel ABI's contract), in the
/// catalogue's format, with their statements and sources.
const std::vector<CatalogClaim>& OursCatalog();
/// The claim of ours with this id, or null.
const CatalogClaim* FindOurClaim(const std::string& id);
/// A claim that states itself in its source (a user's claim with
/// `static constexpr const char* kStatement = "...";`, ATTNPROP_REGISTER
/// declares it): its id and statement. The first declaration of an id wins.
void DeclareClaim(const CatalogClaim& c);
/// The claim declared so, or null.
const CatalogClaim* FindDeclaredClaim(const std::string& id);
/// The documents' claim or, failing that, ours, or one declared in source.
const CatalogClaim* FindAnyClaim(const std::string& id);

/// Parses the TSV text (exposed for tests); throws std::runtime_error naming
/// the line on a row without 4 fields.
std::vector<CatalogClaim> ParseCatalog(const std::string& tsv);

}  // namespace attnprop
