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
// two and s, h are on grids so that s +- t h is exact in the backend.
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
namespace {

template <class S> constexpr int64_t kMaxLen = SizeBudget<S>::Pick(16, 8);

/// Step: double 2^-13 (balances t^2 truncation against rounding/t and
/// rounding/t^2); MPFR 2^-30 (s + t h needs < 40 bits, far below its precision).
template <class S>
double Step() {
  return std::is_same_v<S, double> ? std::ldexp(1.0, -13) : std::ldexp(1.0, -30);
}

constexpr Axis kLen{"T"}, kOne{"1"};
constexpr MatrixField kScores{"s"}, kDir{"h"}, kW{"w"}, kU{"u"}, kA{"a"}, kP{"p"};
constexpr ScalarField kShift{"c"}, kTau{"tau"};

template <class S>
Vec<S> Col(const In<S>& in, MatrixField f) {
  return in[f].col(0);
}

/// Absolute error bound of the computed lse: Z = sum exp(s_j - m) has
/// relative error gamma_T (exp <= 1 ulp, T-term sum), log turns it into an
/// absolute gamma_T/(1-gamma_T) plus u|log Z|, the final addition u|lse|.
template <class S>
double LseError(const Vec<S>& x) {
  const double u = ScalarTraits<S>::UnitRoundoff(), t = static_cast<double>(x.size());
  const double m = ToDouble(x.maxCoeff());
  return Gamma(t + 3, u) * (2 + 2 * std::abs(m) + 2 * std::log(t + 1));
}

/// The three derivative claims share their cases: scores s and a direction h.
struct DerivativeFamily {
  // s and h are T x 1 (T >= 1), finite, drawn as s (|s| <= 8, grid 2^-6)
  // and h (|h| <= 1, grid 2^-4). Domain: s, h doubles with s +- t h exact in
  // the backend (t = Step<S>(): the truncation bounds assume the
  // differences are taken at exactly s +- t h; double 53 bits, MPFR its
  // precision), |h| <= 2^20, and |s| <= 2^20 so the lse error bound (linear
  // in |max s|) stays below the quotients' scale.
  template <class S> static Domain Hypotheses() {
    Domain d;
    d.Dim(kLen, {1, kMaxLen<S>, kMaxLen<S>}).Dim(kOne, {1, 1, 1}, 1);
    d.Matrix(kScores, kLen, kOne, gen::Dyadic(8, 6), Admit::Within(0x1p20).Doubles());
    d.Matrix(kDir, kLen, kOne, gen::Dyadic(1, 4), Admit::Within(0x1p20).Doubles());
    d.Assume("s +- t h exact in the backend (t the difference step)", [](const Values& v) {
      const ExactMatrix &s = v[kScores], &h = v[kDir];
      const int bits = std::is_same_v<S, double> ? 53 : static_cast<int>(MpfrPrecisionBits());
      for (int64_t i = 0; i < s.rows; ++i) {
        const double a = s(i, 0).ToDouble(), th = Step<S>() * h(i, 0).ToDouble();
        if (!hyp::SumExactIn(a, th, bits) || !hyp::SumExactIn(a, -th, bits)) return false;
      }
      return true;
    });
    return d;
  }
};

struct LseGradient : DerivativeFamily, ClaimId<"lecture4.prop5.1.lse_gradient_is_softmax"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Vec<S> s = Col<S>(in, kScores), h = Col<S>(in, kDir);
    const S t = S(Step<S>());
    const Vec<S> sp = s + t * h, sm = s - t * h;
    const Mpfr fd = (Mpfr(LogSumExp<S>(sp)) - Mpfr(LogSumExp<S>(sm))) / (2 * Mpfr(t));
    const Vec<Mpfr> p = Softmax<S>(s).template cast<Mpfr>();
    const Mpfr dir = p.dot(h.template cast<Mpfr>());
    const double hmax = ToDouble(h.cwiseAbs().maxCoeff()), td = Step<S>();
    const double e_lse = std::max(LseError<S>(sp), LseError<S>(sm));
    const double tol = td * td * hmax * hmax * hmax / 3 + e_lse / td +
                       Gamma(static_cast<double>(s.size() + 3), ScalarTraits<S>::UnitRoundoff()) *
                           ToDouble(h.cwiseAbs().sum()) +
                       1e-25;  // MPFR checker
    static const Tolerance kGradient{
        "|(lse(s+th)-lse(s-th))/2t - <softmax(s),h>|", "t^2 H^3 / 3 + 2 e_lse / (2t) + gamma_{T+3}(u) sum|h|",
        "central difference truncation t^2/6 |lse'''| <= t^2/6 * 2H^3; each lse has absolute error "
        "e_lse = gamma_{T+3}(2 + 2|max s| + 2 log(T+1)); each p_j relative error gamma_{T+3}"};
    ExpectWithin(kGradient, ToDouble(Mpfr(abs(fd - dir))), tol);
  }
};
ATTNPROP_REGISTER(LseGradient, double, Mpfr);

