#include "properties/operator/sandbox.h"

#include "properties/operator/confine.h"

#include <fcntl.h>
#include <dirent.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace attnprop::ksuite {
namespace {

size_t PageSize() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

/// One MAP_SHARED region reserved at first use, from which every
/// GuardedBuffer and SharedBlock is carved: a loader (Zygote) forked before
/// a buffer existed shares it at the same address, so its call processes
/// see the parent's buffers and a fault address means the same in both.
/// Page-granular first fit; only the parent allocates.
class Arena {
 public:
  static Arena& Get() {
    static Arena arena;
    return arena;
  }
  /// nullptr when it cannot hold `bytes` (the caller maps its own pages).
  unsigned char* Allocate(size_t bytes) {
    if (!base_) return nullptr;
    for (auto it = free_.begin(); it != free_.end(); ++it) {
      if (it->second < bytes) continue;
      const size_t at = it->first, left = it->second - bytes;
      free_.erase(it);
      if (left) free_[at + bytes] = left;
      return base_ + at;
    }
    return nullptr;
  }
  /// In a loader: the whole arena accessible (it was forked with the guard
  /// pages of the buffers then alive, whose pages are reused; each call
  /// process protects the buffers of its own calls).
  void Unprotect() const {
    if (base_) mprotect(base_, kBytes, PROT_READ | PROT_WRITE);
  }
  AddressRange Span() const {
    const auto b = reinterpret_cast<uintptr_t>(base_);
    return {b, base_ ? b + kBytes : b};
  }
  bool Contains(const void* p) const {
    const auto* c = static_cast<const unsigned char*>(p);
    return base_ && c >= base_ && c < base_ + kBytes;
  }
  /// Gives the pages back (their memory too) and makes them writable again.
  void Release(unsigned char* p, size_t bytes) {
    mprotect(p, bytes, PROT_READ | PROT_WRITE);
    madvise(p, bytes, MADV_REMOVE);
    size_t at = static_cast<size_t>(p - base_), n = bytes;
    auto next = free_.lower_bound(at);
    if (next != free_.end() && next->first == at + n) n += next->second, next = free_.erase(next);
    if (next != free_.begin()) {
      auto prev = std::prev(next);
      if (prev->first + prev->second == at) {
        prev->second += n;
        return;
      }
    }
    free_[at] = n;
  }

