#include "properties/abi/diagnosis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <map>
#include <numeric>
#include <string>
#include <utility>

#include "properties/operator/problem.h"

namespace attnprop::ksuite {
namespace {

/// The contract's properties, most specific first: what a kernel must not
/// do at all (load, arguments, memory), then the narrowest shape classes,
/// then the regimes, then accuracy on every problem.
const char* const kRanked[] = {
    "abi.argument_validation", "abi.no_reads_outside_inputs", "abi.no_writes_outside_outputs",
    "abi.inputs_unchanged",    "abi.empty_rows",              "abi.f64_in_double",
    "abi.call_sequences",      "abi.repeatable",              "abi.lse_optional",
    "abi.batch_independence",  "abi.dk_ne_dv",                "abi.wide_heads",
    "abi.long_kv",             "abi.long_queries",            "abi.scalar_ranges",
    "abi.tq_ne_tk",            "lecture4.sec8.1.kv_cache_equivalence", "abi.struct_size_newer", "abi.lse_values",
};

bool Has(const std::string& s, const char* what) { return s.find(what) != std::string::npos; }

/// A call process's misbehaviour, from the sandbox's words (call.cc,
/// sandbox.cc) to the class, most telling first.
const std::pair<const char*, const char*> kProcessClasses[] = {
    {"made a system call the sandbox refuses: ", "makes a system call a kernel may not make"},
    {"threw a C++ exception out of the call", "throws C++ exceptions out of the call (the C ABI lets none escape)"},
    {"the kernel ended the process (exit status", "ends the process (calls exit)"},
    {"left processes running after the call returned", "leaves processes running after its calls (forked helpers)"},
    {"after the call returned", "writes its outputs after returning (a thread it left running)"},
    {"end abnormally after its calls returned",
     "its process ends abnormally after the calls return (a thread it left, heap damage found later)"},
};

/// Whether a message names a place relative to buffer `name` as the sandbox
/// does ("k + 96 bytes (0 past the end, guard page)", "out - 3 bytes").
bool NamesBuffer(const std::string& m, const char* name) {
  for (const char* sign : {" + ", " - "}) {
    const std::string at = std::string(name) + sign;
    for (size_t p = m.find(at); p != std::string::npos; p = m.find(at, p + 1)) {
      const size_t d = p + at.size();
      const bool word_start = p == 0 || !std::isalnum(static_cast<unsigned char>(m[p - 1]));
      if (word_start && d < m.size() && std::isdigit(static_cast<unsigned char>(m[d])) &&
          m.find(" bytes", d) == m.find_first_not_of("0123456789", d))
        return true;
    }
  }
  return false;
}

struct Shape {
  bool ok = false;
  int64_t batch = 0, t_q = 0, t_k = 0, d_k = 0, d_v = 0, causal = 0;
  double scale = 1;
  double max_score = 0;  // max |scale <q_i, k_j>| over the case (0 when too large to compute here)
};

/// max |scale <q_i, k_j>| within each batch item, in double (a diagnosis, not a bound).
double MaxScore(const Problem& p) {
  if (static_cast<double>(p.batch) * static_cast<double>(p.t_q) * static_cast<double>(p.t_k) * static_cast<double>(p.d_k) > 1e7)
    return 0;
  double m = 0;
  const double c = p.scale.ToDouble();
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t i = 0; i < p.t_q; ++i)
      for (int64_t j = 0; j < p.t_k; ++j) {
        double dot = 0;
        for (int64_t x = 0; x < p.d_k; ++x) dot += p.q(b * p.t_q + i, x).ToDouble() * p.k(b * p.t_k + j, x).ToDouble();
        m = std::max(m, std::abs(c * dot));
      }
  return m;
}

/// Whether a failure's message reports a non-finite out or lse value (not the
/// -inf an empty causal row must have).
bool NonfiniteOutput(const std::string& m) {
  if (Has(m, "no visible key")) return false;
  for (const char* v : {" = inf", " = -inf", " = nan", " = -nan"})
    if (Has(m, v) && (Has(m, "out[") || Has(m, "lse["))) return true;
  return false;
}

Shape ShapeOf(const KernelFailure& f) {
  Shape s;
  if (!f.minimal) return s;
  try {
    const Problem p = Problem::FromCase(*f.minimal);
    s = {true, p.batch, p.t_q, p.t_k, p.d_k, p.d_v, p.causal, p.scale.ToDouble(), MaxScore(p)};
  } catch (...) {  // a case of another form (a call sequence, a mutation): no single shape
  }
  return s;
}

/// A class and the property that points at it.
struct Found {
  std::string bug_class;
  std::string top;  // claim id, "" = the most specific failing one
};

std::optional<size_t> Failing(const std::vector<KernelFailure>& all, const std::string& id) {
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i].id == id) return i;
  return std::nullopt;
}

