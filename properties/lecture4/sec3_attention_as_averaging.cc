// Lecture 4, section 3 "Attention as averaging" (003_dd971a1151775776.txt).
//
// lecture4.prop3.1.simplex_rows (Prop 3.1)
// Statement: every unmasked row of A = softmax(S), S = c Q K^T, lies in the
// relative interior of the simplex: A_ij > 0 and sum_j A_ij = 1.
// Hypotheses: Q (t_q x d_k), K (t_k x d_k) real, no mask, any scale c.
// Backends: the model's weights directly (double, MPFR, interval: as stated,
// certified by intervals, no rounding budget), and a kernel's through the ABI
// (kernel-f32/f64: A read as out with V = [I 0],
// properties/lecture4/attention_operator.cc, with its derived bound).
// Further down: the corollaries (cor3.*), the probabilistic form
// (sec3.expectation_form, by sampling J_i) and Geometric aside 3.6
// (aside3.6.barycentric_coordinates, exactly in rationals).
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <Eigen/LU>

#include "generators/regime.h"
#include "generators/scalars.h"
#include "generators/shape.h"
#include "model/attention.h"
#include "properties/framework/case_edit.h"
#include "properties/framework/hypotheses_checks.h"
#include "properties/framework/property.h"
#include "properties/operator/accuracy.h"
#include "properties/operator/attention_claims.h"
#include "properties/operator/kernel_backend.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

/// Sizes per backend: MPFR costs ~10^3 x double per operation (NOTES.md).
template <class S> constexpr int64_t kMaxLen = SizeBudget<S>::Pick(40, 12);
template <class S> constexpr int64_t kMaxWidth = SizeBudget<S>::Pick(16, 6);

constexpr Axis kTq{"t_q"}, kTk{"t_k"}, kD{"d"}, kDv{"d_v"}, kPieces{"R"}, kOne{"1"}, kLen{"T"};
constexpr MatrixField kQ{"Q"}, kK{"K"}, kV{"V"}, kU{"U"}, kAPhi{"A_phi"}, kBPhi{"b_phi"}, kWeights{"a"};
constexpr ScalarField kScale{"scale"};
constexpr IntField kSeed{"seed"};

struct SimplexRows : ClaimId<"lecture4.prop3.1.simplex_rows"> {
  template <class S>
  static constexpr bool kOnKernel = ksuite::kIsKernel<S>;

  /// Kernel backends: the claim on the operator (attention_operator.cc),
  /// its generator and predicate from one problem class.
  struct OnOperator : ksuite::AttentionClaim<OnOperator> {
    static ksuite::ShapeSpec Problems() { return ksuite::SimplexRowsProblems(); }
    static void Check(const ksuite::Operator& op, const Case& c) { ksuite::SimplexRowsOnOperator(op, c); }
  };

  template <class S> static auto Hypotheses() {
    if constexpr (kOnKernel<S>) return OnOperator::Hypotheses<S>();
    else return ModelDomain<S>();
  }
  template <class S>
    requires kOnKernel<S>
  static bool HypothesesHold(const Case& c) {
    return OnOperator::HypothesesHold<S>(c);
  }
  template <class S>
    requires kOnKernel<S>
  static CaseDims Dims(const Case& c) {
    return OnOperator::Dims(c);
  }

  template <class S> static void Conclusion(const Case& c) {
    if constexpr (kOnKernel<S>) OnOperator::Conclusion<S>(c);
    else ModelConclusion<S>(c);
  }

  // Q (t_q x d_k), K (t_k x d_k), t_q, t_k, d_k >= 1, a finite scale of
  // either sign (the claim allows any c). Model domain: |scale <q_i, k_j>|
  // <= 2^1000, so the scores are finite doubles (a weight below MPFR's
  // exponent range, a score gap past about 2^30, is left undecided by the
  // intervals rather than proved positive). Drawn in every regime (scales
  // 2^-20..2^3, a dominant entry to 2^13: |scores| to 2^28 with d_k <= 16,
  // far past the overflow of exp (709.8) without max subtraction, and below
  // the 2^30 gap where the intervals stop deciding); scale = 1/sqrt(d_k).
  template <class S> static Domain ModelDomain() {
    gen::Regime regime = gen::RegimeFor<S>(gen::Regime{});
    regime.max_scale = 3;
    Domain d;
    d.Dim(kTq, {1, kMaxLen<S>, kMaxLen<S>}).Dim(kTk, {1, kMaxLen<S>, kMaxLen<S>});
    d.Dim(kD, {1, kMaxWidth<S>, kMaxWidth<S>});
    d.Matrix(kQ, kTq, kD, regime, Admit::Finite()).Matrix(kK, kTk, kD, regime, Admit::Finite());
    d.Built(kScale, [](const Domain::Drawn& in) { return Exact(1.0 / std::sqrt(static_cast<double>(in.Dim(kD)))); },
            Admit::Finite());
    d.Assume("|scale <q_i, k_j>| <= 2^1000 (double scores finite)", [](const Values& v) {
      return hyp::ScoresWithin(v[kQ], v[kK], v[kScale].ToDouble(), 0x1p1000);
    });
    return d;
  }

