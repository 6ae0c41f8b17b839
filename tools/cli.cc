#include "tools/cli.h"

#include <fnmatch.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "properties/framework/backend.h"

#include "properties/framework/registry.h"
#include "properties/framework/store.h"

namespace attnprop::cli {

int UsageError(const std::string& cmd, const std::string& error, const char* usage) {
  std::cerr << "attnprop" << (cmd.empty() ? "" : " " + cmd) << ": " << error << "\n\n" << usage;
  return kBadInput;
}

bool ParseUint(const std::string& s, uint64_t* out) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 19) return false;
  *out = std::stoull(s);
  return true;
}

namespace {

bool ParseSeconds(const std::string& s, double lo, double hi, double* out) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end || !(v >= lo && v <= hi)) return false;
  *out = v;
  return true;
}

}  // namespace

bool ParseSelection(const std::vector<std::string>& args, Mode mode, Selection* s, bool* help, std::string* error) {
  const bool check_kernel = mode == Mode::kCheckKernel;
  s->options.store_dir = check_kernel ? "" : DefaultStoreDir();
  if (mode == Mode::kAudit) s->out = "attnprop-report";
  s->own_kernel = !check_kernel;
  bool store_given = false, no_store = false;
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
    } else if (a == "--filter") {
      if (!value(&s->filter)) return *error = "--filter needs a glob", false;
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
  // check-kernel keeps its counterexamples per kernel: ./attnprop-counterexamples/<library name>.
  if (check_kernel && !store_given) s->options.store_dir = KernelStoreDir("attnprop-counterexamples", s->kernel_path);
  if (no_store) s->options.store_dir.clear();
  // New counterexamples go to the store replayed, except by default in an
  // installed attnprop (its store is read only): ./attnprop-counterexamples.
  if (s->save) s->options.save_dir = check_kernel || store_given || no_store ? s->options.store_dir : DefaultSaveDir();
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
    if (fnmatch(s.filter.c_str(), d.Name().c_str(), 0) != 0) continue;
    if (!s.backend.empty() && d.backend != s.backend && BaseBackend(d.backend) != s.backend) continue;
    out.push_back(std::move(d));
  }
  return out;
}

std::string KernelStoreDir(const std::string& store, const std::string& kernel_path) {
  return (std::filesystem::path(store) / "kernels" / std::filesystem::path(kernel_path).stem()).string();
}

std::string ShellQuote(const std::string& s) {
  std::string r = "'";
  for (char ch : s) r += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return r + "'";
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
