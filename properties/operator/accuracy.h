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
#include "properties/operator/call.h"

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
  double subnormal = 0;  // n eta: gradual underflow of the arithmetic (absolute)
  double hull = 0;       // theta_{3n} (times 1/(1 - u_s)^2 for mixed): the convex-hull cap's factor
};
RowBound BoundForRow(const Problem& p, const Operator& op, int64_t b, int64_t i);

/// The gradual-underflow term of one output column: rb.subnormal, or 0 when
/// every visible v_jc is 0 (then every product a_ij v_jc is exactly 0 and so
/// is out_ic: no rounding at all, and a kernel that returns 2^-149 there is
/// wrong; hostile_third_call's one-ulp flip of a zero output is caught so).
inline double SubnormalTerm(const RowBound& rb, double vmax) { return vmax > 0 ? rb.subnormal : 0; }

/// sum_j a*_ij |v_jc| and max_j |v_jc| over the visible keys (the scale of out's error).
std::pair<double, double> WeightedAbsV(const Problem& p, const AttentionResult<Mpfr>& r, int64_t b, int64_t i,
                                       int64_t c);
/// |out^_ic - out*_ic| <= OutBound: the smaller of rho_i sum_j a*_ij |v_jc| +
/// underflow max_j |v_jc| + n eta (the arithmetic's gradual underflow) and
/// the convex-hull cap spread_c + theta_{3n} max_j |v_jc| (numerics::
/// AttentionOutCap: finite for every finite input, where exp(2 delta)
/// overflows); for half-precision storage (ABI v2) plus the rounding of out
/// to the storage format (numerics::StoredOutBound). Finite whenever the
/// inputs are: a non-finite bound would be attnprop's error, and fails as
/// one, naming the case.
double OutBound(const Problem& p, const Operator& op, const AttentionResult<Mpfr>& r, int64_t b, int64_t i, int64_t c);

// The tolerances every accuracy check uses. Inline (initialised before the
// registrations of any file that includes this header, which copy them).
/// |out - out*|.
inline const Tolerance kOutTolerance{
    "|out - out*|", "min(rho_i sum_j a*_ij |v_jc|, spread_c + theta_3n max_j |v_jc|) + 2 t_k lambda max_j |v_jc| + n eta",
    "rho_i = exp(2 delta_i)(1+gamma_n)^2 - 1, delta_i = gamma_{d_k+2} smax_i + u(8 smax_i + 5(ln t_k + 1)), "
    "smax_i = |c| max_j sum_l |q_il k_jl|, n = 6 t_k + 8 (exp within 4 ulp, <= t_k rescales, two sums, "
    "division); softmax moves each weight by at most exp(2 max score error); lambda = smallest normal "
    "(flushed weights); eta = smallest subnormal (gradual underflow: n eta per sum, (d_k + 2) eta per "
    "score; a subnormal v times a weight errs absolutely); or the convex-hull cap: computed weights are "
    "nonnegative and sum to within theta_3n of 1, spread_c = max_j v_jc - min_j v_jc; see accuracy.cc", MetricKind::kRounding};

/// |out - out*| for bf16 / f16 storage (ABI v2): the bound above in the
/// kernel's declared accumulation (u, lambda, eta of it), then one rounding
/// to the storage format.
inline const Tolerance kHalfOutTolerance{
    "|out - out*| (half storage)", "B_ic + u_s (|out*_ic| + B_ic) + eta_s / 2",
    "B_ic = rho_i sum_j a*_ij |v_jc| + 2 t_k lambda max_j |v_jc| + n eta: the f32/f64 bound with u, lambda "
    "and eta (smallest subnormal) of the declared accumulation (kernels/error_model.h, gradual underflow: "
    "<= (d_k + 2) eta more per score, n eta per sum), or its convex-hull cap; mixed (ATTNPROP_FORMAT_MIXED: "
    "f32 arithmetic, P rounded once to the storage format before P V): each weight within (1 - u_s)^-2 more "
    "and t_k eta_s absolute; out rounded once to the storage format: "
    "|fl_s(x) - x| <= u_s |x| + eta_s / 2, u_s = 2^-8 (bf16) or 2^-11 (f16), eta_s = 2^-133 or 2^-24", MetricKind::kRounding};

/// |lse - lse*|.
inline const Tolerance kLseTolerance{
    "|lse - lse*|", "delta_i + 2 gamma_n",
    "lse moves by at most max score error under score perturbations (1-Lipschitz in the max norm), plus "
    "rounding of m + ln Z (in delta_i) and ln of the computed sum Z (relative error gamma_n)", MetricKind::kRounding};

/// |sum_j A_ij - 1| (A read as out with V = [I 0]).
inline const Tolerance kWeightSumTolerance{
    "|sum_j A_ij - 1|", "rho_i + 2 t_k lambda",
    "each computed weight (read as out with V = I) is within rho_i of its exact value relative, and the "
    "exact weights sum to 1; flushed weights add <= 2 lambda each", MetricKind::kRounding};


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
