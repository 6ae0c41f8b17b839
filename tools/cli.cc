#include "tools/cli.h"

#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "properties/framework/backend.h"
#include "properties/framework/judge.h"

#include "properties/framework/registry.h"
#include "properties/framework/store.h"
#include "properties/framework/program.h"

namespace attnprop::cli {

std::string DidYouMean(const std::string& word, const std::vector<std::string>& candidates) {
  // Levenshtein distance, the nearest within a third of the word (at least 2):
  // a typo, not a different name.
  auto distance = [](const std::string& a, const std::string& b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
      size_t diagonal = row[0];
      row[0] = i;
      for (size_t j = 1; j <= b.size(); ++j) {
        const size_t up = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
        diagonal = up;
      }
    }
    return row[b.size()];
  };
  const size_t limit = std::max<size_t>(2, word.size() / 3);
  std::string best;
  size_t best_d = limit + 1;
  for (const auto& c : candidates)
    if (const size_t d = distance(word, c); d < best_d && c != word) best = c, best_d = d;
  return best;
}

int UsageError(const std::string& cmd, const std::string& error, const char* usage) {
  // The error, then the usage's synopsis (up to its first description line):
  // the whole manual is one --help away.
  std::string synopsis = InThisProgramsWords(usage);
  const size_t end = synopsis.find("\n  ");
  if (end != std::string::npos) synopsis.resize(end + 1);
  // An unknown option: the nearest one the usage names.
  std::string hint;
  const std::string unknown = "unknown option '";
  if (error.rfind(unknown, 0) == 0) {
    const std::string word = error.substr(unknown.size(), error.find('\'', unknown.size()) - unknown.size());
    std::vector<std::string> options;
    const std::string text = usage;
    for (size_t at = text.find("--"); at != std::string::npos; at = text.find("--", at + 2)) {
      size_t e = at + 2;
      while (e < text.size() && (std::isalnum(static_cast<unsigned char>(text[e])) || text[e] == '-')) ++e;
      if (e > at + 2) options.push_back(text.substr(at, e - at));
    }
    if (const std::string near = DidYouMean(word.substr(0, word.find('=')), options); !near.empty())
      hint = " (did you mean '" + near + "'?)";
  }
  std::cerr << "attnprop" << (cmd.empty() ? "" : " " + cmd) << ": " << error << hint << "\n\n"
            << synopsis << "(attnprop " << (cmd.empty() ? "" : cmd + " ") << "--help for every option)\n";
  return kBadInput;
}

bool ParseUint(const std::string& s, uint64_t* out) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 19) return false;
  *out = std::stoull(s);
  return true;
}

bool ParseSeconds(const std::string& s, double lo, double hi, double* out) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end || !(v >= lo && v <= hi)) return false;
  *out = v;
  return true;
}

bool PatternMatches(const std::string& pattern, const std::string& id, const std::string& backend) {
  std::string name = id;  // appended: g++ 12 warns falsely (-Wrestrict) on + chains
  name.append("/").append(backend);
  if (pattern.find('/') == std::string::npos && fnmatch(pattern.c_str(), id.c_str(), 0) == 0) return true;
  if (fnmatch(pattern.c_str(), name.c_str(), 0) == 0) return true;
  // A plain id/kernel-f32 (no glob) names the backend on every dispatch
  // target; a glob matches the full name only ('*/kernel-f??' is the
  // plain kernel backends, not their @targets).
  if (pattern.find_first_of("*?[") != std::string::npos) return false;
  std::string base = id;
  base.append("/").append(BaseBackend(backend));
  return pattern == base;
}

std::vector<std::string> SplitOptionValues(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (const auto& a : args) {
    const size_t eq = a.find('=');
    if (a.rfind("--", 0) == 0 && eq != std::string::npos && eq > 2) {
      out.push_back(a.substr(0, eq));
      out.push_back(a.substr(eq + 1));
    } else {
      out.push_back(a);
    }
  }
  return out;
}

