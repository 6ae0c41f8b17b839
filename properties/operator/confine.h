// The system-call filter of a kernel's call process (issue 35). A kernel may
// compute: allocate and map memory, start threads, read files, write to the
// descriptors it was given, read clocks. It may not signal, trace, inspect or
// limit another process (attnprop included), start a process, open a file for
// writing or change the filesystem, open a socket (that fails with EACCES:
// libraries probe for sockets as they load), give up its parent-death
// signal, raise its own limits, inject terminal input, use io_uring or
// userfaultfd, or take over the fault signals attnprop's checks rely on
// (SIGSEGV, SIGBUS, SIGSYS). A refused call
// raises SIGSYS: the call process records the system call and dies by it,
// and the call fails naming it (ChildOutcome::refused_syscall).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attnprop::ksuite {

/// Compiles the filter now, in this process, so that the call processes it
/// forks inherit the program instead of each compiling its own.
void PrepareConfinement();

/// Confines a call process, once its start is done (its group, limits and
/// fault handlers set): one cloned by a loader has the loader's filter
/// already (nothing to do here); any other installs the shared filter and
/// its per-process rules (signals to itself only, threads only, none of
/// what its start did) before the library loads. "" on success, else why
/// not (the process then runs unconfined).
std::string ConfineCallProcess();

/// Whether this process runs under attnprop's shared filter (its own, or a
/// loader's it inherited).
bool Confined();

/// A range of addresses [begin, end).
struct AddressRange {
  uintptr_t begin = 0, end = 0;
};

/// Installs the call's own filter in a confined call process, once its
/// buffers are protected and before the kernel's code runs: no system call
/// that changes the mappings or protections of `ranges` (mprotect,
/// pkey_mprotect, munmap, mremap, madvise or a MAP_FIXED mmap over any byte
/// of them; a kernel could otherwise make its inputs writable or a guard
/// page accessible and write unseen), and the per-process rules where
/// ConfineCallProcess did not install them (a loader's clone). "" on
/// success, else why not.
std::string ConfineCall(const std::vector<AddressRange>& ranges);

/// Installs the shared filter (no per-process rule; a loader's clone of a
/// call process allowed) in a loader, after the library's initialisers
/// ran: the call processes it clones inherit it. "" or why not.
std::string ConfineLoader();

/// Whether call processes are confined on this machine, probed once in a
/// child, and their limits: "seccomp-bpf, memory +8192 MiB" (", CPU 60 s"
/// when ATTNPROP_CALL_CPU_S is set) or "none (why), memory ...". Shown in
/// banners and reports. Throws std::invalid_argument for a malformed
/// ATTNPROP_CALL_MEMORY_MB or ATTNPROP_CALL_CPU_S.
const std::string& ConfinementStatus();

/// The memory a call process may allocate beyond what it has when it
/// starts (RLIMIT_DATA: heap and private mappings), in bytes:
/// ATTNPROP_CALL_MEMORY_MB (default 8192; 0 for no cap). A kernel past it
/// sees its allocations fail.
unsigned long long CallMemoryCap();

/// The CPU time a call process may use (RLIMIT_CPU: SIGXCPU at it, SIGKILL
/// a second later), in seconds: ATTNPROP_CALL_CPU_S (default 0: none beyond
/// what --timeout's wall clock allows, which a kernel's threads can use on
/// every core). Throws std::invalid_argument for a malformed value.
unsigned long long CallCpuSeconds();

/// Caps the calling process's data at its current size plus CallMemoryCap()
/// (once: a loader's call processes inherit its cap).
void LimitCallMemory();
/// Caps the calling process's CPU time at CallCpuSeconds() (a call process's
/// own; never a loader's, whose time adds up over the run).
void LimitCallCpu();

/// System call `nr`'s name on this machine ("system call <nr>" if unknown).
std::string SyscallName(int nr);

}  // namespace attnprop::ksuite
