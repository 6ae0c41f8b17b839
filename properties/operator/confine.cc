#include "properties/operator/confine.h"

#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

namespace attnprop::ksuite {
namespace {

/// Refused outright: other processes (tracing, their memory, pidfds),
/// starting programs and sessions, the filesystem's names and modes,
/// sockets, namespaces and mounts, and raising limits.
constexpr int kRefused[] = {
    SCMP_SYS(ptrace), SCMP_SYS(process_vm_readv), SCMP_SYS(process_vm_writev), SCMP_SYS(kcmp),
    SCMP_SYS(pidfd_open), SCMP_SYS(pidfd_send_signal), SCMP_SYS(pidfd_getfd), SCMP_SYS(tkill),
    SCMP_SYS(fork), SCMP_SYS(vfork), SCMP_SYS(execve), SCMP_SYS(execveat), SCMP_SYS(setsid), SCMP_SYS(setpgid),
    SCMP_SYS(creat), SCMP_SYS(unlink), SCMP_SYS(unlinkat),
    SCMP_SYS(rename), SCMP_SYS(renameat), SCMP_SYS(renameat2), SCMP_SYS(truncate), SCMP_SYS(ftruncate),
    SCMP_SYS(mkdir), SCMP_SYS(mkdirat), SCMP_SYS(rmdir), SCMP_SYS(link), SCMP_SYS(linkat), SCMP_SYS(symlink),
    SCMP_SYS(symlinkat), SCMP_SYS(chmod), SCMP_SYS(fchmod), SCMP_SYS(fchmodat), SCMP_SYS(chown),
    SCMP_SYS(fchown), SCMP_SYS(fchownat), SCMP_SYS(lchown), SCMP_SYS(mknod), SCMP_SYS(mknodat),
    SCMP_SYS(mount), SCMP_SYS(umount2), SCMP_SYS(chroot), SCMP_SYS(pivot_root), SCMP_SYS(unshare),
    SCMP_SYS(setns), SCMP_SYS(name_to_handle_at), SCMP_SYS(open_by_handle_at), SCMP_SYS(setrlimit),
    // io_uring performs file operations no filter sees; userfaultfd and
    // remap_file_pages change how the buffers' pages behave.
    SCMP_SYS(io_uring_setup), SCMP_SYS(io_uring_enter), SCMP_SYS(io_uring_register), SCMP_SYS(userfaultfd),
    SCMP_SYS(remap_file_pages), SCMP_SYS(process_madvise)};

/// libseccomp's SCMP_A<n> macros are C compound literals (not C++).
scmp_arg_cmp Arg(unsigned arg, scmp_compare op, scmp_datum_t a, scmp_datum_t b = 0) { return {arg, op, a, b}; }

/// The shared filter as a BPF program, compiled once per attnprop process
/// (before any call process is forked: libseccomp's compilation cost a
/// third of check-kernel's time when each call process compiled its own).
/// It holds no rule that needs a process's own pid, and it allows what a
/// call process's start and a loader do (its group, its limits, clone with
/// CLONE_PARENT): a loader installs it once and every call process it
/// clones inherits it (installing a filter costs a process 1.5-2.5 us per
/// instruction here). The per-process rules come in a small filter of each
/// call process's own (OwnFilter).
struct Program {
  std::vector<sock_filter> code;
  std::string error;  // non-empty: no program (why)
};

Program Compile() {
  Program out;
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (!ctx) return {{}, "seccomp_init failed"};
  // A binary search over the system call numbers: every system call of the
  // call process runs the program, most of them allowed.
  int rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
  const auto refuse = [&](int nr, std::initializer_list<scmp_arg_cmp> when) {
    if (rc == 0)
      rc = seccomp_rule_add_array(ctx, SCMP_ACT_TRAP, nr, static_cast<unsigned>(when.size()), when.begin());
  };
  // setpgid and setrlimit: a call process's start uses them; OwnFilter
  // refuses them once it is done.
  for (const int nr : kRefused)
    if (nr != SCMP_SYS(setpgid) && nr != SCMP_SYS(setrlimit)) refuse(nr, {});
  // Limits: read one's own (glibc passes pid 0 for its own); OwnFilter
  // refuses setting them.
  refuse(SCMP_SYS(prlimit64), {Arg(0, SCMP_CMP_NE, 0)});
  // Threads, not processes: a clone without CLONE_THREAD is a fork (with
  // CLONE_PARENT: a loader's clone of a call process; OwnFilter refuses it).
  refuse(SCMP_SYS(clone), {Arg(0, SCMP_CMP_MASKED_EQ, CLONE_THREAD | CLONE_PARENT, 0)});
  // Files opened for reading only.
  for (const scmp_datum_t flag : {scmp_datum_t(O_WRONLY), scmp_datum_t(O_RDWR), scmp_datum_t(O_CREAT),
                                  scmp_datum_t(O_TRUNC)}) {
    refuse(SCMP_SYS(open), {Arg(1, SCMP_CMP_MASKED_EQ, flag, flag)});
    refuse(SCMP_SYS(openat), {Arg(2, SCMP_CMP_MASKED_EQ, flag, flag)});
  }
  refuse(SCMP_SYS(ioctl), {Arg(1, SCMP_CMP_EQ, TIOCSTI)});
  // clone3 and openat2 carry their flags in memory the filter cannot read:
  // "not implemented", so that glibc falls back to clone and openat.
  // Sockets fail with EACCES rather than ending the call: libraries probe
  // for them as they load (libtorch does) and carry on without.
  for (const int nr : {SCMP_SYS(socket), SCMP_SYS(socketpair)})
    if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), nr, 0);
  if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
  if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(openat2), 0);
  // The program, through a pipe (libseccomp 2.5 exports only to a descriptor).
  int fds[2] = {-1, -1};
  if (rc == 0 && pipe(fds) != 0) rc = -errno;
  if (rc == 0) {
    rc = seccomp_export_bpf(ctx, fds[1]);
    close(fds[1]);
    std::string bytes;
    char buf[4096];
    for (ssize_t got; (got = read(fds[0], buf, sizeof buf)) != 0;) {
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) break;
      bytes.append(buf, static_cast<size_t>(got));
    }
    close(fds[0]);
    out.code.resize(bytes.size() / sizeof(sock_filter));
    std::memcpy(out.code.data(), bytes.data(), out.code.size() * sizeof(sock_filter));
  }
  seccomp_release(ctx);
  if (rc != 0) return {{}, std::string("seccomp: ") + std::strerror(-rc)};
  if (out.code.empty()) return {{}, "seccomp: the compiled filter is empty"};
  return out;
}

