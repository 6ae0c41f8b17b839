#include "tools/cli.h"

#include <fnmatch.h>
#include <unistd.h>

#include <iostream>

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

bool ParseSelection(const std::vector<std::string>& args, bool audit, Selection* s, bool* help, std::string* error) {
  s->options.store_dir = DefaultStoreDir();
  if (audit) s->out = "attnprop-report";
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
      if (s->backend != "double" && s->backend != "mpfr" && s->backend != "rational" && s->backend != "float")
        return *error = "unknown backend '" + s->backend + "' (double, mpfr, rational, float)", false;
    } else if (a == "--cases") {
      if (!value(&v) || !ParseUint(v, &n) || n < 1 || n > 1000000)
        return *error = "--cases needs an integer in [1, 1000000]", false;
      s->options.max_success = static_cast<int>(n);
    } else if (a == "--seed") {
      if (!value(&v) || !ParseUint(v, &n)) return *error = "--seed needs a non-negative integer", false;
      s->options.seed = n;
    } else if (a == "--store") {
      if (!value(&s->options.store_dir) || s->options.store_dir.empty()) return *error = "--store needs a directory", false;
    } else if (a == "--no-store") {
      s->options.store_dir.clear();
    } else if (a == "--no-save") {
      s->save = false;
    } else if (a == "--out") {
      if (!value(&s->out) || s->out.empty()) return *error = "--out needs a directory", false;
    } else {
      return *error = "unknown option '" + a + "'", false;
    }
  }
  if (s->save) s->options.save_dir = s->options.store_dir;
  return true;
}

std::vector<const PropertyDef*> Select(const Selection& s) {
  std::vector<const PropertyDef*> out;
  for (const auto& d : Registry()) {
    if (fnmatch(s.filter.c_str(), d.Name().c_str(), 0) != 0) continue;
    if (!s.backend.empty() && d.backend != s.backend) continue;
    out.push_back(&d);
  }
  return out;
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
