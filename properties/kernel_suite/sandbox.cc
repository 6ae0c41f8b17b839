#include "properties/kernel_suite/sandbox.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <new>
#include <stdexcept>

namespace attnprop::ksuite {
namespace {

size_t PageSize() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

void* MapShared(size_t bytes) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  return p;
}

// The fault report the child's signal handler fills (shared with the parent).
struct FaultInfo {
  volatile int have = 0;
  volatile uintptr_t address = 0;
  volatile int finished = 0;  // the body returned (an exit(0) inside the kernel does not set it)
};
FaultInfo* g_fault = nullptr;

void FaultHandler(int sig, siginfo_t* info, void*) {
  if (g_fault && (sig == SIGSEGV || sig == SIGBUS)) {
    g_fault->address = reinterpret_cast<uintptr_t>(info->si_addr);
    g_fault->have = 1;
  }
  // Die by the same signal, so the parent sees what happened.
  signal(sig, SIG_DFL);
  raise(sig);
}

}  // namespace

GuardedBuffer::GuardedBuffer(std::string name, size_t bytes, Place place) : name_(std::move(name)), bytes_(bytes) {
  const size_t page = PageSize();
  const size_t data_pages = (bytes + page - 1) / page + (bytes == 0 ? 1 : 0);
  map_bytes_ = (data_pages + 2) * page;
  base_ = static_cast<unsigned char*>(MapShared(map_bytes_));
  std::memset(base_ + page, kSlackCanary, data_pages * page);
  if (mprotect(base_, page, PROT_NONE) != 0 || mprotect(base_ + (data_pages + 1) * page, page, PROT_NONE) != 0)
    throw std::runtime_error("mprotect failed");
  data_ = place == Place::kStart ? base_ + page : base_ + (data_pages + 1) * page - bytes;
}

GuardedBuffer::~GuardedBuffer() {
  if (base_) munmap(base_, map_bytes_);
}

std::string GuardedBuffer::SlackDamage() const {
  const size_t page = PageSize();
  const unsigned char* lo = base_ + page;
  const unsigned char* hi = base_ + map_bytes_ - page;
  for (const unsigned char* p = lo; p < data_; ++p)
    if (*p != kSlackCanary)
      return name_ + " - " + std::to_string(data_ - p) + " bytes (before the start) was written";
  for (const unsigned char* p = data_ + bytes_; p < hi; ++p)
    if (*p != kSlackCanary)
      return name_ + " + " + std::to_string(p - data_) + " bytes (" + std::to_string(p - (data_ + bytes_)) +
             " past the end) was written";
  return "";
}

bool GuardedBuffer::Describe(uintptr_t addr, std::string* where) const {
  const auto b = reinterpret_cast<uintptr_t>(base_), d = reinterpret_cast<uintptr_t>(data_);
  if (addr < b || addr >= b + map_bytes_) return false;
  const size_t page = PageSize();
  const bool in_guard = addr < b + page || addr >= b + map_bytes_ - page;
  if (addr < d) {
    *where = name_ + " - " + std::to_string(d - addr) + " bytes (before the start";
  } else if (addr >= d + bytes_) {
    *where = name_ + " + " + std::to_string(addr - d) + " bytes (" + std::to_string(addr - d - bytes_) +
             " past the end";
  } else {
    *where = name_ + " + " + std::to_string(addr - d) + " bytes (inside";
  }
  *where += in_guard ? ", guard page)" : ")";
  return true;
}

SharedBlock::SharedBlock(size_t bytes) : bytes_(bytes) {
  p_ = MapShared(bytes);
  std::memset(p_, 0, bytes);
}
SharedBlock::~SharedBlock() {
  if (p_) munmap(p_, bytes_);
}

std::string ChildOutcome::Describe() const {
  char buf[160];
  switch (kind) {
    case Kind::kFinished: return "finished";
    case Kind::kTimeout: return "timed out (killed)";
    case Kind::kExit: std::snprintf(buf, sizeof buf, "the kernel ended the process (exit status %d)", exit_code); return buf;
    case Kind::kSignal:
      if (have_fault_address)
        std::snprintf(buf, sizeof buf, "killed by signal %d (%s) at address 0x%zx", signal, strsignal(signal),
                      static_cast<size_t>(fault_address));
      else
        std::snprintf(buf, sizeof buf, "killed by signal %d (%s)", signal, strsignal(signal));
      return buf;
  }
  return "?";
}

ChildOutcome RunInChild(const std::function<void()>& body, double timeout_s) {
  static FaultInfo* fault = new (MapShared(sizeof(FaultInfo))) FaultInfo;
  fault->have = 0;
  fault->address = 0;
  fault->finished = 0;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    close(fds[0]);
    g_fault = fault;
    static char alt_stack[1 << 16];
    stack_t ss{};
    ss.ss_sp = alt_stack;
    ss.ss_size = sizeof alt_stack;
    sigaltstack(&ss, nullptr);
    struct sigaction sa {};
    sa.sa_sigaction = FaultHandler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL}) sigaction(sig, &sa, nullptr);
    body();
    fault->finished = 1;
    std::fflush(nullptr);
    _exit(0);  // no destructors: the kernel's threads or statics must not run ours
  }
  close(fds[1]);
  ChildOutcome o;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  bool done = false;
  while (!done) {
    const double left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) break;
    pollfd p{fds[0], POLLIN, 0};
    const int r = poll(&p, 1, static_cast<int>(left * 1000) + 1);
    if (r > 0) {
      char c;
      if (read(fds[0], &c, 1) <= 0) done = true;  // EOF: the child has exited
    } else if (r < 0 && errno != EINTR) {
      break;
    }
  }
  close(fds[0]);
  int status = 0;
  if (!done) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    o.kind = ChildOutcome::Kind::kTimeout;
    return o;
  }
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) {
    o.kind = ChildOutcome::Kind::kSignal;
    o.signal = WTERMSIG(status);
    o.have_fault_address = fault->have != 0;
    o.fault_address = fault->address;
  } else if (WIFEXITED(status) && (WEXITSTATUS(status) != 0 || !fault->finished)) {
    o.kind = ChildOutcome::Kind::kExit;
    o.exit_code = WEXITSTATUS(status);
  }
  return o;
}

}  // namespace attnprop::ksuite
