// Isolation for calls into an untrusted kernel: buffers placed against
// inaccessible guard pages, and a forked child that runs the calls under a
// time limit. The buffers live in shared memory, so what the child's kernel
// wrote is visible to the parent, and a crash, a hang or a wild write is
// reported as the outcome of one call, never as a crash of attnprop.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <sys/types.h>

namespace attnprop::ksuite {

/// Bytes around a buffer (between it and its guard pages) hold this canary;
/// buffer contents are pre-filled separately (see problem.h).
inline constexpr unsigned char kSlackCanary = 0xA5;

/// A GuardedBuffer's whole mapping (guard pages included).
struct GuardedRegion {
  uintptr_t base = 0;
  size_t bytes = 0;
  int read_only = 0;  // the pages between the guards too (inputs the kernel must not write)
};
/// In a confined call process (confine.h): each region's guard pages made
/// inaccessible, and the pages between them read-only if asked; then the
/// shared arena's and the regions' protections locked (ConfineCall), so
/// that the kernel cannot undo them. Throws when either fails, except that
/// an unconfined process (no seccomp: the banner says so) is not locked.
void ProtectAndLock(const GuardedRegion* regions, int n);

/// A buffer in MAP_SHARED anonymous memory with a PROT_NONE page directly
/// before and after its pages. kEnd puts the buffer's last byte against the
/// following guard page (an overrun faults at once), kStart puts its first
/// byte against the preceding one (an underrun faults at once); the slack on
/// the other side holds kSlackCanary.
class GuardedBuffer {
 public:
  enum class Place { kEnd, kStart };
  GuardedBuffer(std::string name, size_t bytes, Place place);
  ~GuardedBuffer();
  GuardedBuffer(const GuardedBuffer&) = delete;
  GuardedBuffer& operator=(const GuardedBuffer&) = delete;

  unsigned char* data() const { return data_; }
  size_t bytes() const { return bytes_; }
  const std::string& name() const { return name_; }
  /// "" when every slack byte still holds the canary, else where it changed.
  std::string SlackDamage() const;
  /// Whether it lies in the shared arena (mapped in a loader's children too).
  bool Shared() const;
  /// Its mapping, for a child to protect (Protect): a loader forked before
  /// the buffer existed maps its guard pages readable.
  GuardedRegion Region(bool read_only) const;
  /// Whether addr lies in the pages between the guards (data or slack).
  bool Inside(uintptr_t addr) const;
  /// If addr lies in this buffer's mapping (guards included), says where
  /// relative to the buffer ("out + 16 bytes (past the end, guard page)").
  bool Describe(uintptr_t addr, std::string* where) const;