const Program& SharedProgram() {
  static const Program program = Compile();
  return program;
}

/// Set once this process's shared filter is installed (by itself, or by
/// the loader it was cloned from), and once its per-process rules are.
bool g_shared_installed = false;
bool g_process_rules_installed = false;

bool Install(const std::vector<sock_filter>& code, std::string* why) {
  const sock_fprog prog{static_cast<unsigned short>(code.size()), const_cast<sock_filter*>(code.data())};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return *why = std::string("no_new_privs: ") + std::strerror(errno), false;
  // SPEC_ALLOW: no speculative-store-bypass mitigation forced on the call
  // process (it guards a process's memory from code in that same process,
  // which the kernel may read anyway) and none of its cost.
  if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_SPEC_ALLOW, &prog) != 0)
    return *why = std::string("seccomp: ") + std::strerror(errno), false;
  return true;
}

/// A classic-BPF program built forwards, its jumps to labels resolved at the end.
class Bpf {
 public:
  static constexpr int kNext = -1;  // a jump to the following instruction
  int Label() {
    at_.push_back(-1);
    return static_cast<int>(at_.size()) - 1;
  }
  void Bind(int label) { at_[static_cast<size_t>(label)] = static_cast<int>(code_.size()); }
  void Stmt(uint16_t code, uint32_t k = 0) { code_.push_back(BPF_STMT(code, k)); }
  /// if (A op k) goto yes else goto no; op is BPF_JEQ, BPF_JGT, BPF_JGE or BPF_JSET.
  void If(uint16_t op, uint32_t k, int yes, int no) { Jump(BPF_JMP | op | BPF_K, k, yes, no); }
  /// if (A op X) goto yes else goto no.
  void IfX(uint16_t op, int yes, int no) { Jump(BPF_JMP | op | BPF_X, 0, yes, no); }
  void Goto(int label) { Jump(BPF_JMP | BPF_JA, 0, label, kNext); }
  /// The program, or empty when a jump goes backwards or a conditional one
  /// is longer than 255.
  std::vector<sock_filter> Resolve() const {
    std::vector<sock_filter> out = code_;
    for (const Fix& f : fixes_) {
      const auto off = [&](int label) {
        return label == kNext ? 0 : at_[static_cast<size_t>(label)] - static_cast<int>(f.at) - 1;
      };
      sock_filter& ins = out[f.at];
      if (BPF_OP(ins.code) == BPF_JA) {
        if (off(f.yes) < 0) return {};
        ins.k = static_cast<uint32_t>(off(f.yes));
        continue;
      }
      const int jt = off(f.yes), jf = off(f.no);
      if (jt < 0 || jt > 255 || jf < 0 || jf > 255) return {};
      ins.jt = static_cast<uint8_t>(jt);
      ins.jf = static_cast<uint8_t>(jf);
    }
    return out;
  }

