// Lecture 4, section 3 "Attention as averaging" (003_dd971a1151775776.txt).
//
// lecture4.prop3.1.simplex_rows (Prop 3.1)
// Statement: every unmasked row of A = softmax(S), S = c Q K^T, lies in the
// relative interior of the simplex: A_ij > 0 and sum_j A_ij = 1.
// Hypotheses: Q (t_q x d_k), K (t_k x d_k) real, no mask, any scale c.
// Backends: the model's weights directly (double, MPFR), and a kernel's
// through the ABI (kernel-f32/f64: A read as out with V = [I 0],
// properties/kernel_suite/claims.cc), each with its own derived bound.
#include <cmath>
#include <limits>

#include "generators/scalars.h"
#include "generators/shape.h"
#include "model/attention.h"
#include "properties/framework/hypotheses_checks.h"
#include "properties/framework/property.h"
#include "properties/kernel_suite/accuracy.h"
#include "properties/kernel_suite/attention_claims.h"
#include "properties/kernel_suite/kernel_backend.h"

namespace attnprop {
namespace {

/// Sizes per backend: MPFR costs ~10^3 x double per operation (NOTES.md).
template <class S>
constexpr int64_t kMaxLen = SizeBudget<S>::Pick(40, 12);
template <class S>
constexpr int64_t kMaxWidth = SizeBudget<S>::Pick(16, 6);

struct SimplexRows {
  static constexpr const char* kId = "lecture4.prop3.1.simplex_rows";

  static inline const Tolerance kRowSum{
      "|sum_j A_ij - 1|", "gamma_{T+1}(u) + gamma_T(u_mpfr)",
      "computed weights e_j/Z with Z = fl(sum e_j): normalising gives (1+gamma_{T-1})/(1+delta) "
      "<= gamma_{T+1}; the exp and score errors cancel since Z sums the same e_j; the checker "
      "sums the T weights in MPFR (gamma_T at its precision)"};
  template <class S>
  static constexpr bool kOnKernel = std::is_same_v<S, ksuite::KernelF32> || std::is_same_v<S, ksuite::KernelF64>;

  template <class S>
  static std::vector<Tolerance> Tolerances() {
    if constexpr (kOnKernel<S>) return {ksuite::kWeightSumTolerance};
    return {kRowSum};
  }

  template <class S>
  static rc::Gen<Case> Hypotheses() {
    if constexpr (kOnKernel<S>) {
      return ksuite::SimplexRowsOnOperatorGen(ksuite::InputKindOf<S>());
    } else {
      return ModelHypotheses<S>();
    }
  }

  template <class S>
  static void Conclusion(const Case& c) {
    if constexpr (kOnKernel<S>) {
      ksuite::SimplexRowsOnOperator(ksuite::OperatorFor<S>(), c);
    } else {
      ModelConclusion<S>(c);
    }
  }

  // Q (t_q x d_k), K (t_k x d_k), t_q, t_k, d_k >= 1, a finite scale of
  // either sign (the claim allows any c). Kernel backends: the problem class
  // of SimplexRowsOnOperatorGen (ksuite::ProblemHolds, with V = [I 0]).
  // Model domain: |scale <q_i, k_j>| <= 2^1000, so the scores (and their
  // error bound gamma_{d+1} c sum |q||k|) are finite doubles; beyond it the
  // double scores overflow, which the claim's rounding bound does not cover.
  template <class S>
  static bool HypothesesHold(const Case& c) {
    if constexpr (kOnKernel<S>) {
      return ksuite::ProblemHolds(ksuite::InputKindOf<S>().dtype,
                                  ksuite::Shape(ksuite::ShapeSpec::Causal::kNo, ksuite::ShapeSpec::Lengths::kAny, true), c);
    } else {
      const ExactMatrix &q = c.GetMatrix("Q"), &k = c.GetMatrix("K");
      const Exact& scale = c.GetScalar("scale");
      return q.rows >= 1 && k.rows >= 1 && q.cols >= 1 && k.cols == q.cols && hyp::AllFinite(q) &&
             hyp::AllFinite(k) && hyp::Finite(scale) && hyp::ScoresWithin(q, k, scale.ToDouble(), 0x1p1000);
    }
  }

