// Lecture 4, section 6 "Permutation equivariance and positional
// information" (003_dd971a1151775776.txt). Convention (P_pi X)_t = X_{pi^-1(t)}.
//
// lecture4.thm6.1.score_weight_conjugation (proof of Thm 6.1)
//   Statement: S(P X) = P S(X) P^T and A(P X) = P A(X) P^T (unmasked).
// lecture4.sec6.rowwise_maps_equivariant (sec 6)
//   Statement: phi_row(P X) = P phi_row(X) for phi applied to every row with
//   shared parameters (here phi(x) = relu(x W_1 + b) W_2).
// lecture4.sec6.1.embedding_without_positions_equivariant (sec 6.1)
//   Statement: iota_0(pi . x) = P_pi iota_0(x), iota_0(x)_t = E_{x_t}.
// lecture4.sec6.2.sinusoid_inner_product (sec 6.2)
//   Statement: <r_i(w), r_j(w)> = cos(w (i - j)), r_t(w) = (sin wt, cos wt).
// lecture4.sec6.2.rope_relative_identity (sec 6.2, Ex. 14)
//   Statement: <R_{iw} q, R_{jw} k> = q^T R_{(j-i)w} k.
// lecture4.rem6.3.no_nontrivial_order_automorphism (Rem 6.3)
//   Statement: no permutation of {1..T} other than the identity preserves
//   every relation j <= i (checked exhaustively for T <= 7).
// lecture4.rem6.3.two_position_causal_example (Rem 6.3)
//   Statement: with equal scores, causal F(v1,v2) = (v1, (v1+v2)/2),
//   F(v2,v1) = (v2, (v1+v2)/2), and P F(v1,v2) = ((v1+v2)/2, v1) differs
//   from F(v2,v1) when v1 != v2.
// lecture4.cor6.2.stack_equivariant_without_positions (Cor 6.2)
//   Statement: iota_0 followed by unmasked attention and shared row-wise
//   maps (here X -> Y = X + Attn(X) -> Z = Y + phi(Y)) is equivariant:
//   F(pi . x) = P_pi F(x).
// lecture4.cor6.2.positions_break_equivariance (Cor 6.2, sec 6.1)
//   Statement (existence): with fixed nonconstant positions p, equivariance
//   fails in general: the composite from tokens through the embedding and
//   attention is not equivariant, Attn(iota_p(pi . x)) != P Attn(iota_p(x))
//   (sec 6.1's second experiment). Checked through the model's Attention
//   on a witness built from each drawn (E, p, x): for every nonconstant p a
//   head and a transposition break it (proof beside MakeWitness); decided by
//   interval arithmetic when double or MPFR cannot resolve the difference.
// lecture4.prec6.3.equivariant_even_with_positional_rows (Precision rem. 6.3)
//   Statement: X -> Attn(X) stays equivariant when the rows of X contain
//   positions: Attn(P (E_x + p)) = P Attn(E_x + p).
#include <algorithm>
#include <cmath>
#include <numeric>

#include "generators/regime.h"
#include "generators/scalars.h"
#include "generators/shape.h"
#include "model/attention.h"
#include "properties/framework/hypotheses_checks.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

template <class S> constexpr int64_t kMaxLen = SizeBudget<S>::Pick(12, 6);
template <class S> constexpr int64_t kMaxWidth = SizeBudget<S>::Pick(6, 4);

/// pi^-1 as an index list from sort keys (stable: equal keys keep order).
std::vector<int64_t> InversePermutation(const std::vector<Exact>& keys) {
  std::vector<int64_t> idx(keys.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(),
                   [&](int64_t a, int64_t b) { return keys[size_t(a)].ToDouble() < keys[size_t(b)].ToDouble(); });
  return idx;
}

/// Every entry an integer id in 0..rows-1 (a row of an embedding); the
/// entries are nonnegative integers by their Admit.
bool IdsBelow(const ExactMatrix& x, int64_t rows) {
  for (const Exact& id : x.data)
    if (!(id.ToDouble() < static_cast<double>(rows))) return false;
  return true;
}

/// P_pi as a matrix: (P X)_t = X_{pi^-1(t)}, i.e. P(t, pi^-1(t)) = 1.
template <class S>
Mat<S> PermutationMatrix(const ExactMatrix& keys) {
  const std::vector<int64_t> inv = InversePermutation(keys.data);
  Mat<S> p = Mat<S>::Zero(Eigen::Index(inv.size()), Eigen::Index(inv.size()));
  for (size_t t = 0; t < inv.size(); ++t) p(Eigen::Index(t), Eigen::Index(inv[t])) = 1;
  return p;
}

