// A property: one claim checked in one backend.
//
// A claim is one declaration over a typed domain (domain.h; see
// properties/collapse/lemma4_2_exp.cc and properties/lecture4/sec2_scores.cc):
//   constexpr Axis kN{"n"};
//   constexpr MatrixField kX{"x"};
//   struct MyClaim : ClaimId<"doc.kind.slug"> {              // from claims.tsv
//     template <class S> static Domain Hypotheses();         // fields, Assume(...)
//     template <class S> static void Conclusion(const In<S>& in);  // reads in[kX],
//   };                                  // checks ExpectWithin<S>(kSum, lhs, rhs)
//   ATTNPROP_REGISTER(MyClaim, double, Mpfr, Interval);
// With Interval among the scalars the claim is certified (certify.h;
// properties/collapse/lemma4_4_softmax_perturbation.cc): the conclusion
// states the mathematics over S with no rounding budget (ExpectWithin<S>,
// comparisons through max/min/abs, no ToDouble in a verdict), a failure in
// double or MPFR is a candidate that interval arithmetic certifies,
// dismisses or leaves undecided.
// From the Domain come the generator, the hypotheses predicate (every
// random case, shrink step and search candidate must satisfy it; a pinned
// refutation must still satisfy it), the schema that a stored case is
// checked against, and the sizes per backend (SizeBudget<S>::Pick(cheap,
// costly)). The document's side conditions are the domain's `Assume`s, in
// its words; the range where the encoded check is computable is each
// field's `Admit` (say why beside it). A claim states no HypothesesHold.
// A family of claims (several statements over the same hypotheses) shares
// a base struct whose Hypotheses() returns the domain; each claim derives
// from it and adds its id and its Conclusion. No macros.
//
// Every model claim is over a Domain. The attention-operator claims
// (properties/operator/kernel_backend.h: AttentionClaim) draw batched
// problems, whose stacked rows (batch x t) a Domain cannot yet declare:
// they declare their class of problems once (Problems(): a ProblemClass,
// properties/operator/problem_class.h: a shape class and the claim's own
// fields and side conditions), and the generator, the predicate and the
// dimensions (case_dims.h: batch, t_q, t_k, d_k, d_v) all come from it; the
// kernel regime and half-format families draw from generators of their own
// (regime_gen.h, half.cc), each with its predicate, over a plain problem's
// dimensions. The search and the shrinker edit shapes only by declared
// dimensions (a claim over neither states `static CaseDims Dims(const Case&)`).
// Where a claim is stated is the catalogue's source (claims/claims.tsv), not
// repeated here; a claim of ours shows the source of the claim it reads.
// A statistical claim (registry label `statistical`) declares its false-alarm
// rate and power: `static inline const Statistics kStatistics{...};`
// (statistics.h); the reports print them per property.
// Metrics are typed constants (check.h), declared where they are checked,
// beside the bound's computation: `static const Tolerance kSum{metric,
// bound, why, MetricKind::kRounding};` then ExpectWithin(kSum, observed, bound); the audit lists
// each metric a property checked, in the order first checked.
// Registration makes one PropertyDef per scalar. The expectation (holds, or
// known-refuted) lives in properties/registry.tsv, the one visible place.
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <cstddef>
#include <concepts>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/scalar.h"
#include "properties/framework/backend.h"
#include "properties/framework/catalog.h"
#include "properties/framework/case.h"
#include "properties/framework/case_dims.h"
#include "properties/framework/certify.h"
#include "properties/framework/check.h"
#include "properties/framework/domain.h"
#include "properties/framework/size_budget.h"
#include "properties/framework/statistics.h"