  template <class S>
  static rc::Gen<Case> ModelHypotheses() {
    // Shaped (generators/shape.h): t_q, t_k, d_k are drawn from their edge
    // classes and keep shrinking (rows and columns dropped) after entries
    // shrank. A per-case magnitude in {1, 8, 64} (shrinking toward 1) scales
    // entries on the 2^-10 grid (exact: powers of two). Entries up to 64 with
    // d_k up to 16 give |scores| in the thousands: far past the overflow of
    // exp (709.8) without max subtraction.
    const gen::DimRange len{1, kMaxLen<S>, kMaxLen<S>}, width{1, kMaxWidth<S>, kMaxWidth<S>};
    const rc::Gen<Exact> magnitude =
        rc::gen::map(rc::gen::inRange<int>(0, 3), [](int k) { return Exact(std::ldexp(1.0, 3 * k)); });
    return gen::Shaped<Case>(
        {{len}, {len}, {width}}, {{{0, 2}, gen::Dyadic(1, 10)}, {{1, 2}, gen::Dyadic(1, 10)}, {{}, magnitude}},
        [](const gen::Params& p) {
          const double m = p.arrays[2][0].ToDouble();
          auto scaled = [m](ExactMatrix x) {
            for (Exact& e : x.data) e = Exact(e.ToDouble() * m);
            return x;
          };
          return Case()
              .Matrix("Q", scaled(p.Matrix(0)))
              .Matrix("K", scaled(p.Matrix(1)))
              .Scalar("scale", 1.0 / std::sqrt(static_cast<double>(p.dims[2])));
        });
  }