constexpr Axis kLen{"T"}, kD{"d"}, kDk{"d_k"}, kM{"m"}, kOne{"1"}, kVocab{"V"}, kTwo{"2"}, kDv{"d_v"};
constexpr MatrixField kX{"X"}, kWQ{"W_Q"}, kWK{"W_K"}, kWV{"W_V"}, kKeys{"keys"}, kW1{"W_1"}, kBias{"b"}, kW2{"W_2"},
    kE{"E"}, kTokens{"x"}, kPos{"p"}, kV{"V"};
constexpr MatrixField kQv{"q"}, kKv{"k"};
constexpr ScalarField kScale{"scale"}, kAngle{"w"};
constexpr IntField kT{"T"}, kI{"i"}, kJ{"j"};

/// A B with each entry a sequential sum over the inner index (the order the
/// bounds assume; row i of the result depends on row i of A alone).
template <class S>
Mat<S> MatMulRows(const Mat<S>& a, const Mat<S>& b) {
  Mat<S> r(a.rows(), b.cols());
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < b.cols(); ++j) {
      S acc = 0;
      for (Eigen::Index l = 0; l < a.cols(); ++l) acc += a(i, l) * b(l, j);
      r(i, j) = acc;
    }
  return r;
}

/// Both equivariance claims on X share their cases: X, weights and a permutation.
struct PermutedInputFamily {
  // X (T x d), W_Q, W_K (d x d_k), keys (T x 1, any finite values: their
  // stable sort is the permutation), W_1 (d x m), b (1 x m), W_2 (m x d),
  // finite scale (drawn 1/sqrt(d_k)); T, d, d_k, m >= 1. Domain: |entries|
  // <= 2^200 and |scale| <= 2^20, so scores and the row map's products stay
  // finite in double (the bitwise comparisons would fail on inf or NaN for
  // reasons outside the claims). X and the weights in every regime
  // (|entry| <= 2^16); the row map is computed with MatMulRows, so a row of
  // P X gives bitwise the row of X it came from whatever the bits.
  template <class S> static Domain Hypotheses() {
    const Admit entries = Admit::Within(0x1p200);
    const gen::Regime regime = gen::RegimeFor<S>(gen::Regime{});
    Domain d;
    d.Dim(kLen, {1, kMaxLen<S>, kMaxLen<S>}).Dim(kD, {1, kMaxWidth<S>, kMaxWidth<S>});
    d.Dim(kDk, {1, kMaxWidth<S>, kMaxWidth<S>}).Dim(kOne, {1, 1, 1}, 1).Dim(kM, {1, kMaxWidth<S>, kMaxWidth<S>});
    d.Matrix(kX, kLen, kD, regime, entries);
    d.Matrix(kWQ, kD, kDk, regime, entries).Matrix(kWK, kD, kDk, regime, entries);
    d.Matrix(kKeys, kLen, kOne, gen::Dyadic(8, 0), entries);  // sort keys: only their order (the permutation) matters
    d.Matrix(kW1, kD, kM, regime, entries).Matrix(kBias, kOne, kM, regime, entries);
    d.Matrix(kW2, kM, kD, regime, entries);
    d.Built(
        kScale, [](const Domain::Drawn& in) { return Exact(1.0 / std::sqrt(static_cast<double>(in.Dim(kDk)))); },
        Admit::Within(0x1p20));
    return d;
  }
};

struct ScoreWeightConjugation : PermutedInputFamily, ClaimId<"lecture4.thm6.1.score_weight_conjugation"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> x = in[kX], wq = in[kWQ], wk = in[kWK];
    const Mat<S> p = PermutationMatrix<S>(in.exact(kKeys));
    const S scale = in[kScale];
    const Mat<S> px = p * x;
    const Mat<S> s = MaskedScores<S>(Mat<S>(x * wq), Mat<S>(x * wk), scale, Mask::None());
    const Mat<S> sp = MaskedScores<S>(Mat<S>(px * wq), Mat<S>(px * wk), scale, Mask::None());
    const Mat<S> conj = p * s * p.transpose();
    static const Tolerance kScores{
        "|S(PX) - P S P^T|", "0",
        "entry (a,b) of both sides is the same dot product of the same rows in the same order: bitwise equal "
        "in double and MPFR (an identity in exact arithmetic, certified by intervals)", MetricKind::kRounding};
    const Mat<S> v = Mat<S>::Zero(x.rows(), 1);
    const Mat<S> a = Attention<S>(Mat<S>(x * wq), Mat<S>(x * wk), v, scale).weights;
    const Mat<S> ap = Attention<S>(Mat<S>(px * wq), Mat<S>(px * wk), v, scale).weights;
    const Mat<S> aconj = p * a * p.transpose();
    static const Tolerance kWeights{"|A(PX) - P A P^T|", "0 (an identity)", "certified by interval arithmetic", MetricKind::kRounding};
    for (Eigen::Index i = 0; i < a.rows(); ++i)
      for (Eigen::Index j = 0; j < a.cols(); ++j) {
        ExpectWithin<S>(kScores, abs(sp(i, j) - conj(i, j)), S(0));
        ExpectWithin<S>(kWeights, abs(ap(i, j) - aconj(i, j)), S(0));
      }
  }
};
ATTNPROP_REGISTER(ScoreWeightConjugation, double, Mpfr, Interval);