namespace attnprop {

struct RegistryRow;  // registry.h

/// A claim's id, as claims.tsv spells it, in the claim's head:
/// `struct MyClaim : ClaimId<"doc.kind.slug"> {` gives MyClaim::kId.
template <std::size_t N>
struct ClaimIdText {
  char text[N];
  consteval ClaimIdText(const char (&s)[N]) { std::copy_n(s, N, text); }  // NOLINT: implicit by design
};
template <ClaimIdText kText>
struct ClaimId {
  static constexpr const char* kId = kText.text;
};

struct PropertyDef {
  std::string id;       // claim id, verbatim from claims.tsv
  std::string backend;  // "double", "mpfr", "rational", "float"
  std::string file;     // source file, so `attnprop list` can point at it
  std::function<rc::Gen<Case>()> hypotheses;
  std::function<void(const Case&)> conclusion;
  /// The same conclusion in a higher-precision backend (MPFR at twice the
  /// current precision, or the exact backend itself): a refutation counts
  /// only if it survives this.
  std::function<void(const Case&)> confirm;
  /// Set for a claim certified by intervals (registered with Interval among
  /// its scalars; certify.h): the conclusion evaluated in Interval at c. Then
  /// `conclusion` sends its failures here as candidates, and `confirm`
  /// fails only for a certified violation.
  std::function<Certificate(const Case&)> certify;
  /// Whether a given case satisfies the claim's hypotheses (Claim::
  /// HypothesesHold when the claim defines it; default: accept).
  std::function<bool(const Case&)> hypotheses_hold = [](const Case&) { return true; };
  /// Whether hypotheses_hold is the claim's own check (Claim::HypothesesHold):
  /// the targeted search and the generic shrinker edit cases only then.
  bool checks_hypotheses = false;
  /// Why a case is outside the hypotheses (the domain's first violated
  /// condition), or nullopt; set for claims declared over a Domain.
  std::function<std::optional<std::string>(const Case&)> why_outside;
  /// Why a case cannot be read by the claim at all (Domain::Misfit); empty:
  /// the schema is learned from the generator's cases (case_schema.h).
  std::function<std::optional<std::string>(const Case&)> misfit;
  /// The case's dimensions as the claim declares them (case_dims.h): from
  /// its Domain, or its own `static CaseDims Dims(const Case&)`; the search
  /// and the shrinker edit shapes only by them. And, for a claim over a
  /// Domain, a case with its derived fields computed again after an edit
  /// (Domain::Rederived).
  std::function<CaseDims(const Case&)> dims;
  std::function<Case(Case)> rederive;
  /// A statistical claim's false-alarm rate and power (Claim::kStatistics).
  std::optional<Statistics> statistics;
  /// Non-empty: the property cannot run here (a kernel dispatch target this
  /// CPU lacks); it is reported as skipped with this reason.
  std::string skip_reason;
  /// Its registry.tsv row, joined once at start-up (JoinRegistry).
  const RegistryRow* row = nullptr;