  template <class S>
  static void ModelConclusion(const Case& c) {
    using std::log;
    const Mat<S> q = c.GetMat<S>("Q"), k = c.GetMat<S>("K");
    const S scale = c.Get<S>("scale");
    const Mat<S> a = Attention<S>(q, k, Mat<S>::Zero(k.rows(), 1), scale).weights;
    const Eigen::Index t = k.rows();
    // Certified (no rounding budget): a weight that underflows to 0 in
    // double is a candidate, and its enclosure is positive.
    static const Tolerance kRowSum{"|sum_j A_ij - 1|", "0 (an identity)", "certified by interval arithmetic", MetricKind::kRounding};
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
      S sum = 0;
      for (Eigen::Index j = 0; j < t; ++j) {
        ExpectThat(a(i, j) > S(0), "A(" + std::to_string(i) + "," + std::to_string(j) + ") = " +
                                       std::to_string(ToDouble(a(i, j))) + " is not > 0");
        sum += a(i, j);
      }
      ExpectWithin<S>(kRowSum, abs(sum - 1), S(0));
    }
  }
};
ATTNPROP_REGISTER(SimplexRows, double, Mpfr, Interval, ksuite::KernelF32, ksuite::KernelF64);

// ---------------------------------------------------------------------------
// Section 3, the scalar consequences of Prop 3.1 (the corollary after it).
//
// lecture4.cor3.linear_functional_bounds
//   Statement: for u in R^{d_v}, min_j <u,v_j> <= <u,Attn(X)_i> <= max_j <u,v_j>.
// lecture4.cor3.norm_bound
//   Statement: ||Attn(X)_i||_2 <= sum_j A_ij ||v_j||_2 <= max_j ||v_j||_2.
// lecture4.cor3.jensen
//   Statement: phi(Attn(X)_i) <= sum_j A_ij phi(v_j) for every convex phi;
//   checked for a family: phi = ||.||_2^2 (strictly convex), max_l x_l
//   (convex, not differentiable), ||.||_1, lse (smooth), and a drawn
//   max-affine phi(x) = max_r (<a_r, x> + b_r) (R <= 4 pieces: every convex
//   piecewise-linear function is of this form).
// Hypotheses: unmasked attention, Q (t_q x d_k), K (t_k x d_k), V (t_k x d_v),
//   one functional u_i (row i of U, t_q x d_v) per query row.
// Rounding: none budgeted; all three are stated for the exact weights and
//   certified by interval arithmetic (properties/framework/certify.h), their
//   equality cases decided exactly on the case's values (ExpectWithinAtEquality).
//   Backends double, MPFR, interval.

/// The averaging case: Q (t_q x d_k), K (t_k x d_k), V (t_k x d_v), U (t_q x
/// d_v) in every regime (Q, K with scales to 2^3, dominant 2^13, as the
/// simplex claim's), scale = fl(1/sqrt(d_k)); with_phi: a drawn max-affine
/// phi, A_phi (R x d_v, R <= 4 drawn) and b_phi (R x 1), every regime,
/// before the scale.
/// Domain: |scale <q_i, k_j>| <= 2^1000 (finite double scores) and |v|, |u|
/// entries <= 2^240, so that <u, v_j>, ||v_j||^2 and the outputs are finite
/// doubles for d_v <= 2^20 (the checks read them); phi's entries within
/// 2^100 (finite products with v).
template <class S>
Domain AveragingCase(bool with_phi) {
  Domain d;
  d.Dim(kTq, {1, kMaxLen<S>, kMaxLen<S>}).Dim(kTk, {1, kMaxLen<S>, kMaxLen<S>});
  d.Dim(kD, {1, kMaxWidth<S>, kMaxWidth<S>}).Dim(kDv, {1, kMaxWidth<S>, kMaxWidth<S>});
  if (with_phi) d.Dim(kPieces, {1, 4, 4}).Dim(kOne, {1, 1, 1}, 1);
  const gen::Regime regime = gen::RegimeFor<S>(gen::Regime{});  // |entry| <= 2^16
  gen::Regime scores = regime;
  scores.max_scale = 3;
  d.Matrix(kQ, kTq, kD, scores, Admit::Finite()).Matrix(kK, kTk, kD, scores, Admit::Finite());
  d.Matrix(kV, kTk, kDv, regime, Admit::Within(0x1p240));
  d.Matrix(kU, kTq, kDv, regime, Admit::Within(0x1p240));
  if (with_phi) {
    d.Matrix(kAPhi, kPieces, kDv, regime, Admit::Within(0x1p100));
    d.Matrix(kBPhi, kPieces, kOne, regime, Admit::Within(0x1p100));
  }
  d.Built(
      kScale, [](const Domain::Drawn& in) { return Exact(1.0 / std::sqrt(static_cast<double>(in.Dim(kD)))); },
      Admit::Finite());
  d.Assume("|scale <q_i, k_j>| <= 2^1000 (finite double scores)", [](const Values& v) {
    return hyp::ScoresWithin(v[kQ], v[kK], v[kScale].ToDouble(), 0x1p1000);
  });
  return d;
}

