// Section 1 of the Lean-formalised paper on attention functions
// (000_b045eeb287420cf4.txt): the norm bound L + V + LV for single-head
// transformers, and the proof step it rests on. Model: model/causal_head.h.
//
// formal.prop.norm_bound_L_V_LV
//   Statement: fix a norm on C, ||x||_inf = max_k ||x_k||. If
//   ||M(y)|| <= L ||y|| for all y and V = sum_i ||V_i|| (operator norms),
//   then ||T(x) - x||_inf <= (L + V + LV) ||x||_inf, T = T_M o T_A with a
//   causal attention head A (T_A(x)_i = x_i + sum_h V_h A_h(x)_i; one head is
//   the printed case, H = 2 heads the V = sum ||V_i|| reading of CATALOG.md).
// formal.proof.head_rows_convex
//   Statement (proof step): each component of a head is a convex combination
//   of its inputs, so its norm is at most ||x||_inf.
//
// Hypotheses and how they are generated (C = R^m, sequence length l):
//   norms l1, l2, linf on C with the matching operator norms;
//   heads from attention functions with biaffine scores x_k^T W x_j + g_{k-j}
//   and three potentials: softmax (lse), temperature-scaled lse
//   tau lse(s/tau), and the log-barrier potential (weights kappa/(lambda - s_j));
//   value maps V_h: any m x m matrices; maps M: linear (L = ||M||), scaled
//   tanh c tanh(M y) and scaled clamp c clamp(M y, -1, 1) (L = |c| ||M||, as
//   |tanh z| <= |z|, |clamp z| <= |z| entrywise and these norms are monotone).
//   Tightness: a quarter of the cases are ALIGNED (constant sequence x_k = z,
//   V_h = v_h I with v_h >= 0, M = L I linear with L >= 0); there
//   T(x)_k - x_k = (V + L(1 + V)) z exactly, so the bound is attained, and
//   the property asserts equality (up to rounding) on them: the audit's
//   max ratio for the metric below is 1.
// Backends: double and MPFR run the statement as printed (attention
// functions). Rational runs the Lean statement, which "assumes only that each
// head returns convex combinations of its inputs": the heads are arbitrary
// rational causal row-stochastic weight matrices (exp has no rational values,
// and no smooth potential with simplex-valued gradient is a rational function
// in general); l1 and linf are exact; for l2 the value maps and M are
// rational multiples of Cayley-orthogonal matrices (exact operator norm) and
// the norms are compared squared. Scaled tanh is not rational: the rational
// backend uses linear and clamp maps.
#include <algorithm>
#include <cmath>
#include <string>

#include "generators/regime.h"
#include "generators/scalars.h"
#include "model/causal_head.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

template <class S> constexpr int64_t kMaxLen = SizeBudget<S>::Pick(8, 4);
template <class S> constexpr int64_t kMaxDim = SizeBudget<S>::Pick(5, 3);
constexpr int64_t kMaxHeads = 2;

std::string H(const char* name, int64_t h) { return name + std::to_string(h); }

ExactMatrix ScaledIdentity(int64_t m, const Exact& v) {
  ExactMatrix r(m, m);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < m; ++j) r(i, j) = i == j ? v : Exact(0.0);
  return r;
}

ExactMatrix ConstantRows(const ExactMatrix& row, int64_t l) {
  ExactMatrix r(l, row.cols);
  for (int64_t i = 0; i < l; ++i)
    for (int64_t j = 0; j < row.cols; ++j) r(i, j) = row(0, j);
  return r;
}

/// v * (I - K)(I + K)^{-1}, K antisymmetric from the strict upper part of k.
Mat<Rational> ScaledCayley(const ExactMatrix& k_full, int64_t m, const Rational& v) {
  Mat<Rational> k = Mat<Rational>::Zero(m, m);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = i + 1; j < m; ++j) k(i, j) = k_full(i, j).ToRational(), k(j, i) = -k(i, j);
  const Mat<Rational> id = Mat<Rational>::Identity(m, m);
  return v * (id - k) * Eigen::FullPivLU<Mat<Rational>>(Mat<Rational>(id + k)).inverse();
}

