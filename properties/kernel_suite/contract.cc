// The kernel ABI's contract (kernels/attnprop_kernel.h), one property each.
#include <cmath>
#include <cstring>

#include "generators/scalars.h"
#include "properties/kernel_suite/suite.h"

namespace attnprop::ksuite {
namespace {

using Lengths = ShapeSpec::Lengths;
using CausalKind = ShapeSpec::Causal;
using Place = GuardedBuffer::Place;

/// The output error bound against the MPFR model, out and lse.
void Accuracy(const KernelContext& ctx, DType t, const Problem& p, const CallSpec& spec, const std::string& what) {
  const CallResult r = CallKernel(ctx, p, spec);
  RequireSuccess(r, what);
  ExpectOutputsNearReference(p, t, Reference(p), r.out[0], spec.want_lse ? &r.lse[0] : nullptr, what);
}

// abi.argument_validation: invalid arguments return nonzero and write nothing.
rc::Gen<Case> ValidationGen(DType t) {
  ShapeSpec s;
  s.max_batch = 1;
  s.max_t = 6;
  s.max_d = 4;
  return rc::gen::mapcat(ProblemGen(t, s), [](const Case& c) {
    return rc::gen::map(gen::Dim(1, static_cast<int64_t>(Mutation::kCount) - 1), [c](int64_t m) {
      Case out = c;
      return out.Int("mutation", m);
    });
  });
}

void ArgumentValidation(const KernelContext& ctx, DType, const Case& c) {
  const Problem p = Problem::FromCase(c);
  CallSpec spec;
  spec.mutation = static_cast<Mutation>(c.GetInt("mutation"));
  const std::string what = std::string("call with ") + MutationName(spec.mutation);
  const CallResult r = CallKernel(ctx, p, spec);
  if (!r.crash.empty()) RC_FAIL(what + ": the kernel " + r.crash + " instead of returning an error");
  ExpectThat(r.rc.size() == 1 && r.rc[0] != 0, what + ": the kernel returned 0 (must return nonzero)");
  ExpectThat(r.outputs_untouched, what + ": the kernel wrote into out or lse (must write nothing)");
  ExpectThat(r.output_slack.empty(), what + ": " + r.output_slack);
}

// abi.empty_rows: a causal row with no visible key (t_q > t_k, i < t_q - t_k)
// gets out = 0 and lse = -inf exactly.
void EmptyRows(const KernelContext& ctx, DType, const Case& c) {
  const Problem p = Problem::FromCase(c);
  const CallResult r = CallKernel(ctx, p);
  RequireSuccess(r, "call");
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t i = 0; i < p.t_q - p.t_k; ++i) {
      const size_t row = static_cast<size_t>(b * p.t_q + i);
      for (int64_t cc = 0; cc < p.d_v; ++cc) {
        const double o = r.out[0][row * static_cast<size_t>(p.d_v) + static_cast<size_t>(cc)];
        ExpectThat(o == 0, "out[b=" + std::to_string(b) + "][i=" + std::to_string(i) + "][c=" + std::to_string(cc) +
                               "] = " + std::to_string(o) + " for a row with no visible key (must be 0)");
      }
      const double l = r.lse[0][row];
      ExpectThat(std::isinf(l) && l < 0, "lse[b=" + std::to_string(b) + "][i=" + std::to_string(i) + "] = " +
                                             std::to_string(l) + " for a row with no visible key (must be -inf)");
    }
}

void LseValues(const KernelContext& ctx, DType t, const Case& c) { Accuracy(ctx, t, Problem::FromCase(c), {}, "call"); }

void LseOptional(const KernelContext& ctx, DType t, const Case& c) {
  CallSpec spec;
  spec.want_lse = false;
  Accuracy(ctx, t, Problem::FromCase(c), spec, "call with lse = NULL");
}

// abi.batch_independence: items are computed as if alone: the batched call
// is accurate per item, and changing the other items leaves item 0's bytes.
rc::Gen<Case> BatchGen(DType t) {
  ShapeSpec s;
  s.min_batch_2 = true;
  s.max_batch = 3;
  s.lengths = Lengths::kUnequal;
  return rc::gen::mapcat(ProblemGen(t, s), [t](const Case& c) {
    const Problem p = Problem::FromCase(c);
    return rc::gen::apply(
        [c](ExactMatrix q2, ExactMatrix k2, ExactMatrix v2) {
          Case out = c;
          return out.Matrix("Q2", std::move(q2)).Matrix("K2", std::move(k2)).Matrix("V2", std::move(v2));
        },
        gen::Matrix(p.q.rows, p.q.cols, EntryGen(t, 16)), gen::Matrix(p.k.rows, p.k.cols, EntryGen(t, 16)),
        gen::Matrix(p.v.rows, p.v.cols, EntryGen(t, 16)));
  });
}

void BatchIndependence(const KernelContext& ctx, DType t, const Case& c) {
  const Problem p = Problem::FromCase(c);
  Accuracy(ctx, t, p, {}, "batched call");
  Problem o = p;  // items 1.. replaced
  const ExactMatrix &q2 = c.GetMatrix("Q2"), &k2 = c.GetMatrix("K2"), &v2 = c.GetMatrix("V2");
  for (int64_t r = p.t_q; r < p.q.rows; ++r)
    for (int64_t l = 0; l < p.d_k; ++l) o.q(r, l) = q2(r, l);
  for (int64_t r = p.t_k; r < p.k.rows; ++r) {
    for (int64_t l = 0; l < p.d_k; ++l) o.k(r, l) = k2(r, l);
    for (int64_t l = 0; l < p.d_v; ++l) o.v(r, l) = v2(r, l);
  }
  const CallResult a = CallKernel(ctx, p), b = CallKernel(ctx, o);
  RequireSuccess(a, "batched call");
  RequireSuccess(b, "batched call with items 1.. changed");
  const size_t es = t == DType::kF32 ? 4 : 8;
  ExpectThat(std::memcmp(a.out_bytes[0].data(), b.out_bytes[0].data(), static_cast<size_t>(p.t_q * p.d_v) * es) == 0,
             "item 0's out changed when only the other batch items changed");
  ExpectThat(std::memcmp(a.lse_bytes[0].data(), b.lse_bytes[0].data(), static_cast<size_t>(p.t_q) * es) == 0,
             "item 0's lse changed when only the other batch items changed");
}

void DkNeDv(const KernelContext& ctx, DType t, const Case& c) { Accuracy(ctx, t, Problem::FromCase(c), {}, "call"); }
void TqNeTk(const KernelContext& ctx, DType t, const Case& c) { Accuracy(ctx, t, Problem::FromCase(c), {}, "call"); }

// abi.no_writes_outside_outputs: out and lse against guard pages, first with
// their ends there, then their starts; the slack holds non-zero canaries.
void NoWritesOutside(const KernelContext& ctx, DType, const Case& c) {
  const Problem p = Problem::FromCase(c);
  for (Place place : {Place::kEnd, Place::kStart}) {
    CallSpec spec;
    spec.out_place = place;
    const std::string what = place == Place::kEnd ? "call with out/lse ending at a guard page"
                                                  : "call with out/lse starting at a guard page";
    const CallResult r = CallKernel(ctx, p, spec);
    RequireSuccess(r, what);
    ExpectThat(r.output_slack.empty(), what + ": " + r.output_slack);
    ExpectThat(r.input_slack.empty(), what + ": " + r.input_slack);
  }
}

// abi.no_reads_outside_inputs: q, k, v against guard pages (both sides).
void NoReadsOutside(const KernelContext& ctx, DType, const Case& c) {
  const Problem p = Problem::FromCase(c);
  for (Place place : {Place::kEnd, Place::kStart}) {
    CallSpec spec;
    spec.in_place = place;
    RequireSuccess(CallKernel(ctx, p, spec), place == Place::kEnd ? "call with q/k/v ending at a guard page"
                                                                  : "call with q/k/v starting at a guard page");
  }
}

void InputsUnchanged(const KernelContext& ctx, DType, const Case& c) {
  const CallResult r = CallKernel(ctx, Problem::FromCase(c));
  RequireSuccess(r, "call");
  ExpectThat(r.inputs_changed.empty(), "the kernel modified its input: " + r.inputs_changed);
}

void Repeatable(const KernelContext& ctx, DType, const Case& c) {
  CallSpec spec;
  spec.repeats = 2;
  const CallResult r = CallKernel(ctx, Problem::FromCase(c), spec);
  RequireSuccess(r, "two calls");
  ExpectThat(r.out_bytes[0] == r.out_bytes[1], "two calls on the same inputs gave different out bytes");
  ExpectThat(r.lse_bytes[0] == r.lse_bytes[1], "two calls on the same inputs gave different lse bytes");
}

ShapeSpec Shape(CausalKind causal, Lengths lengths = Lengths::kAny) {
  ShapeSpec s;
  s.causal = causal;
  s.lengths = lengths;
  return s;
}

std::function<rc::Gen<Case>(DType)> Gen(ShapeSpec s) {
  return [s](DType t) { return ProblemGen(t, s); };
}

}  // namespace