/// The MPFR checker's own rounding in the statistical check below (sums of
/// n + 2 terms at the MPFR precision).
double CheckerSlack(double n) { return 4 * Gamma(n + 2, ScalarTraits<Mpfr>::UnitRoundoff()); }

/// lhs <= rhs, recorded with both sides shifted by the same max(0,
/// -min(lhs, rhs)) (a claim metric's sides are >= 0 for the audit);
/// `equality`: a case decided exactly to be an equality
/// (ExpectWithinAtEquality).
template <class S>
void AtMost(const Tolerance& t, const S& lhs, const S& rhs, bool equality) {
  using std::max;
  using std::min;
  const S shift = max(S(0), S(-min(lhs, rhs)));
  ExpectWithinAtEquality<S>(t, S(lhs + shift), S(rhs + shift), equality);
}

/// The three corollaries share the averaging hypotheses and cases.
struct AveragingFamily {
  // Q (t_q x d_k), K (t_k x d_k), V (t_k x d_v), U (t_q x d_v), all >= 1,
  // finite entries and scale; the domain of AveragingCase.
  template <class S> static Domain Hypotheses() { return AveragingCase<S>(false); }
};

struct LinearFunctionalBounds : AveragingFamily, ClaimId<"lecture4.cor3.linear_functional_bounds"> {
  template <class S> static void Conclusion(const In<S>& in) {
    // As stated, for the exact weights A = softmax(c Q K^T): certified by
    // interval arithmetic (properties/framework/certify.h), so no rounding
    // budget (the old relative one allowed nothing at subnormal values).
    using std::max;
    using std::min;
    const Mat<S> u = in[kU], v = in[kV];
    const Mat<S> o = Attention<S>(in[kQ], in[kK], v, in[kScale]).out;
    static const Tolerance kAbove{"<u,o_i> (shifted >= 0)", "max_j <u,v_j> (shifted alike)",
                                  "the corollary's upper bound", MetricKind::kClaim};
    static const Tolerance kBelow{"min_j <u,v_j> (shifted >= 0)", "<u,o_i> (shifted alike)",
                                  "the corollary's lower bound", MetricKind::kClaim};
    // Row i is an equality case iff every <u_i, v_j> is the same (then
    // <u_i, o_i> = sum_j A_ij c = c, the weights summing to 1); otherwise
    // both bounds are strict (every A_ij > 0). Decided in rationals on the
    // case's own values, for the certifier (ExpectWithinAtEquality).
    std::vector<bool> equal_row(static_cast<size_t>(o.rows()), false);
    if constexpr (std::is_same_v<S, Interval>) {
      const Mat<Rational> ue = in.exact(kU).template As<Rational>(), ve = in.exact(kV).template As<Rational>();
      for (Eigen::Index i = 0; i < o.rows(); ++i) {
        const Rational c0 = ue.row(i).dot(ve.row(0));
        bool all = true;
        for (Eigen::Index j = 1; j < ve.rows() && all; ++j) all = Rational(ue.row(i).dot(ve.row(j))) == c0;
        equal_row[static_cast<size_t>(i)] = all;
      }
    }
    for (Eigen::Index i = 0; i < o.rows(); ++i) {
      const S f = u.row(i).dot(o.row(i));
      S lo = u.row(i).dot(v.row(0)), hi = lo;
      for (Eigen::Index j = 1; j < v.rows(); ++j) {
        const S w = u.row(i).dot(v.row(j));
        lo = min(lo, w);
        hi = max(hi, w);
      }
      AtMost<S>(kAbove, f, hi, equal_row[static_cast<size_t>(i)]);
      AtMost<S>(kBelow, lo, f, equal_row[static_cast<size_t>(i)]);
    }
  }
};
ATTNPROP_REGISTER(LinearFunctionalBounds, double, Mpfr, Interval);