/// Lower-triangular row-stochastic rational weights from nonnegative integers.
ExactMatrix CausalStochastic(const ExactMatrix& raw, int64_t l) {
  ExactMatrix r(l, l);
  for (int64_t k = 0; k < l; ++k) {
    Rational sum = 0;
    std::vector<Rational> row(static_cast<size_t>(l), Rational(0));
    for (int64_t j = 0; j <= k; ++j) {
      Rational v = abs(raw(k, j).ToRational());
      if (j == k) v += 1;  // a positive row sum
      row[static_cast<size_t>(j)] = v;
      sum += v;
    }
    for (int64_t j = 0; j < l; ++j) r(k, j) = Exact(Rational(row[static_cast<size_t>(j)] / sum));
  }
  return r;
}

bool IsScaledIdentity(const Mat<Rational>& a) {
  return a.rows() == a.cols() && a(0, 0) >= 0 && a == a(0, 0) * Mat<Rational>::Identity(a.rows(), a.cols());
}

constexpr Axis kOne{"1"}, kTokens{"l"}, kWidth{"m"}, kHeadAxis{"H"};
constexpr IntField kNorm{"norm"}, kHeads{"heads"}, kAligned{"aligned"}, kMapKind{"mkind"};
constexpr MatrixField kX{"X"}, kM{"M"};
constexpr ScalarField kC{"c"};

