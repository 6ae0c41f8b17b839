// The attention operator a property's calls go through, and one call of it:
// the reference model in double or MPFR (in process), or a kernel through
// the ABI (in a forked child, buffers against guard pages, a time limit).
// Outputs come back as MPFR values (exact for f32/f64 kernel outputs), so one
// check reads every backend alike.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/scalar.h"
#include "properties/operator/kernel_library.h"
#include "properties/operator/problem.h"
#include "properties/operator/sandbox.h"

namespace attnprop::ksuite {

struct Operator {
  enum class Kind { kModelDouble, kModelMpfr, kKernel };
  Kind kind = Kind::kKernel;
  DType dtype = DType::kF32;               // storage of inputs and outputs (model: f64 inputs)
  const KernelLibrary* library = nullptr;  // kKernel
  /// Half-precision storage (ABI v2): the arithmetic the kernel declares
  /// (attnprop_kernel_accumulation; f32 when it does not say): the bounds'
  /// u and lambda. Unused for f32 and f64.
  DType accumulation = DType::kF32;
  /// ATTNPROP_FORMAT_MIXED: f32 arithmetic, the weights P rounded once to
  /// the storage format before P V (accumulation is then kF32).
  bool mixed = false;
  double timeout_s = 5;                    // kKernel: per call

  bool IsKernel() const { return kind == Kind::kKernel; }
  /// u of the arithmetic: 2^-24 (f32 kernel), 2^-53 (f64 kernel, double
  /// model), MPFR's; a half-precision kernel: its declared accumulation's
  /// (2^-24 for f32, 2^-8 for bf16, ...).
  double UnitRoundoff() const;
  /// Below this a computed weight may be flushed to 0 (0 for MPFR: no
  /// underflow in range); a half-precision kernel: its accumulation's.
  double MinNormal() const;
  /// Bytes per element of q, k, v and out.
  size_t ElementBytes() const { return IsHalf(dtype) ? 2 : dtype == DType::kF32 ? 4 : 8; }
  /// The type of lse: the storage type, except f32 for half-precision storage.
  DType LseType() const { return IsHalf(dtype) ? DType::kF32 : dtype; }
  size_t LseBytes() const { return LseType() == DType::kF32 ? 4 : 8; }
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
  Mutation mutation = Mutation::kNone;  // kernels only
  /// struct_size this much above sizeof(attnprop_attention_args), at most 64:
  /// a caller compiled against a newer, larger struct (valid; kernels only).
  size_t struct_size_extra = 0;
};

/// Output buffers are pre-filled with this byte: NaN in f32 and f64, so an
/// element the kernel never writes fails every check.
inline constexpr unsigned char kOutputFill = 0xFF;

struct CallResult {
  std::string crash;              // non-empty: crashed or timed out (how, where)
  std::vector<int> rc;            // return code per repeat (those that ran)
  std::vector<std::vector<Mpfr>> out, lse;  // per repeat, stacked row-major
  std::vector<std::vector<unsigned char>> out_bytes, lse_bytes;  // raw bytes (kernels only)
  std::string output_slack;       // canary damage around out/lse ("" if none)
  std::string input_slack;        // canary damage around q/k/v
  std::string inputs_changed;     // first input element the kernel changed
  std::string late_write;         // an output changed after the call returned (a kernel thread)
  bool outputs_untouched = true;  // every out/lse byte still kOutputFill
};

/// One call (op.timeout_s per kernel call).
CallResult Call(const Operator& op, const Problem& p, const CallSpec& spec = {});

/// Several calls in order, in ONE process (a kernel's sandbox child; the
/// model computes each alone), each with its own inputs and outputs, so that
/// state a kernel keeps between calls (workspaces, caches, first-call set-up)
/// is exercised; one result per call. A crash or timeout ends the child: the
/// call it happened in reports it, the later ones report that they were not
/// called. op.timeout_s is the limit of the whole sequence.
std::vector<CallResult> CallSequence(const Operator& op, const std::vector<Problem>& problems,
                                     const std::vector<CallSpec>& specs);

/// Fails the case (RC_FAIL) when the call crashed, timed out, threw, left
/// processes, wrote an output after returning, or returned nonzero; `what`
/// names the call in the message.
void RequireSuccess(const CallResult& r, const std::string& what);

/// Whether n elements of a's out (lse) from a_off equal n of b's from b_off
/// bit for bit: the bytes for a kernel, the values and signs (NaN = NaN) for
/// the model.
bool SameOut(const CallResult& a, size_t a_off, const CallResult& b, size_t b_off, size_t n, size_t bytes_per);
bool SameLse(const CallResult& a, size_t a_off, const CallResult& b, size_t b_off, size_t n, size_t bytes_per);

/// "%a (%.9g)" of a value, for messages.
std::string Num(double x);
std::string Num(const Mpfr& x);

}  // namespace attnprop::ksuite