struct NormBound : AveragingFamily, ClaimId<"lecture4.cor3.norm_bound"> {
  // As stated, for the exact weights: certified by interval arithmetic, so
  // no rounding budget.
  //
  // Equality cases (the generator draws one-hot-like and equal-norm values):
  // ||o_i|| = sum_j A_ij ||v_j|| iff the v_j are nonnegative multiples of
  // one vector (Cauchy-Schwarz with equality: <v_j, v_k>^2 = ||v_j||^2
  // ||v_k||^2 and <v_j, v_k> >= 0 for every pair), and sum_j A_ij ||v_j|| =
  // max_j ||v_j|| iff every ||v_j|| is the same (every A_ij > 0); both are
  // decided in rationals on the case's own values, for the certifier.
  struct EqualityCases {
    bool aligned = false;     // first inequality
    bool equal_norms = false;  // second
  };
  static EqualityCases EqualityCasesOf(const ExactMatrix& v_exact) {
    const Mat<Rational> v = v_exact.As<Rational>();
    EqualityCases e{true, true};
    const Rational n0 = v.row(0).squaredNorm();
    for (Eigen::Index j = 0; j < v.rows(); ++j) {
      const Rational nj = v.row(j).squaredNorm();
      if (nj != n0) e.equal_norms = false;
      for (Eigen::Index k = j + 1; k < v.rows() && e.aligned; ++k) {
        const Rational d = v.row(j).dot(v.row(k));
        e.aligned = d >= 0 && d * d == nj * Rational(v.row(k).squaredNorm());
      }
    }
    return e;
  }
  template <class S> static void Conclusion(const In<S>& in) {
    using std::max;
    const Mat<S> v = in[kV];
    const AttentionResult<S> r = Attention<S>(in[kQ], in[kK], v, in[kScale]);
    EqualityCases equal{false, false};
    if constexpr (std::is_same_v<S, Interval>) equal = EqualityCasesOf(in.exact(kV));
    S vmax = 0;
    for (Eigen::Index j = 0; j < v.rows(); ++j) vmax = max(vmax, S(v.row(j).norm()));
    static const Tolerance kOutputNorm{"||o_i||", "sum_j A_ij ||v_j||", "the triangle inequality (convex weights)",
                                       MetricKind::kClaim};
    static const Tolerance kAverageNorm{"sum_j A_ij ||v_j||", "max_j ||v_j||", "the weights sum to 1",
                                        MetricKind::kClaim};
    for (Eigen::Index i = 0; i < r.out.rows(); ++i) {
      S mid = 0;
      for (Eigen::Index j = 0; j < v.rows(); ++j) mid += r.weights(i, j) * S(v.row(j).norm());
      ExpectWithinAtEquality<S>(kOutputNorm, S(r.out.row(i).norm()), mid, equal.aligned);
      ExpectWithinAtEquality<S>(kAverageNorm, mid, vmax, equal.equal_norms);
    }
  }
};
ATTNPROP_REGISTER(NormBound, double, Mpfr, Interval);

struct Jensen : AveragingFamily, ClaimId<"lecture4.cor3.jensen"> {
  // The averaging hypotheses, and phi's pieces: A_phi (R x d_v, R >= 1),
  // b_phi (R x 1), entries within 2^100 (finite products with v).
  template <class S> static Domain Hypotheses() { return AveragingCase<S>(true); }

  /// The drawn max-affine phi at row i of pieces = x A_phi^T.
  template <class S>
  static S MaxAffine(const Mat<S>& pieces, Eigen::Index i, const Mat<S>& b) {
    using std::max;
    S best = pieces(i, 0) + b(0, 0);
    for (Eigen::Index p = 1; p < b.rows(); ++p) best = max(best, S(pieces(i, p) + b(p, 0)));
    return best;
  }

