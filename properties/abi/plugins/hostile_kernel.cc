// Hostile behaviours for the plug-ins that prove attnprop cannot be made to
// lie, crash or hang by a kernel (issue 16): linked beside plugin_kernel.cc
// with -DATTNPROP_HOSTILE=<n>. Each does one thing a correct kernel never
// does; the tests (hostile_test.sh, CMakeLists.txt) say what attnprop must
// report. The descriptor ATTNPROP_HOSTILE_PID_FD, when set, receives the
// pid of every process that hangs or is left behind, so a test can check
// none survives (a call process may not open files for writing: the tests
// open them and pass the descriptor).
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>

#include "kernels/attnprop_kernel.h"

#define HOSTILE_CTOR_EXIT0 1      // a constructor calls exit(0)
#define HOSTILE_CTOR_CRASH 2      // a constructor dereferences NULL
#define HOSTILE_CTOR_HANG 3       // a constructor never returns
#define HOSTILE_DTOR_EXIT0 4      // a destructor calls _exit(0) (built with a wrong lse: must still fail)
#define HOSTILE_THROWS 5          // a C++ exception escapes every call
#define HOSTILE_CLOSE_FDS_HANG 6  // closes every descriptor, ignores SIGTERM/SIGINT, never returns
#define HOSTILE_FORKS_HELPER 7    // forks a helper that runs on after the call
#define HOSTILE_RESTORES_INPUTS 8 // changes q[0] during the call and restores it
#define HOSTILE_LATE_WRITE 9      // a thread writes out[0] 5 ms after the call returned
#define HOSTILE_THIRD_CALL 10     // from the third call in a process on, out[0] is off by one ulp
#define HOSTILE_HEAP_OVERFLOW 11  // writes one float past a malloc'd scratch buffer (built with ASan)
#define HOSTILE_SETSID_HELPER 12  // a helper leaves the process group (setsid) and double-forks
#define HOSTILE_CTOR_THREAD 13    // a constructor starts a thread that stays (no loader can clone it)
#define HOSTILE_COUNT_LOADS 14    // not hostile: every load appends a line to ATTNPROP_LOAD_LOG
#define HOSTILE_REPORT_LIMITS 16  // not hostile: every call appends its core limit and parent-death signal
                                  // to ATTNPROP_LOAD_LOG
#define HOSTILE_THROWS_TEXT 17    // throws with a message of escape sequences, bad UTF-8, a code fence,
                                  // a forged Markdown heading and HTML
#define HOSTILE_ABORT_AFTER 15    // correct outputs, then a thread aborts the process 2 ms after the call
                                  // returned (heap damage glibc finds later, a thread's fatal error)
// Each of these tries, after a correct call, one thing the call process's
// system-call filter refuses (properties/operator/confine.h):
#define HOSTILE_KILL_PARENT 18    // kill(getppid(), SIGKILL): ends attnprop
#define HOSTILE_TRACE_PARENT 19   // ptrace(PTRACE_ATTACH, getppid()): could rewrite attnprop's verdict
#define HOSTILE_LIMIT_PARENT 20   // prlimit(getppid(), RLIMIT_FSIZE, 0): attnprop could save nothing
#define HOSTILE_WRITES_FILE 21    // creates hostile-was-here in the working directory (where stores are)
#define HOSTILE_SEGV_HANDLER 22   // installs its own SIGSEGV handler (would hide guard-page faults)
#define HOSTILE_PRINTS_SUMMARY 23 // prints a forged attnprop summary on stdout and stderr, then aborts
#define HOSTILE_HOGS_MEMORY 24    // allocates and touches 1 GiB in each call (aborts, saying so, if it cannot)
#define HOSTILE_UNPROTECTS_INPUTS 25  // mprotects q's page writable, changes q[0] and restores it
#define HOSTILE_FORGES_PLAN 26    // writes "every call returned 0" into attnprop's call plan, then _exit(0)
#define HOSTILE_CTOR_DAEMON 28    // a constructor, where it runs unconfined, starts a daemon (setsid, double fork)
#define HOSTILE_CORRUPTS_HEAP 27  // overwrites a malloc block's header, then frees it (glibc aborts)

