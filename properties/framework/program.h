// Which program is running: attnprop itself, or a user's claim runner built
// by attnprop_add_claims (cmake/AttnpropClaims.cmake). Replay lines name the
// program's command, and its default store is its own.
#pragma once

#include <string>

namespace attnprop {

struct Program {
  /// What a replay line runs: "attnprop", or a runner's absolute path.
  std::string command = "attnprop";
  /// The store replayed and saved to by default; empty: attnprop's own
  /// (DefaultStoreDir, store.h).
  std::string store;
  /// A user's runner: a claim without a registry row is expected to hold,
  /// and claims of kind new need no statement in claims/ours.tsv.
  bool user_claims = false;
};

/// The running program (attnprop's by default).
const Program& ThisProgram();
/// Set once, at start-up, by the runner's main (tools/cli.h: cli::Main).
void SetProgram(Program p);
/// A text of attnprop's (a usage, a report line) in the running program's
/// words: a user's runner has its own name, store and registry, not
/// attnprop's source tree's properties/registry.tsv. Unchanged for attnprop.
std::string InThisProgramsWords(std::string text);

}  // namespace attnprop