/// The transformers' domain, both claims'. Hypotheses, the document's:
/// norm l1/l2/linf (0..2), H >= 1 heads with value maps V<h> m x m, M
/// m x m of the three kinds (mkind 0 linear, 1 scaled tanh, 2 scaled
/// clamp), potentials softmax/tempered lse/log-barrier (pot<h> 0..2) with
/// tau/kappa (par<h>) > 0; in the Lean form (rationals) causal
/// row-stochastic weights Omega<h> l x l in place of W<h>, g<h>, pot<h>,
/// par<h>, and no tanh map (not rational); the aligned cases' shape
/// (constant rows, V<h> = v_h I, M = L I linear, v_h, L >= 0). Domain where
/// the encoded check is computable in double: l, m <= 64, H <= 8; X, W, g
/// with |.| <= 2^8 and tau/kappa in [2^-8, 2^8], so the scores (<= 64 * 2^24
/// + 2^8) stay far below 2^52 kappa and the log-barrier's lambda - s_j =
/// O(kappa) is resolved; V, M, c with |.| <= 2^20 (the budget and the norms
/// finite). Drawn on shrinkable axes l, m and H (a head dropped drops its
/// fields): X, z, the weights and M in every regime (|X|, |z|, |g| <= 4;
/// |W|, |V|, |M| <= 2), the Cayley generators and the causal weights raw
/// short dyadics (their rationals grow with the entries' bits); the variants
/// (1 or 2 heads, norm, aligned in a quarter of the cases, map kind,
/// potentials) uniform at every RapidCheck size, so each has its share of
/// the cases (test formal.generator_variants); par, v_h, c, L positive
/// dyadics.
template <class S>
Domain TransformerDomain() {
  constexpr bool kExactS = ScalarTraits<S>::kExact;
  Domain d;
  gen::DimRange heads{1, kMaxHeads, kMaxHeads};
  heads.uniform = true;
  d.Dim(kOne, {1, 1, 1}, 1).Dim(kTokens, {1, kMaxLen<S>, kMaxLen<S>}, 64).Dim(kWidth, {1, kMaxDim<S>, kMaxDim<S>}, 64);
  d.Dim(kHeadAxis, heads, 8);
  gen::Regime big = gen::RegimeFor<S>(gen::Regime{}), small = big;
  big.max_abs = 4, big.max_scale = 2, small.max_abs = 2, small.max_scale = 2;
  const int x = d.Param(kTokens, kWidth, big), z = d.Param(kOne, kWidth, big), mm = d.Param(kWidth, kWidth, small);
  const int w = d.Param({kHeadAxis}, kWidth, kWidth, small), g = d.Param({kHeadAxis}, kOne, kTokens, big);
  const int v = d.Param({kHeadAxis}, kWidth, kWidth, small), om = d.Param({kHeadAxis}, kTokens, kTokens, gen::Dyadic(8, 0));
  const int k = d.Param({kHeadAxis}, kWidth, kWidth, gen::Dyadic(2, 1)), km = d.Param(kWidth, kWidth, gen::Dyadic(2, 1));
  const int roll = d.ScalarParam(gen::UniformInteger(0, 3)), mkind = d.ScalarParam(gen::UniformInteger(0, 2));
  const int lscale = d.ScalarParam(gen::PositiveDyadic(4, 3));
  std::vector<int> pot, par, vs;
  for (int64_t h = 0; h < kMaxHeads; ++h) {
    pot.push_back(d.ScalarParam(gen::UniformInteger(0, 2)));
    par.push_back(d.ScalarParam(gen::PositiveDyadic(4, 3)));
    vs.push_back(d.ScalarParam(gen::PositiveDyadic(4, 3)));
  }
  auto aligned = [](const Domain::Drawn& in) { return in.fields()[kAligned] != 0; };
  // Rational l2: V and M multiples of Cayley-orthogonal matrices (exact operator norms).
  auto l2_exact = [](const Domain::Drawn& in) { return kExactS && in.fields()[kNorm] == static_cast<int64_t>(NormKind::kL2); };
  auto index_of = [](const std::vector<int64_t>& index) { return static_cast<size_t>(index[0]); };

  d.Int(kNorm, gen::UniformCount(0, 2), 0, 2).Int(kHeads, kHeadAxis);
  d.Built(kAligned, [roll](const Domain::Drawn& in) -> int64_t { return in.ScalarParam(roll).ToDouble() == 0 ? 1 : 0; }, 0, 1);
  d.Built(kX, kTokens, kWidth,
          [=](const Domain::Drawn& in) { return aligned(in) ? ConstantRows(in.Param(z), in.Dim(kTokens)) : in.Param(x); },
          Admit::Within(0x1p8));
  auto value_map = [=](const Domain::Drawn& in, const std::vector<int64_t>& h) {
    const int64_t m = in.Dim(kWidth);
    const Exact scale = in.ScalarParam(vs[index_of(h)]);
    if (aligned(in)) return ScaledIdentity(m, scale);
    if (l2_exact(in)) return ToExact(ScaledCayley(in.Param(k, h), m, scale.ToRational()));
    return in.Param(v, h);
  };
  std::vector<Domain::Member> members;
  if constexpr (kExactS) {
    members.push_back({"Omega", kTokens, kTokens,
                       [om](const Domain::Drawn& in, const std::vector<int64_t>& h) {
                         return CausalStochastic(in.Param(om, h), in.Dim(kTokens));
                       },
                       Admit::Finite()});
  } else {
    members.push_back({"W", kWidth, kWidth, [w](const Domain::Drawn& in, const std::vector<int64_t>& h) { return in.Param(w, h); },
                       Admit::Within(0x1p8)});
    members.push_back({"g", kOne, kTokens, [g](const Domain::Drawn& in, const std::vector<int64_t>& h) { return in.Param(g, h); },
                       Admit::Within(0x1p8)});
    members.push_back(Domain::IntMember(
        "pot",
        [=](const Domain::Drawn& in, const std::vector<int64_t>& h) {
          return static_cast<int64_t>(in.ScalarParam(pot[index_of(h)]).ToDouble());
        },
        0, 2));
    members.push_back(Domain::ScalarMember(
        "par", [=](const Domain::Drawn& in, const std::vector<int64_t>& h) { return in.ScalarParam(par[index_of(h)]); },
        Admit::Within(0x1p8).NonzeroAtLeast(0x1p-8).Positive()));
  }
  members.push_back({"V", kWidth, kWidth, value_map, Admit::Within(0x1p20)});
  d.Group({kHeadAxis}, std::move(members), [](const char* member, const std::vector<int64_t>& h) { return H(member, h[0]); });
  d.Built(
      kMapKind,
      [=](const Domain::Drawn& in) -> int64_t {
        const auto kind = static_cast<int64_t>(in.ScalarParam(mkind).ToDouble());
        return aligned(in) ? 0 : kExactS && kind == 1 ? 2 : kind;
      },
      0, 2);
  d.Scalar(kC, gen::PositiveDyadic(4, 3), Admit::Within(0x1p20));
  d.Built(
      kM, kWidth, kWidth,
      [=](const Domain::Drawn& in) {
        const int64_t m = in.Dim(kWidth);
        if (aligned(in)) return ScaledIdentity(m, in.ScalarParam(lscale));
        if (l2_exact(in)) return ToExact(ScaledCayley(in.Param(km), m, in.ScalarParam(lscale).ToRational()));
        return in.Param(mm);
      },
      Admit::Within(0x1p20));
  if constexpr (kExactS) {
    d.Assume("no tanh map in rationals (tanh is not rational)", [](const Values& in) { return in[kMapKind] != 1; });
    d.Assume("each head's weights causal and row-stochastic (the Lean form)", [](const Values& in) {
      for (int64_t h = 0; h < in[kHeads]; ++h) {
        const Mat<Rational> weights = in.value().GetMat<Rational>(H("Omega", h));
        for (int64_t r = 0; r < weights.rows(); ++r) {
          if (weights.row(r).sum() != 1) return false;
          for (int64_t j = 0; j < weights.cols(); ++j)
            if (weights(r, j) < 0 || (j > r && weights(r, j) != 0)) return false;
        }
      }
      return true;
    });
  }
  d.Assume("aligned: x_k = z, V_h = v_h I, M = L I linear (v_h, L >= 0)", [](const Values& in) {
    if (in[kAligned] == 0) return true;
    const Mat<Rational> xs = in[kX].As<Rational>();
    for (int64_t r = 1; r < xs.rows(); ++r)
      if (xs.row(r) != xs.row(0)) return false;
    for (int64_t h = 0; h < in[kHeads]; ++h)
      if (!IsScaledIdentity(in.value().GetMat<Rational>(H("V", h)))) return false;
    return in[kMapKind] == 0 && IsScaledIdentity(in[kM].As<Rational>());
  });
  return d;
}

