// The reference the attention claims compare against, and the error bounds
// an operator's outputs are held to (derivation in accuracy.cc, beside
// BoundForRow). The same bounds serve attnprop's model in double (u = 2^-53)
// and MPFR (u of its precision) and any kernel (u of its dtype): they hold
// for any summation order, with or without FMA, and an exp within 4 ulp.
#pragma once

#include <string>
#include <vector>

#include "model/attention.h"
#include "properties/framework/check.h"
#include "properties/kernel_suite/call.h"

namespace attnprop::ksuite {

/// Attention<Mpfr> of each batch item on the exact inputs: at the current
/// MPFR precision for a kernel or the double model (the exact function of
/// the inputs to ~2^-256), at twice the precision for the MPFR model.
std::vector<AttentionResult<Mpfr>> Reference(const Operator& op, const Problem& p);

/// Error bounds for one output row (batch item b, query i).
struct RowBound {
  double delta = 0;      // bound on |score error| plus rounding of s - max and of lse
  double rho = 0;        // relative bound on each computed weight: exp(2 delta)(1+gamma_n)^2 - 1
  double lse = 0;        // |lse^ - lse| <= delta + 2 gamma_n
  double underflow = 0;  // 2 t_k lambda: weights below lambda may be flushed to 0
};
RowBound BoundForRow(const Problem& p, const Operator& op, int64_t b, int64_t i);

/// sum_j a*_ij |v_jc| and max_j |v_jc| over the visible keys (the scale of out's error).
std::pair<double, double> WeightedAbsV(const Problem& p, const AttentionResult<Mpfr>& r, int64_t b, int64_t i,
                                       int64_t c);
/// |out^_ic - out*_ic| <= OutBound: rho_i sum_j a*_ij |v_jc| + underflow max_j |v_jc|.
double OutBound(const Problem& p, const Operator& op, const AttentionResult<Mpfr>& r, int64_t b, int64_t i, int64_t c);

/// The tolerances every accuracy check uses.
extern const Tolerance kOutTolerance;        // |out - out*|
extern const Tolerance kLseTolerance;        // |lse - lse*|
extern const Tolerance kWeightSumTolerance;  // |sum_j A_ij - 1| (A read as out with V = [I 0])

/// |out^ - out*| within OutBound for each element (and lse within its bound
/// when `lse` is non-null); records the worst ratio of each, fails naming
/// the element.
void ExpectOutputsNearReference(const Problem& p, const Operator& op, const std::vector<AttentionResult<Mpfr>>& ref,
                                const std::vector<Mpfr>& out, const std::vector<Mpfr>* lse, const std::string& what);

/// Tracks the worst observed/bound ratio of one metric over a case and
/// records it (ExpectWithin) at the end; fails at once, naming the place,
/// when a bound is exceeded.
class Worst {
 public:
  explicit Worst(const Tolerance& tolerance) : tolerance_(tolerance) {}
  void Check(double observed, double bound, const std::string& where);
  /// Records the worst pair for the audit (it passed Check, so this cannot fail).
  ~Worst();

 private:
  const Tolerance& tolerance_;
  double ratio_ = -1, observed_ = 0, bound_ = 0;
};

/// |x - y| as a double, +inf when either is not finite (a NaN output fails).
double AbsDiff(const Mpfr& x, const Mpfr& y);

}  // namespace attnprop::ksuite