  /// Where phi is affine on conv{v_j}, Jensen holds with equality for every
  /// point of the simplex (sum_j A_ij phi(v_j) = phi(sum_j A_ij v_j) when
  /// phi is affine there and sum_j A_ij = 1): both sides are then one real,
  /// and interval enclosures of the two overlap at every precision.
  /// Elsewhere the inequality is strict (every A_ij > 0 unmasked; phi is
  /// strictly convex off these sets, or the piece maximal at o_i misses some
  /// v_j), and intervals decide it. Each set is decided exactly, in
  /// rationals, on the case's own values (not on their rounding).
  struct EqualityCases {
    bool squared_norm = true;  // every v_j the same (||.||^2 strictly convex)
    bool max = false;          // one coordinate l maximal in every v_j
    bool l1 = true;            // each column of V of one sign (zeros allowed)
    bool lse = true;           // v_j - v_0 in R 1 for every j (lse(x + t1) = lse(x) + t)
    bool max_affine = false;   // one piece r maximal at every v_j
  };
  static EqualityCases EqualityCasesOf(const ExactMatrix& v_exact, const ExactMatrix& aphi_exact,
                                       const ExactMatrix& bphi_exact) {
    const Mat<Rational> v = v_exact.As<Rational>(), aphi = aphi_exact.As<Rational>(), bphi = bphi_exact.As<Rational>();
    EqualityCases e;
    const Eigen::Index t = v.rows(), d = v.cols(), r = aphi.rows();
    for (Eigen::Index j = 1; j < t; ++j)
      for (Eigen::Index l = 0; l < d; ++l) {
        if (v(j, l) != v(0, l)) e.squared_norm = false;
        if (v(j, l) - v(0, l) != v(j, 0) - v(0, 0)) e.lse = false;
      }
    for (Eigen::Index l = 0; l < d; ++l) {
      bool pos = false, neg = false;
      for (Eigen::Index j = 0; j < t; ++j) pos |= v(j, l) > 0, neg |= v(j, l) < 0;
      if (pos && neg) e.l1 = false;
    }
    auto common_maximiser = [t](Eigen::Index n, const auto& value) {
      for (Eigen::Index c = 0; c < n; ++c) {
        bool everywhere = true;
        for (Eigen::Index j = 0; j < t && everywhere; ++j)
          for (Eigen::Index o = 0; o < n && everywhere; ++o) everywhere = value(j, c) >= value(j, o);
        if (everywhere) return true;
      }
      return false;
    };
    e.max = common_maximiser(d, [&](Eigen::Index j, Eigen::Index l) { return v(j, l); });
    const Mat<Rational> pieces = v * aphi.transpose();  // T x R
    e.max_affine = common_maximiser(r, [&](Eigen::Index j, Eigen::Index p) { return Rational(pieces(j, p) + bphi(p, 0)); });
    return e;
  }

  // The mathematics only, for the exact weights A = softmax(c Q K^T) and
  // o_i = sum_j A_ij v_j: certified by interval arithmetic (a failure in
  // double or MPFR is a candidate the intervals decide), so no rounding
  // budget (issue 31: the old relative budgets allowed nothing at
  // subnormal values). phi's equality cases (one piece, d_v = 1 for max,
  // equal values, one orthant: the generator draws them on purpose) are
  // compared as stated in double and MPFR; the certifier takes them as
  // decided exactly (EqualityCasesOf, ExpectWithinAtEquality: overlapping
  // enclosures hold there, a certainly larger side is still refuted).
  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> v = in[kV], aphi = in[kAPhi], bphi = in[kBPhi];
    const AttentionResult<S> att = Attention<S>(in[kQ], in[kK], v, in[kScale]);
    const Mat<S>& a = att.weights;
    const Mat<S>& o = att.out;
    const Mat<S> pieces_v = v * aphi.transpose(), pieces_o = o * aphi.transpose();  // T x R, t_q x R
    static const Tolerance kSquaredNorm{"||o_i||^2", "sum_j A_ij ||v_j||^2", "Jensen for phi = ||.||^2",
                                        MetricKind::kClaim};
    static const Tolerance kMax{"max_l o_il (shifted >= 0)", "sum_j A_ij max_l v_jl (shifted alike)",
                                "Jensen for phi = max_l x_l", MetricKind::kClaim};
    static const Tolerance kL1{"||o_i||_1", "sum_j A_ij ||v_j||_1", "Jensen for phi = ||.||_1", MetricKind::kClaim};
    static const Tolerance kLse{"lse(o_i) (shifted >= 0)", "sum_j A_ij lse(v_j) (shifted alike)",
                                "Jensen for phi = lse", MetricKind::kClaim};
    static const Tolerance kMaxAffine{"max_r(<a_r,o_i> + b_r) (shifted >= 0)",
                                      "sum_j A_ij max_r(<a_r,v_j> + b_r) (shifted alike)",
                                      "Jensen for the drawn max-affine phi", MetricKind::kClaim};
    EqualityCases equal{false, false, false, false, false};
    if constexpr (std::is_same_v<S, Interval>) equal = EqualityCasesOf(in.exact(kV), in.exact(kAPhi), in.exact(kBPhi));
    // phi(v_j) for each phi, once per j (the rows i share them).
    Vec<S> phi2(v.rows()), phimax(v.rows()), phi1(v.rows()), philse(v.rows()), phiaff(v.rows());
    for (Eigen::Index j = 0; j < v.rows(); ++j) {
      phi2(j) = v.row(j).squaredNorm();
      phimax(j) = v.row(j).maxCoeff();
      phi1(j) = v.row(j).cwiseAbs().sum();
      philse(j) = LogSumExp<S>(Vec<S>(v.row(j).transpose()));
      phiaff(j) = MaxAffine<S>(pieces_v, j, bphi);
    }
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
      S r2 = 0, rmax = 0, r1 = 0, rlse = 0, raff = 0;
      for (Eigen::Index j = 0; j < v.rows(); ++j) {
        r2 += a(i, j) * phi2(j);
        rmax += a(i, j) * phimax(j);
        r1 += a(i, j) * phi1(j);
        rlse += a(i, j) * philse(j);
        raff += a(i, j) * phiaff(j);
      }
      const S l2 = o.row(i).squaredNorm(), lmax = o.row(i).maxCoeff(), l1 = o.row(i).cwiseAbs().sum();
      const S llse = LogSumExp<S>(Vec<S>(o.row(i).transpose())), laff = MaxAffine<S>(pieces_o, i, bphi);
      ExpectWithinAtEquality<S>(kSquaredNorm, l2, r2, equal.squared_norm);
      AtMost<S>(kMax, lmax, rmax, equal.max);
      ExpectWithinAtEquality<S>(kL1, l1, r1, equal.l1);
      AtMost<S>(kLse, llse, rlse, equal.lse);
      AtMost<S>(kMaxAffine, laff, raff, equal.max_affine);
    }
  }
};
ATTNPROP_REGISTER(Jensen, double, Mpfr, Interval);

