#include "properties/framework/store.h"

#include "properties/framework/program.h"

#include "properties/framework/atomic_file.h"
#include "properties/framework/backend.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <thread>

#ifndef ATTNPROP_SOURCE_DIR
#error "ATTNPROP_SOURCE_DIR must be defined by the build"
#endif

namespace attnprop {
namespace {

std::string Trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> SplitOn(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : s) {
    if (ch == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  out.push_back(cur);
  return out;
}

bool ValidName(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char ch) {
    return std::isalnum(ch) || ch == '_' || ch == '-' || ch == '.';
  });
}

}  // namespace

const char* ExpectName(StoredCase::Expect e) {
  switch (e) {
    case StoredCase::Expect::kRefutes: return "refutes";
    case StoredCase::Expect::kHolds: return "holds";
    case StoredCase::Expect::kUndecided: return "undecided";
  }
  return "holds";
}

bool StoredCase::AppliesTo(const std::string& backend) const {
  // An entry without backends= is a model case: kernel cases name theirs
  // (kernel-f32 covers every instance, kernel-f32@avx2 one).
  const BackendInfo* info = FindBackend(backend);
  if (backends.empty()) return !(info && info->kernel);
  const std::string base(BaseBackend(backend));
  return std::find(backends.begin(), backends.end(), backend) != backends.end() ||
         std::find(backends.begin(), backends.end(), base) != backends.end();
}

std::vector<StoredCase> ParseStore(const std::string& text, const std::string& file) {
  std::vector<StoredCase> out;
  std::set<std::string> names;
  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  auto fail = [&](int at, const std::string& why) { throw StoreError(file + ":" + std::to_string(at) + ": " + why); };
  while (std::getline(in, line)) {
    ++line_no;
    const std::string t = Trim(line);
    if (t.empty() || t[0] == '#') continue;
    if (t.rfind("[case", 0) != 0 || t.back() != ']')
      fail(line_no, "expected '[case name=... expect=refutes|holds backends=...]', got '" + t + "'");
    StoredCase c;
    const int header_line = line_no;
    c.origin = file + ":" + std::to_string(header_line);
    bool have_name = false, have_expect = false;
    std::istringstream words(t.substr(5, t.size() - 6));
    for (std::string w; words >> w;) {
      const auto eq = w.find('=');
      if (eq == std::string::npos) fail(line_no, "expected key=value in the header, got '" + w + "'");
      const std::string key = w.substr(0, eq), value = w.substr(eq + 1);
      if (key == "name") {
        if (!ValidName(value)) fail(line_no, "name must be letters, digits, '_', '-', '.', got '" + value + "'");
        c.name = value;
        have_name = true;
      } else if (key == "expect") {
        if (value == "refutes") {
          c.expect = StoredCase::Expect::kRefutes;
        } else if (value == "holds") {
          c.expect = StoredCase::Expect::kHolds;
        } else if (value == "undecided") {
          c.expect = StoredCase::Expect::kUndecided;
        } else {
          fail(line_no, "expect must be refutes, holds or undecided, got '" + value + "'");
        }
        have_expect = true;
      } else if (key == "backends") {
        if (value != "all") {
          for (const auto& b : SplitOn(value, ',')) {
            if (!FindBackend(b)) fail(line_no, "unknown backend '" + b + "' (" + BackendNames() + ", or all)");
            c.backends.push_back(b);
          }
        }
      } else {
        fail(line_no, "unknown header key '" + key + "' (name, expect, backends)");
      }
    }
    if (!have_name) fail(line_no, "the header has no name=");
    if (!have_expect) fail(line_no, "the header has no expect=");
    if (!names.insert(c.name).second) fail(line_no, "duplicate case name '" + c.name + "'");
    std::string body;
    bool ended = false;
    while (std::getline(in, line)) {
      ++line_no;
      const std::string b = Trim(line);
      if (b == "[end]") {
        ended = true;
        break;
      }
      if (b.rfind("[case", 0) == 0) fail(line_no, "case '" + c.name + "' has no [end] before the next [case");
      body += line;
      body += '\n';
    }
    if (!ended) fail(line_no, "case '" + c.name + "' has no [end]");
    std::string error;
    auto value = Case::Parse(body, &error);
    if (!value) {
      // Case::Parse says "line N: why", N counted from the body's first line.
      int at = header_line;
      if (error.rfind("line ", 0) == 0) {
        at += std::atoi(error.c_str() + 5);
        error = error.substr(error.find(':') + 2);
      }
      fail(at, "case '" + c.name + "': " + error);
    }
    if (value->fields().empty()) fail(header_line, "case '" + c.name + "' is empty");
    c.value = std::move(*value);
    out.push_back(std::move(c));
  }
  return out;
}

