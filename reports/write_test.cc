// The report set is written as a whole (report_set.h): a signal or a write
// error part-way leaves the previous set and no temporary file; a complete
// set ends with its manifest. Each case runs in a forked child.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "reports/report_set.h"

namespace attnprop::report {
namespace {

namespace fs = std::filesystem;
using Files = std::vector<std::pair<std::string, std::string>>;

std::string Read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Every entry of `dir`, sorted (hidden ones included).
std::vector<std::string> Entries(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

Files Set(const std::string& tag) {
  return {{"a.txt", "first file " + tag + "\n"}, {"b.txt", std::string(200000, 'b') + tag}, {"c.txt", "third " + tag}};
}

/// Runs `body` in a child; returns its wait status.
template <class F>
int InChild(F body) {
  const pid_t pid = fork();
  if (pid == 0) {
    body();
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

class WriteSet : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("attnprop_write_set_test_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    WriteReportSet(Set("old"), dir_.string());
  }
  void TearDown() override { fs::remove_all(dir_); }
  void ExpectOldSetIntact() {
    EXPECT_EQ(Entries(dir_), (std::vector<std::string>{"a.txt", "b.txt", "c.txt", "manifest.json"}))
        << "no temporary file or directory may be left";
    for (const auto& [name, text] : Set("old")) EXPECT_EQ(Read(dir_ / name), text) << name;
    EXPECT_EQ(Read(dir_ / kManifestName), ManifestText(Set("old")));
  }
  fs::path dir_;
};

TEST_F(WriteSet, CompleteSetEndsWithItsManifest) {
  WriteReportSet(Set("new"), dir_.string());
  EXPECT_EQ(Entries(dir_), (std::vector<std::string>{"a.txt", "b.txt", "c.txt", "manifest.json"}));
  for (const auto& [name, text] : Set("new")) EXPECT_EQ(Read(dir_ / name), text) << name;
  const std::string manifest = Read(dir_ / kManifestName);
  EXPECT_NE(manifest.find("\"name\": \"b.txt\", \"bytes\": 200003"), std::string::npos) << manifest;
}

TEST_F(WriteSet, SigtermWhileWritingLeavesTheOldSetAndNoTemporaries) {
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) {
    const int status = InChild([&] {
      WriteReportSet(Set("new"), dir_.string(), [&](size_t i) {
        if (i == 1) raise(sig);
      });
    });
    ASSERT_TRUE(WIFSIGNALED(status)) << "the child should die of the signal, status " << status;
    EXPECT_EQ(WTERMSIG(status), sig);
    ExpectOldSetIntact();
  }
}

TEST_F(WriteSet, WriteErrorThrowsAndLeavesTheOldSetAndNoTemporaries) {
  // A file size limit below b.txt's size: write() fails with EFBIG.
  const int status = InChild([&] {
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit lim{100000, 100000};
    setrlimit(RLIMIT_FSIZE, &lim);
    try {
      WriteReportSet(Set("new"), dir_.string());
    } catch (const std::runtime_error& e) {
      _exit(std::string(e.what()).find("cannot write") != std::string::npos &&
                    std::string(e.what()).find("b.txt") != std::string::npos
                ? 3
                : 4);
    }
  });
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 3) << "the error names the file (exit 4: another message, 0: no error)";
  ExpectOldSetIntact();
}

TEST_F(WriteSet, OneFileWithoutManifestLeavesNoTemporaries) {
  const int status = InChild([&] {
    WriteReportSet({{"one.xml", "new"}}, dir_.string(), [](size_t) { raise(SIGTERM); }, /*manifest=*/false);
  });
  ASSERT_TRUE(WIFSIGNALED(status));
  ExpectOldSetIntact();
  WriteReportSet({{"one.xml", "new"}}, dir_.string(), {}, /*manifest=*/false);
  EXPECT_EQ(Read(dir_ / "one.xml"), "new");
  EXPECT_EQ(Read(dir_ / kManifestName), ManifestText(Set("old"))) << "the set's manifest is left alone";
}

}  // namespace
}  // namespace attnprop::report