struct RowwiseMaps : PermutedInputFamily, ClaimId<"lecture4.sec6.rowwise_maps_equivariant"> {
  template <class S>
  static Mat<S> Phi(const Mat<S>& x, const In<S>& in) {
    const Mat<S> w1 = in[kW1], b = in[kBias], w2 = in[kW2];
    Mat<S> h = MatMulRows<S>(x, w1);
    for (Eigen::Index i = 0; i < h.rows(); ++i)
      for (Eigen::Index j = 0; j < h.cols(); ++j) h(i, j) = std::max(S(h(i, j) + b(0, j)), S(0));
    return MatMulRows<S>(h, w2);
  }

  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> x = in[kX];
    const Mat<S> p = PermutationMatrix<S>(in.exact(kKeys));
    const Mat<S> lhs = Phi<S>(Mat<S>(p * x), in), rhs = p * Phi<S>(x, in);
    static const Tolerance kRows{"|phi_row(PX) - P phi_row(X)|", "0",
                                        "each output row is the same computation on the same input row", MetricKind::kRounding};
    ExpectWithin(kRows, ToDouble(S((lhs - rhs).cwiseAbs().maxCoeff())), 0.0);
  }
};
ATTNPROP_REGISTER(RowwiseMaps, double, Mpfr, Rational);

struct EmbeddingWithoutPositions : ClaimId<"lecture4.sec6.1.embedding_without_positions_equivariant"> {
  /// E (V x d, V, d >= 1) finite (rows are compared with ==), drawn in
  /// every regime with a vocabulary of 8 (ids 0..7); x (T x 1, T >= 1)
  /// integer ids in 0..V-1; keys (T x 1) finite.
  template <class S> static Domain Hypotheses() {
    Domain d;
    d.Dim(kLen, {1, kMaxLen<S>, kMaxLen<S>}).Dim(kD, {1, kMaxWidth<S>, kMaxWidth<S>}).Dim(kOne, {1, 1, 1}, 1);
    d.Dim(kVocab, {1, 8, 8, 8});  // drawn 8, admitted V >= 1
    d.Matrix(kE, kVocab, kD, gen::RegimeFor<S>(gen::Regime{}), Admit::Finite());
    const int ids = d.Param(kLen, kOne, gen::Dyadic(7, 0));  // token ids: integers, not input values
    d.Built(
        kTokens, kLen, kOne,
        [ids](const Domain::Drawn& in) {
          ExactMatrix tokens = in.Param(ids);
          for (Exact& e : tokens.data) e = Exact(std::abs(e.ToDouble()));
          return tokens;
        },
        Admit::Finite().Nonnegative().Doubles().OnGrid(1));
    d.Matrix(kKeys, kLen, kOne, gen::Dyadic(8, 0), Admit::Finite());  // sort keys: only their order matters
    d.Assume("every token id < V (a row of E)", [](const Values& v) { return IdsBelow(v[kTokens], v[kE].rows); });
    return d;
  }

  template <class S>
  static Mat<S> Embed(const Mat<S>& e, const std::vector<int64_t>& tokens) {
    Mat<S> r(Eigen::Index(tokens.size()), e.cols());
    for (size_t t = 0; t < tokens.size(); ++t) r.row(Eigen::Index(t)) = e.row(Eigen::Index(tokens[t]));
    return r;
  }

  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> e = in[kE];
    const ExactMatrix& x = in.exact(kTokens);
    std::vector<int64_t> tokens;
    for (const Exact& t : x.data) tokens.push_back(static_cast<int64_t>(t.ToDouble()));
    const std::vector<int64_t> inv = InversePermutation(in.exact(kKeys).data);
    std::vector<int64_t> permuted(tokens.size());  // (pi . x)_t = x_{pi^-1(t)}
    for (size_t t = 0; t < tokens.size(); ++t) permuted[t] = tokens[size_t(inv[t])];
    const Mat<S> p = PermutationMatrix<S>(in.exact(kKeys));
    ExpectThat(Embed<S>(e, permuted) == Mat<S>(p * Embed<S>(e, tokens)), "iota_0(pi . x) != P iota_0(x)");
  }
};
ATTNPROP_REGISTER(EmbeddingWithoutPositions, double, Mpfr, Rational);