std::string FormatStoredCase(const StoredCase& c) {
  std::string backends = "all";
  if (!c.backends.empty()) {
    backends.clear();
    for (const auto& b : c.backends) backends += (backends.empty() ? "" : ",") + b;
  }
  return "[case name=" + c.name + " expect=" + ExpectName(c.expect) + " backends=" + backends + "]\n" +
         c.value.ToText() + "[end]\n";
}

std::string StorePath(const std::string& dir, const std::string& claim_id) {
  return (std::filesystem::path(dir) / (claim_id + ".txt")).string();
}

namespace {
std::string ReadStoreFile(const std::string& path);
}  // namespace

std::vector<StoredCase> LoadStore(const std::string& dir, const std::string& claim_id) {
  const std::string path = StorePath(dir, claim_id);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return {};
  return ParseStore(ReadStoreFile(path), path);
}

namespace {

void (*g_merge_hook)() = nullptr;

std::string ReadStoreFile(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return "";
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw StoreError(path + ": cannot be read: " + ec.message());
  if (size > kMaxStoreFileBytes)
    throw StoreError(path + ":1: the file has " + std::to_string(size) + " bytes, more than the limit of " +
                     std::to_string(kMaxStoreFileBytes));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw StoreError(path + ": cannot be read: " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Who holds a lock on the file `fd` names, from /proc/locks ("pid 123
/// (attnprop)"), or "" when it cannot be told.
std::string LockHolder(int fd) {
  struct stat st {};
  if (fstat(fd, &st) != 0) return "";
  std::ifstream locks("/proc/locks");
  for (std::string line; std::getline(locks, line);) {
    // "1: FLOCK  ADVISORY  WRITE 4242 08:01:1234 0 EOF"
    std::istringstream in(line);
    std::string n, kind, mode, access, pid, where;
    if (!(in >> n >> kind >> mode >> access >> pid >> where) || kind != "FLOCK") continue;
    unsigned major = 0, minor = 0;
    unsigned long long inode = 0;
    if (std::sscanf(where.c_str(), "%x:%x:%llu", &major, &minor, &inode) != 3) continue;
    if (inode != st.st_ino || major != ::major(st.st_dev) || minor != ::minor(st.st_dev)) continue;
    std::string comm;
    std::getline(std::ifstream("/proc/" + pid + "/comm"), comm);
    return "pid " + pid + (comm.empty() ? "" : " (" + comm + ")");
  }
  return "";
}

/// How long a save waits for another process's lock on the store:
/// ATTNPROP_STORE_LOCK_TIMEOUT seconds (default 120).
double StoreLockTimeout() {
  const char* env = std::getenv("ATTNPROP_STORE_LOCK_TIMEOUT");
  if (!env || !*env) return 120;
  char* end = nullptr;
  const double v = std::strtod(env, &end);
  if (*end || !(v >= 0 && v <= 86400))
    throw StoreError(std::string("ATTNPROP_STORE_LOCK_TIMEOUT must be seconds in [0, 86400], got '") + env + "'");
  return v;
}

/// An exclusive flock on the store directory for this object's life: every
/// writer of the store reads, merges and writes under it. Another process
/// holding it is waited for (saying so once, naming it) up to
/// StoreLockTimeout(), then the save fails naming the holder.
class DirLock {
 public:
  explicit DirLock(const std::string& dir) : fd_(open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
    if (fd_ < 0) throw StoreError("cannot open the store directory " + dir + ": " + std::strerror(errno));
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::duration<double>(StoreLockTimeout());
    bool said = false;
    while (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      if (err == EINTR) continue;
      if (err != EWOULDBLOCK) {
        close(fd_);
        throw StoreError("cannot lock the store directory " + dir + ": " + std::strerror(err));
      }
      const std::string holder = LockHolder(fd_);
      const std::string by = holder.empty() ? "another process" : holder;
      if (std::chrono::steady_clock::now() >= deadline) {
        close(fd_);
        throw StoreError("the store directory " + dir + " stayed locked by " + by + " for " +
                         std::to_string(static_cast<int>(StoreLockTimeout())) +
                         " s (ATTNPROP_STORE_LOCK_TIMEOUT); nothing was saved there");
      }
      if (!said) std::cerr << "attnprop: waiting for the lock on the store " << dir << ", held by " << by << "\n";
      said = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  ~DirLock() { close(fd_); }  // closing releases the lock
  DirLock(const DirLock&) = delete;
  DirLock& operator=(const DirLock&) = delete;

 private:
  int fd_;
};

}  // namespace

void SetStoreMergeHookForTesting(void (*hook)()) { g_merge_hook = hook; }

namespace {

/// Adds to the claim's file in `dir` the entries not already there (same
/// value and backends), renaming one whose name is taken (name-2, ...).
/// The caller holds the directory's lock. Returns how many were added.
size_t AddEntries(const std::string& dir, const std::string& claim_id, std::vector<StoredCase> entries) {
  const std::string path = StorePath(dir, claim_id);
  std::string existing = ReadStoreFile(path);
  auto cases = ParseStore(existing, path);
  if (g_merge_hook) g_merge_hook();
  std::set<std::string> names;
  for (const auto& c : cases) names.insert(c.name);
  std::string added_text;
  size_t added = 0;
  for (auto& entry : entries) {
    const bool present = std::any_of(cases.begin(), cases.end(), [&](const StoredCase& c) {
      return c.value == entry.value && c.backends == entry.backends;
    });
    if (present) continue;
    // Keep names unique: name, name-2, name-3, ...
    const std::string base = entry.name;
    for (int k = 2; names.count(entry.name); ++k) entry.name = std::string(base).append("-").append(std::to_string(k));
    names.insert(entry.name);
    added_text.append("\n").append(FormatStoredCase(entry));  // appended: g++ 12 warns falsely (-Wrestrict) on + chains
    cases.push_back(std::move(entry));
    ++added;
  }
  if (added == 0) return 0;
  if (existing.empty()) existing = "# Counterexample store of " + claim_id + " (format: README.md in this folder).\n";
  if (existing.back() != '\n') existing += '\n';
  try {
    WriteFileAtomically(path, existing + added_text);
  } catch (const std::runtime_error& e) {
    throw StoreError(e.what());
  }
  return added;
}

constexpr const char* kNewStoreReadme =
    "# A counterexample store of attnprop\n\n"
    "One file per claim, `<claim id>.txt`, of exact cases that `attnprop run`, `audit` and `check-kernel`\n"
    "replay before their random cases. A failure printed its replay command:\n\n"
    "    attnprop reproduce ID [--kernel LIB.so] THIS_FOLDER/ID.txt\n\n"
    "The format and its limits: share/attnprop/counterexamples/README.md of an installed attnprop\n"
    "(properties/counterexamples/README.md in its source).\n";
constexpr const char* kCacheGitignore =
    "# attnprop's default counterexample store: a cache, kept out of version control.\n"
    "# To keep the cases with your code, name a store: --store DIR (--create-store).\n*\n";

}  // namespace

/// Creates `dir` if needed; a directory it creates gets its README.md (and,
/// for a cache, its .gitignore) before any entry is written into it.
void CreateStoreDir(const std::string& dir, StoreKind kind) {
  std::error_code ec;
  if (std::filesystem::is_directory(dir, ec)) return;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw StoreError("cannot create the store directory " + dir + ": " + ec.message());
  try {
    const std::filesystem::path d(dir);
    if (kind == StoreKind::kCache) WriteFileAtomically((d / ".gitignore").string(), kCacheGitignore);
    WriteFileAtomically((d / "README.md").string(), kNewStoreReadme);
  } catch (const std::runtime_error& e) {
    throw StoreError(e.what());
  }
}

bool SaveToStore(const std::string& dir, const std::string& claim_id, StoredCase entry, StoreKind kind) {
  CreateStoreDir(dir, kind);
  // Read, merge and write under the lock: a concurrent run's entry, written
  // after we read, is never overwritten by our older copy.
  const DirLock lock(dir);
  std::vector<StoredCase> one;
  one.push_back(std::move(entry));
  return AddEntries(dir, claim_id, std::move(one)) == 1;
}

StoreMergeCount MergeStore(const std::string& into, const std::string& from) {
  std::error_code ec;
  if (!std::filesystem::is_directory(from, ec)) throw StoreError("the store " + from + " is not a directory");
  if (std::filesystem::equivalent(into, from, ec)) throw StoreError("cannot merge the store " + from + " into itself");
  ec.clear();
  std::vector<std::filesystem::path> files, kernel_stores;
  for (const auto& e : std::filesystem::directory_iterator(from, ec))
    if (e.is_regular_file() && e.path().extension() == ".txt") files.push_back(e.path());
  if (ec) throw StoreError("cannot read the store " + from + ": " + ec.message());
  const std::filesystem::path kernels = std::filesystem::path(from) / "kernels";
  if (std::filesystem::is_directory(kernels, ec))
    for (const auto& e : std::filesystem::directory_iterator(kernels, ec))
      if (e.is_directory()) kernel_stores.push_back(e.path());
  std::sort(files.begin(), files.end());  // the same order, the same names given to clashes
  std::sort(kernel_stores.begin(), kernel_stores.end());
  // Every file read and parsed first: a malformed one stops the merge before anything is written.
  std::vector<std::vector<StoredCase>> entries;
  for (const auto& f : files) entries.push_back(ParseStore(ReadStoreFile(f.string()), f.string()));
  StoreMergeCount count;
  CreateStoreDir(into, StoreKind::kNamed);
  {
    const DirLock lock(into);  // one lock for the whole fold: no run saves in between
    for (size_t k = 0; k < files.size(); ++k) {
      const size_t n = entries[k].size();
      const size_t added = AddEntries(into, files[k].stem().string(), std::move(entries[k]));
      count.added += added;
      count.present += n - added;
    }
  }
  for (const auto& k : kernel_stores) {
    const StoreMergeCount c = MergeStore((std::filesystem::path(into) / "kernels" / k.filename()).string(), k.string());
    count.added += c.added;
    count.present += c.present;
  }
  return count;
}

namespace {

// An installed attnprop's store, <prefix>/share/attnprop/counterexamples,
// found from the running executable (ATTNPROP_INSTALLED_STORE is its path
// relative to the executable's directory, set by cmake/AttnpropInstall.cmake),
// so that a relocated or unpacked installation finds its own; "" when the
// executable is not installed (a build tree has no such directory).
std::string InstalledStoreDir() {
#ifdef ATTNPROP_INSTALLED_STORE
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  const std::filesystem::path dir = (exe.parent_path() / ATTNPROP_INSTALLED_STORE).lexically_normal();
  if (std::filesystem::is_directory(dir, ec)) return dir.string();
#endif
  return "";
}

const std::string& InstalledStore() {
  static const std::string dir = InstalledStoreDir();
  return dir;
}

}  // namespace

std::string DefaultStoreDir() {
  if (!ThisProgram().store.empty()) return ThisProgram().store;
  if (!InstalledStore().empty()) return InstalledStore();
  // One literal, not string + literal: GCC 12 warns (-Warray-bounds, a false
  // positive in the inlined std::string move) when <string> is precompiled.
  return ATTNPROP_SOURCE_DIR "/properties/counterexamples";
}

std::string DefaultSaveDir() { return !ThisProgram().store.empty() || InstalledStore().empty() ? DefaultStoreDir() : "attnprop-counterexamples"; }

}  // namespace attnprop
