// Writing the report files: the set as a whole (report_set.h), and single
// files (--json, --junit) the same way, without a manifest.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "properties/framework/atomic_file.h"
#include "reports/report.h"
#include "reports/report_set.h"

namespace attnprop::report {
namespace {

// What a signal handler removes: the temporary directory and its files.
// Fixed buffers, so that the handler calls only async-signal-safe functions.
constexpr size_t kMaxFiles = 8, kMaxPath = 4096;
char g_tmp_dir[kMaxPath];
char g_tmp_files[kMaxFiles][kMaxPath];
volatile sig_atomic_t g_tmp_count = 0;
volatile sig_atomic_t g_armed = 0;
struct sigaction g_old_int, g_old_term, g_old_hup;

void RemoveTemporaries() {
  for (sig_atomic_t i = 0; i < g_tmp_count; ++i) unlink(g_tmp_files[i]);
  rmdir(g_tmp_dir);
}

extern "C" void OnSignal(int sig) {
  if (g_armed) RemoveTemporaries();
  signal(sig, SIG_DFL);
  raise(sig);
}

void CopyPath(char* dst, const std::string& src) {
  if (src.size() >= kMaxPath) throw std::runtime_error("path too long: " + src);
  std::memcpy(dst, src.c_str(), src.size() + 1);
}

/// Arms the handlers for the lifetime of one WriteReportSet.
class Cleanup {
 public:
  explicit Cleanup(const std::string& dir) {
    CopyPath(g_tmp_dir, dir);
    g_tmp_count = 0;
    struct sigaction sa {};
    sa.sa_handler = OnSignal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &g_old_int);
    sigaction(SIGTERM, &sa, &g_old_term);
    sigaction(SIGHUP, &sa, &g_old_hup);  // a closed terminal ends the run as SIGTERM does
    g_armed = 1;
  }
  void Add(const std::string& file) {
    CopyPath(g_tmp_files[g_tmp_count], file);
    g_tmp_count = g_tmp_count + 1;
  }
  /// Done: nothing left to remove (the files were renamed away).
  void Disarm() { g_armed = 0; }
  ~Cleanup() {
    if (g_armed) RemoveTemporaries();  // an exception on the way
    g_armed = 0;
    sigaction(SIGINT, &g_old_int, nullptr);
    sigaction(SIGTERM, &g_old_term, nullptr);
    sigaction(SIGHUP, &g_old_hup, nullptr);
  }
};

std::string Error(const std::string& what, const std::string& path, int err) {
  return "cannot " + what + " " + path + ": " + std::strerror(err);
}

/// Writes `text` to a new file at `path` and syncs it; throws on any error
/// (a short write, a full disk, a file size limit).
void WriteSynced(const std::string& path, const std::string& text) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error(Error("create", path, errno));
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : EIO;
      close(fd);
      throw std::runtime_error(Error("write", path, err));
    }
    done += static_cast<size_t>(n);
  }
  if (fsync(fd) != 0) {
    const int err = errno;
    close(fd);
    throw std::runtime_error(Error("write", path, err));
  }
  if (close(fd) != 0) throw std::runtime_error(Error("write", path, errno));
}

}  // namespace

uint64_t Fnv1a64(const std::string& s) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char ch : s) {
    h ^= ch;
    h *= 1099511628211ull;
  }
  return h;
}

std::vector<std::string> ReportFileNames() { return {"report.json", "report.md", "report.html", "junit.xml"}; }

void EnsureWritableDir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir, ec))
    throw std::runtime_error("cannot create the output directory " + dir + ": " +
                             (ec ? ec.message() : std::string("not a directory")));
  std::string probe = (std::filesystem::path(dir) / ".attnprop-probe-XXXXXX").string();
  const int fd = mkstemp(probe.data());
  if (fd < 0) throw std::runtime_error("cannot write in the output directory " + dir + ": " + std::strerror(errno));
  close(fd);
  unlink(probe.c_str());
}

std::string ManifestText(const std::vector<std::pair<std::string, std::string>>& files) {
  std::string m = "{\n  \"schema\": \"attnprop-report-manifest/1\",\n  \"files\": [";
  for (size_t i = 0; i < files.size(); ++i) {
    char hash[24];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(Fnv1a64(files[i].second)));
    m += (i ? ",\n" : "\n");
    m += "    {\"name\": \"" + files[i].first + "\", \"bytes\": " + std::to_string(files[i].second.size()) +
         ", \"fnv1a64\": \"" + hash + "\"}";
  }
  return m + "\n  ]\n}\n";
}

void WriteReportSet(const std::vector<std::pair<std::string, std::string>>& files, const std::string& dir,
                    const std::function<void(size_t)>& after_each_temp, bool manifest) {
  if (files.size() + 1 > kMaxFiles) throw std::logic_error("WriteReportSet: too many files");
  EnsureWritableDir(dir);
  const std::filesystem::path out(dir);
  std::string tmp = (out / ".attnprop-report.tmpXXXXXX").string();
  if (!mkdtemp(tmp.data())) throw std::runtime_error(Error("write in", dir, errno));
  Cleanup cleanup(tmp);
  const std::filesystem::path staging(tmp);
  std::vector<std::pair<std::string, std::string>> all = files;
  if (manifest) all.emplace_back(kManifestName, ManifestText(files));
  for (size_t i = 0; i < all.size(); ++i) {
    const std::string path = (staging / all[i].first).string();
    cleanup.Add(path);
    WriteSynced(path, all[i].second);
    if (after_each_temp) after_each_temp(i);
  }
  // Into place, without a signal in between: the manifest goes first and
  // comes back last, so a reader never sees one that describes a mixed set.
  const HoldTerminatingSignals hold;
  const std::string manifest_path = (out / kManifestName).string();
  if (manifest && unlink(manifest_path.c_str()) != 0 && errno != ENOENT)
    throw std::runtime_error(Error("replace", manifest_path, errno));
  for (const auto& [name, text] : all) {
    const std::string from = (staging / name).string(), to = (out / name).string();
    if (std::rename(from.c_str(), to.c_str()) != 0) throw std::runtime_error(Error("write", to, errno));
  }
  cleanup.Disarm();
  rmdir(tmp.c_str());
}

void WriteReports(const Report& r, const std::string& dir) {
  // Render everything first: a writer that throws leaves no file behind.
  const std::vector<std::string> texts = {ToJson(r), ToMarkdown(r), ToHtml(r), ToJUnit(r)};
  const auto names = ReportFileNames();
  std::vector<std::pair<std::string, std::string>> files;
  for (size_t i = 0; i < names.size(); ++i) files.emplace_back(names[i], texts[i]);
  WriteReportSet(files, dir);
}

namespace {
void WriteOne(const std::string& path, const std::string& text) {
  const std::filesystem::path p(path);
  if (p.filename().empty()) throw std::runtime_error("cannot write " + path + ": not a file name");
  WriteReportSet({{p.filename().string(), text}}, p.parent_path().empty() ? "." : p.parent_path().string(), {},
                 /*manifest=*/false);
}
}  // namespace

void WriteJsonReport(const Report& r, const std::string& path) { WriteOne(path, ToJson(r)); }
void WriteJUnitReport(const Report& r, const std::string& path) { WriteOne(path, ToJUnit(r)); }

}  // namespace attnprop::report
