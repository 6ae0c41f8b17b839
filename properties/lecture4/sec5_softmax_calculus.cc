// Lecture 4, section 5 "Softmax geometry" (003_dd971a1151775776.txt):
// derivatives of lse and softmax, Gibbs' inequality.
//
// lecture4.prop5.1.lse_gradient_is_softmax (Prop 5.1): grad lse(s) = softmax(s).
// lecture4.prop5.1.lse_hessian (Prop 5.1): Hess lse(s) = diag(p) - p p^T.
// lecture4.sec5.softmax_jacobian (sec 5): D softmax(s) = diag(p) - p p^T,
//   (D softmax(s) h)_i = p_i (h_i - sum_j p_j h_j).
// lecture4.prop5.1.hessian_psd_nullspace_ones (Prop 5.1): diag(p) - p p^T
//   (p_i > 0) is PSD with nullspace exactly R 1.
// lecture4.sec5.1.gibbs_inequality (sec 5.1): KL(a||p) >= 0, = 0 iff a = p.
// lecture4.prop5.2.gibbs_identity (proof of Prop 5.2):
//   <a,s> + tau H(a) = tau log Z - tau KL(a||p), Z = sum_j e^{s_j/tau},
//   p = softmax(s/tau), for a in the simplex (0 log 0 = 0).
// lecture4.prop5.2.temperature_variational (Prop 5.2, statement [R]):
//   softmax(s/tau) is the unique maximiser of F(a) = <a,s> + tau H(a) over
//   the simplex, and max F = tau lse(s/tau).
//
// Derivatives are checked by central differences along a drawn direction h,
// with the truncation error bounded through cumulants: along s + t h,
// (log p_i)' = h_i - E_p h, (log p_i)'' = -Var_p h, (log p_i)''' = -k3, and
// lse' = E_p h, lse'' = Var_p h, lse''' = k3, lse'''' = k4, where with
// H = max|h_j|: |h_i - E h| <= 2H, Var <= H^2, |k3| <= 2H^3, |k4| <= 7H^4.
// Hence |p_i'''| <= p_i (8 + 6 + 2) H^3 <= 16 H^3. The step t is a power of
// two, s has short mantissas and h sits on a grid, so that s +- t h is
// exact in the backend.
#include <algorithm>
#include <cmath>

#include <Eigen/LU>

#include "generators/regime.h"
#include "generators/scalars.h"
#include "generators/shape.h"
#include "model/charpoly.h"
#include "model/softmax.h"
#include "properties/framework/hypotheses_checks.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

template <class S> constexpr int64_t kMaxLen = SizeBudget<S>::Pick(16, 8);

/// Step: double 2^-13 (balances t^2 truncation against rounding/t and
/// rounding/t^2, so that the double comparison rarely needs certifying);
/// MPFR 2^-30 (s + t h needs < 40 bits, far below its precision). The step
/// is a field of the case: the certificate evaluates the same t.
template <class S>
double Step() {
  return std::is_same_v<S, double> ? std::ldexp(1.0, -13) : std::ldexp(1.0, -30);
}

constexpr Axis kLen{"T"}, kOne{"1"};
constexpr MatrixField kScores{"s"}, kDir{"h"}, kW{"w"}, kU{"u"}, kA{"a"}, kP{"p"};
constexpr ScalarField kShift{"c"}, kTau{"tau"}, kStep{"t"};

template <class S>
Vec<S> Col(const In<S>& in, MatrixField f) {
  return in[f].col(0);
}