struct LseHessian : DerivativeFamily, ClaimId<"lecture4.prop5.1.lse_hessian"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Vec<S> s = Col<S>(in, kScores), h = Col<S>(in, kDir);
    const S t = S(Step<S>());
    const Vec<S> sp = s + t * h, sm = s - t * h;
    const Mpfr fd = (Mpfr(LogSumExp<S>(sp)) - 2 * Mpfr(LogSumExp<S>(s)) + Mpfr(LogSumExp<S>(sm))) / (Mpfr(t) * Mpfr(t));
    const Vec<Mpfr> p = Softmax<S>(s).template cast<Mpfr>(), hh = h.template cast<Mpfr>();
    const Mat<Mpfr> hess = Mat<Mpfr>(p.asDiagonal()) - p * p.transpose();
    const Mpfr quad = hh.dot(hess * hh);
    const double hmax = ToDouble(h.cwiseAbs().maxCoeff()), td = Step<S>();
    const double e_lse = std::max({LseError<S>(sp), LseError<S>(sm), LseError<S>(s)});
    const double tol = td * td * 7 * std::pow(hmax, 4) / 12 + 4 * e_lse / (td * td) +
                       3 * Gamma(static_cast<double>(s.size() + 3), ScalarTraits<S>::UnitRoundoff()) *
                           ToDouble(h.squaredNorm()) +
                       1e-25;
    static const Tolerance kQuadraticForm{
        "|(lse(s+th)-2lse(s)+lse(s-th))/t^2 - h^T(diag p - pp^T)h|",
        "t^2 7H^4/12 + 4 e_lse / t^2 + 3 gamma_{T+3}(u) sum_j h_j^2",
        "second difference truncation t^2/12 |lse''''| <= t^2/12 * 7H^4; three lse values with "
        "absolute error e_lse each; p_j relative error gamma_{T+3} in sum p h^2 - (sum p h)^2. "
        "Random h determine the symmetric Hessian through its quadratic form"};
    ExpectWithin(kQuadraticForm, ToDouble(Mpfr(abs(fd - quad))), tol);
  }
};
ATTNPROP_REGISTER(LseHessian, double, Mpfr);

