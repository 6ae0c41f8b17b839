#include "properties/framework/atomic_file.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace attnprop {

HoldTerminatingSignals::HoldTerminatingSignals() {
  sigset_t s;
  sigemptyset(&s);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&s, sig);
  sigprocmask(SIG_BLOCK, &s, &old_);
}

HoldTerminatingSignals::~HoldTerminatingSignals() { sigprocmask(SIG_SETMASK, &old_, nullptr); }

void WriteFileAtomically(const std::string& path, const std::string& text) {
  const HoldTerminatingSignals hold;
  const std::filesystem::path target(path);
  std::filesystem::path dir = target.parent_path();
  if (dir.empty()) dir = ".";
  std::string name = ".";  // built piecewise: g++ 12 warns falsely (-Wrestrict) on a + chain
  name.append(target.filename().string()).append(".tmpXXXXXX");
  std::string tmp = (dir / name).string();
  const int fd = mkstemp(tmp.data());
  if (fd < 0) throw std::runtime_error("cannot write in " + dir.string() + ": " + std::strerror(errno));
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      const int err = errno;
      close(fd);
      unlink(tmp.c_str());
      throw std::runtime_error("cannot write " + tmp + ": " + std::strerror(err));
    }
    done += static_cast<size_t>(n);
  }
  // mkstemp makes the file 0600; a report or store file is for everyone.
  fchmod(fd, 0644);
  if (close(fd) != 0 || std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    unlink(tmp.c_str());
    throw std::runtime_error("cannot write " + path + ": " + std::strerror(err));
  }
}

}  // namespace attnprop