/// The three derivative claims share their cases: scores s, a direction h
/// and the difference step t. Certified (no rounding budget): each states
/// the central difference's truncation bound, a theorem of calculus.
struct DerivativeFamily {
  // s and h are T x 1 (T >= 1), finite, drawn as s in every regime (scales
  // 2^-20..2^3, a dominant entry to 2^13, mantissas of at most 24 bits: then
  // s +- t h needs <= 31 bits, exact in double) and h (|h| <= 1, grid
  // 2^-4); t = Step<S>(). Domain: s, h doubles with
  // s +- t h exact in the backend (the truncation bounds are about the
  // differences at exactly s +- t h; double 53 bits, MPFR its precision,
  // intervals at least 128), |s|, |h| <= 2^20.
  template <class S> static Domain Hypotheses() {
    gen::Regime scores = gen::RegimeFor<S>(gen::Regime{});
    scores.max_scale = 3;
    scores.full_bits = 24;  // doubles whose sums with t h stay exact (above)
    Domain d;
    d.Dim(kLen, {1, kMaxLen<S>, kMaxLen<S>}).Dim(kOne, {1, 1, 1}, 1);
    d.Matrix(kScores, kLen, kOne, scores, Admit::Within(0x1p20).Doubles());
    // h stays a short dyadic: a direction on a grid keeps s +- t h exact (the claims are about the exact
    // points), and scaling h only scales both sides of each check.
    d.Matrix(kDir, kLen, kOne, gen::Dyadic(1, 4), Admit::Within(0x1p20).Doubles());
    d.Built(kStep, [](const Domain::Drawn&) { return Exact(Step<S>()); }, Admit::Finite().Positive().Doubles());
    d.Assume("s +- t h exact in the backend (t the difference step)", [](const Values& v) {
      const ExactMatrix &s = v[kScores], &h = v[kDir];
      const int bits = std::is_same_v<S, double> ? 53 : static_cast<int>(MpfrPrecisionBits());
      const double t = v[kStep].ToDouble();
      for (int64_t i = 0; i < s.rows; ++i) {
        const double a = s(i, 0).ToDouble(), th = t * h(i, 0).ToDouble();
        if (!hyp::SumExactIn(a, th, bits) || !hyp::SumExactIn(a, -th, bits)) return false;
      }
      return true;
    });
    return d;
  }
};

// Truncation bounds through cumulants (file header): H = max|h_j|.
struct LseGradient : DerivativeFamily, ClaimId<"lecture4.prop5.1.lse_gradient_is_softmax"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Vec<S> s = Col<S>(in, kScores), h = Col<S>(in, kDir);
    const S t = in[kStep], hmax = h.cwiseAbs().maxCoeff();
    const S fd = (LogSumExp<S>(Vec<S>(s + t * h)) - LogSumExp<S>(Vec<S>(s - t * h))) / (2 * t);
    const S dir = Softmax<S>(s).dot(h);
    static const Tolerance kGradient{
        "|(lse(s+th)-lse(s-th))/2t - <softmax(s),h>|", "t^2 H^3 / 3",
        "central difference truncation t^2/6 |lse'''| <= t^2/6 * 2H^3 (certified: no rounding budget)",
        MetricKind::kClaim};
    ExpectWithin<S>(kGradient, abs(fd - dir), S(t * t * hmax * hmax * hmax / 3));
  }
};
ATTNPROP_REGISTER(LseGradient, double, Mpfr, Interval);

struct LseHessian : DerivativeFamily, ClaimId<"lecture4.prop5.1.lse_hessian"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Vec<S> s = Col<S>(in, kScores), h = Col<S>(in, kDir);
    const S t = in[kStep], hmax = h.cwiseAbs().maxCoeff();
    const S fd = (LogSumExp<S>(Vec<S>(s + t * h)) - 2 * LogSumExp<S>(s) + LogSumExp<S>(Vec<S>(s - t * h))) / (t * t);
    const Vec<S> p = Softmax<S>(s);
    const Mat<S> hess = Mat<S>(p.asDiagonal()) - p * p.transpose();
    const S quad = h.dot(hess * h);
    static const Tolerance kQuadraticForm{
        "|(lse(s+th)-2lse(s)+lse(s-th))/t^2 - h^T(diag p - pp^T)h|", "t^2 7H^4/12",
        "second difference truncation t^2/12 |lse''''| <= t^2/12 * 7H^4 (certified: no rounding budget). "
        "Random h determine the symmetric Hessian through its quadratic form",
        MetricKind::kClaim};
    ExpectWithin<S>(kQuadraticForm, abs(fd - quad), S(t * t * 7 * hmax * hmax * hmax * hmax / 12));
  }
};
ATTNPROP_REGISTER(LseHessian, double, Mpfr, Interval);

