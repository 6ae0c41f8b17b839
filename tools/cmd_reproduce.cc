// attnprop reproduce ID [FILE|TOKEN] [--kernel PATH.so]: replays one case, or
// a claim's stored cases, without a new random search. Kernel backends are
// bound as in a run: attnprop's own kernel per target (ID/kernel-f32@avx2),
// and --kernel's library as plain ID/kernel-f32.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "properties/framework/certify.h"
#include "properties/framework/options.h"
#include "properties/framework/registry.h"
#include "properties/framework/replay.h"
#include "properties/framework/store.h"
#include "properties/framework/rc_bridge.h"
#include "tools/cli.h"
#include "properties/framework/program.h"

namespace attnprop::cli {
namespace {

constexpr const char* kUsage =
    "usage: attnprop reproduce ID [FILE|TOKEN] [--store DIR] [--kernel PATH.so] [--timeout S]\n"
    "  Replays cases of one property without a new random search.\n"
    "  ID      id/backend (e.g. lecture4.prop3.1.simplex_rows/double), or a claim id for all its backends\n"
    "  FILE    a counterexample store file ([case ...] ... [end] entries), or one case as Case text\n"
    "          (the 'name: kind value' lines a failure prints)\n"
    "  TOKEN   RapidCheck's reproduce string as printed by a failure (reproduce=... or its value)\n"
    "  (none)  the claim's cases in the counterexample store\n"
    "  --store DIR   counterexample store (default: the source tree's properties/counterexamples)\n"
    "  --kernel PATH.so  the kernel library behind ID/kernel-f32 and ID/kernel-f64 (as check-kernel\n"
    "                printed it); attnprop's own kernel is ID/kernel-f32@scalar, @avx2, @avx512\n"
    "  --timeout S   time limit of one kernel call, seconds (default 5)\n"
    "exit status: 0 every case holds (or, for stored cases, behaves as its expect= says),\n"
    "             1 a case refutes the claim (or a stored case misbehaves), 2 bad usage or input,\n"
    "             3 no case refutes it but some case is undecided by interval arithmetic (the\n"
    "             backend's check failed there and the intervals neither certified nor dismissed it)\n";

std::string Indent(const std::string& text) {
  std::istringstream in(text);
  std::string out;
  for (std::string line; std::getline(in, line);) out += "    " + line + "\n";
  return out;
}

/// Replays stored entries; returns kOk or kUnexpected.
int ReplayStored(const std::vector<const PropertyDef*>& defs, const std::vector<StoredCase>& cases) {
  int replayed = 0, bad = 0, undecided = 0;
  for (const auto* d : defs) {
    for (const auto& c : cases) {
      if (!c.AppliesTo(d->backend)) continue;
      const ReplayOutcome o = ReplayCase(*d, c);
      ++replayed;
      bad += !o.ok;
      undecided += o.undecided;
      std::cout << d->Name() << ": stored case " << c.name << " (" << c.origin << ", expect " << ExpectName(c.expect)
                << "): " << (o.ok ? "ok" : "NOT OK") << "\n"
                << Indent(o.detail);
    }
  }
  if (replayed == 0) std::cout << "no stored case applies to the selected backends\n";
  return bad ? kUnexpected : undecided ? kUndecidedCase : kOk;
}

/// Checks one case: hypotheses, conclusion, and (if it fails) confirmation.
/// Backends the case does not fit (other field names) are skipped; if it
/// fits none, the input is wrong.
int CheckOne(const std::vector<const PropertyDef*>& defs, const Case& c) {
  int failing = 0, fitting = 0, undecided = 0;
  for (const auto* d : defs) {
    // Checked before any code of the claim runs on the case (replay.h).
    const auto misfit = CaseDoesNotFit(*d, c);
    if (misfit) {
      std::cout << d->Name() << ": skipped, " << *misfit << "\n";
      continue;
    }
    ++fitting;
    bool hyp = false;
    try {
      hyp = d->hypotheses_hold(c);
    } catch (const std::exception& e) {
      std::cout << d->Name() << ": the case does not fit the claim: " << e.what() << "\n";
      ++failing;
      continue;
    }
    if (!hyp) {
      // Outside the hypotheses the claim's code may not even be computable.
      std::string why;
      if (d->why_outside)
        if (const auto w = d->why_outside(c)) why = " (" + *w + ")";
      std::cout << d->Name() << ": the case violates the claim's hypotheses" << why << ": not checked\n";
      ++failing;
      continue;
    }
    const CaseCheck check = CheckCaseDecided(d->conclusion, c);
    if (check.kind == CaseCheck::Kind::kUndecided) {
      ++undecided;
      std::cout << d->Name() << ": UNDECIDED on this case (neither a refutation nor a pass)\n"
                << Indent(check.detail);
      continue;
    }
    if (check.kind != CaseCheck::Kind::kFails) {
      std::cout << d->Name() << ": holds on this case\n";
      continue;
    }
    const std::optional<std::string> failure = check.detail;
    ++failing;
    std::cout << d->Name() << ": REFUTES the claim" << (hyp ? "" : " (but the case violates the hypotheses)") << "\n"
              << Indent(*failure);
    if (d->certify) {
      // The conclusion's failure already carries the certificate.
      if (failure->find("certified by interval arithmetic") == std::string::npos)
        std::cout << Indent(CertificateLine(d->certify(c)));
    } else {
      std::cout << (CheckCase(d->confirm, c) ? "    confirmed at higher precision\n"
                                             : "    NOT confirmed at higher precision: a rounding artefact\n");
    }
  }
  if (fitting == 0) {
    std::cerr << "attnprop reproduce: the case fits no backend of the claim\n";
    return kBadInput;
  }
  return failing ? kUnexpected : undecided ? kUndecidedCase : kOk;
}

bool LooksLikeToken(const std::string& s) {
  std::string v = s.rfind("reproduce=", 0) == 0 ? s.substr(10) : s;
  return !v.empty() && v.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+/=") ==
                           std::string::npos &&
         s.find('/') == std::string::npos;
}

}  // namespace

int Reproduce(const std::vector<std::string>& args) {
  std::vector<std::string> positional;
  std::string store = DefaultStoreDir();
  Selection sel;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-h") {
      std::cout << InThisProgramsWords(kUsage);
      return kOk;
    } else if (args[i] == "--store") {
      if (i + 1 >= args.size()) return UsageError("reproduce", "--store needs a directory", kUsage);
      store = args[++i];
      if (const std::string e = CheckStoreDir(store, false); !e.empty()) return UsageError("reproduce", e, kUsage);
    } else if (args[i] == "--kernel") {
      if (i + 1 >= args.size()) return UsageError("reproduce", "--kernel needs a library path", kUsage);
      sel.kernel_path = args[++i];
    } else if (args[i] == "--timeout") {
      if (i + 1 >= args.size() || !ParseSeconds(args[++i], 0.01, 3600, &sel.timeout_s))
        return UsageError("reproduce", "--timeout needs seconds in [0.01, 3600]", kUsage);
    } else if (args[i].rfind("--", 0) == 0) {
      return UsageError("reproduce", "unknown option '" + args[i] + "'", kUsage);
    } else {
      positional.push_back(args[i]);
    }
  }
  if (positional.empty()) return UsageError("reproduce", "no property id given", kUsage);
  if (positional.size() > 2) return UsageError("reproduce", "too many arguments", kUsage);
  const std::string& id = positional[0];
  std::vector<ksuite::KernelInstance> kernels;
  try {
    kernels = KernelsFor(sel);
  } catch (const std::exception& e) {
    std::cerr << "attnprop reproduce: " << e.what() << "\n";
    return kBadInput;
  }
  const std::vector<PropertyDef> all = ksuite::PropertiesFor(kernels, /*model=*/true);
  std::vector<const PropertyDef*> defs;
  for (const auto& d : all)
    if (d.Name() == id || d.id == id) defs.push_back(&d);
  if (defs.empty()) {
    std::cerr << "attnprop reproduce: unknown property '" << id << "' (attnprop list shows them"
              << (sel.kernel_path.empty() && id.find("/kernel-") != std::string::npos && id.find('@') == std::string::npos
                      ? "; a kernel library's properties need --kernel PATH.so"
                      : "")
              << ")\n";
    return kBadInput;
  }
  // A kernel library's store is its own directory (as check-kernel and run --kernel keep it).
  if (!sel.kernel_path.empty() && positional.size() == 1 && store == DefaultStoreDir())
    store = KernelStoreDir("attnprop-counterexamples", sel.kernel_path);

  try {
    RunOptions o = OptionsFromEnvironment();
    PrintBanner(std::cout, o, ksuite::KernelSummary(kernels));
    if (positional.size() == 1) {
      const auto cases = LoadStore(store, defs[0]->id);
      if (cases.empty()) {
        std::cerr << "attnprop reproduce: no stored cases for " << defs[0]->id << " in " << StorePath(store, defs[0]->id)
                  << "\n";
        return kBadInput;
      }
      return ReplayStored(defs, cases);
    }
    const std::string& arg = positional[1];
    std::error_code ec;
    if (std::filesystem::is_regular_file(arg, ec)) {
      std::ifstream in(arg, std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      if (!in) {
        std::cerr << "attnprop reproduce: cannot read " << arg << "\n";
        return kBadInput;
      }
      const std::string t = text.str();
      if (t.find("[case") != std::string::npos) return ReplayStored(defs, ParseStore(t, arg));
      std::string error;
      const auto c = Case::Parse(t, &error);
      if (!c) {
        std::cerr << "attnprop reproduce: " << arg << ": " << error << "\n";
        return kBadInput;
      }
      if (c->fields().empty()) {
        std::cerr << "attnprop reproduce: " << arg << ": no case in it (neither [case ...] entries nor Case text)\n";
        return kBadInput;
      }
      return CheckOne(defs, *c);
    }
    if (!LooksLikeToken(arg)) {
      std::cerr << "attnprop reproduce: '" << arg << "' is neither a readable file nor a reproduce token\n";
      return kBadInput;
    }
    const std::string token = arg.rfind("reproduce=", 0) == 0 ? arg : "reproduce=" + arg;
    std::vector<std::string> names;
    try {
      names = ReproduceTokenProperties(token);
    } catch (const std::exception& e) {
      std::cerr << "attnprop reproduce: " << e.what() << "\n";
      return kBadInput;
    }
    const PropertyDef* def = nullptr;
    for (const auto* d : defs)
      if (std::find(names.begin(), names.end(), d->Name()) != names.end()) def = d;
    if (!def) {
      std::string list;
      for (const auto& k : names) list += (list.empty() ? "" : ", ") + k;
      std::cerr << "attnprop reproduce: the token is for " << (list.empty() ? "no property" : list) << ", not " << id
                << "\n";
      return kBadInput;
    }
    o.reproduce = token;
    const PropertyResult r = RunProperty(*def, o);
    std::cout << def->Name() << ": " << VerdictName(r.verdict) << "\n";
    if (!r.message.empty()) std::cout << Indent(r.message);
    if (!r.counterexample.empty())
      std::cout << "  counterexample"
                << (r.confirmed ? " (" + ConfirmationText(r) + ")" : "")
                << ":\n"
                << Indent(r.counterexample) << "  as a store entry:\n" << Indent(r.store_entry);
    if (r.verdict == Verdict::kUndecided) std::cout << Indent(r.undecided_example);
    return r.verdict == Verdict::kHolds ? kOk : r.verdict == Verdict::kUndecided ? kUndecidedCase : kUnexpected;
  } catch (const std::exception& e) {
    std::cerr << "attnprop reproduce: " << e.what() << "\n";
    return kBadInput;
  }
}

}  // namespace attnprop::cli
