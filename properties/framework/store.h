// The counterexample store: exact cases kept in the repository, one text file
// per claim (properties/counterexamples/<claim id>.txt, format in that
// folder's README.md), replayed before the random cases on every run. Unlike
// RapidCheck's reproduce strings, stored values survive generator changes.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "properties/framework/case.h"

namespace attnprop {

/// The largest store file read (the store README states the limits).
inline constexpr uintmax_t kMaxStoreFileBytes = 64u << 20;

/// A malformed store file; what() reads "FILE:LINE: why".
class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One `[case ...] ... [end]` entry.
struct StoredCase {
  /// kUndecided: a case interval arithmetic is known not to decide (up to
  /// the cap); it must stay undecided, and counts as an undecided case.
  enum class Expect { kRefutes, kHolds, kUndecided };
  std::string name;                   // label, unique within its file
  Expect expect = Expect::kHolds;
  std::vector<std::string> backends;  // empty: all backends
  Case value;
  std::string origin;                 // "FILE:LINE" of its header, for messages

  /// Whether the entry is replayed in `backend` (a full name such as
  /// "kernel-f32@avx2"): an entry without backends= applies to every model
  /// backend and to no kernel backend.
  bool AppliesTo(const std::string& backend) const;
};

const char* ExpectName(StoredCase::Expect e);

/// Parses a store file's text. `file` names it in errors. Throws StoreError
/// on a malformed header, a missing [end], a bad case body, a duplicate name.
std::vector<StoredCase> ParseStore(const std::string& text, const std::string& file);

/// The entry's text, as ParseStore reads it (header, Case::ToText, [end]).
std::string FormatStoredCase(const StoredCase& c);

/// The store file of a claim inside `dir`.
std::string StorePath(const std::string& dir, const std::string& claim_id);

/// The claim's stored cases; empty when its file does not exist. Throws
/// StoreError when the file is malformed or unreadable.
std::vector<StoredCase> LoadStore(const std::string& dir, const std::string& claim_id);

/// Appends `entry` to the claim's file in `dir` (creating both if needed),
/// unless a case with the same value and backends is already there. Holds an
/// exclusive flock on `dir` while it reads the file, merges and writes it, so
/// concurrent runs saving into one store lose no entry. Writes a temporary
/// file, then renames it: a reader never sees half a file. Returns
/// false when the case was already stored. Throws StoreError when the
/// existing file is malformed or the directory cannot be written.
/// A directory SaveToStore creates holds a README.md saying what it is;
/// a cache (a default store the user did not name) also a .gitignore of `*`.
enum class StoreKind { kNamed, kCache };
/// Creates the store directory `dir` (and its parents) if it does not exist,
/// with its README.md (and a cache's .gitignore). Throws StoreError.
void CreateStoreDir(const std::string& dir, StoreKind kind);
bool SaveToStore(const std::string& dir, const std::string& claim_id, StoredCase entry,
                 StoreKind kind = StoreKind::kNamed);

/// What MergeStore did: entries added, and entries already there.
struct StoreMergeCount {
  size_t added = 0, present = 0;
};

/// Folds the store `from` into `into` (created if needed): every entry of
/// from's <claim>.txt files that `into` lacks (same value and backends) is
/// appended to its file, a taken name renamed as SaveToStore does; the
/// kernel stores under from/kernels/<name>/ likewise. Holds into's flock
/// for the whole fold, so a concurrent run or merge loses nothing and no
/// entry is stored twice; merging the same store again adds nothing. Throws
/// StoreError for a malformed file or a store that cannot be written.
StoreMergeCount MergeStore(const std::string& into, const std::string& from);

/// For tests: called by SaveToStore after it read the file and before it
/// writes it (to force concurrent runs to overlap); nullptr for none.
void SetStoreMergeHookForTesting(void (*hook)());

/// The store replayed by default: an installed attnprop's own,
/// <prefix>/share/attnprop/counterexamples (found from the executable's
/// location); otherwise the source tree this binary was built from
/// (<source>/properties/counterexamples), which may no longer exist (then
/// there are no stored cases).
std::string DefaultStoreDir();

/// Where new counterexamples are saved by default: the source tree's store
/// when that is the default store; for an installed attnprop, whose store is
/// read only, ./attnprop-counterexamples (as check-kernel's default).
std::string DefaultSaveDir();

}  // namespace attnprop