struct SoftmaxJacobian : DerivativeFamily, ClaimId<"lecture4.sec5.softmax_jacobian"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Vec<S> s = Col<S>(in, kScores), h = Col<S>(in, kDir);
    const S t = in[kStep], hmax = h.cwiseAbs().maxCoeff();
    const Vec<S> pp = Softmax<S>(Vec<S>(s + t * h)), pm = Softmax<S>(Vec<S>(s - t * h)), p = Softmax<S>(s);
    const S mean = p.dot(h);
    const Mat<S> jac = Mat<S>(p.asDiagonal()) - p * p.transpose();
    const Vec<S> jh = jac * h;
    for (Eigen::Index i = 0; i < s.size(); ++i) {
      const S fd = (pp[i] - pm[i]) / (2 * t);
      const S formula = p[i] * (h[i] - mean);
      static const Tolerance kDifferenceQuotient{
          "|(p(s+th)-p(s-th))_i/2t - p_i(h_i - sum_j p_j h_j)|", "16 t^2 H^3 / 6",
          "central difference truncation t^2/6 |p_i'''| <= t^2/6 * 16 H^3 (certified: no rounding budget)",
          MetricKind::kClaim};
      ExpectWithin<S>(kDifferenceQuotient, abs(fd - formula), S(16 * t * t * hmax * hmax * hmax / 6));
      // The two printed forms are one identity.
      static const Tolerance kTwoForms{"|(diag p - pp^T)h - p o (h - <p,h>1)|_i", "0 (an identity)",
                                       "certified by interval arithmetic", MetricKind::kRounding};
      ExpectWithin<S>(kTwoForms, abs(jh[i] - formula), S(0));
    }
  }
};
ATTNPROP_REGISTER(SoftmaxJacobian, double, Mpfr, Interval);

/// A positive probability vector p = w / sum w (w_j in 1..8) and a vector u
/// (rational grid). Any positive p is softmax(log p): the Hessian claim's
/// hypothesis p_i > 0 is all that is used.
struct HessianPsd : ClaimId<"lecture4.prop5.1.hessian_psd_nullspace_ones"> {
  // w and u are T x 1 (T >= 1), w_j > 0 (so p_i > 0, the claim's
  // hypothesis), c a scalar; all finite (exact rational arithmetic: no
  // numeric domain). Drawn in every regime: w nonnegative (an entry drawn 0
  // becomes 1), u and c of either sign.
  template <class S> static Domain Hypotheses() {
    gen::Regime positive = gen::RegimeFor<S>(gen::Regime{});
    positive.nonnegative = true;
    Domain d;
    d.Dim(kLen, {1, 8, 8}).Dim(kOne, {1, 1, 1}, 1);
    const int w = d.Param(kLen, kOne, positive);
    d.Built(
        kW, kLen, kOne,
        [w](const Domain::Drawn& in) {
          ExactMatrix m = in.Param(w);
          for (Exact& e : m.data)
            if (e.ToDouble() == 0) e = Exact(1.0);
          return m;
        },
        Admit::Finite().Positive());
    d.Matrix(kU, kLen, kOne, gen::RegimeFor<S>(gen::Regime{}), Admit::Finite());
    const int c = d.Param(kOne, kOne, gen::RegimeFor<S>(gen::Regime{}));
    d.Built(kShift, [c](const Domain::Drawn& in) { return in.Param(c)(0, 0); }, Admit::Finite());
    return d;
  }

  template <class S> static void Conclusion(const In<S>& in) {
    const Vec<S> w = Col<S>(in, kW), u = Col<S>(in, kU);
    const Vec<S> p = w / w.sum();
    const Mat<S> hess = Mat<S>(p.asDiagonal()) - p * p.transpose();
    const Eigen::Index t = p.size();
    // PSD: u^T H u = Var_p(u) >= 0.
    const S q = u.dot(hess * u);
    ExpectThat(q >= 0, "u^T (diag p - pp^T) u < 0");
    // R 1 is in the nullspace: H (c 1) = 0.
    const Vec<S> ones = Vec<S>::Constant(t, in[kShift]);
    ExpectThat((hess * ones).isZero(0), "(diag p - pp^T) c1 != 0");
    // Nothing else: for u_perp = u - mean(u) 1 (orthogonal to 1),
    // u_perp^T H u_perp = Var_p(u_perp) >= min_i p_i ||u_perp||^2, which is
    // > 0 unless u_perp = 0 (then u is in R 1).
    const Vec<S> up = u - Vec<S>::Constant(t, u.sum() / S(t));
    const S qp = up.dot(hess * up);
    ExpectThat(qp >= p.minCoeff() * up.squaredNorm(), "u_perp^T H u_perp < min p ||u_perp||^2");
    ExpectThat(up.isZero(0) || qp > 0, "nonzero u_perp in the nullspace");
    // Certified for the whole matrix, not one vector: the exact inertia
    // (Descartes on the real-rooted characteristic polynomial) is (T-1, 0, 1),
    // so H is PSD with a one-dimensional nullspace, which contains 1: the
    // nullspace is exactly R 1 (and the exact rank is T - 1).
    const InertiaValue inertia = SymmetricInertia(hess);
    ExpectThat(inertia == InertiaValue{t - 1, 0, 1}, "inertia of diag(p) - pp^T is (" +
                                                         std::to_string(inertia.positive) + ", " +
                                                         std::to_string(inertia.negative) + ", " +
                                                         std::to_string(inertia.zero) + "), not (T-1, 0, 1)");
    ExpectThat(Eigen::FullPivLU<Mat<S>>(hess).rank() == t - 1, "rank of diag(p) - pp^T is not T - 1");
  }
};
ATTNPROP_REGISTER(HessianPsd, Rational);

