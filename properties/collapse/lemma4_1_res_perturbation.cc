// "Only Large Weights (And Not Skip Connections) Can Prevent the Perils of
// Rank Collapse" (004_fc07a226cef95160.txt), Section 4.1, Lemma 4.1.
//
// collapse.lemma4.1.res_perturbation
//   Statement: if ||A - B||_inf <= eps then ||Res(A) - Res(B)||_inf <= eps
//   (Res of Definition 3.4, entrywise max norm).
//   Hypotheses: A, B in R^{n x d}, eps >= 0 with ||A - B||_inf <= eps.
//   Selection: Res uses the column-wise midrange (model/res.h).
//   Expected REFUTED, for EVERY selection: with d = 1 the argmin is unique
//   (the midrange), and A = (0,4,2)^T, B = (1,5,1)^T, eps = 1 give
//   Res(A) = (-2,2,0), Res(B) = (-2,2,-2): ||Res(A) - Res(B)|| = 2 > 1.
//   The proof's first step, ||Res(A) - Res(B)|| <= ||A - 1y_B^T - Res(B)||,
//   has no justification (Res(A) is not the point of A - 1R^d nearest to
//   Res(B)). The shrunk counterexample is pinned in
//   properties/counterexamples/collapse.lemma4.1.res_perturbation.txt; the
//   failure message says whether both argmins are unique there.
//
// collapse.lemma4.1.res_perturbation.ours (OURS, not the paper's)
//   Statement: same hypotheses, ||Res(A) - Res(B)||_inf <= 2 eps, for the
//   midrange selection. Proof: Res(A)_ij - Res(B)_ij = D_ij - (mid_j(A) -
//   mid_j(B)) with D = A - B, and the midrange is 1-Lipschitz in the max
//   norm. The constant 2 is sharp (A = (0,2k,k), B = (1,2k+1,k-1): 2 eps).
//   It does NOT hold for every minimiser (A = B with a non-unique argmin and
//   two different selections give a nonzero difference at eps = 0).
//
// Generated: n in [1,5], d in [1,3], dyadic A, eps in (0,4], B = A + eps R
// with R dyadic in [-1,1] (half of them +-1): exact in every backend.
// Backends: double, MPFR, rational (Res is piecewise linear: exact in Q).
#include <cmath>
#include <string>

#include "generators/regime.h"
#include "generators/scalars.h"
#include "model/res.h"
#include "properties/collapse/collapse_cases.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace {

constexpr int64_t kMaxRows = 5;
constexpr int64_t kMaxCols = 3;

/// A (n x d) in every regime (up to 16 at scales 2^-20..2^2), eps at its
/// own scale, B = A + eps R with R in [-1,1] (half the entries +-1: |A - B|
/// = eps is where the claim is tight), on shared axes; B handed to the
/// backend by DerivedArithFor (rounded for double: a rounding past eps
/// discards the case).
template <class S>
rc::Gen<Case> PerturbedPair() {
  gen::Layout layout;
  const int one = layout.Axis({1, 1, 1}), n = layout.Axis({1, kMaxRows, kMaxRows}),
            d = layout.Axis({1, kMaxCols, kMaxCols});
  gen::Regime ar = gen::RegimeFor<S>(gen::Regime{});
  ar.max_abs = 16, ar.max_scale = 2;
  gen::Regime er;
  er.max_abs = 4, er.max_scale = 0, er.nonnegative = true, er.structured = false;
  const int a_m = layout.Matrix(n, d, ar), eps_m = layout.Matrix(one, one, er);
  const int r_m = layout.Raw(n, d, rc::gen::oneOf(rc::gen::element(Exact(-1.0), Exact(1.0)), gen::Dyadic(1, 2)));
  return layout.Build<Case>([=](const gen::Layout::Drawn& dr) {
    const ExactMatrix a = dr.Matrix(a_m), r = dr.Matrix(r_m);
    Exact eps = dr.Matrix(eps_m)(0, 0);
    if (eps.ToDouble() == 0) eps = Exact(1.0);
    Mat<Rational> b(a.rows, a.cols);
    for (int64_t i = 0; i < a.rows; ++i)
      for (int64_t j = 0; j < a.cols; ++j) b(i, j) = a(i, j).ToRational() + eps.ToRational() * r(i, j).ToRational();
    return Case().Matrix("A", a).Matrix("B", gen::FromRationals(b, gen::DerivedArithFor<S>())).Scalar("eps", eps);
  });
}

