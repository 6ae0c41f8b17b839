// A property: one claim checked in one backend.
//
// A claim is written once as a struct (see properties/attend2/additivity.cc):
//   struct MyClaim {
//     static constexpr const char* kId = "doc.kind.slug";   // from claims.tsv
//     static std::vector<Tolerance> Tolerances();            // with reasons
//     template <class S> static rc::Gen<Case> Hypotheses();  // the claim's hypotheses
//     template <class S> static void Conclusion(const Case&);// its conclusion
//   };
//   ATTNPROP_REGISTER(MyClaim, double, Mpfr);
// `static bool HypothesesHold(const Case&)` (or, where they depend on the
// backend, `template <class S> static bool HypothesesHold(const Case&)`):
// whether a given case satisfies the claim's hypotheses: the document's,
// the domain where the encoded check is computable (say why beside it), and
// the facts the conclusion relies on (fields present, shapes consistent,
// values finite). Every random case, every shrink step and every candidate
// of the targeted search must pass it; a pinned refutation must still
// satisfy it. The search and attnprop's shrinker run only for claims that
// define it (a claim without one is being given one: issue 11).
// Optionally `static constexpr const char* kSource = "lecture 4, sec. 3"`:
// where the claim is stated (shown by `attnprop list`).
// A statistical claim (registry label `statistical`) declares its false-alarm
// rate and power: `static inline const Statistics kStatistics{...};`
// (statistics.h); the reports print them per property.
// Metrics are typed constants (check.h): declare `static inline const
// Tolerance kRowSum{metric, bound, reason};` in the claim, list it in
// Tolerances() and pass it to ExpectWithin(kRowSum, observed, bound).
// Sizes per backend come from SizeBudget<S>::Pick(cheap, costly).
//
// A family of claims (several statements over the same hypotheses): put the
// shared parts in a base struct and derive one small struct per claim, which
// adds kId, kSource, its tolerances and its Conclusion; register each as
// usual. No macros:
//   struct ExpFamily {                                  // shared hypotheses
//     static bool HypothesesHold(const Case& c);
//     template <class S> static rc::Gen<Case> Hypotheses();
//   };
//   struct ExpRelA : ExpFamily {
//     static constexpr const char* kId = "collapse.lemma4.2.exp_rel_a";
//     static inline const Tolerance kRatio{...};
//     static std::vector<Tolerance> Tolerances() { return {kRatio}; }
//     template <class S> static void Conclusion(const Case& c);
//   };
//   ATTNPROP_REGISTER(ExpRelA, double, Mpfr);
// Registration makes one PropertyDef per scalar. The expectation (holds, or
// known-refuted) lives in properties/registry.tsv, the one visible place.
#pragma once

#include <rapidcheck.h>

#include <concepts>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/scalar.h"
#include "properties/framework/backend.h"
#include "properties/framework/case.h"
#include "properties/framework/check.h"
#include "properties/framework/size_budget.h"
#include "properties/framework/statistics.h"

namespace attnprop {

struct RegistryRow;  // registry.h

struct PropertyDef {
  std::string id;       // claim id, verbatim from claims.tsv
  std::string backend;  // "double", "mpfr", "rational", "float"
  std::string file;     // source file, so `attnprop list` can point at it
  std::string source;   // where the claim is stated (Claim::kSource), or ""
  std::function<rc::Gen<Case>()> hypotheses;
  std::function<void(const Case&)> conclusion;
  /// The same conclusion in a higher-precision backend (MPFR at twice the
  /// current precision, or the exact backend itself): a refutation counts
  /// only if it survives this.
  std::function<void(const Case&)> confirm;
  /// Whether a given case satisfies the claim's hypotheses (Claim::
  /// HypothesesHold when the claim defines it; default: accept).
  std::function<bool(const Case&)> hypotheses_hold = [](const Case&) { return true; };
  /// Whether hypotheses_hold is the claim's own check (Claim::HypothesesHold):
  /// the targeted search and the generic shrinker edit cases only then.
  bool checks_hypotheses = false;
  std::vector<Tolerance> tolerances;
  /// A statistical claim's false-alarm rate and power (Claim::kStatistics).
  std::optional<Statistics> statistics;
  /// Non-empty: the property cannot run here (a kernel dispatch target this
  /// CPU lacks); it is reported as skipped with this reason.
  std::string skip_reason;
  /// Its registry.tsv row, joined once at start-up (JoinRegistry).
  const RegistryRow* row = nullptr;

  std::string Name() const { return id + "/" + backend; }
};

/// Every registered property, in registration order.
std::vector<PropertyDef>& Registry();
/// The property named "id/backend", or null.
const PropertyDef* FindProperty(const std::string& name);

namespace internal {
template <class Claim>
concept HasHypothesesHold = requires(const Case& c) {
  { Claim::HypothesesHold(c) } -> std::convertible_to<bool>;
};
/// Per backend, where the hypotheses depend on it (entries exact in a
/// kernel's f32 storage, say): `template <class S> static bool HypothesesHold(const Case&)`.
template <class Claim, class S>
concept HasBackendHypothesesHold = requires(const Case& c) {
  { Claim::template HypothesesHold<S>(c) } -> std::convertible_to<bool>;
};

template <class Claim, class S>
PropertyDef MakeDef(const char* file) {
  PropertyDef d;
  d.id = Claim::kId;
  d.backend = BackendOf<S>::kName;
  d.file = file;
  d.hypotheses = [] { return Claim::template Hypotheses<S>(); };
  d.conclusion = [](const Case& c) { Claim::template Conclusion<S>(c); };
  if constexpr (BackendOf<S>::kConfirmInItself) {
    d.confirm = d.conclusion;
  } else {
    d.confirm = [](const Case& c) {
      MpfrPrecisionScope doubled(2 * MpfrPrecisionBits());
      Claim::template Conclusion<Mpfr>(c);
    };
  }
  if constexpr (requires { Claim::kSource; }) d.source = Claim::kSource;
  if constexpr (requires { Claim::kStatistics; }) d.statistics = Claim::kStatistics;
  if constexpr (HasBackendHypothesesHold<Claim, S>) {
    d.hypotheses_hold = [](const Case& c) { return bool(Claim::template HypothesesHold<S>(c)); };
    d.checks_hypotheses = true;
  } else if constexpr (HasHypothesesHold<Claim>) {
    d.hypotheses_hold = [](const Case& c) { return bool(Claim::HypothesesHold(c)); };
    d.checks_hypotheses = true;
  }
  // Tolerances per backend where they differ (a model bound and a kernel
  // bound): `template <class S> static std::vector<Tolerance> Tolerances()`.
  if constexpr (requires { Claim::template Tolerances<S>(); }) {
    d.tolerances = Claim::template Tolerances<S>();
  } else {
    d.tolerances = Claim::Tolerances();
  }
  return d;
}
}  // namespace internal

template <class Claim, class... Scalars>
struct Register {
  explicit Register(const char* file) { (Registry().push_back(internal::MakeDef<Claim, Scalars>(file)), ...); }
};

}  // namespace attnprop

#define ATTNPROP_REGISTER(Claim, ...) \
  static const ::attnprop::Register<Claim, __VA_ARGS__> attnprop_register_##Claim(__FILE__)