/// Nonnegative regime weights made positive: an entry drawn 0 becomes 1.
ExactMatrix PositiveWeights(ExactMatrix w) {
  for (Exact& e : w.data)
    if (e.ToDouble() == 0) e = Exact(1.0);
  return w;
}

/// Nonnegative weights in every regime (a zero block gives zero weights).
gen::Regime WeightRegime() {
  gen::Regime r;
  r.nonnegative = true;
  return r;
}

/// tau > 0 in every regime: a 1 x 1 regime draw (every mantissa, scales
/// 2^-2..2^2, |tau| <= 4) raised to 1/4 when below (as the short-dyadic
/// draw it replaces: tau in [1/4, 4]; the domains' |s|/tau bounds).
int TauParam(Domain& d) {
  gen::Regime r;
  r.nonnegative = true;
  r.structured = false;
  r.min_scale = -2;
  r.max_scale = 2;
  return d.Param(kOne, kOne, r);
}
double TauOf(const Domain::Drawn& in, int param) { return std::max(0.25, in.Param(param)(0, 0).ToDouble()); }

/// w / sum w, exactly.
ExactMatrix Normalised(const ExactMatrix& w) {
  attnprop::Rational sum = 0;
  for (const Exact& e : w.data) sum += e.ToRational();
  ExactMatrix r = w;
  for (Exact& e : r.data) e = Exact(attnprop::Rational(e.ToRational() / sum));
  return r;
}

/// sum_j x_j = 1, exactly.
bool SumsToOne(const ExactMatrix& x) {
  attnprop::Rational sum = 0;
  for (const Exact& e : x.data) sum += e.ToRational();
  return sum == 1;
}

/// Both Gibbs claims share their cases: two distributions a, p, scores s, tau.
/// Drawn in every regime: simplex vectors a = w_a / sum w_a (w_a >= 0, not
/// all 0) and p = w_p / sum w_p (w_p > 0), exact rationals; in a quarter of
/// the cases a = p. Also s (scales 2^-20..2^3) and tau (in [1/4, 4], every
/// mantissa) for the identity.
struct GibbsFamily {
  // a, p, s are T x 1 (T >= 1); a in the simplex (a_j >= 0, sum a = 1
  // exactly), p in its interior (p_j > 0, sum p = 1); tau > 0 finite, s
  // finite. Domain: |s_j| / tau <= 350, so Z = sum_j e^{s_j/tau} (summed without a shift)
  // is a finite double and no p_j = softmax(s/tau)_j underflows (the
  // identity's log(a_j/p_j) needs p_j > 0 in double: spread <= 700).
  template <class S> static Domain Hypotheses() {
    Domain d;
    d.Dim(kLen, {1, 6, 6}).Dim(kOne, {1, 1, 1}, 1);
    const int wa = d.Param(kLen, kOne, WeightRegime()), wp = d.Param(kLen, kOne, WeightRegime());
    const int mode =
        d.ScalarParam(rc::gen::map(rc::gen::inRange<int>(0, 4), [](int k) { return Exact(static_cast<double>(k)); }));
    d.Built(
        kA, kLen, kOne,
        [wa, wp, mode](const Domain::Drawn& in) {
          ExactMatrix a = in.Param(wa);
          if (in.ScalarParam(mode).ToDouble() == 0) a = PositiveWeights(in.Param(wp));
          double total = 0;
          for (const Exact& e : a.data) total += e.ToDouble();
          if (total == 0) a.data[0] = Exact(1.0);
          return Normalised(a);
        },
        Admit::Finite().Nonnegative());
    d.Built(
        kP, kLen, kOne, [wp](const Domain::Drawn& in) { return Normalised(PositiveWeights(in.Param(wp))); },
        Admit::Finite().Positive());
    gen::Regime scores = gen::RegimeFor<S>(gen::Regime{});
    scores.max_scale = 3;
    d.Matrix(kScores, kLen, kOne, scores, Admit::Finite());
    const int tau = TauParam(d);
    d.Built(kTau, [tau](const Domain::Drawn& in) { return Exact(TauOf(in, tau)); }, Admit::Finite().Positive());
    d.Assume("a in the simplex, p in its interior (sum a = sum p = 1)", [](const Values& v) {
      return SumsToOne(v[kA]) && SumsToOne(v[kP]);
    });
    d.Assume("|s_j| / tau <= 350 (Z and p finite and normal)", [](const Values& v) {
      const double tv = v[kTau].ToDouble();
      for (const Exact& e : v[kScores].data)
        if (std::fabs(e.ToDouble()) / tv > 350) return false;
      return true;
    });
    return d;
  }
};