  template <class S>
  static void ModelConclusion(const Case& c) {
    using std::log;
    const Mat<S> q = c.GetMat<S>("Q"), k = c.GetMat<S>("K");
    const S scale = c.Get<S>("scale");
    const Mat<S> a = Attention<S>(q, k, Mat<S>::Zero(k.rows(), 1), scale).weights;
    const Eigen::Index t = k.rows();
    const double u = ScalarTraits<S>::UnitRoundoff();
    // Below this score gap the exact weight is under S's smallest normal
    // number and cannot be represented: positivity is checked above it.
    const double ln_min = ToDouble(S(log(std::numeric_limits<S>::min())));
    const Mat<Mpfr> q_hi = c.GetMat<Mpfr>("Q"), k_hi = c.GetMat<Mpfr>("K");
    const Mpfr scale_hi = c.Get<Mpfr>("scale");
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
      Mpfr sum = 0;
      for (Eigen::Index j = 0; j < t; ++j) {
        ExpectThat(a(i, j) >= 0, "A(" + std::to_string(i) + "," + std::to_string(j) + ") = " +
                                     std::to_string(ToDouble(a(i, j))) + " is not >= 0");
        sum += Mpfr(a(i, j));
      }
      ExpectWithin(kRowSum, ToDouble(Mpfr(abs(sum - 1))),
                   Gamma(static_cast<double>(t + 1), u) + Gamma(static_cast<double>(t), ScalarTraits<Mpfr>::UnitRoundoff()));
      // Exact scores and their computed error bound gamma_{d+1} c sum|q||k|.
      Vec<Mpfr> s(t);
      double worst_err = 0;
      for (Eigen::Index j = 0; j < t; ++j) {
        Mpfr dot = 0, mag = 0;
        for (Eigen::Index l = 0; l < q_hi.cols(); ++l) {
          dot += q_hi(i, l) * k_hi(j, l);
          mag += abs(q_hi(i, l) * k_hi(j, l));
        }
        s[j] = scale_hi * dot;
        worst_err = std::max(worst_err, ToDouble(Mpfr(abs(scale_hi) * mag)) * Gamma(static_cast<double>(q_hi.cols() + 1), u));
      }
      const Mpfr m = s.maxCoeff();
      for (Eigen::Index j = 0; j < t; ++j) {
        const double gap = ToDouble(Mpfr(s[j] - m));
        if (gap >= ln_min + 1 + 2 * worst_err)
          ExpectThat(a(i, j) > 0, "A(" + std::to_string(i) + "," + std::to_string(j) +
                                      ") is not > 0 although its score gap " + std::to_string(gap) +
                                      " is above the underflow threshold");
      }
    }
  }
};

ATTNPROP_REGISTER(SimplexRows, double, Mpfr, ksuite::KernelF32, ksuite::KernelF64);

// ---------------------------------------------------------------------------
// Section 3, the scalar consequences of Prop 3.1 (the corollary after it).
//
// lecture4.cor3.linear_functional_bounds
//   Statement: for u in R^{d_v}, min_j <u,v_j> <= <u,Attn(X)_i> <= max_j <u,v_j>.
// lecture4.cor3.norm_bound
//   Statement: ||Attn(X)_i||_2 <= sum_j A_ij ||v_j||_2 <= max_j ||v_j||_2.
// lecture4.cor3.jensen
//   Statement: phi(Attn(X)_i) <= sum_j A_ij phi(v_j) for every convex phi;
//   checked for phi = ||.||_2^2 (strictly convex) and phi = max_l x_l
//   (convex, not differentiable).
// Hypotheses: unmasked attention, Q (t_q x d_k), K (t_k x d_k), V (t_k x d_v),
//   one functional u_i (row i of U, t_q x d_v) per query row.
// Rounding (all three): the computed weights a_j >= 0 sum to 1 + eps with
//   |eps| <= gamma_{T+1} (Prop 3.1 property above); the computed output is
//   o_l = sum_j a_j v_jl (1 + theta_jl), |theta| <= gamma_T (sequential sum).
//   A_ij in the middle terms is the computed weight (the inequalities hold
//   for any nonnegative weights, the slack comes only from eps and theta).
//   The checker evaluates in MPFR (its gamma terms are below 1e-30).

template <class S>
rc::Gen<Case> AveragingCase() {
  const gen::DimRange len{1, kMaxLen<S>, kMaxLen<S>}, width{1, kMaxWidth<S>, kMaxWidth<S>};
  return gen::Shaped<Case>({{len}, {len}, {width}, {width}},
                           {{{0, 2}, gen::Dyadic(4, 6)},
                            {{1, 2}, gen::Dyadic(4, 6)},
                            {{1, 3}, gen::Dyadic(8, 6)},
                            {{0, 3}, gen::Dyadic(4, 4)}},
                           [](const gen::Params& p) {
                             return Case()
                                 .Matrix("Q", p.Matrix(0))
                                 .Matrix("K", p.Matrix(1))
                                 .Matrix("V", p.Matrix(2))
                                 .Matrix("U", p.Matrix(3))
                                 .Scalar("scale", 1.0 / std::sqrt(static_cast<double>(p.dims[2])));
                           });
}

/// The computed weights and output, lifted to MPFR for checking.
struct Averaged {
  Mat<Mpfr> a, out, v;
  double g_t, g_t1;  // gamma_T(u), gamma_{T+1}(u) of the backend
};

template <class S>
Averaged Average(const Case& c) {
  const Mat<S> q = c.GetMat<S>("Q"), k = c.GetMat<S>("K"), v = c.GetMat<S>("V");
  const AttentionResult<S> r = Attention<S>(q, k, v, c.Get<S>("scale"));
  const double u = ScalarTraits<S>::UnitRoundoff(), t = static_cast<double>(k.rows());
  return {r.weights.template cast<Mpfr>(), r.out.template cast<Mpfr>(), v.template cast<Mpfr>(), Gamma(t, u),
          Gamma(t + 1, u)};
}

double CheckerSlack(double n) { return 4 * Gamma(n + 2, ScalarTraits<Mpfr>::UnitRoundoff()); }

/// The three corollaries share the averaging hypotheses and cases.
struct AveragingFamily {
  // Q (t_q x d_k), K (t_k x d_k), V (t_k x d_v), U (t_q x d_v), all >= 1,
  // finite entries and scale. Domain: |scale <q_i, k_j>| <= 2^1000 (finite
  // double scores) and |v|, |u| entries <= 2^240, so that <u, v_j>, ||v_j||^2
  // and the outputs are finite doubles for d_v <= 2^20 (the checks read
  // them; overflow is outside the rounding model of the bounds).
  static bool HypothesesHold(const Case& c) {
    const ExactMatrix &q = c.GetMatrix("Q"), &k = c.GetMatrix("K"), &v = c.GetMatrix("V"), &u = c.GetMatrix("U");
    const Exact& scale = c.GetScalar("scale");
    return q.rows >= 1 && k.rows >= 1 && q.cols >= 1 && k.cols == q.cols && v.rows == k.rows && v.cols >= 1 &&
           u.rows == q.rows && u.cols == v.cols && hyp::AllFinite(q) && hyp::AllFinite(k) &&
           hyp::AllWithin(v, 0x1p240) && hyp::AllWithin(u, 0x1p240) && hyp::Finite(scale) &&
           hyp::ScoresWithin(q, k, scale.ToDouble(), 0x1p1000);
  }
  template <class S>
  static rc::Gen<Case> Hypotheses() {
    return AveragingCase<S>();
  }
};

struct LinearFunctionalBounds : AveragingFamily {
  static constexpr const char* kId = "lecture4.cor3.linear_functional_bounds";