 private:
  std::string name_;
  unsigned char* base_ = nullptr;
  size_t map_bytes_ = 0;
  unsigned char* data_ = nullptr;
  size_t bytes_ = 0;
};

struct ChildOutcome {
  /// kException: a C++ exception escaped the body (caught at the top of the
  /// child, which then ends: it never unwinds into the parent's stack copy).
  enum class Kind { kFinished, kSignal, kTimeout, kExit, kException };
  Kind kind = Kind::kFinished;
  int signal = 0;             // kSignal: the signal that ended the child
  int exit_code = 0;          // kExit: the child exited on its own (the kernel called exit)
  bool have_fault_address = false;
  uintptr_t fault_address = 0;  // SIGSEGV/SIGBUS: the faulting address
  std::string exception;        // kException: what() (or "not a std::exception")
  /// Processes of the child's group still running after the child ended (a
  /// kernel that forked helpers): they were killed; the call is not clean.
  bool left_processes = false;
  /// SIGSYS from the call process's system-call filter (confine.h): the
  /// number of the system call it refused; -1 otherwise.
  int refused_syscall = -1;
  /// What the call process wrote to its stdout and stderr (a captured
  /// descriptor, never attnprop's own): the first kKernelOutputShown bytes
  /// as KernelText, "... (N bytes in all)" beyond. Empty when it wrote nothing.
  std::string output;
  /// One line: "finished", "killed by SIGSEGV at 0x...", "timed out after 2 s",
  /// then what it printed, if anything.
  std::string Describe() const;
  /// The same without what it printed.
  std::string DescribeEnd() const;
};

/// Runs `body` in a forked child and waits at most timeout_s seconds (then
/// kills it). The child installs SIGSEGV/SIGBUS/SIGFPE/SIGILL handlers (on an
/// alternate stack) that report the faulting address, catches every
/// exception at its top, and always ends with _exit (no destructor or atexit
/// handler of the parent's copy runs). It leads a process group of its own:
/// on timeout the whole group is killed, and so is whatever is left of it
/// when the child ends (left_processes). The time limit is a pidfd (or
/// waitpid) with a deadline, so nothing the body does with descriptors or
/// signals extends it. Only memory mapped MAP_SHARED (GuardedBuffer,
/// SharedBlock) carries results back.
///
/// While a child runs, SIGINT, SIGTERM and SIGHUP to this process kill its
/// group first and then take their previous action; at exit() every child
/// group still running is killed.
ChildOutcome RunInChild(const std::function<void()>& body, double timeout_s);

/// A loader: a process forked once that runs `setup` (dlopen a plug-in:
/// its initialisers run once, here) and then, per request, clones a call
/// process that runs `run(request)`, as a child of attnprop (CLONE_PARENT),
/// so that RunInZygoteChild supervises it exactly as RunInChild does a fork
/// of attnprop, without loading the library again for every call (libtorch:
/// 0.5 s of CPU per load). `request` must lie in shared memory (SharedBlock).
/// The loader dies with attnprop (PR_SET_PDEATHSIG).
class Zygote {
 public:
  using Run = void (*)(void* request);
  /// nullptr, with `why`, when setup threw, did not finish within
  /// timeout_s, ended the process, or left threads running (a fork of a
  /// process with threads has only the forking one); also under ASan.
  static std::unique_ptr<Zygote> Start(const std::function<void()>& setup, Run run, double timeout_s,
                                       std::string* why);
  ~Zygote();  // kills the loader
  Zygote(const Zygote&) = delete;
  Zygote& operator=(const Zygote&) = delete;
  /// The call process's pid; -1 when the loader is gone (it stays gone).
  pid_t Spawn(void* request);

 private:
  Zygote() = default;
  pid_t pid_ = -1;
  int fd_ = -1;
};

/// RunInChild with the child cloned by `zygote`, running its `run(request)`;
/// nullopt when the loader is gone (the caller uses RunInChild).
std::optional<ChildOutcome> RunInZygoteChild(Zygote& zygote, void* request, double timeout_s);

/// Threads of this process now (1 where /proc is missing).
int ThreadCount();

/// Kills (SIGKILL) the process group of every sandbox child now running.
/// Async-signal-safe: for a signal handler of the program's own.
void KillSandboxChildren();

/// Text a kernel wrote (an exception's what()), made safe for every
/// destination (console, XML, Markdown, HTML, JSON): well-formed UTF-8 kept,
/// every other byte and every control character (ESC, a newline) written
/// \xNN, a code fence written as three quotes.
std::string KernelText(const std::string& raw);

/// Child exit status when an exception escaped the body.
inline constexpr int kChildExceptionStatus = 125;

/// A small block of shared memory for results (return codes, counters).
class SharedBlock {
 public:
  explicit SharedBlock(size_t bytes);
  ~SharedBlock();
  SharedBlock(const SharedBlock&) = delete;
  SharedBlock& operator=(const SharedBlock&) = delete;
  void* data() const { return p_; }
  bool Shared() const;  // in the shared arena (mapped in a loader's children too)

 private:
  void* p_ = nullptr;
  size_t bytes_ = 0;
};

}  // namespace attnprop::ksuite