 private:
  // Address space only (MAP_NORESERVE): pages are backed when touched.
  static constexpr size_t kBytes = size_t{1} << 30;
  Arena() {
    void* p = mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return;
    base_ = static_cast<unsigned char*>(p);
    free_[0] = kBytes;
  }
  unsigned char* base_ = nullptr;
  std::map<size_t, size_t> free_;  // offset -> bytes
};

size_t PageRound(size_t bytes) { return (bytes + PageSize() - 1) / PageSize() * PageSize(); }

void* MapShared(size_t bytes) {
  bytes = PageRound(bytes);
  if (void* p = Arena::Get().Allocate(bytes)) return p;
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  return p;
}

void UnmapShared(void* p, size_t bytes) {
  bytes = PageRound(bytes);
  if (Arena::Get().Contains(p)) Arena::Get().Release(static_cast<unsigned char*>(p), bytes);
  else munmap(p, bytes);
}

// The fault report the child's signal handler fills (shared with the parent).
struct FaultInfo {
  volatile int have = 0;
  volatile uintptr_t address = 0;
  volatile int finished = 0;  // the body returned (an exit(0) inside the kernel does not set it)
  volatile int threw = 0;     // an exception escaped the body
  volatile char exception[512] = {};
  volatile int have_syscall = 0;  // SIGSYS: the filter (confine.h) refused this system call
  volatile int syscall = 0;
};
FaultInfo* g_fault = nullptr;

void FaultHandler(int sig, siginfo_t* info, void*) {
  if (g_fault && (sig == SIGSEGV || sig == SIGBUS)) {
    g_fault->address = reinterpret_cast<uintptr_t>(info->si_addr);
    g_fault->have = 1;
  }
  if (g_fault && sig == SIGSYS) {
    g_fault->syscall = info->si_syscall;
    g_fault->have_syscall = 1;
  }
  // Die by the same signal, so the parent sees what happened (SA_RESETHAND
  // has restored the default action: the filter refuses setting it here).
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
  if (base_) UnmapShared(base_, map_bytes_);
}

bool GuardedBuffer::Shared() const { return Arena::Get().Contains(base_); }

GuardedRegion GuardedBuffer::Region(bool read_only) const {
  return {reinterpret_cast<uintptr_t>(base_), map_bytes_, read_only ? 1 : 0};
}

void ProtectAndLock(const GuardedRegion* regions, int n) {
  const size_t page = PageSize();
  std::vector<AddressRange> locked;
  if (const AddressRange arena = Arena::Get().Span(); arena.end > arena.begin) locked.push_back(arena);
  for (int i = 0; i < n; ++i) {
    const GuardedRegion& r = regions[i];
    auto* base = reinterpret_cast<unsigned char*>(r.base);
    if (mprotect(base, page, PROT_NONE) != 0 || mprotect(base + r.bytes - page, page, PROT_NONE) != 0 ||
        (r.read_only && mprotect(base + page, r.bytes - 2 * page, PROT_READ) != 0))
      throw std::runtime_error("mprotect failed");
    if (!Arena::Get().Contains(base)) locked.push_back({r.base, r.base + r.bytes});
  }
  if (!Confined()) return;  // ConfinementStatus says why
  if (const std::string why = ConfineCall(locked); !why.empty())
    throw std::runtime_error("attnprop could not lock the buffers' protections: " + why);
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

bool GuardedBuffer::Inside(uintptr_t addr) const {
  const auto b = reinterpret_cast<uintptr_t>(base_);
  const size_t page = PageSize();
  return addr >= b + page && addr < b + map_bytes_ - page;
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
  if (p_) UnmapShared(p_, bytes_);
}

bool SharedBlock::Shared() const { return Arena::Get().Contains(p_); }

std::string KernelText(const std::string& raw) {
  std::string out;
  auto escaped = [&](unsigned char c) {
    char b[8];
    std::snprintf(b, sizeof b, "\\x%02x", c);
    out += b;
  };
  for (size_t i = 0; i < raw.size();) {
    const auto c = static_cast<unsigned char>(raw[i]);
    if (c < 0x80) {
      // Printable ASCII, a tab as a space; a control character (an escape
      // sequence's ESC, a newline that would start a forged line) as \xNN;
      // a code fence as ''' (it would close report.md's block).
      if (c == '\t') {
        out += ' ';
      } else if (c < 0x20 || c == 0x7f) {
        escaped(c);
      } else if (c == '`' && raw.compare(i, 3, "```") == 0) {
        out += "'''";
        i += 2;
      } else {
        out += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    // A well-formed UTF-8 sequence (no overlong form, no surrogate, at most U+10FFFF) is kept.
    const size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    bool ok = n > 0 && i + n <= raw.size();
    for (size_t k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>(raw[i + k]) & 0xc0) == 0x80;
    const auto c1 = ok ? static_cast<unsigned char>(raw[i + 1]) : 0;
    if (ok && n == 3) ok = !(c == 0xe0 && c1 < 0xa0) && !(c == 0xed && c1 >= 0xa0);
    if (ok && n == 4) ok = !(c == 0xf0 && c1 < 0x90) && !(c == 0xf4 && c1 >= 0x90);
    if (ok) {
      out.append(raw, i, n);
      i += n;
    } else {
      escaped(c);
      ++i;
    }
  }
  return out;
}

std::string ChildOutcome::Describe() const {
  const std::string printed = output.empty() ? "" : "; it printed: " + output;
  return DescribeEnd() + printed;
}

std::string ChildOutcome::DescribeEnd() const {
  char buf[160];
  switch (kind) {
    case Kind::kFinished: return "finished";
    case Kind::kTimeout: return "timed out (killed)";
    case Kind::kException: return "threw a C++ exception out of the call (" + exception + ")";
    case Kind::kExit: std::snprintf(buf, sizeof buf, "the kernel ended the process (exit status %d)", exit_code); return buf;
    case Kind::kSignal:
      if (refused_syscall >= 0)
        return "made a system call the sandbox refuses: " + SyscallName(refused_syscall) +
               " (a kernel may only compute)";
      if (signal == SIGXCPU)
        return "used up its CPU time, " + std::to_string(CallCpuSeconds()) + " s (ATTNPROP_CALL_CPU_S), killed by SIGXCPU";
      if (have_fault_address)
        std::snprintf(buf, sizeof buf, "killed by signal %d (%s) at address 0x%zx", signal, strsignal(signal),
                      static_cast<size_t>(fault_address));
      else
        std::snprintf(buf, sizeof buf, "killed by signal %d (%s)", signal, strsignal(signal));
      return buf;
  }
  return "?";
}

namespace {

// The process groups of the children now running (one per nesting level:
// RunInChild is synchronous), read by the signal and exit handlers.
constexpr int kMaxLive = 8;
volatile sig_atomic_t g_live[kMaxLive] = {};

struct sigaction g_previous[NSIG];
const int kForwarded[] = {SIGINT, SIGTERM, SIGHUP};

void OnTerminatingSignal(int sig) {
  KillSandboxChildren();
  // Then whatever the signal did before (default: end the process): restore
  // it and re-raise; the signal is blocked in this handler, so the previous
  // action runs once this returns.
  sigaction(sig, &g_previous[sig], nullptr);
  raise(sig);
}

void InstallParentHandlers() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  for (int sig : kForwarded) {
    struct sigaction old {};
    sigaction(sig, nullptr, &old);
    g_previous[sig] = old;
    if (old.sa_handler == SIG_IGN) continue;  // e.g. nohup: keep ignoring it
    struct sigaction sa {};
    sa.sa_handler = OnTerminatingSignal;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, nullptr);
  }
  std::atexit(KillSandboxChildren);
  // A helper the kernel forks and moves out of the child's group (setsid)
  // escapes the group kill; as a subreaper this process inherits it when
  // the child ends, and ReapStrays kills it.
  prctl(PR_SET_CHILD_SUBREAPER, 1);
#if !defined(__SANITIZE_ADDRESS__)
  // Not dumpable: another process of this user (a kernel's helper, were the
  // filter missing) cannot ptrace attnprop or write its /proc/<pid>/mem.
  // (LeakSanitizer's exit check ptraces this process: not under ASan.)
  prctl(PR_SET_DUMPABLE, 0);
#endif
}

/// This process's children (every thread's), from /proc (empty where the
/// kernel has no /proc/PID/task/TID/children).
std::vector<pid_t> ChildrenOfThisProcess() {
  std::vector<pid_t> out;
  DIR* tasks = opendir("/proc/self/task");
  if (!tasks) return out;
  while (const dirent* t = readdir(tasks)) {
    if (t->d_name[0] == '.') continue;
    const std::string path = std::string("/proc/self/task/") + t->d_name + "/children";
    if (FILE* f = std::fopen(path.c_str(), "r")) {
      long pid = 0;
      while (std::fscanf(f, "%ld", &pid) == 1) out.push_back(static_cast<pid_t>(pid));
      std::fclose(f);
    }
  }
  closedir(tasks);
  return out;
}

bool IsLive(pid_t pid) {
  for (int i = 0; i < kMaxLive; ++i)
    if (g_live[i] == pid) return true;
  return false;
}

/// Kills and reaps the children of this process that were not there before
/// the sandbox child was forked and are no sandbox child now running: the
/// kernel's descendants reparented here (they left the child's process
/// group). Repeats while killing one hands over its own children. Returns
/// whether there were any.
bool ReapStrays(const std::vector<pid_t>& before) {
  bool any = false;
  for (int round = 0; round < 64; ++round) {
    bool found = false;
    for (pid_t pid : ChildrenOfThisProcess()) {
      bool old = IsLive(pid);
      for (pid_t b : before) old = old || b == pid;
      if (old) continue;
      found = any = true;
      kill(pid, SIGKILL);
      while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
      }
    }
    if (!found) break;
  }
  return any;
}

int Track(pid_t pid) {
  for (int i = 0; i < kMaxLive; ++i)
    if (g_live[i] == 0) {
      g_live[i] = pid;
      return i;
    }
  return -1;
}

int PidfdOpen(pid_t pid) {
#ifdef SYS_pidfd_open
  return static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
#else
  (void)pid;
  errno = ENOSYS;
  return -1;
#endif
}

/// Waits until `pid` has exited (without reaping it) or the deadline passed.
template <class TimePoint>
bool WaitForExit(pid_t pid, TimePoint deadline) {
  const int pidfd = PidfdOpen(pid);
  for (;;) {
    const double left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    siginfo_t info{};
    if (pidfd < 0) {
      // No pidfd (kernel before 5.3): poll waitid every millisecond.
      if (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid)
        return true;
      if (left <= 0) return false;
      usleep(1000);
      continue;
    }
    if (left <= 0) {
      close(pidfd);
      return false;
    }
    pollfd p{pidfd, POLLIN, 0};
    const int r = poll(&p, 1, static_cast<int>(left * 1000) + 1);
    if (r > 0) {
      close(pidfd);
      return true;
    }
    if (r < 0 && errno != EINTR) {
      close(pidfd);
      return waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) == 0;
    }
  }
}

/// attnprop's pid, taken before any fork (a static of the process): a call
/// process, forked by attnprop or cloned by the loader as attnprop's child,
/// checks that its parent is still this.
const pid_t g_attnprop_pid = getpid();

/// The most a call process may write to its captured stdout and stderr
/// (RLIMIT_FSIZE: a write past it fails), and the most shown of it.
constexpr rlim_t kKernelOutputCap = 1 << 20;
constexpr size_t kKernelOutputShown = 2048;

/// Where call processes' stdout and stderr go (issue 35: a kernel's prints
/// reached attnprop's output, a forged summary line among them): one memfd
/// per attnprop process, made before any call process or loader is forked
/// (they inherit it), emptied before each call and read after it.
int KernelOutputFd() {
  static const int fd = [] {
    const int f = memfd_create("attnprop-kernel-output", MFD_CLOEXEC);
    if (f >= 0) fcntl(f, F_SETFL, O_APPEND);
    return f;
  }();
  return fd;
}

/// What the last call process printed (ChildOutcome::output), then emptied.
std::string TakeKernelOutput() {
  const int fd = KernelOutputFd();
  if (fd < 0) return "";
  struct stat st {};
  if (fstat(fd, &st) != 0 || st.st_size <= 0) return "";
  std::string raw(std::min(static_cast<size_t>(st.st_size), kKernelOutputShown), '\0');
  const ssize_t got = pread(fd, raw.data(), raw.size(), 0);
  if (ftruncate(fd, 0) != 0) return "(its output could not be read back)";
  raw.resize(got > 0 ? static_cast<size_t>(got) : 0);
  while (!raw.empty() && (raw.back() == '\n' || raw.back() == ' ')) raw.pop_back();
  std::string text = KernelText(raw);
  if (static_cast<size_t>(st.st_size) > kKernelOutputShown)
    text += " ... (" + std::to_string(st.st_size) + " bytes in all)";
  return text;
}

[[noreturn]] void ChildMain(const std::function<void()>& body, FaultInfo* fault) {
  // The call process dies with attnprop (a kill -9 of attnprop, a CI hard
  // kill, the OOM killer, leaves no call running), and a crash in a call
  // dumps no core (under `ulimit -c unlimited` each crashing call wrote one
  // into the working directory, and shrinking a crash took minutes).
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != g_attnprop_pid) _exit(0);  // attnprop died before the line above
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  // stdout and stderr captured (bounded), stdin closed: the kernel's
  // prints are data the parent shows, never attnprop's own output.
  if (const int out = KernelOutputFd(); out >= 0) {
    dup2(out, STDOUT_FILENO);
    dup2(out, STDERR_FILENO);
    signal(SIGXFSZ, SIG_IGN);
    const rlimit cap{kKernelOutputCap, kKernelOutputCap};
    setrlimit(RLIMIT_FSIZE, &cap);
  }
  close(STDIN_FILENO);
  LimitCallMemory();
  LimitCallCpu();
  setpgid(0, 0);
  // The parent's handlers (and its blocked signals) are not the child's.
  for (int sig : kForwarded) signal(sig, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  g_fault = fault;
  static char alt_stack[1 << 16];
  stack_t ss{};
  ss.ss_sp = alt_stack;
  ss.ss_size = sizeof alt_stack;
  sigaltstack(&ss, nullptr);
  struct sigaction sa {};
  sa.sa_sigaction = FaultHandler;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGSYS}) sigaction(sig, &sa, nullptr);
  // From here on the kernel's code may only compute (confine.h); where
  // seccomp is unavailable the banner says so (ConfinementStatus).
  ConfineCallProcess();
  // Nothing may unwind out of here: past this frame lies the copy of the
  // parent's stack (RapidCheck's loop), which would carry on in the child.
  try {
    body();
  } catch (const std::exception& e) {
    std::strncpy(const_cast<char*>(fault->exception), e.what(), sizeof fault->exception - 1);
    fault->threw = 1;
    _exit(kChildExceptionStatus);
  } catch (...) {
    std::strncpy(const_cast<char*>(fault->exception), "an exception that is not a std::exception",
                 sizeof fault->exception - 1);
    fault->threw = 1;
    _exit(kChildExceptionStatus);
  }
  fault->finished = 1;
  std::fflush(nullptr);
  _exit(0);  // no destructors: the kernel's threads or statics must not run ours
}

}  // namespace