struct GibbsInequality : GibbsFamily, ClaimId<"lecture4.sec5.1.gibbs_inequality"> {
  // KL(a||p) >= 0 as H(a) <= H(a, p): the entropy against the cross-entropy
  // (lhs against rhs, attained at a = p), not as a difference. Certified: no
  // rounding budget.
  template <class S> static void Conclusion(const In<S>& in) {
    using std::log;
    const Vec<S> a = Col<S>(in, kA), p = Col<S>(in, kP);
    S h = 0, cross = 0, kl = 0;
    for (Eigen::Index j = 0; j < a.size(); ++j) {
      if (IsExactlyZero(a[j])) continue;  // 0 log 0 = 0
      h -= a[j] * log(a[j]);
      cross -= a[j] * log(p[j]);
      kl += a[j] * log(a[j] / p[j]);
    }
    static const Tolerance kGibbs{"H(a) against the cross-entropy H(a, p)", "H(a, p)",
                                  "Gibbs' inequality as stated (certified by interval arithmetic)",
                                  MetricKind::kClaim};
    ExpectWithin<S>(kGibbs, h, cross);
    // The 'iff': a = p gives a_j / p_j = 1 and log 1 = 0 exactly (IEEE, MPFR
    // and MPFI); a != p must give KL(a||p) > 0.
    if (in.exact(kA) == in.exact(kP)) ExpectThat(IsExactlyZero(kl), "a = p but KL(a||p) = " + std::to_string(ToDouble(kl)));
    else ExpectThat(kl > S(0), "KL(a||p) = " + std::to_string(ToDouble(kl)) + " not > 0 with a != p");
  }
};
ATTNPROP_REGISTER(GibbsInequality, double, Mpfr, Interval);

struct GibbsIdentity : GibbsFamily, ClaimId<"lecture4.prop5.2.gibbs_identity"> {
  template <class S> static void Conclusion(const In<S>& in) {
    using std::exp;
    using std::log;
    const Vec<S> a = Col<S>(in, kA), s = Col<S>(in, kScores);
    const S tau = in[kTau];
    const Vec<S> st = s / tau;
    const Vec<S> p = Softmax<S>(st);
    S z = 0;
    for (Eigen::Index j = 0; j < s.size(); ++j) z += exp(st[j]);
    S lin = 0, ent = 0, kl = 0;
    for (Eigen::Index j = 0; j < a.size(); ++j) {
      lin += a[j] * s[j];
      if (IsExactlyZero(a[j])) continue;  // 0 log 0 = 0
      ent -= a[j] * log(a[j]);
      kl += a[j] * log(a[j] / p[j]);
    }
    const S lhs = lin + tau * ent, rhs = tau * log(z) - tau * kl;
    static const Tolerance kIdentity{"|<a,s> + tau H(a) - (tau log Z - tau KL(a||p))|", "0 (an identity)",
                                     "certified by interval arithmetic", MetricKind::kRounding};
    ExpectWithin<S>(kIdentity, abs(lhs - rhs), S(0));
  }
};
ATTNPROP_REGISTER(GibbsIdentity, double, Mpfr, Interval);