// ---------------------------------------------------------------------------
// lecture4.sec3.expectation_form (sec 3, after Prop 3.1)
//   Statement: with J_i a random index, P(J_i = j) = A_ij,
//   Attn(X)_i = E[v_{J_i}].
//   Hypotheses: unmasked attention, Q (t_q x d_k), K (t_k x d_k), V (t_k x d_v)
//   in every regime (gen::Regime), a sampling seed.
//   Check (statistical, not a restatement of sum_j A_ij v_j): draw N = 20000
//   indices J from the law A_i (the model's weights, normalised by their
//   computed sum; inverse CDF of a SplitMix uniform, EditRng), and compare
//   the sample mean of v_J with the model's output o_i.
//   False alarm: each coordinate v_{J,l} lies in [lo_l, hi_l], range R_l;
//   Hoeffding gives P(|mean_l - E mean_l| >= eps_l) <= 2 exp(-2 N eps_l^2 /
//   R_l^2), so eps_l = R_l sqrt(ln(2 m / alpha) / (2N)) over the m = t_q d_v
//   checks of a case gives a false alarm <= alpha = 1e-6 per case (exact, no
//   normal approximation): <= 1e-4 per default run of 100 cases.
//   Power: an error delta in o_il is detected with probability >= 0.99 once
//   delta >= eps_l + R_l sqrt(ln(200)/(2N)) + rounding budget, i.e. about
//   0.034 R_l at m = 240 (double's largest case: t_q 40, d_v 6; MPFR's, t_q 12,
//   0.033 R_l), 0.031 R_l at m = 1.

constexpr int kExpectationSamples = 20000;
constexpr double kExpectationAlpha = 1e-6;

struct ExpectationForm : ClaimId<"lecture4.sec3.expectation_form"> {
  static inline const Statistics kStatistics{kExpectationAlpha, "case", "Hoeffding (values in a range R_l)", true,
                                             0.99, "an error >= 0.034 R_l in o_il (0.031 R_l at t_q d_v = 1)",
                                             "N = 20000 indices per case"};