/// The bug class from the pattern of failing properties and their minimal
/// cases, most telling pattern first.
Found Classify(const std::vector<KernelFailure>& all, bool f32_ran) {
  for (const auto& f : all)
    if (Has(f.message, "timed out")) return {"hangs (a call ran past the time limit)", f.id};
  // What the call process did besides computing (issue 35: these read as
  // "argument not validated" or "accuracy" before), as the sandbox saw it.
  for (const auto& [seen, bug] : kProcessClasses)
    for (const auto& f : all)
      if (const size_t at = f.message.find(seen); at != std::string::npos) {
        std::string what = bug;
        if (Has(seen, "refuses: ")) {  // name the system call
          const std::string rest = f.message.substr(at + std::strlen(seen));
          what += " (" + rest.substr(0, rest.find(' ')) + ")";
        }
        return {what, f.id};
      }
  if (Failing(all, "abi.argument_validation")) return {"argument not validated", "abi.argument_validation"};
  // A larger struct_size refused (not an accuracy failure, which every property shares).
  if (const auto i = Failing(all, "abi.struct_size_newer"); i && Has(all[*i].message, "on valid arguments"))
    return {"a newer caller's larger struct_size refused (struct_size compared for equality?)", "abi.struct_size_newer"};
  // Memory, from where the faults and damaged canaries are: an input
  // written, an output overrun, an input read past its end.
  for (const auto& f : all)
    if (Has(f.message, "modified its input")) return {"modifies its inputs", "abi.inputs_unchanged"};
  for (const auto& f : all)
    for (const char* b : {"out", "lse"})
      if (NamesBuffer(f.message, b)) return {"writes outside out and lse", "abi.no_writes_outside_outputs"};
  for (const auto& f : all)
    for (const char* b : {"q", "k", "v"})
      if (NamesBuffer(f.message, b))
        return {std::string("reads past the end of ") + static_cast<char>(b[0] - 'a' + 'A'), "abi.no_reads_outside_inputs"};
  // A crash outside the guard pages (a null or wild pointer).
  for (const auto& f : all)
    if (Has(f.message, "killed by signal"))
      return {"crashes (" + f.message.substr(0, f.message.find('\n')).substr(0, 100) + ")", f.id};
  bool only_f64 = true, only_lse = true, empty_only = true, causal_unequal = true, state = false, any_shape = false;
  bool batch2 = true, dk_ne_dv = true, negative_scale = true;
  int shaped = 0, causal_unequal_count = 0, causal_more_count = 0;
  Shape lo;  // the smallest of each dimension over the failing minimal cases
  lo.batch = lo.t_q = lo.t_k = lo.d_k = lo.d_v = INT64_MAX;
  for (const auto& f : all) {
    only_f64 = only_f64 && f.backend.rfind("kernel-f64", 0) == 0;
    only_lse = only_lse && Has(f.message, "lse[") && !Has(f.message, "out[");
    empty_only = empty_only && Has(f.message, "no visible key");
    state = state || (f.id == "abi.call_sequences" && Has(f.message, "state kept"));
    const Shape s = ShapeOf(f);
    if (!s.ok) continue;
    any_shape = true;
    causal_unequal = causal_unequal && s.causal == 1 && s.t_q != s.t_k;
    ++shaped;
    causal_unequal_count += s.causal == 1 && s.t_q != s.t_k;
    causal_more_count += s.causal == 1 && s.t_q > s.t_k;
    batch2 = batch2 && s.batch >= 2;
    dk_ne_dv = dk_ne_dv && s.d_k != s.d_v;
    negative_scale = negative_scale && s.scale < 0;
    lo.batch = std::min(lo.batch, s.batch), lo.t_q = std::min(lo.t_q, s.t_q), lo.t_k = std::min(lo.t_k, s.t_k);
    lo.d_k = std::min(lo.d_k, s.d_k), lo.d_v = std::min(lo.d_v, s.d_v);
  }
  if (state) return {"state kept between calls (a workspace, a cache or a first-call set-up)", "abi.call_sequences"};
  if (Failing(all, "abi.repeatable")) return {"nondeterministic: the same call gives different bytes", "abi.repeatable"};
  if (only_f64 && f32_ran) return {"precision below f64 in the f64 entry point", "abi.f64_in_double"};
  // Non-finite outputs from finite inputs at large scores: exp overflowed
  // (exp(s) passes FLT_MAX from s = 88.7; in double from 709.8), the row max
  // not subtracted before exp. The smallest such score shown.
  double overflow_at = 0;
  for (const auto& f : all)
    if (const Shape s = ShapeOf(f); NonfiniteOutput(f.message) && s.ok && s.max_score >= 80 &&
                                    (overflow_at == 0 || s.max_score < overflow_at))
      overflow_at = s.max_score;
  if (overflow_at > 0) {
    char at[32];
    std::snprintf(at, sizeof at, "%.4g", overflow_at);
    return {std::string("non-finite outputs at large scores (exp overflow: the row max not subtracted before exp?"
                        " inf/nan from a score of ") + at + ")",
            ""};
  }
  // Shapes every minimal case exceeds (the default shape classes reach
  // t <= 48, d <= 20): a compiled maximum, a tail or a split in that dimension.
  if (any_shape && lo.d_k > 20)
    return {"head dim d_k above a compiled maximum (fails from d_k = " + std::to_string(lo.d_k) + ")", "abi.wide_heads"};
  if (any_shape && lo.t_k > 96)
    return {"long KV (split-KV merge, decoding path; fails from t_k = " + std::to_string(lo.t_k) + ")", "abi.long_kv"};
  if (any_shape && lo.t_q > 96)
    return {"long query blocks (query tiles and their tail; fails from t_q = " + std::to_string(lo.t_q) + ")",
            "abi.long_queries"};
  if (any_shape && lo.d_v > 20)
    return {"value width d_v above a compiled maximum or a vector tail (fails from d_v = " + std::to_string(lo.d_v) +
                ")",
            "abi.wide_heads"};
  // Rows with no visible key: every minimal case causal with t_q > t_k.
  if (empty_only || (Failing(all, "abi.empty_rows") && shaped > 0 && causal_more_count == shaped))
    return {"rows with no visible key not set to out = 0, lse = -inf", "abi.empty_rows"};
  // Causal alignment: every minimal case causal with t_q != t_k, or
  // abi.tq_ne_tk's is and three in four of all are (a claim whose case holds
  // the full sequence calls the kernel on a part of it).
  const auto tq = Failing(all, "abi.tq_ne_tk");
  const Shape tq_shape = tq ? ShapeOf(all[*tq]) : Shape{};
  if ((any_shape && causal_unequal) ||
      (tq_shape.ok && tq_shape.causal == 1 && tq_shape.t_q != tq_shape.t_k && 4 * causal_unequal_count >= 3 * shaped))
    return {"causal alignment when t_q != t_k", "abi.tq_ne_tk"};
  if (any_shape && negative_scale) return {"a negative scale handled wrong", "abi.scalar_ranges"};
  if (only_lse) return {"lse wrong while out is right (lse not the natural log of the normaliser?)", "abi.lse_values"};
  if (any_shape && batch2) return {"batch items mixed (a batch stride)", "abi.batch_independence"};
  if (any_shape && dk_ne_dv) return {"d_k and d_v mixed up", "abi.dk_ne_dv"};
  if (Failing(all, "abi.lse_optional") && all.size() <= 2) return {"wrong when lse = NULL", "abi.lse_optional"};
  // Accuracy on plain problems: abi.lse_values (out and lse on any valid
  // problem) points at it when it fails, else the most specific failing one.
  return {"outputs outside the derived error bound (accuracy)", "abi.lse_values"};
}

}  // namespace