  std::string Name() const { return id + "/" + backend; }
  /// c's declared dimensions (none when the claim declares none).
  CaseDims Dims(const Case& c) const { return dims ? dims(c) : CaseDims(c); }
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
/// A claim not over a Domain declares its dimensions:
/// `static CaseDims Dims(const Case&)`, or per backend `template <class S> static CaseDims Dims(const Case&)`.
template <class Claim>
concept HasDims = requires(const Case& c) {
  { Claim::Dims(c) } -> std::same_as<CaseDims>;
};
template <class Claim, class S>
concept HasBackendDims = requires(const Case& c) {
  { Claim::template Dims<S>(c) } -> std::same_as<CaseDims>;
};
template <class Claim, class S>
concept HasBackendHypothesesHold = requires(const Case& c) {
  { Claim::template HypothesesHold<S>(c) } -> std::convertible_to<bool>;
};

/// Runs the claim's conclusion on c: over typed fields (`Conclusion(const
/// In<S>&)`, a claim over a Domain) or over the case itself.
template <class Claim, class S>
void Conclude(const Case& c) {
  if constexpr (requires { Claim::template Conclusion<S>(std::declval<const In<S>&>()); }) {
    Claim::template Conclusion<S>(In<S>(c));
  } else {
    Claim::template Conclusion<S>(c);
  }
}

template <class Claim, class S>
PropertyDef MakeDef(const char* file) {
  PropertyDef d;
  d.id = Claim::kId;
  d.backend = BackendOf<S>::kName;
  d.file = file;
  if constexpr (std::is_same_v<decltype(Claim::template Hypotheses<S>()), Domain>) {
    // One declaration (domain.h): the generator, the hypotheses and the
    // schema all come from the claim's Domain, built once per backend.
    // Built when first asked for, and again when the MPFR precision has
    // changed (a domain's MPFR entries carry the working precision).
    static const auto domain = [] { return DomainCache([] { return Claim::template Hypotheses<S>(); }); }();
    d.hypotheses = [] { return domain.Get().Generator(); };
    d.why_outside = [](const Case& c) { return domain.Get().Violation(c); };
    d.misfit = [](const Case& c) { return domain.Get().Misfit(c); };
    d.hypotheses_hold = [](const Case& c) { return !domain.Get().Violation(c); };
    d.dims = [](const Case& c) { return domain.Get().Dims(c); };
    d.rederive = [](Case c) { return domain.Get().Rederived(std::move(c)); };
    d.checks_hypotheses = true;
  } else {
    d.hypotheses = [] { return Claim::template Hypotheses<S>(); };
  }
  d.conclusion = [](const Case& c) { Conclude<Claim, S>(c); };
  if constexpr (BackendOf<S>::kConfirmInItself) {
    d.confirm = d.conclusion;
  } else {
    d.confirm = [](const Case& c) {
      MpfrPrecisionScope doubled(2 * MpfrPrecisionBits());
      Conclude<Claim, Mpfr>(c);
    };
  }
  if constexpr (requires { Claim::kStatistics; }) d.statistics = Claim::kStatistics;
  if constexpr (std::is_same_v<decltype(Claim::template Hypotheses<S>()), Domain>) {
    static_assert(!HasHypothesesHold<Claim> && !HasBackendHypothesesHold<Claim, S>,
                  "a claim over a Domain states its hypotheses there (Assume), not in HypothesesHold");
  } else if constexpr (HasBackendHypothesesHold<Claim, S>) {
    d.hypotheses_hold = [](const Case& c) { return bool(Claim::template HypothesesHold<S>(c)); };
    d.checks_hypotheses = true;
  } else if constexpr (HasHypothesesHold<Claim>) {
    d.hypotheses_hold = [](const Case& c) { return bool(Claim::HypothesesHold(c)); };
    d.checks_hypotheses = true;
  }
  if constexpr (HasBackendDims<Claim, S>) d.dims = [](const Case& c) { return Claim::template Dims<S>(c); };
  else if constexpr (HasDims<Claim>) d.dims = [](const Case& c) { return Claim::Dims(c); };
  static_assert(!requires { Claim::Tolerances(); },
                "a claim's metrics are the tolerances its conclusion checks (ExpectWithin): no Tolerances() list");
  return d;
}

/// A claim certified by intervals (certify.h): failures of `d`'s backend are
/// candidates that the conclusion in Interval decides; an algebraic claim
/// (kExactToo: registered with Rational) decides them in rationals first,
/// wherever its rational conclusion reads the case and its hypotheses hold.
template <class Claim, bool kExactToo = false>
void CertifyByIntervals(PropertyDef& d) {
  d.certify = [](const Case& c) {
    // Intervals first (cheap, bounded); rationals only when they leave the
    // case undecided, and then within a budget (certify.h).
    std::function<std::optional<Certificate>()> exact;
    if constexpr (kExactToo) {
      exact = [&c]() -> std::optional<Certificate> {
        static const PropertyDef exact_def = MakeDef<Claim, Rational>("");
        if ((exact_def.misfit && exact_def.misfit(c)) || (exact_def.why_outside && exact_def.why_outside(c)) ||
            !exact_def.hypotheses_hold(c))
          return std::nullopt;
        return CertifyExactly(exact_def.conclusion, c);
      };
    }
    return Certify([](const Case& k) { Conclude<Claim, Interval>(k); }, c, exact);
  };
  d.conclusion = [certify = d.certify, fast = d.conclusion](const Case& c) {
    CandidateScope candidates([&] { return certify(c); });
    RunCandidate(fast, c, candidates);
  };
  d.confirm = [certify = d.certify](const Case& c) {
    const Certificate cert = certify(c);
    if (cert.verdict == Certainty::kViolated) RC_FAIL(CertificateLine(cert));
  };
}

/// One PropertyDef per scalar. `Interval` among the scalars is not a
/// property of its own: it certifies the others' refutations (certify.h);
/// an exact backend needs no certificate (its own comparison is exact).
template <class Claim, class S, bool kCertified, bool kExactToo>
void AddDef(const char* file) {
  if constexpr (!std::is_same_v<S, Interval>) {
    PropertyDef d = MakeDef<Claim, S>(file);
    // The model's floating-point backends are certified; an exact backend
    // needs no certificate, and a kernel is judged by its error model.
    if constexpr (kCertified && (std::is_same_v<S, double> || std::is_same_v<S, float> || std::is_same_v<S, Mpfr>))
      CertifyByIntervals<Claim, kExactToo>(d);
    Registry().push_back(std::move(d));
  }
}
}  // namespace internal

template <class Claim, class... Scalars>
struct Register {
  static_assert(((!std::is_same_v<Scalars, Interval>) || ...),
                "ATTNPROP_REGISTER with Interval alone registers nothing: Interval certifies the refutations of "
                "a fast scalar (double, float, Mpfr) registered beside it");
  explicit Register(const char* file) {
    constexpr bool kCertified = (std::is_same_v<Scalars, Interval> || ...);
    constexpr bool kExactToo = (std::is_same_v<Scalars, Rational> || ...);
    // A claim may state itself (list, console and reports show it):
    //   static constexpr const char* kStatement = "||softmax(x) - softmax(y)|| <= ||x - y|| / 2";
    if constexpr (requires { Claim::kStatement; }) DeclareClaim({Claim::kId, "", "declared", Claim::kStatement});
    (internal::AddDef<Claim, Scalars, kCertified, kExactToo>(file), ...);
  }
};

}  // namespace attnprop

// ATTNPROP_UNIT: the namespace of a claim file's own names (where a file of
// its own would use an anonymous one). The claims are compiled as a unity
// build, a few files to a translation unit (properties/CMakeLists.txt), and
// CMake defines ATTNPROP_UNIT to a name unique to each file
// (UNITY_BUILD_UNIQUE_ID), so that one file's helpers never meet another's:
// in an anonymous namespace, shared by the whole unit, two files' kMaxN
// would be a redefinition, and two files' Helper(int) and Helper(double) a
// silently wrong overload. A function the file defines outside it reaches
// the file's helpers with `using namespace ATTNPROP_UNIT;` in its body.

#define ATTNPROP_REGISTER(Claim, ...) \
  static const ::attnprop::Register<Claim, __VA_ARGS__> attnprop_register_##Claim(__FILE__)