std::string CheckStoreDir(const std::string& dir, bool create) {
  // Decided by is_directory after any creation: ctest starts a runner's
  // tests side by side, and another one may create the store between two
  // checks here (seen: "is not a directory" for a directory made meanwhile).
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) {
    if (!create)
      return "the store directory " + dir + " does not exist (a mistyped --store would replay nothing; "
             "--create-store starts a new store there)";
    try {
      CreateStoreDir(dir, StoreKind::kNamed);
    } catch (const StoreError& e) {
      if (!std::filesystem::is_directory(dir, ec)) return e.what();
    }
  }
  std::error_code now;
  if (std::filesystem::is_directory(dir, now)) return "";
  if (std::filesystem::exists(dir, now)) return "the store " + dir + " is not a directory";
  return "cannot create the store " + dir + (ec ? ": " + ec.message() : "");
}

bool ParseSelection(const std::vector<std::string>& args, Mode mode, Selection* s, bool* help, std::string* error) {
  const bool check_kernel = mode == Mode::kCheckKernel;
  s->options.store_dir = check_kernel ? "" : DefaultStoreDir();
  if (mode == Mode::kAudit) s->out = "attnprop-report";
  s->own_kernel = !check_kernel;
  bool store_given = false, no_store = false, shard_given = false;
  *help = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string* v) {
      if (i + 1 >= args.size()) return false;
      *v = args[++i];
      return true;
    };
    std::string v;
    uint64_t n = 0;
    if (a == "--help" || a == "-h") {
      *help = true;
      return true;
    } else if (a == "--filter" || a == "--exclude") {
      if (!value(&v) || v.empty()) return *error = a + " needs a claim id, an id/backend or a glob", false;
      (a == "--filter" ? s->filters : s->excludes).push_back(v);
    } else if (a == "-q" || a == "--quiet") {
      s->verbosity = -1;
    } else if (a == "-v" || a == "--verbose") {
      s->verbosity = 1;
    } else if (a == "--fail-fast") {
      s->fail_fast = true;
    } else if (a == "--rerun-failed") {
      s->rerun_failed = true;
    } else if (a == "--create-store") {
      s->create_store = true;
    } else if (a == "--junit") {
      if (!value(&s->junit) || s->junit.empty()) return *error = "--junit needs a file name", false;
    } else if (a == "--expect") {
      if (!value(&s->expect) || (s->expect != "holds" && s->expect != "refuted"))
        return *error = "--expect needs holds or refuted", false;
    } else if (a == "--backend") {
      if (!value(&s->backend)) return *error = "--backend needs a name", false;
      if (!FindBackend(s->backend)) return *error = "unknown backend '" + s->backend + "' (" + BackendNames() + ")", false;
    } else if (a == "--cases") {
      if (!value(&v) || !ParseUint(v, &n) || n < 1 || n > 1000000)
        return *error = "--cases needs an integer in [1, 1000000]", false;
      s->options.max_success = static_cast<int>(n);
    } else if (a == "--seed") {
      if (!value(&v) || !ParseUint(v, &n)) return *error = "--seed needs a non-negative integer", false;
      s->options.seed = n;
    } else if (a == "--store") {
      if (!value(&s->options.store_dir) || s->options.store_dir.empty()) return *error = "--store needs a directory", false;
      store_given = true;
    } else if (a == "--no-store") {
      no_store = true;
    } else if (a == "--no-save") {
      s->save = false;
    } else if (a == "--allow-undecided") {
      SetAllowUndecided(true);
    } else if (a == "--out") {
      if (!value(&s->out) || s->out.empty()) return *error = "--out needs a directory", false;
    } else if (a == "--search") {
      if (!value(&v) || !ParseUint(v, &n) || n > 10000000) return *error = "--search needs a number of candidates", false;
      s->options.search_steps = static_cast<int>(n);
      s->search_given = true;
    } else if (a == "--timeout") {
      if (!value(&v) || !ParseSeconds(v, 0.01, 3600, &s->timeout_s)) return *error = "--timeout needs seconds in [0.01, 3600]", false;
    } else if (a == "--shrink-budget") {
      if (!value(&v) || !ParseSeconds(v, 0.1, 36000, &s->options.shrink_budget_s))
        return *error = "--shrink-budget needs seconds in [0.1, 36000]", false;
    } else if (a == "--budget") {
      if (!value(&v) || !ParseSeconds(v, 1, 864000, &s->budget_s)) return *error = "--budget needs seconds in [1, 864000]", false;
    } else if (a == "--deep") {
      s->deep = true;
    } else if (a == "--shard") {
      if (!value(&v)) return *error = "--shard needs INDEX/TOTAL (e.g. 0/4)", false;
      if (!ParseShard(v, &s->shard, error)) return false;
      shard_given = true;
    } else if (a == "--list") {
      s->list_only = true;
    } else if (a == "--json" && check_kernel) {
      if (!value(&s->json) || s->json.empty()) return *error = "--json needs a file name", false;
    } else if (a == "--kernel" && !check_kernel) {
      if (!value(&s->kernel_path) || s->kernel_path.empty()) return *error = "--kernel needs a library path", false;
    } else if (check_kernel && !a.empty() && a[0] != '-') {
      if (!s->kernel_path.empty()) return *error = "more than one library given ('" + s->kernel_path + "', '" + a + "')", false;
      s->kernel_path = a;
    } else {
      return *error = "unknown option '" + a + "'", false;
    }
  }
  if (check_kernel && s->kernel_path.empty()) return *error = "no kernel library given", false;
  // --shard wins over GoogleTest's variables, as an explicit flag should.
  if (!shard_given && !ShardFromEnvironment(&s->shard, error)) return false;
  if (store_given && !no_store) {
    if (const std::string e = CheckStoreDir(s->options.store_dir, s->create_store); !e.empty()) return *error = e, false;
  }
  // check-kernel keeps its counterexamples per kernel: ./attnprop-counterexamples/<library name>.
  if (check_kernel && !store_given) s->options.store_dir = KernelStoreDir("attnprop-counterexamples", s->kernel_path);
  if (no_store) s->options.store_dir.clear();
  // Absolute: every printed replay names its store and files by a path that
  // works from any folder.
  auto absolute = [](std::string& dir) {
    if (!dir.empty()) dir = std::filesystem::absolute(dir).lexically_normal().string();
  };
  absolute(s->options.store_dir);
  // A counterexample no store keeps is written beside the run's reports.
  if (!s->out.empty()) s->options.replay_dir = (std::filesystem::path(s->out) / "replay").string();
  absolute(s->options.replay_dir);
  // New counterexamples go to the store replayed, except by default in an
  // installed attnprop (its store is read only): ./attnprop-counterexamples.
  if (s->save) s->options.save_dir = check_kernel || store_given || no_store ? s->options.store_dir : DefaultSaveDir();
  absolute(s->options.save_dir);
  // A default the user did not name (check-kernel's, an installed attnprop's
  // ./attnprop-counterexamples) is a cache: git status stays clean.
  s->options.save_dir_is_cache = !s->options.save_dir.empty() && !store_given &&
                                 (check_kernel || s->options.save_dir != s->options.store_dir);
  return true;
}