struct SoftmaxJacobian : DerivativeFamily, ClaimId<"lecture4.sec5.softmax_jacobian"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Vec<S> s = Col<S>(in, kScores), h = Col<S>(in, kDir);
    const S t = S(Step<S>());
    const Vec<Mpfr> pp = Softmax<S>(Vec<S>(s + t * h)).template cast<Mpfr>(),
                    pm = Softmax<S>(Vec<S>(s - t * h)).template cast<Mpfr>();
    const Vec<S> ps = Softmax<S>(s);
    const Vec<Mpfr> p = ps.template cast<Mpfr>(), hh = h.template cast<Mpfr>();
    const Mpfr mean = p.dot(hh);
    // The two printed forms in the backend's own arithmetic.
    const Mat<S> jac = Mat<S>(ps.asDiagonal()) - ps * ps.transpose();
    const Vec<S> jh = jac * h;
    const S mean_s = ps.dot(h);
    const double hmax = ToDouble(h.cwiseAbs().maxCoeff()), td = Step<S>();
    const double g = Gamma(static_cast<double>(s.size() + 3), ScalarTraits<S>::UnitRoundoff());
    const double tol = 16 * td * td * hmax * hmax * hmax / 6 + g / td + 3 * g * hmax + 1e-25;
    for (Eigen::Index i = 0; i < s.size(); ++i) {
      const Mpfr fd = (pp[i] - pm[i]) / (2 * Mpfr(t));
      const Mpfr formula = p[i] * (hh[i] - mean);
      static const Tolerance kDifferenceQuotient{
          "|(p(s+th)-p(s-th))_i/2t - p_i(h_i - sum_j p_j h_j)|",
          "16 t^2 H^3 / 6 + 2 gamma_{T+3}(u) / (2t) + 3 gamma_{T+3}(u) H",
          "central difference truncation t^2/6 |p_i'''| <= t^2/6 * 16 H^3; each computed p_i has "
          "relative error gamma_{T+3} (p_i <= 1); the formula side p_i(h_i - E h) inherits 3 gamma H"};
      ExpectWithin(kDifferenceQuotient, ToDouble(Mpfr(abs(fd - formula))), tol);
      using std::abs;
      static const Tolerance kTwoForms{
          "|(diag p - pp^T)h - p o (h - <p,h>1)|_i", "4 gamma_{T+3}(u) (H + 1)",
          "the two printed forms of the Jacobian, both evaluated in the backend from the same p: the "
          "matrix-vector form errs by gamma_{T+3} sum_j |J_ij||h_j| <= 2 gamma_{T+3} H (sum p <= 1 + "
          "gamma_T), the formula by gamma_{T+2}(|h_i| + H) <= 2 gamma_{T+2} H; the +1 covers p's sum above 1"};
      ExpectWithin(kTwoForms, ToDouble(S(abs(S(jh[i] - ps[i] * S(h[i] - mean_s))))),
                   4 * Gamma(static_cast<double>(s.size() + 3), ScalarTraits<S>::UnitRoundoff()) * (hmax + 1));
    }
  }
};
ATTNPROP_REGISTER(SoftmaxJacobian, double, Mpfr);

