// The attnprop command's subcommands (one file each, tools/cmd_*.cc) and the
// pieces they share: option parsing, the progress display, exit statuses.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "properties/framework/property.h"
#include "properties/framework/runner.h"

namespace attnprop::cli {

/// Exit statuses of every subcommand.
inline constexpr int kOk = 0;          // everything as registry.tsv expects
inline constexpr int kUnexpected = 1;  // some verdict or stored case differs
inline constexpr int kBadInput = 2;    // usage error, unknown id, malformed input, unwritable output

int List(const std::vector<std::string>& args);
int Run(const std::vector<std::string>& args);
int Audit(const std::vector<std::string>& args);
int Reproduce(const std::vector<std::string>& args);

/// Prints "attnprop <cmd>: <error>" and the command's usage to stderr;
/// returns kBadInput.
int UsageError(const std::string& cmd, const std::string& error, const char* usage);

/// Options shared by run and audit.
struct Selection {
  std::string filter = "*";
  std::string backend;
  std::string out;        // report directory ("" = none)
  bool save = true;       // save new counterexamples into the store
  RunOptions options;     // seed, cases, store
};

/// Parses run/audit options; on error returns false with *error set.
/// --help sets *help.
bool ParseSelection(const std::vector<std::string>& args, bool audit, Selection* s, bool* help, std::string* error);

/// Properties matching the selection, in registration order.
std::vector<const PropertyDef*> Select(const Selection& s);

/// A progress bar on a terminal (stderr), nothing otherwise.
class Progress {
 public:
  explicit Progress(size_t total);
  ~Progress();
  void Start(size_t index, const std::string& name);
  /// Clears the bar before a result line is printed.
  void Clear();

 private:
  size_t total_;
  bool tty_;
};

bool ParseUint(const std::string& s, uint64_t* out);

}  // namespace attnprop::cli