// ---------------------------------------------------------------------------
// lecture4.prop5.2.temperature_variational (Prop 5.2)
//   Statement: for tau > 0, F(a) = <a,s> + tau H(a) <= tau lse(s/tau) for
//   every a in the simplex, with equality only at a = softmax(s/tau).
//   Recorded as tau H(a) against tau lse(s/tau) - <a,s> (both >= 0: lhs
//   against rhs, attained at the maximiser).
//   Hypotheses: s (T x 1) in every regime (gen::Regime: full mantissas,
//   scales 2^-20..2^3, ties and dominant entries), tau > 0, a in the simplex:
//   sparse (weights 0..8 normalised), a vertex at argmax s (H = 0), or the
//   maximiser quantised to 2^-12 or 2^-40 (a near the maximiser).
//   Checks, certified by interval arithmetic (no rounding budget): (1) the
//   inequality; (2) F(p) = tau lse(s/tau) at p = softmax(s/tau); (3)
//   uniqueness: where a certainly differs from p, F(a) < tau lse(s/tau).

/// The drawn a: mode 0 sparse (w / sum w, w in 0..8, at least one
/// positive), 1 the vertex at argmax s, 2 and 3 the maximiser softmax(s/tau)
/// quantised to 2^-12 or 2^-40 (the rest on argmax).
ExactMatrix VariationalWeights(const ExactMatrix& sm, ExactMatrix wm, int m, double tau_v) {
  const int64_t n = sm.rows;
  int64_t top = 0;
  for (int64_t j = 1; j < n; ++j)
    if (sm(j, 0).ToDouble() > sm(top, 0).ToDouble()) top = j;
  ExactMatrix a(n, 1);
  if (m == 0) {  // sparse: w / sum w (w in 0..8, at least one positive)
    attnprop::Rational sum = 0;
    for (const Exact& e : wm.data) sum += e.ToRational();
    if (sum == 0) wm(top, 0) = Exact(1.0), sum = 1;
    for (int64_t j = 0; j < n; ++j) a(j, 0) = Exact(attnprop::Rational(wm(j, 0).ToRational() / sum));
  } else if (m == 1) {  // the vertex at argmax s
    for (int64_t j = 0; j < n; ++j) a(j, 0) = Exact(j == top ? 1.0 : 0.0);
  } else {  // the maximiser quantised to 2^-12 or 2^-40; the rest on argmax
    Vec<double> x(n);
    for (int64_t j = 0; j < n; ++j) x[j] = sm(j, 0).ToDouble() / tau_v;
    const Vec<double> p = Softmax<double>(x);
    const int bits = m == 2 ? 12 : 40;
    attnprop::Rational sum = 0;
    for (int64_t j = 0; j < n; ++j) {
      a(j, 0) = Exact(std::ldexp(std::nearbyint(std::ldexp(p[j], bits)), -bits));
      sum += a(j, 0).ToRational();
    }
    a(top, 0) = Exact(attnprop::Rational(a(top, 0).ToRational() + (1 - sum)));
  }
  return a;
}

struct TemperatureVariational : ClaimId<"lecture4.prop5.2.temperature_variational"> {
  // s, a are T x 1 (T >= 1), s finite, tau > 0 finite (drawn in [1/4, 4], TauParam),
  // a in the simplex (a_j >= 0, sum a = 1 exactly, entries doubles).
  // Domain: max s/tau - min s/tau <= 600 and |s|/tau <= 2^500, so no p_j
  // underflows in double (the equality check takes log p_j) and the scores
  // stay finite.
  template <class S> static Domain Hypotheses() {
    gen::Regime regime = gen::RegimeFor<S>(gen::Regime{});
    regime.max_scale = 3;
    Domain d;
    d.Dim(kLen, {1, kMaxLen<S>, kMaxLen<S>}).Dim(kOne, {1, 1, 1}, 1);
    d.Matrix(kScores, kLen, kOne, regime, Admit::Finite());
    const int w = d.Param(kLen, kOne, gen::UniformInteger(0, 8));
    const int mode = d.ScalarParam(gen::UniformInteger(0, 3));
    const int tau = TauParam(d);
    auto tau_of = [tau](const Domain::Drawn& in) { return TauOf(in, tau); };
    d.Built(
        kA, kLen, kOne,
        [w, mode, tau_of](const Domain::Drawn& in) {
          return VariationalWeights(in.fields()[kScores], in.Param(w),
                                    static_cast<int>(in.ScalarParam(mode).ToDouble()), tau_of(in));
        },
        Admit::Finite().Nonnegative().Doubles());
    d.Built(kTau, [tau_of](const Domain::Drawn& in) { return Exact(tau_of(in)); }, Admit::Finite().Positive());
    d.Assume("a in the simplex (sum a = 1)", [](const Values& v) { return SumsToOne(v[kA]); });
    d.Assume("max s/tau - min s/tau <= 600 and |s|/tau <= 2^500 (no p_j underflows)", [](const Values& v) {
      const ExactMatrix& s = v[kScores];
      double lo = s(0, 0).ToDouble(), hi = lo;
      for (const Exact& e : s.data) lo = std::min(lo, e.ToDouble()), hi = std::max(hi, e.ToDouble());
      const double tv = v[kTau].ToDouble();
      return (hi - lo) / tv <= 600 && std::max(std::fabs(lo), std::fabs(hi)) / tv <= 0x1p500;
    });
    return d;
  }

