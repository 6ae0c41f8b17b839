// The attnprop command's subcommands (one file each, tools/cmd_*.cc) and the
// pieces they share: option parsing, the kernels a run checks, the progress
// display, exit statuses.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "properties/framework/property.h"
#include "properties/framework/runner.h"
#include "properties/operator/kernel_backend.h"
#include "tools/shard.h"

namespace attnprop::cli {

/// Exit statuses of every subcommand.
inline constexpr int kOk = 0;          // everything as registry.tsv expects
inline constexpr int kUnexpected = 1;  // some verdict or stored case differs
inline constexpr int kBadInput = 2;    // usage error, unknown id, malformed input, unwritable output
inline constexpr int kUndecidedCase = 3;  // reproduce: a case interval arithmetic leaves undecided (never a pass)
inline constexpr int kSkipped = 77;    // check-kernel: nothing could run here (a dispatch target this CPU lacks, or no entry point for the selected format)

int List(const std::vector<std::string>& args);
int Run(const std::vector<std::string>& args);
int Audit(const std::vector<std::string>& args);
int CheckKernel(const std::vector<std::string>& args);
int Reproduce(const std::vector<std::string>& args);
int Merge(const std::vector<std::string>& args);
int StoreCommand(const std::vector<std::string>& args);

/// Prints "attnprop <cmd>: <error>" and the command's usage to stderr;
/// returns kBadInput.
int UsageError(const std::string& cmd, const std::string& error, const char* usage);

enum class Mode { kRun, kAudit, kCheckKernel };

/// Options shared by run, audit and check-kernel.
struct Selection {
  std::vector<std::string> filters;   // --filter (repeatable, union; none = everything)
  std::vector<std::string> excludes;  // --exclude (repeatable): removed from the selection
  std::string backend;
  std::string expect;        // --expect holds|refuted: only claims registered so ("" = both)
  std::string out;           // report directory ("" = none)
  std::string json;          // check-kernel --json FILE: report.json also written there
  std::string junit;         // --junit FILE: junit.xml also written there
  int verbosity = 0;         // -q: -1 (the summary only), -v: 1 (every property's metrics)
  bool fail_fast = false;    // --fail-fast: stop after the first unexpected result
  bool rerun_failed = false; // --rerun-failed: only the unexpected results of the last report
  bool create_store = false; // --create-store: a --store that does not exist is created
  std::vector<std::string> rerun;  // with --rerun-failed: the "<id>/<backend>" names to run
  bool save = true;          // save new counterexamples into the store
  RunOptions options;        // seed, cases, store
  std::string kernel_path;   // --kernel PATH.so (run, audit) or check-kernel's PATH.so
  bool own_kernel = true;    // attnprop's own kernel on every dispatch target (not for check-kernel)
  double timeout_s = 5;      // per kernel call
  double budget_s = 0;       // --budget: wall time of the whole run's searches, spread over the properties (0 = none)
  bool deep = false;         // --deep: the deep tier (more cases, a longer search)
  bool search_given = false; // --search N was given (else audit uses its tier's default)
  Shard shard;               // --shard INDEX/TOTAL, else GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS (total 0: all)
  bool list_only = false;    // --list: print the selected properties (this shard's) and exit
};

/// Whether a --filter / --exclude pattern selects the property
/// "<id>/<backend>": a bare claim id (every backend), an id/backend (a
/// kernel backend without @target names every target), or a glob (fnmatch)
/// on the claim id (a pattern without '/') or on the full name.
bool PatternMatches(const std::string& pattern, const std::string& id, const std::string& backend);

/// "--opt=value" split into "--opt", "value" (every other argument as is),
/// so that both spellings work everywhere.
std::vector<std::string> SplitOptionValues(const std::vector<std::string>& args);

/// A --store directory given explicitly must exist, unless `create`
/// (--create-store), which creates it. Returns "" or the error.
std::string CheckStoreDir(const std::string& dir, bool create);

/// Parses options; on error returns false with *error set. --help sets *help.
bool ParseSelection(const std::vector<std::string>& args, Mode mode, Selection* s, bool* help, std::string* error);

/// The kernels a run checks: attnprop's own on every dispatch target (when
/// s.own_kernel), and the library at s.kernel_path (loaded and probed in a
/// child). Throws std::runtime_error with the loader's message when the
/// library cannot be used.
std::vector<ksuite::KernelInstance> KernelsFor(const Selection& s);

/// The properties matching the selection, in registration order, bound to
/// the kernels (model backends only when `model`).
std::vector<PropertyDef> Select(const Selection& s, const std::vector<ksuite::KernelInstance>& kernels, bool model);

/// Keeps the properties of `shard` in *defs (all of them unsharded), in
/// order; returns their positions in the whole selection.
std::vector<size_t> KeepShard(const Shard& shard, std::vector<PropertyDef>* defs);

/// The first --filter that selects nothing ("--filter 'x' matches no
/// property"), or "": a typo is an error, not a silently smaller run.
std::string UnmatchedPattern(const Selection& s, const std::vector<ksuite::KernelInstance>& kernels, bool model);
/// " (did you mean 'ID'? attnprop list shows them)" for a pattern with no
/// glob that is a typo of a property's id or id/backend, else
/// " (attnprop list shows them)".
std::string NearestProperty(const std::string& pattern, const std::vector<ksuite::KernelInstance>& kernels,
                            bool model);
/// The candidate nearest to `word` by edit distance, within a third of its
/// length (at least 2); "" when none is that near.
std::string DidYouMean(const std::string& word, const std::vector<std::string>& candidates);

/// The selection as the user wrote it, for messages: "--filter 'a' --exclude 'b' --backend c".
std::string SelectionText(const Selection& s);

/// The store of a kernel under test inside a store directory:
/// DIR/kernels/<library file name without extension>.
std::string KernelStoreDir(const std::string& store, const std::string& kernel_path);

/// Single-quoted for a POSIX shell.
std::string ShellQuote(const std::string& s);

/// A progress bar on a terminal (stderr), nothing otherwise.
/// `text` in an ANSI colour ("31" red, "32" green, "33" yellow) when standard
/// output is a terminal and NO_COLOR is unset (https://no-color.org) and
/// TERM is not "dumb"; else `text` as it is (logs and pipes stay plain).
std::string Paint(const std::string& text, const char* colour);

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
/// A number of seconds in [lo, hi], the whole of s ("5", "0.5"; not "5s", "inf").
bool ParseSeconds(const std::string& s, double lo, double hi, double* out);

}  // namespace attnprop::cli
