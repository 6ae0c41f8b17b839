// Writing a file so that a reader never sees half of it: a temporary file
// in the same directory, then a rename. Used by the store and the reports.
#pragma once

#include <signal.h>

#include <string>

namespace attnprop {

/// SIGINT, SIGTERM and SIGHUP held back for a scope and delivered when it
/// ends: what is written and renamed inside it is all there or not at all.
class HoldTerminatingSignals {
 public:
  HoldTerminatingSignals();
  ~HoldTerminatingSignals();
  HoldTerminatingSignals(const HoldTerminatingSignals&) = delete;
  HoldTerminatingSignals& operator=(const HoldTerminatingSignals&) = delete;

 private:
  sigset_t old_;
};

/// Writes `text` to `path` through a temporary file in the same directory and
/// a rename, signals held (an interrupted save leaves the old file or the new
/// one, no temporary). Throws std::runtime_error naming the path on failure.
void WriteFileAtomically(const std::string& path, const std::string& text);

}  // namespace attnprop