/// Both positional-encoding identities share their cases: w, i, j, q, k.
struct AnglesFamily {
  // w finite, i, j >= 0, q and k 2 x 1 finite; drawn: w, q, k in every
  // regime (w a double, scales 2^-20..2^0, |w| <= 2^10 with a dominant
  // entry), positions i, j in 0..63. Domain: i, j <= 2^20, w a double with
  // |w| <= 2^10, and |q|, |k| entries <= 2^200 (finite products). Certified
  // identities: no rounding budget, so no angle needs to be exact in double.
  template <class S> static Domain Hypotheses() {
    gen::Regime angle = gen::RegimeFor<S>(gen::Regime{});
    angle.max_scale = 0;
    angle.full_bits = 53;  // a double (the domain's), in every backend
    Domain d;
    d.Dim(kTwo, {2, 2, 2}, 2).Dim(kOne, {1, 1, 1}, 1);
    const int w = d.Param(kOne, kOne, angle);
    d.Built(kAngle, [w](const Domain::Drawn& in) { return in.Param(w)(0, 0); }, Admit::Within(0x1p10).Doubles());
    d.Int(kI, rc::gen::inRange<int64_t>(0, 64), 0, 1 << 20).Int(kJ, rc::gen::inRange<int64_t>(0, 64), 0, 1 << 20);
    d.Matrix(kQv, kTwo, kOne, gen::RegimeFor<S>(gen::Regime{}), Admit::Within(0x1p200));
    d.Matrix(kKv, kTwo, kOne, gen::RegimeFor<S>(gen::Regime{}), Admit::Within(0x1p200));
    return d;
  }
};

struct SinusoidInnerProduct : AnglesFamily, ClaimId<"lecture4.sec6.2.sinusoid_inner_product"> {
  template <class S> static void Conclusion(const In<S>& in) {
    using std::cos;
    using std::sin;
    const S w = in[kAngle], i = S(double(in[kI])), j = S(double(in[kJ]));
    const S lhs = sin(w * i) * sin(w * j) + cos(w * i) * cos(w * j);
    const S rhs = cos(w * (i - j));
    static const Tolerance kInnerProduct{"|<r_i,r_j> - cos(w(i-j))|", "0 (an identity)",
                                         "certified by interval arithmetic", MetricKind::kRounding};
    ExpectWithin<S>(kInnerProduct, abs(lhs - rhs), S(0));
  }
};
ATTNPROP_REGISTER(SinusoidInnerProduct, double, Mpfr, Interval);

template <class S>
Mat<S> Rotation(const S& theta) {
  using std::cos;
  using std::sin;
  Mat<S> r(2, 2);
  r << cos(theta), -sin(theta), sin(theta), cos(theta);
  return r;
}

struct RopeRelativeIdentity : AnglesFamily, ClaimId<"lecture4.sec6.2.rope_relative_identity"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const S w = in[kAngle], i = S(double(in[kI])), j = S(double(in[kJ]));
    const Mat<S> q = in[kQv], k = in[kKv];
    const S lhs = (Rotation<S>(S(i * w)) * q).col(0).dot((Rotation<S>(S(j * w)) * k).col(0));
    const S rhs = q.col(0).dot((Rotation<S>(S((j - i) * w)) * k).col(0));
    static const Tolerance kRelative{"|<R_iw q, R_jw k> - q^T R_(j-i)w k|", "0 (an identity)",
                                     "certified by interval arithmetic", MetricKind::kRounding};
    ExpectWithin<S>(kRelative, abs(lhs - rhs), S(0));
  }
};
ATTNPROP_REGISTER(RopeRelativeIdentity, double, Mpfr, Interval);

struct NoOrderAutomorphism : ClaimId<"lecture4.rem6.3.no_nontrivial_order_automorphism"> {
  // T >= 1. Domain: T <= 9 (the check enumerates all T! permutations: a
  // cost limit); the generator draws T <= 7.
  template <class S> static Domain Hypotheses() {
    Domain d;
    d.Int(kT, rc::gen::inRange<int64_t>(1, 8), 1, 9);
    return d;
  }

