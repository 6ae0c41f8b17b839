// Isolation for calls into an untrusted kernel: buffers placed against
// inaccessible guard pages, and a forked child that runs the calls under a
// time limit. The buffers live in shared memory, so what the child's kernel
// wrote is visible to the parent, and a crash, a hang or a wild write is
// reported as the outcome of one call, never as a crash of attnprop.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace attnprop::ksuite {

/// Bytes around a buffer (between it and its guard pages) hold this canary;
/// buffer contents are pre-filled separately (see problem.h).
inline constexpr unsigned char kSlackCanary = 0xA5;

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
  enum class Kind { kFinished, kSignal, kTimeout, kExit };
  Kind kind = Kind::kFinished;
  int signal = 0;             // kSignal: the signal that ended the child
  int exit_code = 0;          // kExit: the child exited on its own (the kernel called exit)
  bool have_fault_address = false;
  uintptr_t fault_address = 0;  // SIGSEGV/SIGBUS: the faulting address
  /// One line: "finished", "killed by SIGSEGV at 0x...", "timed out after 2 s".
  std::string Describe() const;
};

/// Runs `body` in a forked child and waits at most timeout_s seconds (then
/// kills it). The child installs SIGSEGV/SIGBUS/SIGFPE/SIGILL handlers (on an
/// alternate stack) that report the faulting address. Only memory mapped
/// MAP_SHARED (GuardedBuffer, SharedBlock) carries results back.
ChildOutcome RunInChild(const std::function<void()>& body, double timeout_s);

/// A small block of shared memory for results (return codes, counters).
class SharedBlock {
 public:
  explicit SharedBlock(size_t bytes);
  ~SharedBlock();
  SharedBlock(const SharedBlock&) = delete;
  SharedBlock& operator=(const SharedBlock&) = delete;
  void* data() const { return p_; }

 private:
  void* p_ = nullptr;
  size_t bytes_ = 0;
};

}  // namespace attnprop::ksuite