/// A positive probability vector p = w / sum w (w_j in 1..8) and a vector u
/// (rational grid). Any positive p is softmax(log p): the Hessian claim's
/// hypothesis p_i > 0 is all that is used.
struct HessianPsd : ClaimId<"lecture4.prop5.1.hessian_psd_nullspace_ones"> {
  // w and u are T x 1 (T >= 1), w_j > 0 (so p_i > 0, the claim's
  // hypothesis; drawn w_j in 1..8), c a scalar; all finite (exact rational
  // arithmetic: no numeric domain).
  template <class S> static Domain Hypotheses() {
    Domain d;
    d.Dim(kLen, {1, 8, 8}).Dim(kOne, {1, 1, 1}, 1);
    const int w = d.Param(kLen, kOne, gen::Dyadic(8, 0));
    d.Built(
        kW, kLen, kOne,
        [w](const Domain::Drawn& in) {
          ExactMatrix m = in.Param(w);
          for (Exact& e : m.data) e = Exact(std::abs(e.ToDouble()) + 1);
          return m;
        },
        Admit::Finite().Positive());
    d.Matrix(kU, kLen, kOne, gen::Dyadic(4, 2), Admit::Finite());
    d.Scalar(kShift, gen::Dyadic(4, 2), Admit::Finite());
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

/// w_j -> |w_j| + 1 (weights in 1..8 from the grid's -8..8).
ExactMatrix PositiveWeights(ExactMatrix w) {
  for (Exact& e : w.data) e = Exact(std::abs(e.ToDouble()) + 1);
  return w;
}

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
/// Drawn: simplex vectors a = w_a / sum w_a (w_a in 0..8, not all 0) and
/// p = w_p / sum w_p (w_p in 1..8); in a quarter of the cases a = p. Also s
/// (grid 2^-6, |s| <= 8) and tau (2^-2..4, grid 2^-2) for the identity.
struct GibbsFamily {
  // a, p, s are T x 1 (T >= 1); a in the simplex (a_j >= 0, sum a = 1
  // exactly), p in its interior (p_j > 0, sum p = 1); tau > 0 finite, s
  // finite. Domain: the "iff" certification needs a = p or ||a - p||_1 >=
  // 1/48^2 (then KL >= 9e-8 by Pinsker, above the rounding bound; the
  // generator's grid w/sum w, w in 0..8, T <= 6, guarantees it); and
  // |s_j| / tau <= 350, so Z = sum_j e^{s_j/tau} (summed without a shift)
  // is a finite double and no p_j = softmax(s/tau)_j underflows (the
  // identity's log(a_j/p_j) needs p_j > 0 in double: spread <= 700).
  template <class S> static Domain Hypotheses() {
    Domain d;
    d.Dim(kLen, {1, 6, 6}).Dim(kOne, {1, 1, 1}, 1);
    const int wa = d.Param(kLen, kOne, gen::Dyadic(8, 0)), wp = d.Param(kLen, kOne, gen::Dyadic(8, 0));
    const int mode =
        d.ScalarParam(rc::gen::map(rc::gen::inRange<int>(0, 4), [](int k) { return Exact(static_cast<double>(k)); }));
    d.Built(
        kA, kLen, kOne,
        [wa, wp, mode](const Domain::Drawn& in) {
          ExactMatrix a = in.Param(wa);
          for (Exact& e : a.data) e = Exact(std::abs(e.ToDouble()));
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
    d.Matrix(kScores, kLen, kOne, gen::Dyadic(8, 6), Admit::Finite());
    const int tau = d.ScalarParam(gen::Dyadic(4, 2));
    d.Built(
        kTau, [tau](const Domain::Drawn& in) { return Exact(std::max(0.25, std::abs(in.ScalarParam(tau).ToDouble()))); },
        Admit::Finite().Positive());
    d.Assume("a in the simplex, p in its interior (sum a = sum p = 1)", [](const Values& v) {
      return SumsToOne(v[kA]) && SumsToOne(v[kP]);
    });
    d.Assume("a = p or ||a - p||_1 >= 1/48^2 (the 'iff' certified)", [](const Values& v) {
      const ExactMatrix &a = v[kA], &p = v[kP];
      attnprop::Rational l1 = 0;
      for (int64_t j = 0; j < a.rows; ++j) {
        const attnprop::Rational aj = a(j, 0).ToRational(), pj = p(j, 0).ToRational();
        l1 += aj > pj ? attnprop::Rational(aj - pj) : attnprop::Rational(pj - aj);
      }
      return a == p || l1 * 2304 >= 1;
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
  // (lhs against rhs, attained at a = p), not as a difference.

  template <class S> static void Conclusion(const In<S>& in) {
    using std::log;
    const Vec<S> a = Col<S>(in, kA), p = Col<S>(in, kP);
    S h = 0, cross = 0, kl = 0, mag = 0, kl_mag = 0;
    for (Eigen::Index j = 0; j < a.size(); ++j) {
      if (a[j] == 0) continue;  // 0 log 0 = 0
      const S la = log(a[j]), lp = log(p[j]);
      h -= a[j] * la;
      cross -= a[j] * lp;
      mag += a[j] * (abs(la) + abs(lp));
      const S term = a[j] * log(a[j] / p[j]);
      kl += term;
      kl_mag += abs(term);
    }
    const double u = ScalarTraits<S>::UnitRoundoff(), t = static_cast<double>(a.size());
    static const Tolerance kGibbs{
        "H(a) against the cross-entropy H(a, p)", "H(a, p) + gamma_{T+6}(u) (1 + sum_j a_j (|log a_j| + |log p_j|))",
        "a, p rounded to the backend (u each), log turns relative error 2u into absolute 2u, times a_j (u) "
        "and a T-term sum (gamma_T): each side errs <= gamma_{T+4} (1 + sum_j a_j |log .|)",
        MetricKind::kClaim};
    ExpectWithin(kGibbs, h, S(cross + S(Gamma(t + 6, u) * (1 + ToDouble(mag)))));
    // The 'iff': a = p gives a_j / p_j = 1 and log 1 = 0 exactly (IEEE and
    // MPFR); a != p (on this grid ||a-p||_1 >= 1/48^2, so KL >= 9e-8 by
    // Pinsker) must give a KL above its rounding.
    const double tol = Gamma(t + 6, u) * (1 + ToDouble(kl_mag));
    if (in.exact(kA) == in.exact(kP)) ExpectThat(kl == 0, "a = p but KL(a||p) = " + std::to_string(ToDouble(kl)));
    else ExpectThat(ToDouble(kl) > tol, "KL(a||p) = " + std::to_string(ToDouble(kl)) + " not > 0 with a != p");
  }
};
ATTNPROP_REGISTER(GibbsInequality, double, Mpfr);

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
    S lin = 0, ent = 0, kl = 0, m1 = 0, m2 = 0, m3 = 0;
    for (Eigen::Index j = 0; j < a.size(); ++j) {
      lin += a[j] * s[j];
      m1 += abs(a[j] * s[j]);
      if (a[j] == 0) continue;
      ent -= a[j] * log(a[j]);
      m2 += abs(a[j] * log(a[j]));
      kl += a[j] * log(a[j] / p[j]);
      m3 += abs(a[j] * log(a[j] / p[j]));
    }
    const S lhs = lin + tau * ent, rhs = tau * log(z) - tau * kl;
    const double tol = Gamma(static_cast<double>(a.size() + 10), ScalarTraits<S>::UnitRoundoff()) *
                       ToDouble(S(m1 + tau * m2 + tau * abs(log(z)) + tau * m3 + 2 * tau));
    static const Tolerance kIdentity{
        "|<a,s> + tau H(a) - (tau log Z - tau KL(a||p))|",
        "gamma_{T+10}(u) (sum a|s| + tau sum a|log a| + tau |log Z| + tau sum a|log(a/p)| + 2 tau)",
        "every product, quotient, exp and sum carries relative error; with p = softmax(s/tau) "
        "(relative error gamma_{T+3}) and Z (gamma_{T+1}) the logs carry absolute errors of that size "
        "(the 2 tau term, weighted by sum a = 1); all sums have at most T terms"};
    ExpectWithin(kIdentity, ToDouble(Mpfr(abs(Mpfr(lhs) - Mpfr(rhs)))), tol);
  }
};
ATTNPROP_REGISTER(GibbsIdentity, double, Mpfr);

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
//   Checks: (1) the inequality within the evaluation budget B(a); (2) at the
//   computed p = softmax(s/tau): |F(p) - tau lse(s/tau)| within its bound;
//   (3) uniqueness certified: where the exact gap tau KL(a || p*) (MPFR at
//   twice the precision) exceeds 2 B(a), the backend's F(a) < tau lse(s/tau)
//   strictly.
//
// Evaluation budget B(a) of tau H(a) and tau lse(x) - <a,s>, x = fl(s/tau):
//   <a,s>: a, s exact inputs, products and a T-term sum: gamma_T sum a|s|;
//   tau H(a): log within 2u |log a_j| (1 ulp), times a_j, T-term sum, times
//     tau: tau gamma_{T+3} sum a |log a|;
//   tau lse(x): |x - s/tau| <= u|x| moves lse by <= u max|x| (lse is
//     1-Lipschitz in the max norm); LseError(x) for the evaluation; times
//     tau: u tau |lse|;  the final subtraction: u |rhs|.
// Equality bound at p: each computed p_j = p*_j (1 + eta_j) with |eta| <=
//   eta = e^{2u X + u D}(1 + gamma_{T+3})^2 - 1 (X = max|x|, D = max - min of
//   x: the rounded scores and the rounded shifts x_j - m), so |F(p) - F(p*)|
//   <= eta' (sum p|s| + tau sum p (|log p| + 1) + 1.02 tau), eta' =
//   eta/(1-eta); F(p*) = tau lse exactly; plus the evaluation budget at p.

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
  // s, a are T x 1 (T >= 1), s finite, tau > 0 finite (drawn 2^-2..4),
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
    const int tau = d.ScalarParam(gen::Dyadic(4, 2));
    auto tau_of = [tau](const Domain::Drawn& in) { return std::max(0.25, std::abs(in.ScalarParam(tau).ToDouble())); };
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

  /// F's two sides at a: tau H(a) and tau lse(x) - <a,s>, and the budget B(a).
  template <class S>
  struct Sides {
    S lhs, rhs, lin, lse;
    double budget;
  };
  template <class S>
  static Sides<S> Evaluate(const Vec<S>& a, const Vec<S>& s, const S& tau, const Vec<S>& x) {
    using std::log;
    const double u = ScalarTraits<S>::UnitRoundoff(), t = static_cast<double>(a.size());
    S lin = 0, ent = 0, m1 = 0, m2 = 0;
    for (Eigen::Index j = 0; j < a.size(); ++j) {
      lin += a[j] * s[j];
      m1 += abs(a[j] * s[j]);
      if (a[j] == 0) continue;  // 0 log 0 = 0
      const S la = log(a[j]);
      ent -= a[j] * la;
      m2 += abs(a[j] * la);
    }
    const S lse = LogSumExp<S>(x);
    const S lhs = tau * ent, rhs = tau * lse - lin;
    const double tv = ToDouble(tau), xmax = ToDouble(S(x.cwiseAbs().maxCoeff()));
    const double budget = (Gamma(t, u) * ToDouble(m1) + tv * Gamma(t + 3, u) * ToDouble(m2) +
                           tv * (u * xmax * (1 + u) + LseError<S>(x) + u * std::abs(ToDouble(lse))) +
                           u * std::abs(ToDouble(rhs))) * (1 + 4 * u);
    return {lhs, rhs, lin, lse, budget};
  }

  template <class S> static void Conclusion(const In<S>& in) {
    using std::exp;
    using std::log;
    const Vec<S> s = Col<S>(in, kScores), a = Col<S>(in, kA);
    const S tau = in[kTau];
    const Vec<S> x = s / tau;
    const double u = ScalarTraits<S>::UnitRoundoff(), t = static_cast<double>(s.size());
    // (1) F(a) <= tau lse(s/tau).
    const Sides<S> at_a = Evaluate<S>(a, s, tau, x);
    static const Tolerance kVariational{
        "tau H(a) against tau lse(s/tau) - <a,s>", "tau lse(s/tau) - <a,s> + B(a)",
        "B(a) = gamma_T sum a|s| + tau gamma_{T+3} sum a|log a| + tau (u max|x| + LseError(x) + u|lse|) + u|rhs| "
        "(derivation above the generator)", MetricKind::kClaim};
    ExpectWithin(kVariational, at_a.lhs, S(at_a.rhs + S(at_a.budget)));
    // (2) the maximum is attained at p = softmax(s/tau).
    const Vec<S> p = Softmax<S>(x);
    const Sides<S> at_p = Evaluate<S>(p, s, tau, x);
    const double xmax = ToDouble(S(x.cwiseAbs().maxCoeff())), spread = ToDouble(S(x.maxCoeff() - x.minCoeff()));
    const double g = Gamma(t + 3, u), eta = std::exp(2 * u * xmax + u * spread) * (1 + g) * (1 + g) - 1,
                 eta1 = eta / (1 - eta);
    S mag = 0;
    for (Eigen::Index j = 0; j < p.size(); ++j) mag += abs(p[j] * s[j]) + tau * p[j] * (abs(log(p[j])) + 1);
    const double eq_bound = eta1 * (ToDouble(mag) + 1.02 * ToDouble(tau)) * (1 + 4 * u) + at_p.budget;
    static const Tolerance kMaximum{
        "|F(softmax(s/tau)) - tau lse(s/tau)|", "eta' (sum p|s| + tau sum p(|log p| + 1) + 1.02 tau) + B(p)",
        "computed p within relative eta of the maximiser (rounded scores and shifts, exp, sum, division); "
        "F moves by eta' times its magnitude; F(p*) = tau lse exactly"};
    // F(p) - tau lse = lhs(p) - rhs(p) (rearranged), compared in MPFR.
    ExpectWithin(kMaximum, ToDouble(Mpfr(abs(Mpfr(at_p.lhs) - Mpfr(at_p.rhs)))), eq_bound);
    // (3) uniqueness: the exact gap tau KL(a || p*), in MPFR at twice the
    // precision from the exact s, tau and a, certifies a strict inequality
    // wherever it exceeds twice the evaluation budget.
    double gap = 0;
    {
      MpfrPrecisionScope hi(2 * MpfrPrecisionBits());
      const In<Mpfr> exact(in.value());
      const Vec<Mpfr> sh = Col<Mpfr>(exact, kScores), ah = Col<Mpfr>(exact, kA);
      const Mpfr th = exact[kTau];
      const Vec<Mpfr> xh = sh / th;
      const Mpfr lse = LogSumExp<Mpfr>(xh);
      Mpfr kl = 0;
      for (Eigen::Index j = 0; j < ah.size(); ++j)
        if (ah[j] != 0) kl += ah[j] * (log(ah[j]) - (xh[j] - lse));
      gap = ToDouble(Mpfr(th * kl));
    }
    if (gap > 2 * at_a.budget)
      ExpectThat(at_a.lhs < at_a.rhs, "a != softmax(s/tau) (gap tau KL = " + std::to_string(gap) +
                                          ") but F(a) is not below tau lse(s/tau)");
  }
};
ATTNPROP_REGISTER(TemperatureVariational, double, Mpfr);

}  // namespace
}  // namespace attnprop