  template <class S> static void Conclusion(const In<S>& in) {
    const int64_t t = in[kT];
    std::vector<int64_t> pi(static_cast<size_t>(t));
    std::iota(pi.begin(), pi.end(), 0);
    int64_t preserving = 0;
    bool identity_preserves = false;
    do {  // all T! permutations
      bool preserves = true;
      for (int64_t i = 0; i < t && preserves; ++i)
        for (int64_t j = 0; j <= i && preserves; ++j) preserves = pi[size_t(j)] <= pi[size_t(i)];
      if (preserves) {
        ++preserving;
        identity_preserves = std::is_sorted(pi.begin(), pi.end());
      }
    } while (std::next_permutation(pi.begin(), pi.end()));
    ExpectThat(preserving == 1 && identity_preserves,
               std::to_string(preserving) + " permutations of " + std::to_string(t) + " preserve j <= i");
  }
};
ATTNPROP_REGISTER(NoOrderAutomorphism, double);

struct TwoPositionCausal : ClaimId<"lecture4.rem6.3.two_position_causal_example"> {
  // V is 2 x d_v (d_v >= 1; drawn 2) with v1 != v2 (the example's
  // hypothesis). Domain: every entry a double with (v1 + v2)/2 exact in
  // double (the printed value is compared bitwise: the sum exact and its half
  // not subnormal). Drawn in every regime (doubles); the exactness is the
  // Assume below (short and 10-bit mantissas always meet it).
  template <class S> static Domain Hypotheses() {
    gen::Regime regime = gen::RegimeFor<S>(gen::Regime{});
    regime.full_bits = 53;  // doubles (the domain's), in every backend
    Domain d;
    d.Dim(kTwo, {2, 2, 2}, 2).Dim(kDv, {1, 2, 2, 2});
    d.Matrix(kV, kTwo, kDv, regime, Admit::Within(0x1p1000).Doubles());
    d.Assume("(v1 + v2)/2 exact in double", [](const Values& v) {
      const ExactMatrix& m = v[kV];
      for (int64_t l = 0; l < m.cols; ++l) {
        const double a = m(0, l).ToDouble(), b = m(1, l).ToDouble(), sum = a + b;
        if (!hyp::SumExactIn(a, b, 53) || (sum != 0 && std::fabs(sum) < 0x1p-1020)) return false;
      }
      return true;
    });
    d.Assume("v1 != v2", [](const Values& v) {
      const ExactMatrix& m = v[kV];
      for (int64_t l = 0; l < m.cols; ++l)
        if (!hyp::SameReal(m(0, l), m(1, l))) return true;  // as reals: -0 = +0
      return false;
    });
    return d;
  }

  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> v = in[kV];
    Mat<S> swap(2, 2);
    swap << 0, 1, 1, 0;
    const Mat<S> qk = Mat<S>::Zero(2, 1);  // all scores equal (0)
    auto f = [&](const Mat<S>& vals) { return Attention<S>(qk, qk, vals, S(1), Mask::Causal()).out; };
    const Mat<S> f12 = f(v), f21 = f(Mat<S>(swap * v));
    const Mat<S> mid = (v.row(0) + v.row(1)) / S(2);
    Mat<S> expect12(2, v.cols()), expect21(2, v.cols());
    expect12 << v.row(0), mid;
    expect21 << v.row(1), mid;
    static const Tolerance kPrinted{
        "|F - printed value|", "0",
        "equal scores give weights exactly 1 and (1/2, 1/2); v1 + v2 exact in double (assumed), so is its half", MetricKind::kRounding};
    ExpectWithin(kPrinted, ToDouble(S((f12 - expect12).cwiseAbs().maxCoeff())), 0.0);
    ExpectWithin(kPrinted, ToDouble(S((f21 - expect21).cwiseAbs().maxCoeff())), 0.0);
    const Mat<S> pf = swap * f12;
    ExpectThat(pf != f21, "P F(v1,v2) == F(v2,v1) although v1 != v2");
  }
};
ATTNPROP_REGISTER(TwoPositionCausal, double, Mpfr);

// ---------------------------------------------------------------------------
// Cor 6.2 and Precision remark 6.3: a token sequence, an embedding E, fixed
// positions p, a head and a row-wise map, all in every regime (gen::Regime).
// The layers are computed with sequential loops (MatMulRows), so that a row
// of P X gives bitwise the row of X it came from; only the sums over keys
// (Z and the output) change order when the rows are permuted.