void AddContractProperties(std::vector<KernelProperty>* out) {
  const Tolerance out_tol = OutTolerance(), lse_tol = LseTolerance();
  out->push_back({"abi.argument_validation",
                  "NULL q/k/v/out, a dimension < 1, a short struct_size, a non-finite scale or causal not 0/1: "
                  "nonzero return, nothing written",
                  false, {}, ValidationGen, ArgumentValidation});
  out->push_back({"abi.empty_rows", "a causal row with no visible key (t_q > t_k) gets out = 0 and lse = -inf", false, {},
                  Gen(Shape(CausalKind::kYes, Lengths::kQueriesMore)), EmptyRows});
  out->push_back({"abi.lse_values", "lse_i = ln sum_j exp(s_ij) over visible keys (natural log), within its bound", false,
                  {out_tol, lse_tol}, Gen(Shape(CausalKind::kEither)), LseValues});
  out->push_back({"abi.lse_optional", "lse = NULL is accepted and out is unaffected", false, {out_tol},
                  Gen(Shape(CausalKind::kEither)), LseOptional});
  out->push_back({"abi.batch_independence",
                  "each batch item is computed as if alone (accuracy per item; others changed: item 0 bit-identical)",
                  false, {out_tol, lse_tol}, BatchGen, BatchIndependence});
  {
    ShapeSpec s = Shape(CausalKind::kEither);
    s.dk_ne_dv = true;
    out->push_back({"abi.dk_ne_dv", "d_k != d_v", false, {out_tol, lse_tol}, Gen(s), DkNeDv});
  }
  out->push_back({"abi.tq_ne_tk", "t_q != t_k in both directions, causal and not", false, {out_tol, lse_tol},
                  Gen(Shape(CausalKind::kEither, Lengths::kUnequal)), TqNeTk});
  out->push_back({"abi.no_writes_outside_outputs",
                  "nothing is written outside out and lse (guard pages on both sides, non-zero canaries)", false, {},
                  Gen(Shape(CausalKind::kEither)), NoWritesOutside});
  out->push_back({"abi.no_reads_outside_inputs", "nothing is read outside q, k, v (guard pages on both sides)", false,
                  {}, Gen(Shape(CausalKind::kEither)), NoReadsOutside});
  out->push_back({"abi.inputs_unchanged", "q, k, v are bit-identical after the call", false, {},
                  Gen(Shape(CausalKind::kEither)), InputsUnchanged});
  out->push_back({"abi.repeatable", "two calls on the same inputs give identical out and lse bytes", false, {},
                  Gen(Shape(CausalKind::kEither)), Repeatable});
  out->push_back({"abi.f64_in_double",
                  "the f64 entry computes in double: inputs with 30 fraction bits (no float holds them) meet the "
                  "f64 bound (u = 2^-53)",
                  true, {out_tol, lse_tol}, Gen(Shape(CausalKind::kEither, Lengths::kAny)), LseValues});
}

}  // namespace attnprop::ksuite
