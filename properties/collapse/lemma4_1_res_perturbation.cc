// "Only Large Weights (And Not Skip Connections) Can Prevent the Perils of
// Rank Collapse" (004_fc07a226cef95160.txt), Section 4.1, Lemma 4.1.
//
// collapse.lemma4.1.res_perturbation
//   Statement: if ||A - B||_inf <= eps then ||Res(A) - Res(B)||_inf <= eps
//   (Res of Definition 3.4, entrywise max norm).
//   Hypotheses: A, B in R^{n x d}, eps >= 0 with ||A - B||_inf <= eps.
//   Selection: Res uses the column-wise midrange (model/res.h).
//   Expected REFUTED, for EVERY selection: with d = 1 the argmin is unique
//   (the midrange), so a witness with one column refutes every reading.
//   The witness, with its arithmetic, is pinned in
//   properties/counterexamples/collapse.lemma4.1.res_perturbation.txt; the
//   failure message says whether both argmins are unique there. The proof's
//   first step, ||Res(A) - Res(B)|| <= ||A - 1y_B^T - Res(B)||, has no
//   justification (Res(A) is not the point of A - 1R^d nearest to Res(B)).
//
// collapse.lemma4.1.res_perturbation.ours (OURS, not the paper's)
//   Statement: same hypotheses, ||Res(A) - Res(B)||_inf <= 2 eps, for the
//   midrange selection. Proof: Res(A)_ij - Res(B)_ij = D_ij - (mid_j(A) -
//   mid_j(B)) with D = A - B, and the midrange is 1-Lipschitz in the max
//   norm. The constant 2 is sharp (A = (0,2k,k), B = (1,2k+1,k-1): 2 eps).
//   It does NOT hold for every minimiser (A = B with a non-unique argmin and
//   two different selections give a nonzero difference at eps = 0).
//
// Generated: n in [1,5], d in [1,3], A in every regime, eps in (0,4], B =
// A + eps R with R in [-1,1] (half of the entries +-1), rounded to double
// for the double backend (a rounding past eps is discarded).
// Backends: double, MPFR, rational (Res is piecewise linear: exact in Q);
// refutations exact in Q, certified by interval arithmetic otherwise.
#include <cmath>
#include <string>

#include "generators/regime.h"
#include "generators/scalars.h"
#include "model/res.h"
#include "properties/collapse/collapse_cases.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

constexpr int64_t kMaxRows = 5;
constexpr int64_t kMaxCols = 3;

constexpr Axis kUnit{"1"}, kN{"n"}, kD{"d"};
constexpr MatrixField kA{"A"}, kB{"B"};
constexpr ScalarField kEps{"eps"};

/// A (n x d) in every regime (up to 16 at scales 2^-20..2^2), eps at its
/// own scale (1 where it drew 0), B = A + eps R with R in [-1,1] (half the
/// entries +-1: |A - B| = eps is where the claim is tight), on shared axes;
/// B handed to the backend by DerivedArithFor (rounded for double: a
/// rounding past eps fails the assumption and the case is discarded).
/// Domain where Res is computable in double: entries and eps each 0 or
/// 2^-900 <= |.| <= 2^900 (no overflow in max + min, no subnormal
/// difference or midrange).
template <class S>
Domain PerturbedPair() {
  gen::Regime ar = gen::RegimeFor<S>(gen::Regime{});
  ar.max_abs = 16, ar.max_scale = 2;
  gen::Regime er;
  er.max_abs = 4, er.max_scale = 0, er.nonnegative = true, er.structured = false;
  const Admit normal = Admit::Within(0x1p900).NonzeroAtLeast(0x1p-900);
  Domain d;
  d.Dim(kUnit, {1, 1, 1}, 1).Dim(kN, {1, kMaxRows, kMaxRows}).Dim(kD, {1, kMaxCols, kMaxCols});
  d.Matrix(kA, kN, kD, ar, normal);
  const int eps = d.Param(kUnit, kUnit, er);
  const int r = d.Param(kN, kD, rc::gen::oneOf(rc::gen::element(Exact(-1.0), Exact(1.0)), gen::Dyadic(1, 2)));
  auto eps_of = [eps](const Domain::Drawn& in) {
    const Exact e = in.Param(eps)(0, 0);
    return e.ToDouble() == 0 ? Exact(1.0) : e;
  };
  d.Built(
      kB, kN, kD,
      [eps_of, r](const Domain::Drawn& in) {
        const ExactMatrix& a = in.fields()[kA];
        const ExactMatrix rm = in.Param(r);
        const Rational e = eps_of(in).ToRational();
        Mat<Rational> b(a.rows, a.cols);
        for (int64_t i = 0; i < a.rows; ++i)
          for (int64_t j = 0; j < a.cols; ++j) b(i, j) = a(i, j).ToRational() + e * rm(i, j).ToRational();
        return gen::FromRationals(b, gen::DerivedArithFor<S>());
      },
      normal);
  d.Built(kEps, eps_of, normal.Nonnegative());
  d.Assume("||A - B||_inf <= eps", [](const Values& v) {
    const Mat<Rational> a = v[kA].As<Rational>(), b = v[kB].As<Rational>();
    return EntrywiseMaxNorm<Rational>(a - b) <= v[kEps].ToRational();
  });
  return d;
}

/// Shared conclusion: ||Res(A) - Res(B)|| <= factor * eps, exact in
/// rationals and certified by interval arithmetic otherwise (properties/
/// framework/certify.h), so no rounding budget.
template <class S>
void CheckResPerturbation(const In<S>& in, int factor, const Tolerance& tolerance) {
  const Mat<S> a = in[kA], b = in[kB];
  const S eps = in[kEps];
  const Mat<S> diff = Res<S>(a) - Res<S>(b);
  const S observed = EntrywiseMaxNorm<S>(diff);
  if constexpr (ScalarTraits<S>::kExact) {
    if (!(observed <= factor * eps)) {
      const ResArgmin<S> ba = ResArgminBox<S>(a), bb = ResArgminBox<S>(b);
      const bool unique = ba.lo == ba.hi && bb.lo == bb.hi;
      ExpectThat(false, tolerance.metric + " = " + observed.str() + " > " + std::to_string(factor) + " eps = " +
                            Rational(factor * eps).str() +
                            (unique ? " (argmin of A and of B unique: every selection fails)"
                                    : " (an argmin is not unique)"));
    }
  }
  ExpectWithin<S>(tolerance, observed, S(factor * eps));
}

/// The printed lemma and our variant share their hypotheses and cases.
struct ResPerturbationFamily {
  template <class S> static Domain Hypotheses() { return PerturbedPair<S>(); }
};

struct ResPerturbation : ResPerturbationFamily, ClaimId<"collapse.lemma4.1.res_perturbation"> {
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kDistance{
        "||Res(A) - Res(B)||_inf", "eps", "the lemma as stated", MetricKind::kClaim};
    CheckResPerturbation<S>(in, 1, kDistance);
  }
};

struct ResPerturbationOurs : ResPerturbationFamily, ClaimId<"collapse.lemma4.1.res_perturbation.ours"> {
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kDistance{
        "||Res(A) - Res(B)||_inf (vs 2 eps)", "2 eps", "our variant (factor 2)", MetricKind::kClaim};
    CheckResPerturbation<S>(in, 2, kDistance);
  }
};

ATTNPROP_REGISTER(ResPerturbation, double, Mpfr, Rational, Interval);
ATTNPROP_REGISTER(ResPerturbationOurs, double, Mpfr, Rational, Interval);

}  // namespace
}  // namespace attnprop
