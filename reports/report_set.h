// Writing a set of report files as a whole (write.cc): every file is written
// into a temporary directory inside the output directory and synced; then,
// with SIGINT and SIGTERM held back, the old manifest is removed, each file
// is renamed into place, and the manifest (manifest.json: each file's name,
// size and FNV-1a hash) is written last. So a reader that finds a manifest
// finds the complete set it describes; a signal before the renames removes
// the temporary directory (the old set stays whole); a write error (disk
// full, file size limit) throws before anything is renamed, leaving no
// temporary file behind.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace attnprop::report {

inline constexpr const char* kManifestName = "manifest.json";

/// {file name, text} pairs, written into `dir` (created if needed) as above.
/// `after_each_temp(i)` runs after the i-th temporary file is written (for
/// tests: a signal or an error at that point). Throws std::runtime_error
/// naming the file on any failure.
/// With `manifest` false, no manifest is written or removed (one file, as
/// --json and --junit write it: same signal and error behaviour).
void WriteReportSet(const std::vector<std::pair<std::string, std::string>>& files, const std::string& dir,
                    const std::function<void(size_t)>& after_each_temp = {}, bool manifest = true);

/// The 64-bit FNV-1a hash of the bytes of `s` (offset basis
/// 14695981039346656037, prime 1099511628211): the manifest's file hashes,
/// the registry hash of a report, the shard of a property. Stable across
/// machines and standard libraries (unlike std::hash).
uint64_t Fnv1a64(const std::string& s);

/// The manifest's text for these files (deterministic).
std::string ManifestText(const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace attnprop::report