void KillSandboxChildren() {
  for (int i = 0; i < kMaxLive; ++i) {
    const pid_t pid = static_cast<pid_t>(g_live[i]);
    if (pid > 0) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
    }
  }
}

namespace {

FaultInfo* SharedFault() {
  static FaultInfo* fault = new (MapShared(sizeof(FaultInfo))) FaultInfo;
  return fault;
}

/// Starts a child with `start` (its pid; -1: none started) and supervises
/// it: the time limit, the group kill, the strays, the outcome. nullopt
/// when `start` started nothing.
std::optional<ChildOutcome> Supervise(const std::function<pid_t()>& start, double timeout_s) {
  FaultInfo* fault = SharedFault();
  InstallParentHandlers();
  PrepareConfinement();
  // Each call's output is its own: what the loader printed as the library
  // loaded is dropped.
  if (const int out = KernelOutputFd(); out >= 0 && ftruncate(out, 0) != 0) std::perror("attnprop: ftruncate");
  fault->have = 0;
  fault->address = 0;
  fault->finished = 0;
  fault->threw = 0;
  fault->have_syscall = 0;
  std::memset(const_cast<char*>(fault->exception), 0, sizeof fault->exception);
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  // Block the forwarded signals across fork, so that a signal cannot arrive
  // between fork and Track (a child nobody would kill).
  sigset_t block, saved;
  sigemptyset(&block);
  for (int sig : kForwarded) sigaddset(&block, sig);
  sigprocmask(SIG_BLOCK, &block, &saved);
  const std::vector<pid_t> before = ChildrenOfThisProcess();
  const pid_t pid = start();
  if (pid < 0) {
    sigprocmask(SIG_SETMASK, &saved, nullptr);
    return std::nullopt;
  }
  setpgid(pid, pid);  // as the child does: whichever runs first
  const int slot = Track(pid);
  sigprocmask(SIG_SETMASK, &saved, nullptr);

  ChildOutcome o;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  const bool exited = WaitForExit(pid, deadline);
  int status = 0;
  if (!exited) {
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (slot >= 0) g_live[slot] = 0;
    ReapStrays(before);
    o.kind = ChildOutcome::Kind::kTimeout;
    o.output = TakeKernelOutput();
    return o;
  }
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  // The group outlives its leader while a member runs (a helper the kernel
  // forked), and its id cannot be reused until then: kill what is left.
  if (kill(-pid, 0) == 0) {
    o.left_processes = true;
    kill(-pid, SIGKILL);
  }
  if (slot >= 0) g_live[slot] = 0;
  if (ReapStrays(before)) o.left_processes = true;
  o.output = TakeKernelOutput();
  if (WIFSIGNALED(status)) {
    o.kind = ChildOutcome::Kind::kSignal;
    o.signal = WTERMSIG(status);
    o.have_fault_address = fault->have != 0;
    o.fault_address = fault->address;
    if (o.signal == SIGSYS && fault->have_syscall) o.refused_syscall = fault->syscall;
  } else if (WIFEXITED(status) && WEXITSTATUS(status) == kChildExceptionStatus && fault->threw) {
    o.kind = ChildOutcome::Kind::kException;
    // The kernel can write this memory: read at most its size, and keep only text.
    const char* raw = const_cast<const char*>(fault->exception);
    o.exception = KernelText(std::string(raw, strnlen(raw, sizeof fault->exception)));
  } else if (WIFEXITED(status) && (WEXITSTATUS(status) != 0 || !fault->finished)) {
    o.kind = ChildOutcome::Kind::kExit;
    o.exit_code = WEXITSTATUS(status);
  }
  return o;
}


}  // namespace

