#include "tools/shard.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "reports/report_set.h"
#include "tools/cli.h"

namespace attnprop::cli {

bool ParseShard(const std::string& text, Shard* shard, std::string* error) {
  const size_t slash = text.find('/');
  uint64_t index = 0, total = 0;
  if (slash == std::string::npos || !ParseUint(text.substr(0, slash), &index) ||
      !ParseUint(text.substr(slash + 1), &total))
    return *error = "--shard needs INDEX/TOTAL (e.g. 0/4), not '" + text + "'", false;
  if (total < 1 || total > kMaxShards)
    return *error = "--shard " + text + ": TOTAL must be in [1, " + std::to_string(kMaxShards) + "]", false;
  if (index >= total)
    return *error = "--shard " + text + ": INDEX must be below TOTAL (shards are numbered 0 to " +
                    std::to_string(total - 1) + ")",
           false;
  *shard = {index, total};
  return true;
}

bool ShardFromEnvironment(Shard* shard, std::string* error) {
  const char* total = std::getenv("GTEST_TOTAL_SHARDS");
  const char* index = std::getenv("GTEST_SHARD_INDEX");
  if (!total && !index) return true;
  if (!total || !index)
    return *error = std::string("GTEST_SHARD_INDEX and GTEST_TOTAL_SHARDS go together: ") +
                    (total ? "GTEST_SHARD_INDEX" : "GTEST_TOTAL_SHARDS") + " is not set",
           false;
  uint64_t t = 0, i = 0;
  if (!ParseUint(total, &t) || t < 1 || t > kMaxShards)
    return *error = "GTEST_TOTAL_SHARDS='" + std::string(total) + "' is not a shard count in [1, " +
                    std::to_string(kMaxShards) + "]",
           false;
  if (!ParseUint(index, &i) || i >= t)
    return *error = "GTEST_SHARD_INDEX='" + std::string(index) + "' is not a shard index below GTEST_TOTAL_SHARDS=" +
                    std::to_string(t),
           false;
  *shard = {i, t};
  return true;
}

std::string TouchShardStatusFile() {
  const char* path = std::getenv("GTEST_SHARD_STATUS_FILE");
  if (!path || !*path) return "";
  const int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return "cannot create GTEST_SHARD_STATUS_FILE " + std::string(path) + ": " + std::strerror(errno);
  close(fd);
  return "";
}

bool InShard(const std::string& name, const Shard& shard) {
  return !shard.sharded() || report::Fnv1a64(name) % shard.total == shard.index;
}

std::vector<size_t> ShardPositions(const std::vector<std::string>& names, const Shard& shard) {
  std::vector<size_t> out;
  for (size_t i = 0; i < names.size(); ++i)
    if (InShard(names[i], shard)) out.push_back(i);
  return out;
}

}  // namespace attnprop::cli