  // Q (t_q x d_k), K (t_k x d_k), V (t_k x d_v), all >= 1, finite, in
  // every regime (d_v <= 6), scale = fl(1/sqrt(d_k)); seed >= 0 (drawn
  // below 2^40). Domain: |scale <q_i,k_j>| <= 2^1000 (finite double scores)
  // and |v| <= 2^500 (ranges R_l and sums finite in double).
  template <class S> static Domain Hypotheses() {
    const gen::Regime regime = gen::RegimeFor<S>(gen::Regime{});
    Domain d;
    d.Dim(kTq, {1, kMaxLen<S>, kMaxLen<S>}).Dim(kTk, {1, kMaxLen<S>, kMaxLen<S>});
    d.Dim(kD, {1, kMaxWidth<S>, kMaxWidth<S>}).Dim(kDv, {1, 6, 6});
    d.Matrix(kQ, kTq, kD, regime, Admit::Finite()).Matrix(kK, kTk, kD, regime, Admit::Finite());
    d.Matrix(kV, kTk, kDv, regime, Admit::Within(0x1p500));
    const int seed = d.ScalarParam(gen::UniformInteger(0, int64_t{1} << 40));
    d.Built(
        kScale, [](const Domain::Drawn& in) { return Exact(1.0 / std::sqrt(static_cast<double>(in.Dim(kD)))); },
        Admit::Finite());
    d.Built(
        kSeed, [seed](const Domain::Drawn& in) { return static_cast<int64_t>(in.ScalarParam(seed).ToDouble()); }, 0,
        std::numeric_limits<int64_t>::max());
    d.Assume("|scale <q_i, k_j>| <= 2^1000 (finite double scores)", [](const Values& v) {
      return hyp::ScoresWithin(v[kQ], v[kK], v[kScale].ToDouble(), 0x1p1000);
    });
    return d;
  }

  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> q = in[kQ], k = in[kK], v = in[kV];
    const AttentionResult<S> r = Attention<S>(q, k, v, in[kScale]);
    const Mat<Mpfr> vh = v.template cast<Mpfr>();
    const Eigen::Index t = k.rows(), dv = v.cols();
    const double u = ScalarTraits<S>::UnitRoundoff(), td = static_cast<double>(t);
    const double m = static_cast<double>(q.rows() * dv), n = kExpectationSamples;
    const double z = std::sqrt(std::log(2 * m / kExpectationAlpha) / (2 * n));
    const double det = Gamma(td, u) + 1.01 * Gamma(td + 1, u) + 2 * td * (Gamma(td, 0x1p-53) + 0x1p-53);
    EditRng rng(static_cast<uint64_t>(in[kSeed]) * 0x2545f4914f6cdd1dULL + 1);
    for (Eigen::Index i = 0; i < q.rows(); ++i) {
      // The law of J_i: the computed weights, normalised; its CDF in double.
      std::vector<double> cdf(static_cast<size_t>(t));
      double total = 0;
      for (Eigen::Index j = 0; j < t; ++j) total += ToDouble(r.weights(i, j));
      double acc = 0;
      for (Eigen::Index j = 0; j < t; ++j) cdf[size_t(j)] = (acc += ToDouble(r.weights(i, j)) / total);
      std::vector<int64_t> counts(static_cast<size_t>(t), 0);
      for (int s = 0; s < kExpectationSamples; ++s) {
        const double w = static_cast<double>(rng.Next() >> 11) * 0x1p-53;  // uniform in [0, 1)
        auto it = std::upper_bound(cdf.begin(), cdf.end(), w);
        if (it == cdf.end()) --it;  // w above the rounded total: the last index
        ++counts[size_t(it - cdf.begin())];
      }
      for (Eigen::Index l = 0; l < dv; ++l) {
        Mpfr mean = 0, lo = vh(0, l), hi = vh(0, l), b = 0, vmax = 0;
        for (Eigen::Index j = 0; j < t; ++j) {
          mean += Mpfr(double(counts[size_t(j)]) / n) * vh(j, l);
          lo = std::min(lo, vh(j, l)), hi = std::max(hi, vh(j, l));
          b += abs(Mpfr(r.weights(i, j)) * vh(j, l));
          vmax = std::max(vmax, Mpfr(abs(vh(j, l))));
        }
        const double range = ToDouble(Mpfr(hi - lo));
        const double bound = range * z + det * ToDouble(Mpfr(b + vmax)) + CheckerSlack(td) * ToDouble(vmax);
        static const Tolerance kSampleMean{
            "|o_il - sample mean of v_{J_i,l}|", "R_l sqrt(ln(2 t_q d_v / 1e-6) / (2N)) + (gamma_T + 1.01 gamma_{T+1} + 2T(gamma_T + 2^-53)) B_il",
            "Hoeffding (exact, values in a range R_l): false alarm <= 1e-6 per case; o_il = sum_j a_j v_jl (1 + theta), "
            "|theta| <= gamma_T, and the sampled law a/sum a (|sum a - 1| <= gamma_{T+1}) differs from the double CDF's "
            "by at most 2T(gamma_T + 2^-53) in l1; B_il = sum_j a_j |v_jl| + max_j |v_jl|", MetricKind::kRounding};
        ExpectWithin(kSampleMean, ToDouble(Mpfr(abs(Mpfr(r.out(i, l)) - mean))), bound);
      }
    }
  }
};
ATTNPROP_REGISTER(ExpectationForm, double, Mpfr);