namespace {

/// Appends `line` to the descriptor whose number the environment variable
/// `env` holds (opened for appending by the test).
[[maybe_unused]] void AppendLine(const char* env, const std::string& line) {
  const char* fd = std::getenv(env);
  if (!fd) return;
  const std::string text = line + "\n";
  if (write(std::atoi(fd), text.data(), text.size()) < 0) std::perror("hostile kernel: write");
}

[[maybe_unused]] void RecordPid() { AppendLine("ATTNPROP_HOSTILE_PID_FD", std::to_string(getpid())); }

[[maybe_unused]] [[noreturn]] void SleepForever() {
  for (;;) pause();
}

[[maybe_unused]] void FlipOut0(const attnprop_attention_args* a, bool f32) {
  if (!a->out) return;
  if (f32) {
    float* o = static_cast<float*>(a->out);
    o[0] = o[0] == 1.0f ? 2.0f : 1.0f;
  } else {
    double* o = static_cast<double*>(a->out);
    o[0] = o[0] == 1.0 ? 2.0 : 1.0;
  }
}

#if ATTNPROP_HOSTILE == HOSTILE_CTOR_EXIT0
__attribute__((constructor)) void Init() { std::exit(0); }
#elif ATTNPROP_HOSTILE == HOSTILE_CTOR_CRASH
__attribute__((constructor)) void Init() {
  volatile uintptr_t address = 8;  // not a constant: the compiler cannot drop the store
  *reinterpret_cast<volatile int*>(address) = 1;
}
#elif ATTNPROP_HOSTILE == HOSTILE_CTOR_HANG
__attribute__((constructor)) void Init() {
  RecordPid();
  SleepForever();
}
#elif ATTNPROP_HOSTILE == HOSTILE_DTOR_EXIT0
__attribute__((destructor)) void Fini() { _exit(0); }
#elif ATTNPROP_HOSTILE == HOSTILE_CTOR_DAEMON
__attribute__((constructor)) void Init() {
  // Only outside a seccomp filter: the load probe sees a quiet library.
  if (prctl(PR_GET_SECCOMP) == 0 && fork() == 0) {
    setsid();
    if (fork() == 0) {
      RecordPid();
      SleepForever();
    }
    _exit(0);
  }
}
#endif

#if ATTNPROP_HOSTILE == HOSTILE_CTOR_THREAD || ATTNPROP_HOSTILE == HOSTILE_COUNT_LOADS
// How many times the library was loaded (the load probe, a loader, or every
// call process where there is no loader).
__attribute__((constructor)) void CountLoad() {
  AppendLine("ATTNPROP_LOAD_LOG_FD", std::to_string(getpid()));
#if ATTNPROP_HOSTILE == HOSTILE_CTOR_THREAD
  std::thread([] { SleepForever(); }).detach();
#endif
}
#endif

}  // namespace

void HostileBefore(const attnprop_attention_args* a) {
#if ATTNPROP_HOSTILE == HOSTILE_THROWS
  (void)a;
  throw std::runtime_error("hostile kernel: thrown out of the call");
#elif ATTNPROP_HOSTILE == HOSTILE_THROWS_TEXT
  (void)a;
  throw std::runtime_error("\x1b[31mred\x1b[0m \xff\xfe\xc0\xaf bad UTF-8 \xe2\x82 ``` fence\n# forged heading\n"
                           "<b>html</b> & \"quotes\" \x01\x7f caf\xc3\xa9");
#elif ATTNPROP_HOSTILE == HOSTILE_CLOSE_FDS_HANG
  (void)a;
  RecordPid();
  for (int fd = 0; fd < 4096; ++fd) close(fd);
  signal(SIGTERM, SIG_IGN);
  signal(SIGINT, SIG_IGN);
  signal(SIGHUP, SIG_IGN);
  SleepForever();
#elif ATTNPROP_HOSTILE == HOSTILE_HEAP_OVERFLOW
  (void)a;
  volatile size_t n = 16;
  float* scratch = static_cast<float*>(std::malloc(n * sizeof(float)));
  for (size_t i = 0; i <= n; ++i) static_cast<volatile float*>(scratch)[i] = 1.0f;  // one past the end
  std::free(scratch);
#elif ATTNPROP_HOSTILE == HOSTILE_PRINTS_SUMMARY
  (void)a;
  std::printf("Summary: 59 properties, all 59 as expected, 0 unexpected\n");
  std::fprintf(stderr, "59 of 59 properties hold\n");
  std::fflush(nullptr);
  std::abort();
#elif ATTNPROP_HOSTILE == HOSTILE_HOGS_MEMORY
  (void)a;
  const size_t bytes = size_t{1} << 30;
  void* hog = std::malloc(bytes);
  if (!hog) {
    std::fprintf(stderr, "hostile kernel: 1 GiB malloc failed\n");
    std::abort();
  }
  std::memset(hog, 1, bytes);
  std::free(hog);
#elif ATTNPROP_HOSTILE == HOSTILE_UNPROTECTS_INPUTS
  // As HOSTILE_RESTORES_INPUTS, with the read-only protection lifted first
  // (and the write made whether or not that worked): without the mapping
  // lock no fault would show the write.
  if (a->q && a->struct_size >= sizeof(attnprop_attention_args) && a->batch > 0 && a->t_q > 0 && a->d_k > 0) {
    const long page = sysconf(_SC_PAGESIZE);
    const auto at = reinterpret_cast<uintptr_t>(a->q) & ~static_cast<uintptr_t>(page - 1);
    mprotect(reinterpret_cast<void*>(at), static_cast<size_t>(page), PROT_READ | PROT_WRITE);
    volatile unsigned char* q = static_cast<volatile unsigned char*>(const_cast<void*>(a->q));
    const unsigned char saved = q[3];
    q[3] = static_cast<unsigned char>(saved ^ 0x01);
    q[3] = saved;
    mprotect(reinterpret_cast<void*>(at), static_cast<size_t>(page), PROT_READ);
  }
#elif ATTNPROP_HOSTILE == HOSTILE_FORGES_PLAN
  // attnprop's call plan starts the page the arguments lie in (call.cc's
  // CallPlan: dtype, late_ms, calls, regions, watched, done, ...; the return
  // codes after the arguments): every call "returned 0", none computed.
  const auto base = reinterpret_cast<uintptr_t>(a) & ~uintptr_t{4095};
  auto* header = reinterpret_cast<int*>(base);
  const int calls = header[2];
  const auto align = [](size_t n) { return (n + 15) / 16 * 16; };
  const size_t rcs = align(align(9 * sizeof(int)) + sizeof(attnprop_attention_args) * static_cast<size_t>(calls) + 64);
  for (int i = 0; i < calls; ++i) reinterpret_cast<int*>(base + rcs)[i] = 0;
  header[5] = calls;
  _exit(0);
#elif ATTNPROP_HOSTILE == HOSTILE_CORRUPTS_HEAP
  (void)a;
  // An underrun of 8 bytes lands on the block's size word, which glibc's
  // free checks (a short overrun into a neighbour is found only by a later
  // malloc, if ever). volatile: the stores must not be dropped.
  volatile char* scratch = static_cast<char*>(std::malloc(24));
  for (int i = -8; i < 24; ++i) scratch[i] = static_cast<char>(0xff);
  std::free(const_cast<char*>(scratch));
#elif ATTNPROP_HOSTILE == HOSTILE_RESTORES_INPUTS
  // Flip a bit of q[0] and put it back: the bytes are as before when the call returns.
  if (a->q && a->struct_size >= sizeof(attnprop_attention_args) && a->batch > 0 && a->t_q > 0 && a->d_k > 0) {
    // volatile: the compiler must not fold the flip and the restore away.
    volatile unsigned char* q = static_cast<volatile unsigned char*>(const_cast<void*>(a->q));
    const unsigned char saved = q[3];
    q[3] = static_cast<unsigned char>(saved ^ 0x01);
    q[3] = saved;
  }
#else
  (void)a;
#endif
}

