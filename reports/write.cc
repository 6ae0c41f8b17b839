// Writing the report files: all or nothing per file (temporary file, rename).
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "properties/framework/atomic_file.h"
#include "reports/report.h"

namespace attnprop::report {

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

void WriteReports(const Report& r, const std::string& dir) {
  EnsureWritableDir(dir);
  // Render everything first: a writer that throws leaves no file behind.
  const std::vector<std::string> texts = {ToJson(r), ToMarkdown(r), ToHtml(r), ToJUnit(r)};
  const auto names = ReportFileNames();
  for (size_t i = 0; i < names.size(); ++i)
    WriteFileAtomically((std::filesystem::path(dir) / names[i]).string(), texts[i]);
}

void WriteJsonReport(const Report& r, const std::string& path) { WriteFileAtomically(path, ToJson(r)); }

}  // namespace attnprop::report