  static inline const Tolerance kOutside{
      "<u,o_i> outside [min_j <u,v_j>, max_j <u,v_j>] / B",
      "gamma_{T+1}(u) + gamma_T(u)(1 + gamma_{T+1}(u)) + 4 gamma_{d_v+2}(u_mpfr)",
      "<u,o> = sum_j a_j <u,v_j> + R with |R| <= gamma_T sum_j a_j sum_l |u_l||v_jl| <= gamma_T (1+eps) B, "
      "B = max_j sum_l |u_l||v_jl|; sum_j a_j w_j lies within |eps| B <= gamma_{T+1} B of [min w, max w]", MetricKind::kClaim};
  static std::vector<Tolerance> Tolerances() { return {kOutside}; }

  template <class S>
  static void Conclusion(const Case& c) {
    const Averaged r = Average<S>(c);
    const Mat<Mpfr> u = c.GetMat<Mpfr>("U");
    const double tol = r.g_t1 + r.g_t * (1 + r.g_t1) + CheckerSlack(static_cast<double>(u.cols()));
    for (Eigen::Index i = 0; i < r.a.rows(); ++i) {
      const Mpfr f = u.row(i).dot(r.out.row(i));
      Mpfr lo = 0, hi = 0, b = 0;
      for (Eigen::Index j = 0; j < r.v.rows(); ++j) {
        const Mpfr w = u.row(i).dot(r.v.row(j));
        const Mpfr mag = u.row(i).cwiseAbs().dot(r.v.row(j).cwiseAbs());
        if (j == 0 || w < lo) lo = w;
        if (j == 0 || w > hi) hi = w;
        if (mag > b) b = mag;
      }
      // Distance outside the interval, relative to B (0 when B = 0: then u is
      // orthogonal in absolute value to every v_j and <u,o> is exactly 0).
      const Mpfr outside = f > hi ? Mpfr(f - hi) : f < lo ? Mpfr(lo - f) : Mpfr(0);
      const double ratio = b > 0 ? ToDouble(Mpfr(outside / b)) : ToDouble(Mpfr(abs(f)));
      ExpectWithin(kOutside, ratio, tol);
    }
  }
};

struct NormBound : AveragingFamily {
  static constexpr const char* kId = "lecture4.cor3.norm_bound";

  static inline const Tolerance kOutputNorm{
      "(||o_i|| - sum_j A_ij ||v_j||) / sum_j A_ij ||v_j||", "gamma_T(u) + 4 gamma_{d_v+2}(u_mpfr)",
      "|o - sum_j a_j v_j| <= gamma_T sum_j a_j |v_j| entrywise, so ||o|| <= (1 + gamma_T) sum_j a_j ||v_j||", MetricKind::kClaim};
  static inline const Tolerance kAverageNorm{"(sum_j A_ij ||v_j|| - max_j ||v_j||) / max_j ||v_j||",
                                             "gamma_{T+1}(u) + 4 gamma_{d_v+2}(u_mpfr)",
                                             "sum_j a_j ||v_j|| <= (1 + eps) max_j ||v_j||, |eps| <= gamma_{T+1}", MetricKind::kClaim};
  static std::vector<Tolerance> Tolerances() { return {kOutputNorm, kAverageNorm}; }