// ---------------------------------------------------------------------------
// lecture4.aside3.6.barycentric_coordinates (Geometric aside 3.6)
//   Statement: an attention row gives barycentric coordinates of its output
//   in conv{v_1..v_T}; they are unique when the values are affinely
//   independent, and when the values are affinely dependent different
//   attention rows can give the same output.
//   Hypotheses: values V (T x d_v) in every regime (structures make them
//   dependent: equal rows, rank one, zero blocks, and T > d_v + 1), a row a
//   in the open simplex (a = w / sum w, w in 1..16: every such a is an
//   attention row, softmax(log a)).
//   Check, exactly in rationals: M = [V^T; 1^T] ((d_v+1) x T).
//   - Independent (rank M = T): M has a trivial kernel, and the system
//     M b = (o; 1), o = sum_j a_j v_j, is solved by b = a exactly (the
//     coordinates are recovered: the only solution).
//   - Dependent (rank M < T): the witness z != 0 in ker M gives a second
//     attention row a' = a + eps z (eps = half the largest step keeping every
//     coordinate positive), a' != a, a' > 0, sum a' = 1, and sum_j a'_j v_j
//     = o exactly.

struct BarycentricCoordinates : ClaimId<"lecture4.aside3.6.barycentric_coordinates"> {
  // V (T x d_v, T, d_v >= 1) finite, drawn in every regime (T <= 8, d_v
  // <= 5); a (T x 1) with every a_j > 0 and sum a = 1 exactly (an attention
  // row: the open simplex), drawn w / sum w with w in 1..16.
  template <class S> static Domain Hypotheses() {
    Domain d;
    d.Dim(kLen, {1, 8, 8}).Dim(kDv, {1, 5, 5}).Dim(kOne, {1, 1, 1}, 1);
    d.Matrix(kV, kLen, kDv, gen::RegimeFor<S>(gen::Regime{}), Admit::Finite());
    const int w = d.Param(kLen, kOne, gen::UniformInteger(1, 16));
    d.Built(
        kWeights, kLen, kOne,
        [w](const Domain::Drawn& in) {
          ExactMatrix weights = in.Param(w);
          attnprop::Rational sum = 0;
          for (const Exact& e : weights.data) sum += e.ToRational();
          for (Exact& e : weights.data) e = Exact(attnprop::Rational(e.ToRational() / sum));
          return weights;
        },
        Admit::Finite().Positive());
    d.Assume("sum a = 1 (an attention row)", [](const Values& v) {
      attnprop::Rational sum = 0;
      for (const Exact& e : v[kWeights].data) sum += e.ToRational();
      return sum == 1;
    });
    return d;
  }

  template <class S> static void Conclusion(const In<S>& in) {
    static_assert(ScalarTraits<S>::kExact, "barycentric coordinates are checked exactly");
    const Mat<S> v = in[kV], a = in[kWeights];
    const Eigen::Index t = v.rows(), dv = v.cols();
    Mat<S> m(dv + 1, t);
    m.topRows(dv) = v.transpose();
    m.row(dv).setOnes();
    const Mat<S> o = v.transpose() * a;  // d_v x 1: the output sum_j a_j v_j
    Mat<S> rhs(dv + 1, 1);
    rhs.topRows(dv) = o;
    rhs(dv, 0) = 1;
    const Eigen::FullPivLU<Mat<S>> lu(m);
    const Mat<S> kernel = lu.kernel();
    if (lu.rank() == t) {
      ExpectThat(kernel.isZero(), "rank [V^T; 1^T] = T but its kernel is not trivial");
      const Mat<S> b = lu.solve(rhs);
      ExpectThat(m * b == rhs, "the coordinate system [V^T; 1^T] b = (o; 1) is not solved");
      ExpectThat(b == a, "affinely independent values: the coordinates of o are not the attention row");
      return;
    }
    // Affinely dependent: a second attention row with the same output.
    const Mat<S> zv = kernel.col(0);
    ExpectThat(!zv.isZero() && (m * zv).isZero(), "rank [V^T; 1^T] < T but no kernel vector");
    S step = -1;  // the largest eps with a + eps z >= 0, halved
    for (Eigen::Index j = 0; j < t; ++j)
      if (zv(j, 0) < 0 && (step < 0 || S(a(j, 0) / -zv(j, 0)) < step)) step = a(j, 0) / -zv(j, 0);
    ExpectThat(step > 0, "a kernel vector of [V^T; 1^T] has no negative entry");  // its entries sum to 0
    const Mat<S> a2 = a + (step / 2) * zv;
    bool positive = true;
    for (Eigen::Index j = 0; j < t; ++j) positive = positive && a2(j, 0) > 0;
    ExpectThat(positive && a2.sum() == 1 && a2 != a, "the second row is not a different attention row");
    ExpectThat(Mat<S>(v.transpose() * a2) == o, "affinely dependent values: the two rows give different outputs");
  }
};
ATTNPROP_REGISTER(BarycentricCoordinates, Rational);

}  // namespace
}  // namespace attnprop