/// Everything both conclusions need, in backend S.
template <class S>
struct Built {
  NormKind norm;
  Mat<S> x;
  std::vector<Mat<S>> omegas, values;
  MapKind mkind;
  Mat<S> m;
  S c;
};

template <class S>
Built<S> Build(const Case& k) {
  Built<S> b{static_cast<NormKind>(k.GetInt("norm")), k.GetMat<S>("X"), {}, {},
             static_cast<MapKind>(k.GetInt("mkind")), k.GetMat<S>("M"), k.Get<S>("c")};
  for (int64_t h = 0; h < k.GetInt("heads"); ++h) {
    if constexpr (ScalarTraits<S>::kExact) {
      b.omegas.push_back(k.GetMat<S>(H("Omega", h)));
    } else {
      b.omegas.push_back(CausalHeadWeights<S>(b.x, k.GetMat<S>(H("W", h)), Vec<S>(k.GetMat<S>(H("g", h)).row(0).transpose()),
                                              static_cast<Potential>(k.GetInt(H("pot", h))), k.Get<S>(H("par", h))));
    }
    b.values.push_back(k.GetMat<S>(H("V", h)));
  }
  return b;
}

/// max_k ||rows||^2 (exact l2 comparisons in rationals).
template <class S>
S MaxRowNormSq(const Mat<S>& a) {
  S best = 0;
  for (Eigen::Index k = 0; k < a.rows(); ++k) best = std::max(best, S(a.row(k).squaredNorm()));
  return best;
}

template <class S>
std::string Num(const S& v) {
  if constexpr (std::is_same_v<S, Rational>) return v.str();
  else return std::to_string(ToDouble(v));
}

/// Both claims share the transformers' hypotheses and cases.
struct TransformerFamily {
  template <class S> static Domain Hypotheses() { return TransformerDomain<S>(); }
};

