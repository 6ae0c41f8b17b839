// attnprop's claim API: everything a claim needs, in one include. Installed
// as <attnprop/claim.h> (find_package(attnprop) + attnprop_add_claims, see
// docs/adding-a-claim.md); attnprop's own claims are written the same way.
//
// A claim is one declaration over a typed domain:
//
//   #include <attnprop/claim.h>
//   using namespace attnprop;
//   constexpr Axis kOne{"1"}, kN{"n"};
//   constexpr MatrixField kX{"x"};
//   struct MyClaim : ClaimId<"my.claim"> {                    // a stable id
//     template <class S> static Domain Hypotheses() {         // the hypotheses
//       Domain d;
//       d.Dim(kOne, {1, 1, 1}, 1).Dim(kN, {1, 8, 8});          // shapes: 1 x n
//       d.Matrix(kX, kOne, kN, gen::RegimeFor<S>({}), Admit::Within(0x1p100));
//       d.Assume("sum_i x_i >= 0", [](const Values& v) { ... });  // side conditions
//       return d;
//     }
//     template <class S> static void Conclusion(const In<S>& in) {  // the conclusion
//       const Vec<S> x = in[kX].row(0).transpose();            // the case, in S
//       static const Tolerance kBound{"lhs", "rhs", "why", MetricKind::kClaim};
//       ExpectWithin<S>(kBound, lhs, rhs);                     // lhs <= rhs
//     }
//   };
//   ATTNPROP_REGISTER(MyClaim, double, Mpfr, Interval);
//
// The Domain (domain.h) gives the generator (every regime: tiny, huge,
// mixed-scale and structured entries; gen::Regime), the hypotheses that every
// random case, search candidate, shrink step and stored case must satisfy
// (Assume, in the statement's words), and the range where the check is
// computable (Admit; say why beside it). The conclusion is written once over
// the scalar S and states the mathematics with no floating-point budget:
// registered with Interval, a failure in double or MPFR is only a candidate,
// which interval arithmetic (MPFI, up to ATTNPROP_CERTIFY_BITS bits) certifies
// as a violation, dismisses as rounding, or leaves undecided (certify.h).
// Registered with Rational too, an algebraic claim is decided exactly.
//
// The model functions a claim reads are here too, over every scalar:
// Softmax, LogSumExp (model/softmax.h), attention and its parts
// (model/attention.h), Vec<S>/Mat<S> (Eigen; model/eigen_scalar.h),
// SymmetricEigenvalues and the Interval enclosures (model/spectral_enclosure.h:
// Eigen's iterative solvers do not compile on Interval).
// ExpectThat(holds, what) states a condition with no magnitude (check.h).
// RankAtLeast and ArgmaxWithGap (model/discrete_predicates.h) decide a rank
// and a leader soundly in Interval: a conclusion may branch on them.
#pragma once

#include "generators/regime.h"
#include "generators/scalars.h"
#include "generators/shape.h"
#include "model/attention.h"
#include "model/discrete_predicates.h"
#include "model/softmax.h"
#include "model/spectral_enclosure.h"
#include "properties/framework/property.h"