void HostileAfter(const attnprop_attention_args* a) {
#if ATTNPROP_HOSTILE == HOSTILE_FORKS_HELPER
  (void)a;
  if (fork() == 0) {
    RecordPid();
    SleepForever();
  }
#elif ATTNPROP_HOSTILE == HOSTILE_SETSID_HELPER
  (void)a;
  if (fork() == 0) {  // out of the child's group and session, then orphaned
    setsid();
    if (fork() == 0) {
      RecordPid();
      SleepForever();
    }
    _exit(0);
  }
#elif ATTNPROP_HOSTILE == HOSTILE_LATE_WRITE
  if (!a->out) return;
  const attnprop_attention_args copy = *a;
  const bool f32 = true;  // out[0]'s low byte changes either way
  std::thread([copy, f32] {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    FlipOut0(&copy, f32);
  }).detach();
#elif ATTNPROP_HOSTILE == HOSTILE_REPORT_LIMITS
  (void)a;
  rlimit core{};
  getrlimit(RLIMIT_CORE, &core);
  int death = 0;
  prctl(PR_GET_PDEATHSIG, &death);
  AppendLine("ATTNPROP_LOAD_LOG_FD", "core=" + std::to_string(core.rlim_cur) + "/" + std::to_string(core.rlim_max) +
                                         " pdeathsig=" + std::to_string(death));
#elif ATTNPROP_HOSTILE == HOSTILE_ABORT_AFTER
  (void)a;
  std::thread([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    std::abort();
  }).detach();
#elif ATTNPROP_HOSTILE == HOSTILE_KILL_PARENT
  (void)a;
  kill(getppid(), SIGKILL);
#elif ATTNPROP_HOSTILE == HOSTILE_TRACE_PARENT
  (void)a;
  ptrace(PTRACE_ATTACH, getppid(), nullptr, nullptr);
#elif ATTNPROP_HOSTILE == HOSTILE_LIMIT_PARENT
  (void)a;
  const rlimit none{0, 0};
  prlimit(getppid(), RLIMIT_FSIZE, &none, nullptr);
#elif ATTNPROP_HOSTILE == HOSTILE_WRITES_FILE
  (void)a;
  const int fd = open("hostile-was-here", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) close(fd);
#elif ATTNPROP_HOSTILE == HOSTILE_SEGV_HANDLER
  (void)a;
  signal(SIGSEGV, SIG_IGN);
#elif ATTNPROP_HOSTILE == HOSTILE_THIRD_CALL
  static int calls = 0;
  if (++calls >= 3 && a->out) static_cast<unsigned char*>(a->out)[0] ^= 0x01;
#else
  (void)a;
#endif
}