std::vector<ksuite::KernelInstance> KernelsFor(const Selection& s) {
  std::vector<ksuite::KernelInstance> kernels;
  if (s.own_kernel) kernels = ksuite::OwnKernelInstances();
  for (auto& k : kernels) k.timeout_s = s.timeout_s;
  if (!s.kernel_path.empty()) {
    const ksuite::LoadResult load = ksuite::LoadKernel(s.kernel_path, s.timeout_s);
    if (load.status != ksuite::LoadStatus::kOk) throw std::runtime_error(load.error);
    kernels.push_back(ksuite::UserKernelInstance(load, s.timeout_s));
  }
  return kernels;
}

std::vector<PropertyDef> Select(const Selection& s, const std::vector<ksuite::KernelInstance>& kernels, bool model) {
  std::vector<PropertyDef> out;
  for (auto& d : ksuite::PropertiesFor(kernels, model)) {
    auto any = [&](const std::vector<std::string>& patterns) {
      for (const auto& p : patterns)
        if (PatternMatches(p, d.id, d.backend)) return true;
      return false;
    };
    if (!s.filters.empty() && !any(s.filters)) continue;
    if (any(s.excludes)) continue;
    if (s.rerun_failed && std::find(s.rerun.begin(), s.rerun.end(), d.Name()) == s.rerun.end()) continue;
    if (!s.backend.empty() && d.backend != s.backend && BaseBackend(d.backend) != s.backend) continue;
    if (!s.expect.empty()) {
      const RegistryRow* row = d.row ? d.row : FindRow(d.id);
      if ((s.expect == "refuted") != (row && row->expect == Expectation::kRefuted)) continue;
    }
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<size_t> KeepShard(const Shard& shard, std::vector<PropertyDef>* defs) {
  std::vector<std::string> names;
  for (const auto& d : *defs) names.push_back(d.Name());
  const std::vector<size_t> positions = ShardPositions(names, shard);
  std::vector<PropertyDef> mine;
  for (size_t k : positions) mine.push_back(std::move((*defs)[k]));
  *defs = std::move(mine);
  return positions;
}

std::string UnmatchedPattern(const Selection& s, const std::vector<ksuite::KernelInstance>& kernels, bool model) {
  if (s.filters.size() < 2 && s.excludes.empty()) return "";  // a lone --filter: "no property matches"
  const auto all = ksuite::PropertiesFor(kernels, model);
  auto matches_some = [&](const std::string& p) {
    for (const auto& d : all)
      if (PatternMatches(p, d.id, d.backend)) return true;
    return false;
  };
  for (const auto* list : {&s.filters, &s.excludes})
    for (const auto& p : *list)
      if (!matches_some(p)) {
        std::string e = list == &s.filters ? "--filter '" : "--exclude '";
        return e.append(p).append("' matches no property").append(NearestProperty(p, kernels, model));
      }
  return "";
}

std::string NearestProperty(const std::string& pattern, const std::vector<ksuite::KernelInstance>& kernels,
                            bool model) {
  std::vector<std::string> names;
  for (const auto& d : ksuite::PropertiesFor(kernels, model)) {
    if (names.empty() || names.back() != d.id) names.push_back(d.id);
    names.push_back(d.Name());
  }
  const std::string near = pattern.find_first_of("*?[") == std::string::npos ? DidYouMean(pattern, names) : "";
  return near.empty() ? " (attnprop list shows them)" : " (did you mean '" + near + "'? attnprop list shows them)";
}

std::string SelectionText(const Selection& s) {
  std::string t;
  auto add = [&](const char* opt, const std::string& v, bool quote) {
    if (!t.empty()) t.append(" ");
    t.append(opt);
    if (quote) t.append(" '").append(v).append("'");
    else if (!v.empty()) t.append(" ").append(v);
  };
  for (const auto& f : s.filters) add("--filter", f, true);
  for (const auto& f : s.excludes) add("--exclude", f, true);
  if (!s.backend.empty()) add("--backend", s.backend, false);
  if (!s.expect.empty()) add("--expect", s.expect, false);
  if (s.rerun_failed) add("--rerun-failed", "", false);
  return t.empty() ? "the selection" : t;
}

std::string KernelStoreDir(const std::string& store, const std::string& kernel_path) {
  return (std::filesystem::path(store) / "kernels" / std::filesystem::path(kernel_path).stem()).string();
}

std::string ShellQuote(const std::string& s) {
  std::string r = "'";
  for (char ch : s) r += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return r + "'";
}

std::string Paint(const std::string& text, const char* colour) {
  static const bool on = [] {
    const char* term = std::getenv("TERM");
    const char* no_color = std::getenv("NO_COLOR");
    return isatty(STDOUT_FILENO) == 1 && !(no_color && *no_color) && !(term && std::string(term) == "dumb");
  }();
  return on ? "\033[" + std::string(colour) + "m" + text + "\033[0m" : text;
}

Progress::Progress(size_t total) : total_(total), tty_(isatty(STDERR_FILENO) == 1) {}
Progress::~Progress() { Clear(); }

void Progress::Start(size_t index, const std::string& name) {
  if (!tty_) return;
  constexpr size_t kWidth = 30;
  const size_t filled = total_ ? kWidth * index / total_ : kWidth;
  std::cerr << "\r\033[K[" << std::string(filled, '#') << std::string(kWidth - filled, '.') << "] " << index << "/"
            << total_ << " " << name << std::flush;
}

void Progress::Clear() {
  if (tty_) std::cerr << "\r\033[K" << std::flush;
}

}  // namespace attnprop::cli