 private:
  struct Fix {
    size_t at;
    int yes, no;
  };
  void Jump(uint16_t code, uint32_t k, int yes, int no) {
    fixes_.push_back({code_.size(), yes, no});
    code_.push_back(BPF_JUMP(code, k, 0, 0));
  }
  std::vector<sock_filter> code_;
  std::vector<int> at_;
  std::vector<Fix> fixes_;
};

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "argument words are read low half first");
constexpr uint32_t ArgLow(int i) { return static_cast<uint32_t>(offsetof(seccomp_data, args) + 8 * static_cast<size_t>(i)); }
constexpr uint32_t ArgHigh(int i) { return ArgLow(i) + 4; }

/// Refuses (SECCOMP_RET_TRAP) when [arg a, arg a + arg n) meets a range;
/// falls through otherwise. Scratch: M[0], M[1] the end's low and high
/// words, M[2] the carry.
void RefuseOverlap(Bpf& b, int a, int n, const std::vector<AddressRange>& ranges) {
  const int no_carry = b.Label(), carried = b.Label();
  b.Stmt(BPF_LD | BPF_W | BPF_ABS, ArgLow(a));
  b.Stmt(BPF_MISC | BPF_TAX);
  b.Stmt(BPF_LD | BPF_W | BPF_ABS, ArgLow(n));
  b.Stmt(BPF_ALU | BPF_ADD | BPF_X);
  b.Stmt(BPF_ST, 0);
  b.IfX(BPF_JGE, no_carry, Bpf::kNext);
  b.Stmt(BPF_LD | BPF_IMM, 1);
  b.Goto(carried);
  b.Bind(no_carry);
  b.Stmt(BPF_LD | BPF_IMM, 0);
  b.Bind(carried);
  b.Stmt(BPF_ST, 2);
  b.Stmt(BPF_LD | BPF_W | BPF_ABS, ArgHigh(a));
  b.Stmt(BPF_MISC | BPF_TAX);
  b.Stmt(BPF_LD | BPF_W | BPF_ABS, ArgHigh(n));
  b.Stmt(BPF_ALU | BPF_ADD | BPF_X);
  b.Stmt(BPF_LDX | BPF_MEM, 2);
  b.Stmt(BPF_ALU | BPF_ADD | BPF_X);
  b.Stmt(BPF_ST, 1);
  for (const AddressRange& r : ranges) {
    const auto hi = [](uint64_t v) { return static_cast<uint32_t>(v >> 32); };
    const auto lo = [](uint64_t v) { return static_cast<uint32_t>(v); };
    const int next = b.Label(), start_below = b.Label(), hit = b.Label();
    // start < r.end?
    b.Stmt(BPF_LD | BPF_W | BPF_ABS, ArgHigh(a));
    b.If(BPF_JGT, hi(r.end), next, Bpf::kNext);
    b.If(BPF_JEQ, hi(r.end), Bpf::kNext, start_below);
    b.Stmt(BPF_LD | BPF_W | BPF_ABS, ArgLow(a));
    b.If(BPF_JGE, lo(r.end), next, Bpf::kNext);
    b.Bind(start_below);
    // end > r.begin?
    b.Stmt(BPF_LD | BPF_MEM, 1);
    b.If(BPF_JGT, hi(r.begin), hit, Bpf::kNext);
    b.If(BPF_JEQ, hi(r.begin), Bpf::kNext, next);
    b.Stmt(BPF_LD | BPF_MEM, 0);
    b.If(BPF_JGT, lo(r.begin), hit, next);
    b.Bind(hit);
    b.Stmt(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
    b.Bind(next);
  }
}

#if defined(__x86_64__)
constexpr uint32_t kNativeArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr uint32_t kNativeArch = AUDIT_ARCH_AARCH64;
#endif

/// A call process's own filter: with `process_rules`, what needs its pid
/// and what its start did (a loader's filter allowed it); with `ranges`,
/// the lock on the buffers' mappings and protections. Empty if it does not fit.
std::vector<sock_filter> OwnFilter(bool process_rules, const std::vector<AddressRange>* ranges) {
  const auto self = static_cast<uint32_t>(getpid());
  Bpf b;
  const int whole = b.Label(), mremap = b.Label(), signal = b.Label(), clone = b.Label(), kill = b.Label();
  const int refused = b.Label(), limits = b.Label(), handler = b.Label(), control = b.Label();
  b.Stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch));
  b.If(BPF_JEQ, kNativeArch, Bpf::kNext, kill);
  b.Stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr));
  if (ranges) b.If(BPF_JEQ, SYS_mremap, mremap, Bpf::kNext);
  if (process_rules) {
    b.If(BPF_JEQ, SYS_clone, clone, Bpf::kNext);
    for (const long nr : {SYS_kill, SYS_tgkill, SYS_rt_sigqueueinfo, SYS_rt_tgsigqueueinfo})
      b.If(BPF_JEQ, static_cast<uint32_t>(nr), signal, Bpf::kNext);
    // What the call process's start did, refused from now on: its group,
    // its limits, its fault handlers, its parent-death signal.
    b.If(BPF_JEQ, SYS_setpgid, refused, Bpf::kNext);
    b.If(BPF_JEQ, SYS_setrlimit, refused, Bpf::kNext);
    b.If(BPF_JEQ, SYS_prlimit64, limits, Bpf::kNext);
    b.If(BPF_JEQ, SYS_rt_sigaction, handler, Bpf::kNext);
    b.If(BPF_JEQ, SYS_prctl, control, Bpf::kNext);
  }
  if (ranges)
    for (const long nr : {SYS_mprotect, SYS_pkey_mprotect, SYS_munmap, SYS_madvise, SYS_mmap}) {
      const int skip = b.Label();
      b.If(BPF_JEQ, static_cast<uint32_t>(nr), Bpf::kNext, skip);
      b.Goto(whole);
      b.Bind(skip);
    }
  b.Stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  if (process_rules) {
    // Signals to this process only (abort and raise signal themselves); the
    // kernel reads a pid as 32 bits.
    b.Bind(signal);
    b.Stmt(BPF_LD | BPF_W | BPF_ABS, ArgLow(0));
    const int refuse = b.Label();
    b.If(BPF_JEQ, self, Bpf::kNext, refuse);
    b.Stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    b.Bind(refuse);
    b.Stmt(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
    b.Bind(refused);
    b.Stmt(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
    // prlimit64(pid, resource, new, old): reading is allowed, setting is not.
    // (Each block refuses through a return of its own: BPF jumps only forwards.)
    const auto trap_if = [&b](uint32_t word, std::initializer_list<uint32_t> values) {
      const int trap = b.Label();
      b.Stmt(BPF_LD | BPF_W | BPF_ABS, word);
      for (const uint32_t v : values) b.If(BPF_JEQ, v, trap, Bpf::kNext);
      b.Stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
      b.Bind(trap);
      b.Stmt(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
    };
    b.Bind(limits);
    {
      const int set = b.Label();
      b.Stmt(BPF_LD | BPF_W | BPF_ABS, ArgLow(2));
      b.If(BPF_JEQ, 0, Bpf::kNext, set);
      b.Stmt(BPF_LD | BPF_W | BPF_ABS, ArgHigh(2));
      b.If(BPF_JEQ, 0, Bpf::kNext, set);
      b.Stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
      b.Bind(set);
      b.Stmt(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
    }
    // The fault signals attnprop's checks and these filters report through.
    b.Bind(handler);
    trap_if(ArgLow(0), {SIGSEGV, SIGBUS, SIGSYS});
    b.Bind(control);
    trap_if(ArgLow(0), {PR_SET_PDEATHSIG});
    // Threads, not processes (the shared filter allows a loader's clone).
    b.Bind(clone);
    b.Stmt(BPF_LD | BPF_W | BPF_ABS, ArgLow(0));
    const int thread = b.Label(), process = b.Label();
    b.If(BPF_JSET, CLONE_THREAD, thread, process);
    b.Bind(thread);
    b.Stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    b.Bind(process);
    b.Stmt(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
  }
  if (ranges) {
    // mremap moves pages onto new_address (its fifth argument) only with MREMAP_FIXED.
    b.Bind(mremap);
    b.Stmt(BPF_LD | BPF_W | BPF_ABS, ArgLow(3));
    const int fixed = b.Label(), not_fixed = b.Label();
    b.If(BPF_JSET, MREMAP_FIXED, fixed, not_fixed);
    b.Bind(not_fixed);
    b.Goto(whole);
    b.Bind(fixed);
    RefuseOverlap(b, 4, 2, *ranges);
    b.Bind(whole);
    RefuseOverlap(b, 0, 1, *ranges);
    b.Stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  }
  b.Bind(kill);
  b.Stmt(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
  // (The labels of rules left out stay unbound: nothing jumps to them, and
  // a jump to an unbound label would make Resolve fail, not misjump.)
  std::vector<sock_filter> code = b.Resolve();
  if (code.size() > BPF_MAXINSNS) code.clear();
  return code;
}

/// Seals the ranges (mseal, Linux 6.10): the kernel then refuses every
/// mprotect, pkey_mprotect, munmap, mremap and MAP_FIXED mmap that touches
/// them, as the filter's lock does (madvise on the shared arena, which the
/// lock refuses too, loses no data: its pages are the parent's as well).
/// False where it cannot (an older kernel, or ATTNPROP_NO_MSEAL=1 to test
/// the filter's lock): the filter locks them.
bool Seal(const std::vector<AddressRange>& ranges) {
  static const bool off = [] {
    const char* e = std::getenv("ATTNPROP_NO_MSEAL");
    return e && *e && std::string(e) != "0";
  }();
  if (off) return false;
#if defined(__x86_64__) || defined(__aarch64__)
  constexpr long kMseal = 462;  // the same number on both
  for (const AddressRange& r : ranges)
    if (syscall(kMseal, r.begin, r.end - r.begin, 0) != 0) return false;
  return true;
#else
  return false;
#endif
}

}  // namespace

bool Confined() { return g_shared_installed; }

std::string ConfineCall(const std::vector<AddressRange>& ranges) {
  if (!g_shared_installed) return "the call process is not confined";
  // Sealed ranges need no filter rule (each instruction costs a call
  // process about 1.5 us to install, and the lock is about 60 of them); a
  // kernel without mseal gets the rules.
  const bool sealed = Seal(ranges);
  if (!sealed || !g_process_rules_installed) {
    const std::vector<sock_filter> code = OwnFilter(!g_process_rules_installed, sealed ? nullptr : &ranges);
    if (code.empty()) return "the call's filter does not fit";
    std::string why;
    if (!Install(code, &why)) return why;
  }
  return {};
}

std::string ConfineLoader() {
  const Program& p = SharedProgram();
  if (!p.error.empty()) return p.error;
  std::string why;
  if (!Install(p.code, &why)) return why;
  g_shared_installed = true;
  return {};
}

void PrepareConfinement() {
  (void)SharedProgram();
  (void)CallMemoryCap();  // parsed here, never first in a call process
  (void)CallCpuSeconds();
}

std::string ConfineCallProcess() {
  if (g_shared_installed) return {};  // the loader's filter; ConfineCall adds the rest
  if (const std::string why = ConfineLoader(); !why.empty()) return why;
  // Cloned by no loader: the per-process rules hold from now on (the
  // library's initialisers run next), and ConfineCall adds only the lock.
  const std::vector<sock_filter> code = OwnFilter(true, nullptr);
  if (code.empty()) return "the call process's filter does not fit";
  std::string why;
  if (!Install(code, &why)) return why;
  g_process_rules_installed = true;
  return {};
}

namespace {

/// A whole number from the environment variable `name` (default when unset
/// or empty), at most `max`; std::invalid_argument naming it otherwise.
unsigned long long EnvNumber(const char* name, unsigned long long fallback, unsigned long long max, const char* what) {
  const char* env = std::getenv(name);
  if (!env || !*env) return fallback;
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(env, &end, 10);
  if (*end || *env == '-' || *env == '+' || *env == ' ' || errno != 0 || v > max)
    throw std::invalid_argument(std::string(name) + " must be " + what + ", got '" + env + "'");
  return v;
}

}  // namespace

unsigned long long CallMemoryCap() {
  static const unsigned long long cap =
      EnvNumber("ATTNPROP_CALL_MEMORY_MB", 8192, 1ull << 30, "a whole number of MiB (0: no cap)") << 20;
  return cap;
}

unsigned long long CallCpuSeconds() {
  static const unsigned long long s =
      EnvNumber("ATTNPROP_CALL_CPU_S", 0, 1ull << 20, "a whole number of seconds (0: none beyond --timeout)");
  return s;
}

void LimitCallCpu() {
  if (const unsigned long long cpu = CallCpuSeconds(); cpu > 0) {
    // SIGXCPU at the limit, SIGKILL a second later (a kernel may ignore SIGXCPU).
    const rlimit r{static_cast<rlim_t>(cpu), static_cast<rlim_t>(cpu + 1)};
    setrlimit(RLIMIT_CPU, &r);
  }
}

void LimitCallMemory() {
  // A loader's call processes inherit its cap (each would read its size
  // again to the same effect, at a cost per call).
  static bool memory_capped = false;
  const unsigned long long cap = CallMemoryCap();
  if (cap == 0 || memory_capped) return;
  memory_capped = true;
  // statm's sixth field: data and stack pages (what RLIMIT_DATA counts, near enough).
  unsigned long long size = 0, resident = 0, shared = 0, text = 0, lib = 0, data = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%llu %llu %llu %llu %llu %llu", &size, &resident, &shared, &text, &lib, &data) != 6) data = 0;
    std::fclose(f);
  }
  const auto limit = static_cast<rlim_t>(data * static_cast<unsigned long long>(sysconf(_SC_PAGESIZE)) + cap);
  const rlimit r{limit, limit};
  setrlimit(RLIMIT_DATA, &r);
}

const std::string& ConfinementStatus() {
  static const std::string status = [] {
    const unsigned long long cap = CallMemoryCap();
    const unsigned long long cpu = CallCpuSeconds();
    const std::string memory =
        (cap == 0 ? ", no memory cap" : ", memory +" + std::to_string(cap >> 20) + " MiB (ATTNPROP_CALL_MEMORY_MB)") +
        (cpu == 0 ? "" : ", CPU " + std::to_string(cpu) + " s (ATTNPROP_CALL_CPU_S)");
    int fds[2];
    if (pipe(fds) != 0) return "none (pipe failed)" + memory;
    const pid_t pid = fork();
    if (pid < 0) {
      close(fds[0]), close(fds[1]);
      return "none (fork failed)" + memory;
    }
    if (pid == 0) {
      close(fds[0]);
      const std::string why = ConfineCallProcess();
      if (!why.empty() && write(fds[1], why.data(), why.size()) < 0) _exit(2);
      _exit(why.empty() ? 0 : 1);
    }
    close(fds[1]);
    char why[256] = {};
    ssize_t got = 0;
    while ((got = read(fds[0], why, sizeof why - 1)) < 0 && errno == EINTR) {
    }
    close(fds[0]);
    int wstatus = 0;
    while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0) return "seccomp-bpf" + memory;
    return "none (" + (got > 0 ? std::string(why, static_cast<size_t>(got)) : std::string("the probe failed")) + ")" +
           memory;
  }();
  return status;
}

std::string SyscallName(int nr) {
  char* name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);
  std::string s = name ? std::string(name) : "system call " + std::to_string(nr);
  std::free(name);
  return s;
}

}  // namespace attnprop::ksuite