ChildOutcome RunInChild(const std::function<void()>& body, double timeout_s) {
  const std::optional<ChildOutcome> o = Supervise(
      [&] {
        const pid_t pid = fork();
        if (pid == 0) ChildMain(body, SharedFault());
        return pid;
      },
      timeout_s);
  if (!o) throw std::runtime_error("fork failed");
  return *o;
}

int ThreadCount() {
  DIR* d = opendir("/proc/self/task");
  if (!d) return 1;
  int n = 0;
  while (const dirent* e = readdir(d))
    if (e->d_name[0] != '.') ++n;
  closedir(d);
  return n;
}

namespace {

/// Kills (and reaps) every child of this process, and the orphans that
/// come back to it as they die, until none is left; whether there was one.
[[maybe_unused]] bool EndChildren() {
  bool any = false;
  for (std::vector<pid_t> kids = ChildrenOfThisProcess(); !kids.empty(); kids = ChildrenOfThisProcess()) {
    any = true;
    for (const pid_t k : kids) kill(k, SIGKILL);
    for (const pid_t k : kids)
      while (waitpid(k, nullptr, 0) < 0 && errno == EINTR) {
      }
  }
  return any;
}

[[maybe_unused]] [[noreturn]] void ZygoteMain(int fd, pid_t parent, const std::function<void()>& setup, Zygote::Run run) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);  // it never outlives attnprop
  if (getppid() != parent) _exit(0);
  // The library's initialisers run here unconfined (the loader must clone):
  // orphans of any process they start (a daemon's double fork) come back to
  // the loader, which ends them all before it serves a call.
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  // The library's initialisers print where its calls do (captured).
  if (const int out = KernelOutputFd(); out >= 0) {
    dup2(out, STDOUT_FILENO);
    dup2(out, STDERR_FILENO);
  }
  close(STDIN_FILENO);
  setpgid(0, 0);
  for (int sig : kForwarded) signal(sig, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  Arena::Get().Unprotect();
  char status = 'R';
  try {
    setup();
  } catch (...) {
    status = 'E';
  }
  // A process with threads cannot be cloned faithfully (the copy has only
  // the cloning thread, and the raw clone runs no pthread_atfork handler).
  // Thread pools that start as their library loads (OpenBLAS's) shut down
  // in their atfork handlers: one glibc fork runs those, and the pool
  // starts again in each call process when first used. A library whose
  // threads stay gets the direct path.
  if (status == 'R' && ThreadCount() != 1) {
    const pid_t warm = fork();
    if (warm == 0) _exit(0);
    if (warm > 0)
      while (waitpid(warm, nullptr, 0) < 0 && errno == EINTR) {
      }
    for (int ms = 0; ms < 200 && ThreadCount() != 1; ++ms) usleep(1000);
    if (ThreadCount() != 1) status = 'T';
  }
  if (status == 'R' && EndChildren()) status = 'P';
  if (send(fd, &status, 1, MSG_NOSIGNAL) != 1 || status != 'R') _exit(0);
  // Confined and memory-capped once here, for every call process it clones
  // (they inherit the filter and the cap instead of each installing its
  // own); unconfined, each installs the whole call filter itself.
  LimitCallMemory();
  ConfineLoader();
  for (;;) {
    uintptr_t request = 0;
    if (recv(fd, &request, sizeof request, 0) != static_cast<ssize_t>(sizeof request)) _exit(0);
    std::fflush(nullptr);
    // CLONE_PARENT: the call process is attnprop's child, as a fork of
    // attnprop would be, so Supervise waits for it, kills its group and
    // inherits its strays exactly as on the direct path.
    const long pid = syscall(SYS_clone, CLONE_PARENT | SIGCHLD, 0, 0, 0, 0);
    if (pid == 0) {
      close(fd);
      ChildMain([&] { run(reinterpret_cast<void*>(request)); }, SharedFault());
    }
    const auto reply = static_cast<int32_t>(pid);
    if (send(fd, &reply, sizeof reply, MSG_NOSIGNAL) != static_cast<ssize_t>(sizeof reply)) _exit(0);
  }
}

