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
namespace {

template <class S>
constexpr int64_t kMaxLen = SizeBudget<S>::Pick(8, 4);
template <class S>
constexpr int64_t kMaxDim = SizeBudget<S>::Pick(5, 3);
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

ExactMatrix ToExactM(const Mat<Rational>& m) {
  ExactMatrix e(m.rows(), m.cols());
  for (int64_t i = 0; i < m.rows(); ++i)
    for (int64_t j = 0; j < m.cols(); ++j) e(i, j) = Exact(m(i, j));
  return e;
}

/// The draws shared by both generators (RawDraw).
struct Draw {
  int64_t l, m, heads, norm, aligned_roll, mkind;
  ExactMatrix x, z, w0, w1, g0, g1, v0, v1, mm, k0, k1, km, om0, om1;
  int pot0, pot1;
  Exact par0, par1, vs0, vs1, c, lscale;
};

/// The draws on shrinkable axes l (tokens) and m (width) (gen::Layout):
/// X, z, the weights and M in every regime (up to their old ranges: 4 for
/// X, z, g; 2 for W, V, M), the Cayley generators and the causal weights
/// raw short dyadics (their rationals grow with the entries' bits); the
/// variants (heads, norm, aligned, map kind, potentials) uniform at every
/// RapidCheck size, so each has its share of the cases.
template <class S>
rc::Gen<Draw> RawDraw() {
  const int64_t lmax = kMaxLen<S>, mmax = kMaxDim<S>;
  gen::Layout layout;
  const int one = layout.Axis({1, 1, 1}), l = layout.Axis({1, lmax, lmax}), m = layout.Axis({1, mmax, mmax});
  gen::Regime big = gen::RegimeFor<S>(gen::Regime{}), small = big;
  big.max_abs = 4, big.max_scale = 2, small.max_abs = 2, small.max_scale = 2;
  const int x = layout.Matrix(l, m, big), z = layout.Matrix(one, m, big);
  const int w0 = layout.Matrix(m, m, small), w1 = layout.Matrix(m, m, small);
  const int g0 = layout.Matrix(one, l, big), g1 = layout.Matrix(one, l, big);
  const int v0 = layout.Matrix(m, m, small), v1 = layout.Matrix(m, m, small), mm = layout.Matrix(m, m, small);
  const int k0 = layout.Raw(m, m, gen::Dyadic(2, 1)), k1 = layout.Raw(m, m, gen::Dyadic(2, 1)),
            km = layout.Raw(m, m, gen::Dyadic(2, 1));
  const int om0 = layout.Raw(l, l, gen::Dyadic(8, 0)), om1 = layout.Raw(l, l, gen::Dyadic(8, 0));
  const int heads = layout.Scalar(gen::UniformInteger(1, kMaxHeads)), norm = layout.Scalar(gen::UniformInteger(0, 2)),
            aligned = layout.Scalar(gen::UniformInteger(0, 3)), mkind = layout.Scalar(gen::UniformInteger(0, 2)),
            pot0 = layout.Scalar(gen::UniformInteger(0, 2)), pot1 = layout.Scalar(gen::UniformInteger(0, 2));
  std::vector<int> scalars;
  for (int i = 0; i < 6; ++i) scalars.push_back(layout.Scalar(gen::PositiveDyadic(4, 3)));
  return layout.Build<Draw>([=](const gen::Layout::Drawn& dr) {
    auto as_int = [&](int s) { return static_cast<int64_t>(dr.Scalar(s).ToDouble()); };
    Draw d;
    d.l = dr.Dim(l), d.m = dr.Dim(m), d.heads = as_int(heads), d.norm = as_int(norm);
    d.aligned_roll = as_int(aligned), d.mkind = as_int(mkind);
    d.x = dr.Matrix(x), d.z = dr.Matrix(z), d.w0 = dr.Matrix(w0), d.w1 = dr.Matrix(w1), d.g0 = dr.Matrix(g0);
    d.g1 = dr.Matrix(g1), d.v0 = dr.Matrix(v0), d.v1 = dr.Matrix(v1), d.mm = dr.Matrix(mm), d.k0 = dr.Matrix(k0);
    d.k1 = dr.Matrix(k1), d.km = dr.Matrix(km), d.om0 = dr.Matrix(om0), d.om1 = dr.Matrix(om1);
    d.pot0 = static_cast<int>(as_int(pot0)), d.pot1 = static_cast<int>(as_int(pot1));
    d.par0 = dr.Scalar(scalars[0]), d.par1 = dr.Scalar(scalars[1]), d.vs0 = dr.Scalar(scalars[2]);
    d.vs1 = dr.Scalar(scalars[3]), d.c = dr.Scalar(scalars[4]), d.lscale = dr.Scalar(scalars[5]);
    return d;
  });
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

template <class S>
rc::Gen<Case> TransformerCase() {
  return rc::gen::map(RawDraw<S>(), [](const Draw& d) {
    const bool exact = ScalarTraits<S>::kExact;
    const bool aligned = d.aligned_roll == 0;
    Case c;
    c.Int("norm", d.norm).Int("heads", d.heads).Int("aligned", aligned ? 1 : 0);
    c.Matrix("X", aligned ? ConstantRows(d.z, d.l) : d.x);
    const ExactMatrix* w[] = {&d.w0, &d.w1};
    const ExactMatrix* g[] = {&d.g0, &d.g1};
    const ExactMatrix* v[] = {&d.v0, &d.v1};
    const ExactMatrix* k[] = {&d.k0, &d.k1};
    const ExactMatrix* om[] = {&d.om0, &d.om1};
    const int pot[] = {d.pot0, d.pot1};
    const Exact par[] = {d.par0, d.par1}, vs[] = {d.vs0, d.vs1};
    const bool l2_exact = exact && d.norm == static_cast<int64_t>(NormKind::kL2);
    for (int64_t h = 0; h < d.heads; ++h) {
      if (exact) {
        c.Matrix(H("Omega", h), CausalStochastic(*om[h], d.l));
      } else {
        c.Matrix(H("W", h), *w[h]).Matrix(H("g", h), *g[h]);
        c.Int(H("pot", h), pot[h]).Scalar(H("par", h), par[h]);
      }
      if (aligned) c.Matrix(H("V", h), ScaledIdentity(d.m, vs[h]));
      else if (l2_exact) c.Matrix(H("V", h), ToExactM(ScaledCayley(*k[h], d.m, vs[h].ToRational())));
      else c.Matrix(H("V", h), *v[h]);
    }
    // Maps: linear / scaled tanh / scaled clamp (rational: linear / clamp).
    int64_t mkind = aligned ? 0 : d.mkind;
    if (exact && mkind == 1) mkind = 2;
    c.Int("mkind", mkind).Scalar("c", d.c);
    if (aligned) c.Matrix("M", ScaledIdentity(d.m, d.lscale));
    else if (l2_exact) c.Matrix("M", ToExactM(ScaledCayley(d.km, d.m, d.lscale.ToRational())));
    else c.Matrix("M", d.mm);
    return c;
  });
}

bool IsScaledIdentity(const Mat<Rational>& a) {
  return a.rows() == a.cols() && a(0, 0) >= 0 && a == a(0, 0) * Mat<Rational>::Identity(a.rows(), a.cols());
}

/// Every entry finite with |.| <= bound.
bool EntriesWithin(const ExactMatrix& a, double bound) {
  for (const Exact& e : a.data)
    if (!(std::abs(e.ToDouble()) <= bound)) return false;
  return true;
}

/// The hypotheses of both claims, on a stored case: the document's (norm
/// l1/l2/linf, H >= 1 heads, value maps m x m, M m x m of the three kinds,
/// tau/kappa > 0; in the Lean form causal row-stochastic weights), the
/// aligned cases' shape, and the fields of backend S: exact: Omega<h>
/// l x l and no tanh map (not rational); else W<h> m x m, g<h> 1 x l,
/// pot<h> in [0,2], par<h>. Domain where the encoded check is computable in
/// double: l, m <= 64, H <= 8; X, W, g with |.| <= 2^8 and tau/kappa in
/// [2^-8, 2^8], so the scores (<= 64 * 2^24 + 2^8) stay far below 2^52 kappa
/// and the log-barrier's lambda - s_j = O(kappa) is resolved; V, M, c with
/// |.| <= 2^20 (the budget and the norms finite). The generators draw
/// l <= 8, m <= 5, H <= 2, |X| <= 4, |W| <= 2, |g| <= 4, par in [1/8, 4],
/// |V|, |M|, c <= 4.
template <class S>
bool TransformerHypothesesHold(const Case& c) {
  if (!EntriesWithin(c.GetMatrix("X"), 0x1p8) || !EntriesWithin(c.GetMatrix("M"), 0x1p20) ||
      !(std::abs(c.GetScalar("c").ToDouble()) <= 0x1p20))
    return false;
  const Mat<Rational> x = c.GetMat<Rational>("X");
  const int64_t l = x.rows(), m = x.cols(), heads = c.GetInt("heads"), norm = c.GetInt("norm");
  if (l < 1 || m < 1 || l > 64 || m > 64 || heads < 1 || heads > 8 || norm < 0 || norm > 2) return false;
  const int64_t mkind = c.GetInt("mkind");
  if (mkind < 0 || mkind > 2 || (ScalarTraits<S>::kExact && mkind == 1)) return false;
  if (c.GetMatrix("M").rows != m || c.GetMatrix("M").cols != m) return false;
  for (int64_t h = 0; h < heads; ++h) {
    if (!EntriesWithin(c.GetMatrix(H("V", h)), 0x1p20)) return false;
    if constexpr (!ScalarTraits<S>::kExact) {
      const ExactMatrix &w = c.GetMatrix(H("W", h)), &g = c.GetMatrix(H("g", h));
      if (w.rows != m || w.cols != m || g.rows != 1 || g.cols != l || !EntriesWithin(w, 0x1p8) ||
          !EntriesWithin(g, 0x1p8))
        return false;
      const double par = c.GetScalar(H("par", h)).ToDouble();
      if (!(par >= 0x1p-8 && par <= 0x1p8)) return false;
    }
  }
  const bool aligned = c.GetInt("aligned") != 0;
  if (aligned && (c.GetInt("mkind") != 0 || !IsScaledIdentity(c.GetMat<Rational>("M")))) return false;
  if (aligned)
    for (int64_t k = 1; k < l; ++k)
      if (x.row(k) != x.row(0)) return false;
  const bool has_omega = ScalarTraits<S>::kExact;
  for (int64_t h = 0; h < heads; ++h) {
    const Mat<Rational> v = c.GetMat<Rational>(H("V", h));
    if (v.rows() != m || v.cols() != m || (aligned && !IsScaledIdentity(v))) return false;
    if (has_omega) {  // the Lean form: causal, row-stochastic weights
      const Mat<Rational> om = c.GetMat<Rational>(H("Omega", h));
      if (om.rows() != l || om.cols() != l) return false;
      for (int64_t k = 0; k < l; ++k) {
        if (om.row(k).sum() != 1) return false;
        for (int64_t j = 0; j < l; ++j)
          if (om(k, j) < 0 || (j > k && om(k, j) != 0)) return false;
      }
    } else if (c.Get<Rational>(H("par", h)) <= 0 || c.GetInt(H("pot", h)) < 0 || c.GetInt(H("pot", h)) > 2) {
      return false;
    }
  }
  return true;
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
  template <class S>
  static bool HypothesesHold(const Case& c) {
    return TransformerHypothesesHold<S>(c);
  }

  template <class S>
  static rc::Gen<Case> Hypotheses() {
    return TransformerCase<S>();
  }
};

struct NormBoundLVLV : TransformerFamily {
  static constexpr const char* kId = "formal.prop.norm_bound_L_V_LV";

  static inline const Tolerance kBound{
      "||T(x) - x||_inf vs (L + V + LV)||x||_inf",
      "(L+V+LV)||x||_inf + gamma_{l + 4m + H + 24 + p(m)} (1 + Lbar)(1 + Vbar) ||x||_inf c_p; exact: 0",
      "every computed quantity (weights summing to 1 +- gamma_{l+2}, the l-term head sums, the m-term "
      "products V_h a and M y, tanh (<= 2 ulp), the residual sums, the norms: gamma_{m+2}, and the "
      "operator norms: l2 through the eigen-solver of V^T V, p(m) = 4m^2 + 8) is within relative "
      "gamma of a term bounded by (1 + Lbar)(1 + Vbar)||x||_inf, Lbar, Vbar the norms of |M|, |V_h| "
      "(Frobenius for l2), c_p = sqrt(m) for l2 (|.| of a vector), else 1",
      MetricKind::kClaim};
  static std::vector<Tolerance> Tolerances() { return {kBound}; }

  template <class S>
  static void Conclusion(const Case& k) {
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

struct HeadRowsConvex : TransformerFamily {
  static constexpr const char* kId = "formal.proof.head_rows_convex";

  static inline const Tolerance kRowSum{
      "|sum_j w_kj - 1|", "gamma_{2l+4} (0 in rationals)",
      "softmax: e_j/fl(sum e) sums to 1 within gamma_{l+1}; log-barrier: p/fl(sum p), the same; the "
      "checker's l-term sum adds gamma_l"};
  static inline const Tolerance kRowNorm{
      "||A_h(x)_k|| vs ||x||_inf", "||x||_inf (1 + gamma_{2l+m+6}) (0 slack in rationals)",
      "a_k = fl(sum_j w_j x_j): weights sum to <= 1 + gamma_{l+1}, the l-term sums add gamma_l "
      "relative to sum_j w_j |x_j|, and the norm's own evaluation gamma_{m+2}",
      MetricKind::kClaim};
  static std::vector<Tolerance> Tolerances() { return {kRowSum, kRowNorm}; }

  template <class S>
  static void Conclusion(const Case& k) {
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
        ExpectWithin(kRowSum, ToDouble(sum_err), Gamma(2 * ld + 4, u));
        const Mat<S> row = a.row(r);
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
