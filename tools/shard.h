// Sharding: one run's properties split over TOTAL jobs (CI matrix entries,
// GitLab `parallel:`), as GoogleTest splits tests (GTEST_TOTAL_SHARDS,
// GTEST_SHARD_INDEX, GTEST_SHARD_STATUS_FILE), so the runners CI already
// has drive attnprop the way they drive a gtest binary.
//
// A property belongs to shard FNV-1a-64("<id>/<backend>") mod TOTAL (the
// 64-bit FNV-1a of the name's bytes, offset basis 14695981039346656037,
// prime 1099511628211; never std::hash, whose values the standard library
// may change): adding or removing a claim moves no other property between
// shards, and the partition is the same on every machine (report::Fnv1a64,
// reports/report_set.h, the hash of the report manifest).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attnprop::cli {

/// One shard of a run; total 0 is the whole run (not sharded).
struct Shard {
  uint64_t index = 0;
  uint64_t total = 0;
  bool sharded() const { return total > 0; }
};

/// The largest TOTAL accepted (a bound for messages and JSON, far above any CI matrix).
inline constexpr uint64_t kMaxShards = 100000;

/// Parses "--shard INDEX/TOTAL" (0 <= INDEX < TOTAL <= kMaxShards). On error
/// returns false and sets *error to a message naming the value.
bool ParseShard(const std::string& text, Shard* shard, std::string* error);

/// The shard GoogleTest's variables ask for: both GTEST_TOTAL_SHARDS and
/// GTEST_SHARD_INDEX set (GoogleTest's rule: one without the other, or a
/// value that is not an index below the total, is an error); neither set:
/// the whole run. Returns false with *error on bad values.
bool ShardFromEnvironment(Shard* shard, std::string* error);

/// Creates GTEST_SHARD_STATUS_FILE when it is set (GoogleTest touches it to
/// tell the runner that the binary understands sharding). Returns "" or the
/// error.
std::string TouchShardStatusFile();

/// Whether the property named "<id>/<backend>" runs in `shard` (always, for
/// the whole run).
bool InShard(const std::string& name, const Shard& shard);

/// The positions, in order, of the names (each "<id>/<backend>") that run
/// in `shard`: all of them for the whole run.
std::vector<size_t> ShardPositions(const std::vector<std::string>& names, const Shard& shard);

}  // namespace attnprop::cli
