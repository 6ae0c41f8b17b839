// The kernel ABI's contract (kernels/attnprop_kernel.h), one property each,
// registered for the kernel backends only (ids abi.*, registry kind new).
#include <cmath>
#include <cstring>

#include "generators/scalars.h"
#include "properties/operator/accuracy.h"
#include "properties/operator/attention_claims.h"
#include "properties/operator/kernel_backend.h"

namespace attnprop::ksuite {
namespace ATTNPROP_UNIT {

using Lengths = ShapeSpec::Lengths;
using CausalKind = ShapeSpec::Causal;
using Place = GuardedBuffer::Place;

/// The output error bound against the MPFR model, out and lse.
void Accuracy(const Operator& op, const Problem& p, const CallSpec& spec, const std::string& what) {
  const CallResult r = Call(op, p, spec);
  RequireSuccess(r, what);
  ExpectOutputsNearReference(p, op, Reference(op, p), r.out[0], spec.want_lse ? &r.lse[0] : nullptr, what);
}

/// A contract property on problems of one shape class, without tolerances.
template <class Derived>
struct Contract : AttentionClaim<Derived> {
  static ShapeSpec Problems() { return Shape(CausalKind::kEither); }
};

/// A contract property that holds the outputs to their bounds.
template <class Derived>
struct AccuracyContract : Contract<Derived> {
};

// abi.argument_validation: invalid arguments return nonzero and write nothing.
struct ArgumentValidation : Contract<ArgumentValidation>, ClaimId<"abi.argument_validation"> {
  // Any valid problem (the generator's small sizes are a cost limit, not a
  // hypothesis) and 1 <= mutation < kCount (0 is the unmutated call).
  static ProblemClass Problems() {
    ShapeSpec s;
    s.max_batch = 1;
    s.max_t = 6;
    s.max_d = 4;
    return ProblemClass(s).Int("mutation", Const(1), Const(static_cast<int64_t>(Mutation::kCount) - 1));
  }
  static void Check(const Operator& op, const Case& c) {
    const Problem p = Problem::FromCase(c);
    CallSpec spec;
    spec.mutation = static_cast<Mutation>(c.GetInt("mutation"));
    const std::string what = std::string("call with ") + MutationName(spec.mutation);
    const CallResult r = Call(op, p, spec);
    if (!r.crash.empty()) RC_FAIL(what + ": the kernel " + r.crash + " instead of returning an error");
    ExpectThat(r.rc.size() == 1 && r.rc[0] != 0, what + ": the kernel returned 0 (must return nonzero)");
    ExpectThat(r.outputs_untouched, what + ": the kernel wrote into out or lse (must write nothing)");
    ExpectThat(r.output_slack.empty(), what + ": " + r.output_slack);
  }
};
ATTNPROP_REGISTER(ArgumentValidation, KernelF32, KernelF64);

// abi.empty_rows: a causal row with no visible key (t_q > t_k, i < t_q - t_k)
// gets out = 0 and lse = -inf exactly.
struct EmptyRows : Contract<EmptyRows>, ClaimId<"abi.empty_rows"> {
  static ShapeSpec Problems() { return Shape(CausalKind::kYes, Lengths::kQueriesMore); }
  static void Check(const Operator& op, const Case& c) {
    const Problem p = Problem::FromCase(c);
    const CallResult r = Call(op, p);
    RequireSuccess(r, "call");
    for (int64_t b = 0; b < p.batch; ++b)
      for (int64_t i = 0; i < p.t_q - p.t_k; ++i) {
        const size_t row = static_cast<size_t>(b * p.t_q + i);
        for (int64_t cc = 0; cc < p.d_v; ++cc) {
          const Mpfr& o = r.out[0][row * static_cast<size_t>(p.d_v) + static_cast<size_t>(cc)];
          ExpectThat(o == 0, At("out", b, i, cc) + " = " + Num(o) + " for a row with no visible key (must be 0)");
        }
        const Mpfr& l = r.lse[0][row];
        ExpectThat(isinf(l) && l < 0, RowAt("lse", b, i) + " = " + Num(l) + " for a row with no visible key (must be -inf)");
      }
  }
};
ATTNPROP_REGISTER(EmptyRows, KernelF32, KernelF64);

// abi.lse_values: lse_i = ln sum_j exp(s_ij) over the visible keys (natural log).
struct LseValues : AccuracyContract<LseValues>, ClaimId<"abi.lse_values"> {
  static void Check(const Operator& op, const Case& c) { Accuracy(op, Problem::FromCase(c), {}, "call"); }
};
ATTNPROP_REGISTER(LseValues, KernelF32, KernelF64);

// abi.lse_optional: lse = NULL is accepted and out is unaffected.
struct LseOptional : Contract<LseOptional>, ClaimId<"abi.lse_optional"> {
  static void Check(const Operator& op, const Case& c) {
    CallSpec spec;
    spec.want_lse = false;
    Accuracy(op, Problem::FromCase(c), spec, "call with lse = NULL");
  }
};
ATTNPROP_REGISTER(LseOptional, KernelF32, KernelF64);

// abi.struct_size_newer: a struct_size larger than this version's struct (a
// caller compiled against a newer header) is valid: accepted, and out and lse
// within their bounds. (A smaller one is invalid: abi.argument_validation.)
struct StructSizeNewer : AccuracyContract<StructSizeNewer>, ClaimId<"abi.struct_size_newer"> {
  static void Check(const Operator& op, const Case& c) {
    CallSpec spec;
    spec.struct_size_extra = 64;
    Accuracy(op, Problem::FromCase(c), spec, "call with struct_size = sizeof(args) + 64 (a newer caller)");
  }
};
ATTNPROP_REGISTER(StructSizeNewer, KernelF32, KernelF64);

// abi.batch_independence: items are computed as if alone: the batched call
// is accurate per item, and changing the other items leaves item 0's bytes.
struct BatchIndependence : AccuracyContract<BatchIndependence>, ClaimId<"abi.batch_independence"> {
  // batch >= 2 (drawn up to 3), t_q != t_k, and Q2, K2, V2 of the shapes
  // of Q, K, V with entries as the problem's (the changed problem is a
  // problem too).
  static ProblemClass Problems() {
    ShapeSpec s;
    s.min_batch_2 = true;
    s.max_batch = 3;
    s.lengths = Lengths::kUnequal;
    return ProblemClass(s).Alternative("2", 16);
  }
  static void Check(const Operator& op, const Case& c) {
    const Problem p = Problem::FromCase(c);
    Accuracy(op, p, {}, "batched call");
    Problem o = p;  // items 1.. replaced
    const ExactMatrix &q2 = c.GetMatrix("Q2"), &k2 = c.GetMatrix("K2"), &v2 = c.GetMatrix("V2");
    for (int64_t r = p.t_q; r < p.q.rows; ++r)
      for (int64_t l = 0; l < p.d_k; ++l) o.q(r, l) = q2(r, l);
    for (int64_t r = p.t_k; r < p.k.rows; ++r) {
      for (int64_t l = 0; l < p.d_k; ++l) o.k(r, l) = k2(r, l);
      for (int64_t l = 0; l < p.d_v; ++l) o.v(r, l) = v2(r, l);
    }
    const CallResult a = Call(op, p), b = Call(op, o);
    RequireSuccess(a, "batched call");
    RequireSuccess(b, "batched call with items 1.. changed");
    const size_t es = op.ElementBytes();
    ExpectThat(SameOut(a, 0, b, 0, static_cast<size_t>(p.t_q * p.d_v), es),
               "item 0's out changed when only the other batch items changed");
    ExpectThat(SameLse(a, 0, b, 0, static_cast<size_t>(p.t_q), es),
               "item 0's lse changed when only the other batch items changed");
  }
};
ATTNPROP_REGISTER(BatchIndependence, KernelF32, KernelF64);

// abi.dk_ne_dv: d_k != d_v.
struct DkNeDv : AccuracyContract<DkNeDv>, ClaimId<"abi.dk_ne_dv"> {
  static ShapeSpec Problems() {
    ShapeSpec s = Shape(CausalKind::kEither);
    s.dk_ne_dv = true;
    return s;
  }
  static void Check(const Operator& op, const Case& c) { Accuracy(op, Problem::FromCase(c), {}, "call"); }
};
ATTNPROP_REGISTER(DkNeDv, KernelF32, KernelF64);

// abi.tq_ne_tk: t_q != t_k in both directions, causal and not.
struct TqNeTk : AccuracyContract<TqNeTk>, ClaimId<"abi.tq_ne_tk"> {
  static ShapeSpec Problems() { return Shape(CausalKind::kEither, Lengths::kUnequal); }
  static void Check(const Operator& op, const Case& c) { Accuracy(op, Problem::FromCase(c), {}, "call"); }
};
ATTNPROP_REGISTER(TqNeTk, KernelF32, KernelF64);

// abi.no_writes_outside_outputs: out and lse against guard pages, first with
// their ends there, then their starts; the slack holds non-zero canaries.
struct NoWritesOutside : Contract<NoWritesOutside>, ClaimId<"abi.no_writes_outside_outputs"> {
  static void Check(const Operator& op, const Case& c) {
    const Problem p = Problem::FromCase(c);
    for (Place place : {Place::kEnd, Place::kStart}) {
      CallSpec spec;
      spec.out_place = place;
      const std::string what = place == Place::kEnd ? "call with out/lse ending at a guard page"
                                                    : "call with out/lse starting at a guard page";
      const CallResult r = Call(op, p, spec);
      RequireSuccess(r, what);
      ExpectThat(r.output_slack.empty(), what + ": " + r.output_slack);
      ExpectThat(r.input_slack.empty(), what + ": " + r.input_slack);
    }
  }
};
ATTNPROP_REGISTER(NoWritesOutside, KernelF32, KernelF64);

// abi.no_reads_outside_inputs: q, k, v against guard pages (both sides).
struct NoReadsOutside : Contract<NoReadsOutside>, ClaimId<"abi.no_reads_outside_inputs"> {
  static void Check(const Operator& op, const Case& c) {
    const Problem p = Problem::FromCase(c);
    for (Place place : {Place::kEnd, Place::kStart}) {
      CallSpec spec;
      spec.in_place = place;
      RequireSuccess(Call(op, p, spec), place == Place::kEnd ? "call with q/k/v ending at a guard page"
                                                             : "call with q/k/v starting at a guard page");
    }
  }
};
ATTNPROP_REGISTER(NoReadsOutside, KernelF32, KernelF64);

// abi.inputs_unchanged: q, k, v are bit-identical after the call.
struct InputsUnchanged : Contract<InputsUnchanged>, ClaimId<"abi.inputs_unchanged"> {
  static void Check(const Operator& op, const Case& c) {
    const CallResult r = Call(op, Problem::FromCase(c));
    RequireSuccess(r, "call");
    ExpectThat(r.inputs_changed.empty(), "the kernel modified its input: " + r.inputs_changed);
  }
};
ATTNPROP_REGISTER(InputsUnchanged, KernelF32, KernelF64);

// abi.repeatable: four calls in one process on the same inputs give identical
// out and lse bytes (four, so that state that goes wrong from the third call
// on is seen: every other property calls a fresh process once).
struct Repeatable : Contract<Repeatable>, ClaimId<"abi.repeatable"> {
  static void Check(const Operator& op, const Case& c) {
    CallSpec spec;
    spec.repeats = 4;
    const CallResult r = Call(op, Problem::FromCase(c), spec);
    RequireSuccess(r, "four calls");
    for (size_t i = 1; i < r.out_bytes.size(); ++i) {
      const std::string which = "calls 1 and " + std::to_string(i + 1) + " on the same inputs gave different ";
      ExpectThat(r.out_bytes[0] == r.out_bytes[i], which + "out bytes");
      ExpectThat(r.lse_bytes[0] == r.lse_bytes[i], which + "lse bytes");
    }
  }
};
ATTNPROP_REGISTER(Repeatable, KernelF32, KernelF64);

// abi.f64_in_double: the f64 entry computes in double: inputs with 30
// fraction bits (no float holds them) meet the f64 bound (u = 2^-53).
struct F64InDouble : AccuracyContract<F64InDouble>, ClaimId<"abi.f64_in_double"> {
  static void Check(const Operator& op, const Case& c) { Accuracy(op, Problem::FromCase(c), {}, "call"); }
};
ATTNPROP_REGISTER(F64InDouble, KernelF64);

}  // namespace
}  // namespace attnprop::ksuite
