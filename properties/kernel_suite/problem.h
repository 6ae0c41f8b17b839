// One attention problem for a kernel (exact inputs, batch items stacked),
// the call into the kernel under isolation, the MPFR reference on the same
// rounded inputs, and the error bounds the kernel's outputs are held to.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <string>
#include <vector>

#include "model/attention.h"
#include "model/exact.h"
#include "properties/framework/case.h"
#include "properties/framework/check.h"
#include "properties/kernel_suite/kernel_library.h"
#include "properties/kernel_suite/sandbox.h"

namespace attnprop::ksuite {

enum class DType { kF32, kF64 };
/// "kernel-f32" / "kernel-f64": the backend part of a property's name.
const char* DTypeName(DType t);
/// u = 2^-24 (f32) or 2^-53 (f64).
double UnitRoundoffOf(DType t);
/// Smallest normal number of the type (below it a weight may be flushed to 0).
double MinNormalOf(DType t);

/// What a property's calls go through.
struct KernelContext {
  const KernelLibrary* library = nullptr;
  DType dtype = DType::kF32;
  double timeout_s = 5;
};

/// batch items stacked row-wise: Q is (batch t_q) x d_k, K (batch t_k) x d_k,
/// V (batch t_k) x d_v. Every entry is exactly representable in the dtype.
struct Problem {
  int64_t batch = 1, t_q = 1, t_k = 1, d_k = 1, d_v = 1;
  int32_t causal = 0;
  Exact scale = 1.0;
  ExactMatrix q, k, v;

  /// From the case fields batch, causal, scale, Q, K, V.
  static Problem FromCase(const Case& c);
  Case ToCase() const;
  bool Visible(int64_t i, int64_t j) const { return !causal || j <= i + (t_k - t_q); }
  /// Item b's block of a stacked matrix.
  static ExactMatrix Block(const ExactMatrix& m, int64_t b, int64_t rows);
};

/// The way a call's arguments are made invalid (argument validation).
enum class Mutation {
  kNone, kNullQ, kNullK, kNullV, kNullOut, kBatch0, kTq0, kTk0, kDk0, kDv0, kNegativeTk,
  kStructSize0, kStructSizeShort, kScaleNan, kScaleInf, kCausal2, kCausalNegative, kCount
};
const char* MutationName(Mutation m);

struct CallSpec {
  bool want_lse = true;
  GuardedBuffer::Place out_place = GuardedBuffer::Place::kEnd;
  GuardedBuffer::Place in_place = GuardedBuffer::Place::kEnd;
  int repeats = 1;  // calls in the same child, each into fresh out/lse
  Mutation mutation = Mutation::kNone;
};

/// Output buffers are pre-filled with this byte: NaN in f32 and f64, so an
/// element the kernel never writes fails every check.
inline constexpr unsigned char kOutputFill = 0xFF;

struct CallResult {
  std::string crash;             // non-empty: crashed or timed out (how, where)
  std::vector<int> rc;           // return code per repeat (those that ran)
  std::vector<std::vector<double>> out, lse;            // per repeat, stacked row-major
  std::vector<std::vector<unsigned char>> out_bytes, lse_bytes;  // raw bytes
  std::string output_slack;      // canary damage around out/lse ("" if none)
  std::string input_slack;       // canary damage around q/k/v
  std::string inputs_changed;    // first input element the kernel changed
  bool outputs_untouched = true; // every out/lse byte still kOutputFill
};

/// Calls the kernel in a child process (time limit ctx.timeout_s).
CallResult CallKernel(const KernelContext& ctx, const Problem& p, const CallSpec& spec = {});

/// Fails the case (RC_FAIL) when the call crashed, timed out or returned
/// nonzero; `what` names the call in the message.
void RequireSuccess(const CallResult& r, const std::string& what);

/// Attention<Mpfr> of each batch item at the current MPFR precision, on the
/// exact inputs (the exact function of the kernel's inputs, to ~2^-256).
std::vector<AttentionResult<Mpfr>> Reference(const Problem& p);

/// Error bounds for one output row (batch item b, query i); see problem.cc
/// for the derivation of each term.
struct RowBound {
  double delta = 0;      // bound on |score error| plus rounding of s - max and of lse
  double rho = 0;        // relative bound on each computed weight: exp(2 delta)(1+gamma_n)^2 - 1
  double lse = 0;        // |lse^ - lse| <= delta + 2 gamma_n
  double underflow = 0;  // 2 t_k lambda: weights below lambda may be flushed to 0
};
RowBound BoundForRow(const Problem& p, DType t, int64_t b, int64_t i);

/// The tolerances every accuracy check uses (formula and reason).
Tolerance OutTolerance();
Tolerance LseTolerance();
Tolerance WeightSumTolerance();

/// |out^ - out*| <= rho_i sum_j a_ij |v_jc| + underflow max_j |v_jc| for each
/// element (and lse within its bound when `lse` is non-null); records the
/// worst ratio, fails naming the element.
void ExpectOutputsNearReference(const Problem& p, DType t, const std::vector<AttentionResult<Mpfr>>& ref,
                                const std::vector<double>& out, const std::vector<double>* lse,
                                const std::string& what);

/// Generators ---------------------------------------------------------------

struct ShapeSpec {
  int64_t max_batch = 2;
  int64_t max_t = 48;  // at the largest size; see ProblemGen
  int64_t max_d = 20;
  enum class Causal { kNo, kYes, kEither } causal = Causal::kEither;
  enum class Lengths { kAny, kEqual, kQueriesFewer, kQueriesMore, kUnequal } lengths = Lengths::kAny;
  bool identity_v = false;  // V = [I 0] per item (d_v >= t_k): out is the weight matrix
  bool dk_ne_dv = false;
  bool min_batch_2 = false;
  int64_t min_t_k = 1;      // e.g. 2 where keys are split
  bool wide_f64_inputs = true;  // f64: entries with 30 fraction bits (no float holds them)
};

/// A problem: shape first (so shrinking reaches the smallest shape first),
/// then entries (dyadic values, shrinking toward 0 and integers).
rc::Gen<Case> ProblemGen(DType t, const ShapeSpec& s);

/// A value of the entries' kind for dtype t (used for perturbations).
rc::Gen<Exact> EntryGen(DType t, int64_t magnitude);

}  // namespace attnprop::ksuite