int Specificity(const std::string& id) {
  const auto* end = std::end(kRanked);
  const auto* it = std::find(std::begin(kRanked), end, id);
  return it == end ? static_cast<int>(std::size(kRanked)) : static_cast<int>(it - std::begin(kRanked));
}

Diagnosis Diagnose(const std::vector<KernelFailure>& failures, bool f32_ran) {
  Diagnosis d;
  if (failures.empty()) return d;
  const Found found = Classify(failures, f32_ran);
  d.bug_class = found.bug_class;
  d.order.resize(failures.size());
  std::iota(d.order.begin(), d.order.end(), size_t{0});
  // The property that points at the class first, then the most specific;
  // among equals, registration order (stable).
  auto rank = [&](size_t i) { return failures[i].id == found.top ? -1 : Specificity(failures[i].id); };
  std::stable_sort(d.order.begin(), d.order.end(), [&](size_t a, size_t b) { return rank(a) < rank(b); });
  std::map<std::string, size_t> group;
  d.group_of.resize(failures.size());
  for (size_t i : d.order) {
    const std::string key = failures[i].counterexample.empty() ? failures[i].id + "/" + failures[i].backend
                                                               : failures[i].counterexample;
    const auto [it, fresh] = group.emplace(key, group.size());
    d.group_of[i] = it->second;
  }
  d.groups = group.size();
  return d;
}

}  // namespace attnprop::ksuite