  template <class S>
  static void Conclusion(const Case& c) {
    using std::sqrt;
    const Averaged r = Average<S>(c);
    const double slack = CheckerSlack(static_cast<double>(r.v.cols()));
    Mpfr vmax = 0;
    for (Eigen::Index j = 0; j < r.v.rows(); ++j) vmax = std::max(vmax, Mpfr(r.v.row(j).norm()));
    for (Eigen::Index i = 0; i < r.a.rows(); ++i) {
      Mpfr mid = 0;
      for (Eigen::Index j = 0; j < r.v.rows(); ++j) mid += r.a(i, j) * r.v.row(j).norm();
      const Mpfr left = r.out.row(i).norm();
      // 0/0 rows (all values zero) give exact zeros on every side.
      ExpectWithin(kOutputNorm, mid > 0 ? ToDouble(Mpfr((left - mid) / mid)) : ToDouble(left), r.g_t + slack);
      ExpectWithin(kAverageNorm, vmax > 0 ? ToDouble(Mpfr((mid - vmax) / vmax)) : ToDouble(mid), r.g_t1 + slack);
    }
  }
};

struct Jensen : AveragingFamily {
  static constexpr const char* kId = "lecture4.cor3.jensen";

  static inline const Tolerance kSquaredNorm{
      "(||o_i||^2 - sum_j A_ij ||v_j||^2) / sum_j A_ij ||v_j||^2",
      "(1 + gamma_{T+1}(u))(1 + gamma_T(u))^2 - 1 + 4 gamma_{d_v+2}(u_mpfr)",
      "||o|| <= ||sum a_j v_j|| + gamma_T sum a_j ||v_j|| and both terms are <= sqrt(1+eps) R, "
      "R^2 = sum_j a_j ||v_j||^2 (Jensen for the normalised weights a/(1+eps), and Cauchy-Schwarz)", MetricKind::kClaim};
  static inline const Tolerance kMax{
      "(max_l o_il - sum_j A_ij max_l v_jl) / sum_j A_ij ||v_j||_inf", "gamma_T(u) + 4 gamma_{d_v+2}(u_mpfr)",
      "o_l <= sum_j a_j v_jl + gamma_T sum_j a_j |v_jl|; sum_j a_j v_jl <= sum_j a_j max_l v_jl; "
      "no eps term: max is positively homogeneous and subadditive, so both sides carry the same weights", MetricKind::kClaim};
  static std::vector<Tolerance> Tolerances() { return {kSquaredNorm, kMax}; }

  template <class S>
  static void Conclusion(const Case& c) {
    const Averaged r = Average<S>(c);
    const double slack = CheckerSlack(static_cast<double>(r.v.cols()));
    for (Eigen::Index i = 0; i < r.a.rows(); ++i) {
      Mpfr r2 = 0, rmax = 0, rinf = 0;
      for (Eigen::Index j = 0; j < r.v.rows(); ++j) {
        r2 += r.a(i, j) * r.v.row(j).squaredNorm();
        rmax += r.a(i, j) * r.v.row(j).maxCoeff();
        rinf += r.a(i, j) * r.v.row(j).cwiseAbs().maxCoeff();
      }
      const Mpfr left2 = r.out.row(i).squaredNorm();
      ExpectWithin(kSquaredNorm,
                   r2 > 0 ? ToDouble(Mpfr((left2 - r2) / r2)) : ToDouble(left2),
                   (1 + r.g_t1) * (1 + r.g_t) * (1 + r.g_t) - 1 + slack);
      const Mpfr leftm = r.out.row(i).maxCoeff();
      ExpectWithin(kMax,
                   rinf > 0 ? ToDouble(Mpfr((leftm - rmax) / rinf)) : ToDouble(Mpfr(leftm - rmax)),
                   r.g_t + slack);
    }
  }
};

ATTNPROP_REGISTER(LinearFunctionalBounds, double, Mpfr);
ATTNPROP_REGISTER(NormBound, double, Mpfr);
ATTNPROP_REGISTER(Jensen, double, Mpfr);

}  // namespace
}  // namespace attnprop