  /// F's two sides at a: tau H(a) and tau lse(s/tau) - <a,s>, the latter
  /// as (max s - <a,s>) + tau log sum_j e^{(s_j - max s)/tau} (the same
  /// number; its enclosure is the point 0 at a vertex of a one-term sum,
  /// where the claim holds with equality).
  template <class S>
  struct Sides {
    S lhs, rhs;
  };
  template <class S>
  static Sides<S> Evaluate(const Vec<S>& a, const Vec<S>& s, const S& tau) {
    using std::exp;
    using std::log;
    using std::max;
    S lin = 0, ent = 0, top = s[0], z = 0;
    for (Eigen::Index j = 0; j < a.size(); ++j) {
      lin += a[j] * s[j];
      top = max(top, s[j]);
      if (IsExactlyZero(a[j])) continue;  // 0 log 0 = 0
      ent -= a[j] * log(a[j]);
    }
    for (Eigen::Index j = 0; j < s.size(); ++j) z += exp(S((s[j] - top) / tau));
    return {tau * ent, (top - lin) + tau * log(z)};
  }

  template <class S> static void Conclusion(const In<S>& in) {
    const Vec<S> s = Col<S>(in, kScores), a = Col<S>(in, kA);
    const S tau = in[kTau];
    const Vec<S> x = s / tau;
    const Vec<S> p = Softmax<S>(x);
    // Where a is certainly the maximiser (every a_j - p_j the point 0: p is
    // exact, uniform scores say), (1) is the equality of (2), which no
    // enclosure can prove as an inequality; where a certainly differs, (3).
    bool distinct = false, equal = true;
    for (Eigen::Index j = 0; j < a.size(); ++j) {
      const S diff = a[j] - p[j];
      distinct = distinct || CertainlyNonzero(diff);
      equal = equal && IsExactlyZero(diff);
    }
    // (1) F(a) <= tau lse(s/tau).
    const Sides<S> at_a = Evaluate<S>(a, s, tau);
    static const Tolerance kVariational{"tau H(a) against tau lse(s/tau) - <a,s>", "tau lse(s/tau) - <a,s>",
                                        "Prop 5.2 as stated (certified by interval arithmetic)", MetricKind::kClaim};
    if (!equal) ExpectWithin<S>(kVariational, at_a.lhs, at_a.rhs);
    // (2) the maximum is attained at p = softmax(s/tau): F(p) = tau lse.
    const Sides<S> at_p = Evaluate<S>(p, s, tau);
    static const Tolerance kMaximum{"|F(softmax(s/tau)) - tau lse(s/tau)|", "0 (an identity)",
                                    "certified by interval arithmetic (F(p) - tau lse = lhs(p) - rhs(p))", MetricKind::kRounding};
    ExpectWithin<S>(kMaximum, abs(at_p.lhs - at_p.rhs), S(0));
    // (3) uniqueness: where a differs from the maximiser (certainly, in
    // intervals: some a_j - p_j excludes 0), F(a) < tau lse(s/tau) strictly.
    if (distinct) ExpectThat(at_a.lhs < at_a.rhs, "a != softmax(s/tau) but F(a) is not below tau lse(s/tau)");
  }
};
ATTNPROP_REGISTER(TemperatureVariational, double, Mpfr, Interval);

}  // namespace
}  // namespace attnprop