struct NormBoundLVLV : TransformerFamily, ClaimId<"formal.prop.norm_bound_L_V_LV"> {
  template <class S> static void Conclusion(const Case& k) {
    const Built<S> b = Build<S>(k);
    const bool aligned = k.GetInt("aligned") != 0;
    using std::abs;
    // L and V: operator norms in the chosen norm.
    const auto m_norm = OpNorm<S>(b.norm, b.m);
    RC_PRE(m_norm.has_value());  // rational l2 needs a multiple of an orthogonal matrix
    const S lip = b.mkind == MapKind::kLinear ? *m_norm : S(abs(b.c) * *m_norm);
    S vsum = 0;
    for (const auto& v : b.values) {
      const auto n = OpNorm<S>(b.norm, v);
      RC_PRE(n.has_value());
      vsum += *n;
    }
    const S factor = lip + vsum + lip * vsum;
    const Mat<S> diff = Transformer<S>(b.x, b.omegas, b.values, b.mkind, b.m, b.c) - b.x;
static const Tolerance kBound{
    "||T(x) - x||_inf vs (L + V + LV)||x||_inf",
    "(L+V+LV)||x||_inf + gamma_{l + 4m + H + 24 + p(m)} (1 + Lbar)(1 + Vbar) ||x||_inf c_p; exact: 0",
    "every computed quantity (weights summing to 1 +- gamma_{l+2}, the l-term head sums, the m-term "
    "products V_h a and M y, tanh (<= 2 ulp), the residual sums, the norms: gamma_{m+2}, and the "
    "operator norms: l2 through the eigen-solver of V^T V, p(m) = 4m^2 + 8) is within relative "
    "gamma of a term bounded by (1 + Lbar)(1 + Vbar)||x||_inf, Lbar, Vbar the norms of |M|, |V_h| "
    "(Frobenius for l2), c_p = sqrt(m) for l2 (|.| of a vector), else 1",
    MetricKind::kClaim};

    if constexpr (ScalarTraits<S>::kExact) {
      S lhs, rhs;
      if (b.norm == NormKind::kL2) {  // compare squares
        lhs = MaxRowNormSq<S>(diff);
        rhs = factor * factor * MaxRowNormSq<S>(b.x);
      } else {
        lhs = SeqNorm<S>(b.norm, diff);
        rhs = factor * SeqNorm<S>(b.norm, b.x);
      }
      ExpectThat(lhs <= rhs, "||T(x)-x||_inf" + std::string(b.norm == NormKind::kL2 ? "^2 = " : " = ") + Num(lhs) +
                                 " > bound " + Num(rhs));
      if (aligned) ExpectThat(lhs == rhs, "aligned case: the bound is not attained (" + Num(lhs) + " < " + Num(rhs) + ")");
      // Recorded for the audit (monotone rounding keeps lhs <= rhs).
      ExpectWithin(kBound, b.norm == NormKind::kL2 ? std::sqrt(ToDouble(lhs)) : ToDouble(lhs),
                   b.norm == NormKind::kL2 ? std::sqrt(ToDouble(rhs)) : ToDouble(rhs));
    } else {
      const double u = ScalarTraits<S>::UnitRoundoff();
      const double l = static_cast<double>(b.x.rows()), m = static_cast<double>(b.x.cols());
      const bool l2 = b.norm == NormKind::kL2;
      auto abs_norm = [&](const Mat<S>& a) {
        return l2 ? ToDouble(S(a.norm())) : ToDouble(*OpNorm<S>(b.norm, Mat<S>(a.cwiseAbs())));
      };
      double vbar = 0;
      for (const auto& v : b.values) vbar += abs_norm(v);
      const double lbar = (b.mkind == MapKind::kLinear ? 1.0 : std::abs(ToDouble(b.c))) * abs_norm(b.m);
      const double xs = ToDouble(SeqNorm<S>(b.norm, b.x));
      const double err = Gamma(l + 4 * m + static_cast<double>(b.values.size()) + 24 + 4 * m * m + 8, u) *
                         (1 + lbar) * (1 + vbar) * xs * (l2 ? std::sqrt(m) : 1.0);
      const double lhs = ToDouble(SeqNorm<S>(b.norm, diff)), rhs = ToDouble(S(factor * SeqNorm<S>(b.norm, b.x)));
      ExpectWithin(kBound, lhs, rhs + err);
      if (aligned)
        ExpectThat(lhs >= rhs - err, "aligned case: the bound is not attained (" + std::to_string(lhs) + " < " +
                                         std::to_string(rhs) + " - " + std::to_string(err) + ")");
    }
  }
};