/// E (V x d; drawn V = 8), p (T x d), W_Q, W_K (d x d_k), W_V (d x d),
/// W_1 (d x m), b (1 x m), W_2 (m x d), all in every regime (scales up to
/// 2^2), tokens x (T x 1, drawn ids 0..7), keys (T x 1, drawn 0..255: their
/// stable sort is the permutation), scale = fl(1/sqrt(d_k)). Domain:
/// |entries| <= 2^60 and |scale| <= 1, so that X, the projections (<= d
/// 2^121), the scores (<= d_k d^2 2^242 |scale|) and phi stay finite doubles
/// (the bounds assume no overflow); ids integers in 0..V-1; keys finite.
template <class S>
Domain StackCase(int64_t min_len = 1) {
  gen::Regime regime = gen::RegimeFor<S>(gen::Regime{});
  regime.max_scale = 2;
  const Admit entries = Admit::Within(0x1p60);
  Domain d;
  d.Dim(kLen, {min_len, kMaxLen<S>, kMaxLen<S>}).Dim(kD, {1, kMaxWidth<S>, kMaxWidth<S>});
  d.Dim(kDk, {1, kMaxWidth<S>, kMaxWidth<S>}).Dim(kM, {1, kMaxWidth<S>, kMaxWidth<S>});
  d.Dim(kVocab, {1, 8, 8, 8}).Dim(kOne, {1, 1, 1}, 1);  // V drawn 8, admitted >= 1
  d.Matrix(kE, kVocab, kD, regime, entries).Matrix(kPos, kLen, kD, regime, entries);
  d.Matrix(kWQ, kD, kDk, regime, entries).Matrix(kWK, kD, kDk, regime, entries).Matrix(kWV, kD, kD, regime, entries);
  d.Matrix(kW1, kD, kM, regime, entries).Matrix(kBias, kOne, kM, regime, entries).Matrix(kW2, kM, kD, regime, entries);
  d.Matrix(kTokens, kLen, kOne, gen::UniformInteger(0, 7), Admit::Finite().Nonnegative().Doubles().OnGrid(1));
  d.Matrix(kKeys, kLen, kOne, gen::UniformInteger(0, 255), Admit::Finite());
  d.Built(
      kScale, [](const Domain::Drawn& in) { return Exact(1.0 / std::sqrt(static_cast<double>(in.Dim(kDk)))); },
      Admit::Within(1));
  d.Assume("every token id < V (a row of E)", [](const Values& v) { return IdsBelow(v[kTokens], v[kE].rows); });
  return d;
}

std::vector<int64_t> TokenIds(const ExactMatrix& x) {
  std::vector<int64_t> ids;
  for (const Exact& e : x.data) ids.push_back(static_cast<int64_t>(e.ToDouble()));
  return ids;
}

/// iota_0(x)_t = E_{x_t} (rows of E).
template <class S>
Mat<S> EmbedTokens(const Mat<S>& e, const std::vector<int64_t>& ids) {
  Mat<S> r(Eigen::Index(ids.size()), e.cols());
  for (size_t t = 0; t < ids.size(); ++t) r.row(Eigen::Index(t)) = e.row(Eigen::Index(ids[t]));
  return r;
}

/// pi . x: (pi . x)_t = x_{pi^-1(t)}.
std::vector<int64_t> PermuteTokens(const std::vector<int64_t>& ids, const ExactMatrix& keys) {
  const std::vector<int64_t> inv = InversePermutation(keys.data);
  std::vector<int64_t> r(ids.size());
  for (size_t t = 0; t < ids.size(); ++t) r[t] = ids[size_t(inv[t])];
  return r;
}

/// One head on X.
template <class S>
Mat<S> Head(const Mat<S>& x, const In<S>& in) {
  const Mat<S> q = MatMulRows<S>(x, in[kWQ]), k = MatMulRows<S>(x, in[kWK]), v = MatMulRows<S>(x, in[kWV]);
  return Attention<S>(q, k, v, in[kScale]).out;
}

/// The stack Z = Y + phi(Y), Y = X + Attn(X), phi(y) = relu(y W_1 + b) W_2.
template <class S>
Mat<S> Stack(const Mat<S>& x, const In<S>& in) {
  using std::max;
  const Mat<S> y = x + Head<S>(x, in);
  const Mat<S> b = in[kBias];
  Mat<S> r = MatMulRows<S>(y, in[kW1]);
  for (Eigen::Index i = 0; i < r.rows(); ++i)
    for (Eigen::Index j = 0; j < r.cols(); ++j) r(i, j) = max(S(r(i, j) + b(0, j)), S(0));
  return y + MatMulRows<S>(r, in[kW2]);
}