/// Waits up to `seconds` for `bytes` from fd; false on timeout, EOF or error.
bool ReadWithin(int fd, void* out, size_t bytes, double seconds) {
  pollfd p{fd, POLLIN, 0};
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  for (;;) {
    const double left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) return false;
    const int r = poll(&p, 1, static_cast<int>(left * 1000) + 1);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    return recv(fd, out, bytes, 0) == static_cast<ssize_t>(bytes);
  }
}

}  // namespace

std::unique_ptr<Zygote> Zygote::Start(const std::function<void()>& setup, Run run, double timeout_s, std::string* why) {
#if defined(__SANITIZE_ADDRESS__)
  // ASan intercepts fork (it locks its allocator across it); the loader's
  // raw clone would bypass that: sanitizer builds keep the direct path
  // (ZygoteMain is then unused).
  (void)setup, (void)run, (void)timeout_s;
  *why = "not under AddressSanitizer";
  return nullptr;
#else
  SharedFault();  // mapped before the fork: the loader's children report through it
  PrepareConfinement();  // compiled before the fork: the loader's children load it
  KernelOutputFd();      // made before the fork: the loader's children write to it
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds) != 0) {
    *why = std::string("socketpair: ") + std::strerror(errno);
    return nullptr;
  }
  std::fflush(nullptr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]), close(fds[1]);
    *why = "fork failed";
    return nullptr;
  }
  if (pid == 0) {
    close(fds[0]);
    ZygoteMain(fds[1], parent, setup, run);
  }
  close(fds[1]);
  std::unique_ptr<Zygote> z(new Zygote);
  z->pid_ = pid;
  z->fd_ = fds[0];
  char status = 0;
  if (!ReadWithin(z->fd_, &status, 1, timeout_s) || status != 'R') {
    *why = status == 'T'   ? "the library started threads as it loaded"
           : status == 'P' ? "the library started processes as it loaded (attnprop ended them)"
           : status == 'E' ? "loading it failed"
                           : "loading it did not finish within " + std::to_string(timeout_s) + " s";
    return nullptr;  // the destructor ends it
  }
  return z;
#endif
}

Zygote::~Zygote() {
  if (fd_ >= 0) close(fd_);
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    while (waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
}

pid_t Zygote::Spawn(void* request) {
  if (fd_ < 0) return -1;
  const auto r = reinterpret_cast<uintptr_t>(request);
  int32_t pid = -1;
  // The loader only clones: 10 s is far beyond what that takes.
  if (send(fd_, &r, sizeof r, MSG_NOSIGNAL) != static_cast<ssize_t>(sizeof r) ||
      !ReadWithin(fd_, &pid, sizeof pid, 10) || pid <= 0) {
    close(fd_);
    fd_ = -1;
    return -1;
  }
  return pid;
}

std::optional<ChildOutcome> RunInZygoteChild(Zygote& zygote, void* request, double timeout_s) {
  return Supervise([&] { return zygote.Spawn(request); }, timeout_s);
}

}  // namespace attnprop::ksuite