/// ||A - B||_inf <= eps, exactly (the lemma's), A and B n x d (n, d >= 1);
/// and the domain where the rounding budget (absolute, u(||A|| + ||B||))
/// holds in double: entries and eps finite, each 0 or 2^-900 <= |.| <= 2^900
/// (no overflow in max + min, no subnormal difference or midrange).
bool PairHypothesesHold(const Case& c) {
  if (!collapse::EntriesWithin(c.GetMatrix("A"), 0x1p900, 0x1p-900) ||
      !collapse::EntriesWithin(c.GetMatrix("B"), 0x1p900, 0x1p-900))
    return false;
  const double e = std::abs(c.GetScalar("eps").ToDouble());
  if (!(e <= 0x1p900) || (e != 0 && e < 0x1p-900) || c.GetMatrix("A").cols < 1) return false;
  const Mat<Rational> a = c.GetMat<Rational>("A"), b = c.GetMat<Rational>("B");
  const Rational eps = c.Get<Rational>("eps");
  return a.rows() == b.rows() && a.cols() == b.cols() && a.rows() >= 1 && eps >= 0 &&
         EntrywiseMaxNorm<Rational>(a - b) <= eps;
}

/// Shared conclusion: ||Res(A) - Res(B)|| <= factor * eps (+ rounding).
template <class S>
void CheckResPerturbation(const Case& c, int factor, const Tolerance& tolerance) {
  const Mat<S> a = c.GetMat<S>("A"), b = c.GetMat<S>("B");
  const S eps = c.Get<S>("eps");
  const double u = ScalarTraits<S>::UnitRoundoff();
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
  // Each Res entry errs <= 3u(1+u) max|entries| (see norm_le_norm), the
  // difference adds one rounding.
  const double bound = factor * ToDouble(eps) * (1 + u) +
                       Gamma(4, u) * (ToDouble(EntrywiseMaxNorm<S>(a)) + ToDouble(EntrywiseMaxNorm<S>(b)));
  ExpectWithin(tolerance, ToDouble(observed), bound);
}

/// The printed lemma and our variant share their hypotheses and cases.
struct ResPerturbationFamily {
  static bool HypothesesHold(const Case& c) { return PairHypothesesHold(c); }

  template <class S>
  static rc::Gen<Case> Hypotheses() {
    return PerturbedPair<S>();
  }
};

struct ResPerturbation : ResPerturbationFamily {
  static constexpr const char* kId = "collapse.lemma4.1.res_perturbation";

  static inline const Tolerance kDistance{
      "||Res(A) - Res(B)||_inf", "eps (1 + u) + gamma_4 (||A||_inf + ||B||_inf); exact: eps",
      "each computed Res entry errs <= 3u(1+u) x its matrix's max (midrange sum, final subtraction), "
      "the difference rounds once", MetricKind::kClaim};
  static std::vector<Tolerance> Tolerances() { return {kDistance}; }

  template <class S>
  static void Conclusion(const Case& c) {
    CheckResPerturbation<S>(c, 1, kDistance);
  }
};

struct ResPerturbationOurs : ResPerturbationFamily {
  static constexpr const char* kId = "collapse.lemma4.1.res_perturbation.ours";

  static inline const Tolerance kDistance{
      "||Res(A) - Res(B)||_inf (vs 2 eps)", "2 eps (1 + u) + gamma_4 (||A||_inf + ||B||_inf); exact: 2 eps",
      "as for the printed lemma: each computed Res entry errs <= 3u(1+u) x its matrix's max, the "
      "difference rounds once", MetricKind::kClaim};
  static std::vector<Tolerance> Tolerances() { return {kDistance}; }

  template <class S>
  static void Conclusion(const Case& c) {
    CheckResPerturbation<S>(c, 2, kDistance);
  }
};

ATTNPROP_REGISTER(ResPerturbation, double, Mpfr, Rational);
ATTNPROP_REGISTER(ResPerturbationOurs, double, Mpfr, Rational);

}  // namespace
}  // namespace attnprop
