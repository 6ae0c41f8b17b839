#include "properties/framework/program.h"

#include <filesystem>
#include <utility>

namespace attnprop {
namespace {
Program& Current() {
  static Program p;
  return p;
}
}  // namespace

const Program& ThisProgram() { return Current(); }
void SetProgram(Program p) { Current() = std::move(p); }

std::string InThisProgramsWords(std::string text) {
  const Program& p = ThisProgram();
  if (!p.user_claims) return text;
  auto replace_all = [&text](const std::string& from, const std::string& to) {
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  };
  const std::string name = std::filesystem::path(p.command).filename().string();
  replace_all("usage: attnprop ", "usage: " + name + " ");
  replace_all("`attnprop ", "`" + name + " ");
  if (!p.store.empty()) replace_all("the source tree's properties/counterexamples", "this runner's, " + p.store);
  replace_all("properties/registry.tsv", "the runner's registry");
  replace_all("registry.tsv", "the runner's registry");
  replace_all("about the documents", "about the claims");
  return text;
}

}  // namespace attnprop