/// Both claims share the stack's hypotheses and cases.
struct StackFamily {
  template <class S> static Domain Hypotheses() { return StackCase<S>(); }
};

struct StackEquivariant : StackFamily, ClaimId<"lecture4.cor6.2.stack_equivariant_without_positions"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> e = in[kE];
    const std::vector<int64_t> ids = TokenIds(in.exact(kTokens));
    const Mat<S> perm = PermutationMatrix<S>(in.exact(kKeys));
    const Mat<S> x = EmbedTokens<S>(e, ids), xp = EmbedTokens<S>(e, PermuteTokens(ids, in.exact(kKeys)));
    ExpectThat(xp == Mat<S>(perm * x), "iota_0(pi . x) != P iota_0(x)");
    const Mat<S> moved = Stack<S>(xp, in), ref = perm * Stack<S>(x, in);
    static const Tolerance kStack{"|F(pi . x) - P F(x)|_il", "0 (an identity)", "certified by interval arithmetic", MetricKind::kRounding};
    for (Eigen::Index i = 0; i < ref.rows(); ++i)
      for (Eigen::Index l = 0; l < ref.cols(); ++l) ExpectWithin<S>(kStack, abs(moved(i, l) - ref(i, l)), S(0));
  }
};
ATTNPROP_REGISTER(StackEquivariant, double, Mpfr, Interval);

struct EquivariantWithPositionalRows : StackFamily, ClaimId<"lecture4.prec6.3.equivariant_even_with_positional_rows"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> x = EmbedTokens<S>(in[kE], TokenIds(in.exact(kTokens))) + in[kPos];
    const Mat<S> perm = PermutationMatrix<S>(in.exact(kKeys));
    const Mat<S> moved = Head<S>(Mat<S>(perm * x), in), ref = perm * Head<S>(x, in);
    static const Tolerance kHead{"|Attn(P X) - P Attn(X)|_il, X = E_x + p", "0 (an identity)",
                                 "certified by interval arithmetic", MetricKind::kRounding};
    for (Eigen::Index i = 0; i < ref.rows(); ++i)
      for (Eigen::Index l = 0; l < ref.cols(); ++l) ExpectWithin<S>(kHead, abs(moved(i, l) - ref(i, l)), S(0));
  }
};
ATTNPROP_REGISTER(EquivariantWithPositionalRows, double, Mpfr, Interval);

struct PositionsBreakEquivariance : ClaimId<"lecture4.cor6.2.positions_break_equivariance"> {
  // E (V x d; drawn V = 8), p (T x d, T >= 2) in every regime as in
  // StackCase, tokens x (T x 1, ids 0..7); the claim's hypothesis: the
  // positions p are nonconstant (two rows differ). Domain: |entries| <= 2^60
  // (z below stays a finite double); ids integers in 0..V-1.
  template <class S> static Domain Hypotheses() {
    gen::Regime regime = gen::RegimeFor<S>(gen::Regime{});
    regime.max_scale = 2;
    const Admit entries = Admit::Within(0x1p60);
    Domain d;
    d.Dim(kLen, {2, kMaxLen<S>, kMaxLen<S>}).Dim(kD, {1, kMaxWidth<S>, kMaxWidth<S>});
    d.Dim(kVocab, {1, 8, 8, 8}).Dim(kOne, {1, 1, 1}, 1);  // V drawn 8, admitted >= 1
    d.Matrix(kE, kVocab, kD, regime, entries).Matrix(kPos, kLen, kD, regime, entries);
    d.Matrix(kTokens, kLen, kOne, gen::UniformInteger(0, 7), Admit::Finite().Nonnegative().Doubles().OnGrid(1));
    d.Assume("every token id < V (a row of E)", [](const Values& v) { return IdsBelow(v[kTokens], v[kE].rows); });
    d.Assume("the positions p are nonconstant", [](const Values& v) {
      const ExactMatrix& p = v[kPos];
      for (int64_t t = 1; t < p.rows; ++t)
        for (int64_t l = 0; l < p.cols; ++l)
          if (!hyp::SameReal(p(t, l), p(0, l))) return true;  // as reals: -0 = +0
      return false;
    });
    return d;
  }

