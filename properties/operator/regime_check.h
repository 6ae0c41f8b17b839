// The accuracy check of the regime properties: a call's outputs against
// the MPFR reference where that is affordable, and against a cheaper
// certified reference (attnprop's model in double) above: big shapes
// (t_k = 4096, d = 512) at 256 bits would cost seconds per case.
//
// The double reference's own error obeys the bounds of accuracy.h with
// u = 2^-53 (it is attnprop's double model, held to them by the double
// backend of every operator claim); the check certifies it again on every
// MPFR-checked case (|ref_double - out*| within OutBound at u = 2^-53, a
// failure names the reference, not the kernel). Against it a kernel is held
// to the sum of the two bounds (triangle inequality), with the exact
// weights bounded from the double ones (derivation in regime_check.cc).
#pragma once

#include <string>
#include <vector>

#include "properties/framework/check.h"
#include "properties/operator/accuracy.h"

namespace attnprop::ksuite {

/// Calls with CallWork(p) <= kMpfrWork are checked against MPFR.
inline constexpr int64_t kMpfrWork = 8192;

/// |out - out^d| against the double reference.
inline const Tolerance kOutVsDoubleTolerance{
    "|out - out^d| (double reference)",
    "(rho_i + rho^d_i) (W^_ic + 2 t_k lambda_d V_c) / (1 - rho^d_i) + 2 t_k (lambda + lambda_d) max_j |v_jc| + "
    "(n + n^d) eta",
    "|out - out*| <= rho_i W*_ic + 2 t_k lambda max|v_jc| + n eta (the kernel, u of its dtype) and |out^d - out*| <= the "
    "same with u = 2^-53 (the double reference); W*_ic = sum_j a*_ij |v_jc| <= (W^_ic + 2 t_k lambda_d V_c) / "
    "(1 - rho^d_i) from the double weights (each within rho^d_i relative plus 2 lambda_d absolute), V_c = "
    "max_j |v_jc|; see regime_check.cc", MetricKind::kRounding};

/// |lse - lse^d| against the double reference.
inline const Tolerance kLseVsDoubleTolerance{
    "|lse - lse^d| (double reference)", "delta_i + 2 gamma_n + delta^d_i + 2 gamma^d_n",
    "each of lse and lse^d is within its bound (|lse - lse*|) of the exact lse", MetricKind::kRounding};

/// The double reference against MPFR (its certification, on small cases).
inline const Tolerance kDoubleReferenceTolerance{
    "|out^d - out*| (the double reference)", "rho^d_i sum_j a*_ij |v_jc| + 2 t_k lambda_d max_j |v_jc| + n eta_d",
    "the bound of |out - out*| with u = 2^-53: the double reference is attnprop's double model", MetricKind::kRounding};

/// out (and lse when non-null) of one call of op on p within their bounds:
/// against MPFR when CallWork(p) <= kMpfrWork (and the double reference
/// certified there), else against the double reference.
void ExpectOutputsNearCertifiedReference(const Problem& p, const Operator& op, const std::vector<Mpfr>& out,
                                         const std::vector<Mpfr>* lse, const std::string& what);

/// attnprop's double model on each item (the cheap reference).
std::vector<AttentionResult<double>> DoubleReference(const Problem& p);

}  // namespace attnprop::ksuite