struct HeadRowsConvex : TransformerFamily, ClaimId<"formal.proof.head_rows_convex"> {
  template <class S> static void Conclusion(const Case& k) {
    const Built<S> b = Build<S>(k);
    const double u = ScalarTraits<S>::UnitRoundoff();
    const Eigen::Index l = b.x.rows();
    const double ld = static_cast<double>(l), md = static_cast<double>(b.x.cols());
    using std::abs;
    for (const auto& om : b.omegas) {
      const Mat<S> a = om * b.x;  // rows: A_h(x)_k
      for (Eigen::Index r = 0; r < l; ++r) {
        for (Eigen::Index j = 0; j < l; ++j)
          ExpectThat(om(r, j) >= 0 && (j <= r || om(r, j) == 0),
                     "weight w(" + std::to_string(r) + "," + std::to_string(j) + ") is negative or acausal");
        const S sum_err = abs(S(om.row(r).sum()) - 1);
        if constexpr (ScalarTraits<S>::kExact) ExpectThat(sum_err == 0, "weights do not sum to 1");
        static const Tolerance kRowSum{
            "|sum_j w_kj - 1|", "gamma_{2l+4} (0 in rationals)",
            "softmax: e_j/fl(sum e) sums to 1 within gamma_{l+1}; log-barrier: p/fl(sum p), the same; the "
            "checker's l-term sum adds gamma_l", MetricKind::kRounding};
        ExpectWithin(kRowSum, ToDouble(sum_err), Gamma(2 * ld + 4, u));
        const Mat<S> row = a.row(r);
        static const Tolerance kRowNorm{
            "||A_h(x)_k|| vs ||x||_inf", "||x||_inf (1 + gamma_{2l+m+6}) (0 slack in rationals)",
            "a_k = fl(sum_j w_j x_j): weights sum to <= 1 + gamma_{l+1}, the l-term sums add gamma_l "
            "relative to sum_j w_j |x_j|, and the norm's own evaluation gamma_{m+2}",
            MetricKind::kClaim};
        if constexpr (ScalarTraits<S>::kExact) {
          // l2: squared norms; the audit gets the doubles (monotone rounding).
          const bool l2 = b.norm == NormKind::kL2;
          const S lhs = l2 ? S(row.squaredNorm()) : VecNorm<S>(b.norm, Vec<S>(row.transpose()));
          const S rhs = l2 ? MaxRowNormSq<S>(b.x) : SeqNorm<S>(b.norm, b.x);
          ExpectThat(lhs <= rhs, "||A(x)_k|| > ||x||_inf");
          ExpectWithin(kRowNorm, l2 ? std::sqrt(ToDouble(lhs)) : ToDouble(lhs),
                       l2 ? std::sqrt(ToDouble(rhs)) : ToDouble(rhs));
        } else {
          // Compared in S: in MPFR the slack (1 + gamma, gamma ~ 2^-250) is
          // below double resolution, and a norm that is a double rounding
          // tie (an input 3 + 2^-52) rounds to 3 while the computed row,
          // above it by MPFR rounding, rounds up: doubles would flag it.
          ExpectWithin(kRowNorm, S(VecNorm<S>(b.norm, Vec<S>(row.transpose()))),
                       S(SeqNorm<S>(b.norm, b.x) * (S(1) + S(Gamma(2 * ld + md + 6, u)))));
        }
      }
    }
  }
};

ATTNPROP_REGISTER(NormBoundLVLV, double, Mpfr, Rational);
ATTNPROP_REGISTER(HeadRowsConvex, double, Mpfr, Rational);

}  // namespace
}  // namespace attnprop