  /// The witness, from the case (exact values, so every backend sees the
  /// same one): t = the first row with p_t != p_0; pi = the transposition
  /// (0 t); the tokens x with x_t replaced by x_0 (so pi . x = x: the tokens
  /// do not move, the positions stay); the head d_k = d_v = 1 with W_Q = W_K
  /// = W_V = u = p_t - p_0 and scale c = 2^-2e, 2^e >= max_j |<X_j, u>| (the
  /// scores c z_i z_j in [-1, 1]: no saturation, so the rows' difference is
  /// resolved by double in most cases, by intervals always).
  /// Why it breaks equivariance: X = iota_p(x) has z_j = <X_j, u>, z_t - z_0
  /// = |u|^2 > 0, and Attn(X)_i = g(c z_i), g(s) = sum_j e^{s z_j} z_j /
  /// sum_j e^{s z_j}, strictly increasing (g' = variance of z under the
  /// tilted weights > 0: z is nonconstant). So Attn(iota_p(pi . x))_0 =
  /// g(c z_0) < g(c z_t) = (P Attn(iota_p(x)))_0.
  struct Witness {
    Eigen::Index t = 0;
    std::vector<int64_t> ids;
    ExactMatrix keys, u;
    double scale = 1;
  };
  static Witness MakeWitness(const Case& c) {
    const Values v(c);
    const ExactMatrix &p = v[kPos], &e = v[kE];
    Witness w;
    w.t = 1;
    auto same_row = [&](int64_t t) {
      for (int64_t l = 0; l < p.cols; ++l)
        if (!hyp::SameReal(p(t, l), p(0, l))) return false;
      return true;
    };
    while (w.t < p.rows && same_row(w.t)) ++w.t;
    w.ids = TokenIds(v[kTokens]);
    if (w.t >= p.rows) return w;  // p constant: outside the hypotheses (checked in the conclusion)
    w.ids[size_t(w.t)] = w.ids[0];
    w.keys = ExactMatrix(p.rows, 1);  // sort keys of pi = (0 t)
    for (int64_t r = 0; r < p.rows; ++r) w.keys(r, 0) = Exact(static_cast<double>(r));
    w.keys(0, 0) = Exact(static_cast<double>(w.t)), w.keys(w.t, 0) = Exact(0.0);
    w.u = ExactMatrix(p.cols, 1);
    for (int64_t l = 0; l < p.cols; ++l) w.u(l, 0) = Exact(Rational(p(w.t, l).ToRational() - p(0, l).ToRational()));
    double zmax = 0;  // max_j |<X_j, u>|, in double (only the scale's exponent depends on it)
    for (int64_t r = 0; r < p.rows; ++r) {
      double z = 0;
      for (int64_t l = 0; l < p.cols; ++l)
        z += (e(w.ids[size_t(r)], l).ToDouble() + p(r, l).ToDouble()) * w.u(l, 0).ToDouble();
      zmax = std::max(zmax, std::fabs(z));
    }
    int ex = 0;
    std::frexp(zmax, &ex);  // zmax < 2^ex
    w.scale = std::ldexp(1.0, -2 * ex);
    return w;
  }

  template <class S> static void Conclusion(const In<S>& in) {
    const Witness w = MakeWitness(in.value());
    ExpectThat(w.t < in.exact(kPos).rows, "nonconstant positions without two different rows");
    const Mat<S> e = in[kE], p = in[kPos], u = w.u.As<S>();
    const Mat<S> perm = PermutationMatrix<S>(w.keys);
    // The composite F(x) = Attn(iota_p(x)) with the witness head, through the model.
    auto f = [&](const std::vector<int64_t>& ids) {
      const Mat<S> x = EmbedTokens<S>(e, ids) + p;  // iota_p
      const Mat<S> z = MatMulRows<S>(x, u);         // X W_Q = X W_K = X W_V
      return Attention<S>(z, z, z, S(w.scale)).out;
    };
    const Mat<S> lhs = f(PermuteTokens(w.ids, w.keys));  // F(pi . x)
    const Mat<S> rhs = perm * f(w.ids);                   // P F(x)
    // Row 0 differs (rows other than 0 and t agree as exactly computed
    // values, and are not compared: in intervals equal enclosures decide
    // nothing). In intervals != is decided or undecided, never guessed.
    ExpectThat(lhs(0, 0) != rhs(0, 0), "Attn(iota_p(pi . x))_0 = (P Attn(iota_p(x)))_0 for the witness (t = " +
                                           std::to_string(w.t) + ")");
  }
};
ATTNPROP_REGISTER(PositionsBreakEquivariance, double, Mpfr, Interval);

}  // namespace
}  // namespace attnprop
