// "Only Large Weights (And Not Skip Connections) Can Prevent the Perils of
// Rank Collapse" (004_fc07a226cef95160.txt), Appendix C: Lemma C.1 (the
// multi-head Lemma 5.2) and Lemma C.2 (its conditions, layer by layer).
// softm_W(X) = softm(X Wq Wk^T X^T), softmv(X) = softm_W(X) X Wv (beta = 1,
// Definition A.1), Res with the column-wise midrange selection, g(e) =
// 2(e^e - 1), entrywise max norm.
//
// collapse.lemmaC.1.part1, collapse.lemmaC.1.part2
//   H heads A_i = softmv_{1,i}(X), B = X + sum_i A_i, ||Res(A_i)|| <= K_i
//   ||Res X|| <= eps for every i (K_i = (e^theta_i - 1)||Wv_{1,i}|| of Lemma
//   5.1, theta_i the balance of Res(X) W_{1,i} Res(X)^T), the second layer's
//   ||(B - X) Wv_2|| <= H eps and ||X Wv_2|| <= 1, eps_0 = 3 g(2H eps) =>
//   Part 1: ||softm_2(B) - softm_2(X)|| <= eps_0;
//   Part 2: ||softmv_2(B) - softmv_2(X)|| <= eps_0.
//   Expected REFUTED, both parts, for the reason Lemma 5.2 is: Res removes a
//   column shift 1 c^T, softm is invariant only under row shifts (Fact 3.2).
//   Pinned: H = 1, Wq_1 = Wk_1 = 0 (theta = 0, K = 0, A = 1 (mean X) Wv_1
//   has Res(A) = 0 exactly, eps = 0), so the bound is 0 while B = X + 1 c^T
//   moves the second layer's scores: part 1 n = 2, d = 1; part 2 n = d = 2
//   with Wv_2 reading only the coordinate the shift leaves alone.
//   Generated (C1Case): n, d up to 4 (MPFR 3), H up to 2, X and all weights
//   in every regime; eps = max_i K_i ||Res X|| (the smallest eps the
//   hypothesis allows; a case where Lemma 5.1 fails for a head is discarded
//   by the domain's assumption), Wv_2 = s r with the largest power of two s that
//   keeps ||(B - X) Wv_2|| <= H eps and ||X Wv_2|| <= 1 (tight by
//   construction); in two thirds of the cases (d >= 2) the first layer's Wv have a
//   zero last column and Wv_2 only a last row, so (B - X) Wv_2 = 0 exactly
//   (the shift the heads add is invisible to Wv_2, X Wv_2 is not).
//
// collapse.lemmaC.2.part1 / part2 / part3
//   A network with every weight ||.||_inf <= eta, eta in (0,1], ||X_0|| <=
//   phi0, eps_l = 2 eta phi0 (1 + H eta)^l in (0,1) (Definition A.2), X_l the
//   l-th layer output, B = X_{l+1} = X_l + sum_h softmv_{l,h}(X_l), K =
//   (e^theta - 1)||Wv|| with theta = 1 ("here theta = 1 due to Lemma B.2",
//   the lemma's preamble), W_v the value weights of the layer that reads B
//   (Lemma C.1's softm_2; bounded by eta like every weight) =>
//   Part 1: K ||Res(X_l)|| <= eps_l (K from layer l's heads, the max over h);
//   Part 2: ||(B - X_l) W_v|| <= H eps_l;
//   Part 3: ||X_l W_v|| <= 1.
//   collapse.lemmaC.2.part1.own_theta (NEW, our second reading of Part 1):
//   theta E's own balance per head (as in Lemma 5.1), not 1; expected
//   REFUTED (the aligned case's theta is about 20).
//   Expected REFUTED, all three: each proof uses Lemma D.7 (false: the layer
//   grows ||X|| by 1 + H d eta, not 1 + H eta) and part 2, 3 the false Fact
//   3.3 (2) once more (||Y W_v|| <= d ||Y|| eta). Pins: ones_values (part 2,
//   part 3) n = 1, d = 2, H = 1, l = 1, eta = 1, every weight all ones,
//   phi0 = ||X_0||: X_1 = 3 X_0; part 2 (X_0 = 1/8): ||(X_2 - X_1) W_v|| =
//   3/2 > H eps_1 = 1/2; part 3 (X_0 = 3/16): ||X_1 W_v|| = 9/8 > 1 with
//   eps_1 = 3/4. Part 1 (aligned_d3): n = 2, d = 3, eta = 1, every weight
//   all ones, X_0 rows +-(3/16)(1,1,1), phi0 = 3/16, eps_1 = 3/4: the scores
//   +-0.949 make P far from uniform, X_1 = Res X_1 = (1 + 3 tanh(0.949)) X_0,
//   and (e - 1)||Res X_1|| = 1.037 > 3/4.
//   Generated (C2Case): L in [2,3] layers (l = L - 1: layers 0..l-1 give X_l,
//   layer l gives B), H up to 2, n up to 4, d up to 6 (MPFR 4), eta = 1 in
//   half the cases, in half the aligned family (eta = 1, every weight J, the
//   rows of X_0 constant, alternating in sign, in half of those all of one
//   magnitude: where each max-norm step loses its factor d); else all weights
//   eta w with w in every regime within [-1,1] (value weights in half the
//   cases), eta in (0,1], phi0 = ||X_0|| with X_0 scaled by the largest
//   power of two that keeps eps_l < 1 (tight by construction; ||X_0|| <= 2^7).
// Backends double, MPFR (exp).
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "properties/collapse/network_cases.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

using namespace collapse;  // the family's fields and helpers

constexpr MatrixField kGq{"Gq"}, kGk{"Gk"}, kGv{"Gv"};
constexpr ScalarField kPhi0{"phi0"};

// ---------------------------------------------------------------- Lemma C.1

/// theta_i of Lemma 5.1 for one head: max_i D_ii of Res(X) W Res(X)^T.
template <class S>
S HeadTheta(const Mat<S>& r, const Head<S>& h) {
  const Mat<S> e = r * (h.wq * h.wk.transpose()) * r.transpose();
  S theta = 0;
  for (Eigen::Index i = 0; i < e.rows(); ++i) theta = std::max(theta, S(e.row(i).maxCoeff() - e.row(i).minCoeff()));
  return theta;
}

/// The sides of C.1's hypotheses: max_i K_i||Res X||, whether ||Res A_i|| <=
/// K_i ||Res X|| for every i, ||(B - X) Gv|| and ||X Gv||.
template <class S>
struct C1Sides {
  S k_res_x = 0;
  bool each_head = true;
  S shift_v = 0, x_v = 0;
};

template <class S>
C1Sides<S> C1HypothesisSides(const In<S>& in) {
  using std::exp;
  const Mat<S> x = in[kX];
  const Mat<S> r = Res<S>(x);
  const S nr = MaxNorm<S>(r);
  C1Sides<S> s;
  Mat<S> b = x;
  for (const Head<S>& h : LayerHeads<S>(in.value(), 0)) {
    const Mat<S> a = collapse::Softmv<S>(x, h.wq, h.wk, h.wv, S(1));
    b += a;
    const S k_res = S(S(exp(HeadTheta<S>(r, h)) - 1) * MaxNorm<S>(h.wv) * nr);
    if (MaxNorm<S>(Res<S>(a)) > k_res) s.each_head = false;
    if (k_res > s.k_res_x) s.k_res_x = k_res;
  }
  const Mat<S> gv = in[kGv];
  s.shift_v = MaxNorm<S>(Mat<S>((b - x) * gv));
  s.x_v = MaxNorm<S>(Mat<S>(x * gv));
  return s;
}

/// The generator's Wv_2 and eps, from the fields built before Wv_2 (X, the
/// heads, Gq, Gk) and Wv_2's direction r: eps = max_i K_i ||Res X|| (the
/// smallest eps the hypothesis allows, with a 2^-20 margin), Wv_2 = s r with
/// s the largest power of two with s||(B-X) r|| <= H eps and s ||X r|| <= 1,
/// a 2^-20 margin for double's rounding of the sides.
std::pair<ExactMatrix, double> C1ValueWeights(const Values& so_far, const ExactMatrix& r) {
  Case probe = so_far.value();
  probe.Matrix("Gv", r);
  const C1Sides<double> unit = C1HypothesisSides<double>(In<double>(probe));
  const double eps = unit.k_res_x * (1 + 0x1p-20);
  double s = 0x1p20;
  const double h_eps = double(so_far[kH]) * eps * (1 - 0x1p-20);
  if (unit.shift_v > 0) s = std::min(s, h_eps / unit.shift_v);
  if (unit.x_v > 0) s = std::min(s, (1 - 0x1p-20) / unit.x_v);
  s = s > 0x1p-60 ? std::ldexp(1.0, int(std::floor(std::log2(s)))) : 0.0;
  ExactMatrix gv = r;
  for (Exact& e : gv.data) e = Exact(e.ToDouble() * s);
  return {gv, eps};
}

/// C1's cases: n, d up to 4 (MPFR 3), H up to 2; X (up to 2) and all
/// weights in every regime; in two thirds of the cases (d >= 2) the first
/// layer writes nothing into the last coordinate (every Wv_{1,i} has a zero
/// last column) and Wv_2 reads only that coordinate (its other rows 0), so
/// (B - X) Wv_2 = 0 exactly while X Wv_2 need not be: the hypothesis on
/// Wv_2 then leaves ||X Wv_2|| <= 1 as the only limit. Wv_2 and eps by
/// C1ValueWeights.
/// The lemma's hypotheses (in 256-bit MPFR): every head's ||Res A_i|| <= K_i
/// ||Res X|| <= eps, ||(B - X) Gv|| <= H eps, ||X Gv|| <= 1. Shapes: one
/// layer of H heads W0_<h>{q,k,v} and the second layer's Gq, Gk, Gv, all
/// d x d. Domain where the check is computable in double: n, d <= 16, H <=
/// 8, entries |.| <= 2^8 and 0 <= eps <= 100 (3 g(2H eps) finite for H <= 8:
/// e^1600 is not, so H eps <= 300 is required too), theta_i <= 600.
template <class S>
Domain C1Case() {
  const int64_t max_nd = SizeBudget<S>::Pick(4, 3);
  gen::Regime xr = gen::RegimeFor<S>(gen::Regime{}), wr = xr;
  xr.max_abs = 2, xr.max_scale = 2;
  wr.max_scale = 2;
  const Admit entries = Admit::Within(0x1p8);
  Domain d;
  d.Dim(kTokens, {1, max_nd, max_nd}, 16).Dim(kWidth, {1, max_nd, max_nd}, 16).Dim(kHeadAxis, {1, 2, 2}, 8);
  d.Matrix(kX, kTokens, kWidth, xr, entries);
  const int wq_m = d.Param({kHeadAxis}, kWidth, kWidth, wr), wk_m = d.Param({kHeadAxis}, kWidth, kWidth, wr),
            wv_m = d.Param({kHeadAxis}, kWidth, kWidth, wr), gq_m = d.Param(kWidth, kWidth, wr),
            gk_m = d.Param(kWidth, kWidth, wr), gv_m = d.Param(kWidth, kWidth, NetworkParams::SignOrDyadic()),
            annihilate_m = d.ScalarParam(rc::gen::element(Exact(0.0), Exact(1.0), Exact(1.0)));
  const auto annihilate = [annihilate_m](const Domain::Drawn& in) {
    return in.ScalarParam(annihilate_m).ToDouble() != 0 && in.Dim(kWidth) >= 2;
  };
  d.Int(kH, kHeadAxis);
  using Index = std::vector<int64_t>;
  d.Group({kHeadAxis}, [](const Index& i) { return HeadName(0, i[0]); },
          {{"q", kWidth, kWidth, [wq_m](const Domain::Drawn& in, const Index& i) { return in.Param(wq_m, i); }, entries},
           {"k", kWidth, kWidth, [wk_m](const Domain::Drawn& in, const Index& i) { return in.Param(wk_m, i); }, entries},
           {"v", kWidth, kWidth,
            [wv_m, annihilate](const Domain::Drawn& in, const Index& i) {
              ExactMatrix v = in.Param(wv_m, i);
              if (annihilate(in))
                for (int64_t k = 0; k < v.rows; ++k) v(k, v.cols - 1) = Exact(0.0);
              return v;
            },
            entries}});
  d.Built(kGq, kWidth, kWidth, [gq_m](const Domain::Drawn& in) { return in.Param(gq_m); }, entries);
  d.Built(kGk, kWidth, kWidth, [gk_m](const Domain::Drawn& in) { return in.Param(gk_m); }, entries);
  const auto direction = [gv_m, annihilate](const Domain::Drawn& in) {
    ExactMatrix r = in.Param(gv_m);
    if (annihilate(in))
      for (int64_t i = 0; i + 1 < r.rows; ++i)
        for (int64_t j = 0; j < r.cols; ++j) r(i, j) = Exact(0.0);
    return r;
  };
  d.Built(
      kGv, kWidth, kWidth, [direction](const Domain::Drawn& in) { return C1ValueWeights(in.fields(), direction(in)).first; },
      entries);
  d.Built(
      collapse::kEps,
      [direction](const Domain::Drawn& in) { return Exact(C1ValueWeights(in.fields(), direction(in)).second); },
      Admit::Within(100).Nonnegative());
  d.Assume("H eps <= 300 (computability: 3 g(2H eps) finite in double)",
           [](const Values& v) { return double(v[kH]) * v[collapse::kEps].ToDouble() <= 300; });
  d.Assume("theta_i <= 600 for every head (computability: e^theta finite in double)", [](const Values& v) {
    MpfrPrecisionScope precise(256);
    const Mat<Mpfr> r = Res<Mpfr>(v[kX].As<Mpfr>());
    for (const Head<Mpfr>& h : LayerHeads<Mpfr>(v.value(), 0))
      if (HeadTheta<Mpfr>(r, h) > 600) return false;
    return true;
  });
  d.Assume("||Res A_i|| <= K_i ||Res X|| <= eps for every i, ||(B - X) Wv_2|| <= H eps, ||X Wv_2|| <= 1",
           [](const Values& v) {
             MpfrPrecisionScope precise(256);
             const In<Mpfr> in(v.value());
             const C1Sides<Mpfr> s = C1HypothesisSides<Mpfr>(in);
             const Mpfr e = in[collapse::kEps];
             return s.each_head && s.k_res_x <= e && s.shift_v <= Mpfr(double(v[kH])) * e && s.x_v <= 1;
           });
  return d;
}

template <class S>
void CheckC1(const In<S>& in, bool part2, const Tolerance& tolerance) {
  const Mat<S> x = in[kX];
  Mat<S> b = x;
  const std::vector<Head<S>> heads = LayerHeads<S>(in.value(), 0);
  for (const Head<S>& h : heads) b += collapse::Softmv<S>(x, h.wq, h.wk, h.wv, S(1));
  const Head<S> g{in[kGq], in[kGk], in[kGv]};
  const Mat<S> pb = collapse::SoftmW<S>(b, g.wq, g.wk, S(1)), px = collapse::SoftmW<S>(x, g.wq, g.wk, S(1));
  const S lhs = part2 ? MaxNorm<S>(Mat<S>(pb * b * g.wv - px * x * g.wv)) : MaxNorm<S>(Mat<S>(pb - px));
  const double hh = double(in[kH]);
  const S eps0 = S(3 * collapse::G<S>(S(2 * S(hh) * in[collapse::kEps])));
  // As stated; certified by interval arithmetic (properties/framework/
  // certify.h), so no rounding budget.
  ExpectWithin<S>(tolerance, lhs, eps0);
}

/// Both parts of Lemma C.1 share the hypotheses and the cases.
struct C1Family {
  template <class S> static Domain Hypotheses() { return C1Case<S>(); }
};

constexpr const char* kC1Reason = "the lemma as stated";

struct C1Part1 : C1Family, ClaimId<"collapse.lemmaC.1.part1"> {
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kDistance{"||softm_2(B) - softm_2(X)||_inf", "3 g(2H eps)", kC1Reason,
                                     MetricKind::kClaim};
    CheckC1<S>(in, false, kDistance);
  }
};
ATTNPROP_REGISTER(C1Part1, double, Mpfr, Interval);

struct C1Part2 : C1Family, ClaimId<"collapse.lemmaC.1.part2"> {
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kDistance{"||softmv_2(B) - softmv_2(X)||_inf", "3 g(2H eps)", kC1Reason,
                                     MetricKind::kClaim};
    CheckC1<S>(in, true, kDistance);
  }
};
ATTNPROP_REGISTER(C1Part2, double, Mpfr, Interval);

// ---------------------------------------------------------------- Lemma C.2

/// eps_l = 2 eta phi0 (1 + H eta)^l, exactly.
Rational EpsL(const Rational& eta, const Rational& phi0, int64_t heads, int64_t l) {
  Rational e = 2 * eta * phi0;
  for (int64_t i = 0; i < l; ++i) e *= 1 + Rational(heads) * eta;
  return e;
}

/// C2's parameters beyond the network's (NetworkAxesAndParams, bounded
/// weights, eta up to 1): Gv's direction and the family selectors.
struct C2Params {
  NetworkParams net;
  int gv = 0, eta_one = 0, aligned = 0, aligned_even = 0;

  bool Aligned(const Domain::Drawn& in) const { return in.ScalarParam(aligned).ToDouble() != 0; }
  /// Half the cases at eta = 1 (the largest the lemma allows: the factor d
  /// the proofs lose needs H eta near 1 to beat eps_l's (1 + H eta)^l), the
  /// weights eta w drawn for that eta; the aligned family at eta = 1 too.
  bool EtaOne(const Domain::Drawn& in) const { return Aligned(in) || in.ScalarParam(eta_one).ToDouble() != 0; }
  Exact Eta(const Domain::Drawn& in) const { return EtaOne(in) ? Exact(1.0) : net.Eta(in); }

  /// The aligned family's weights: eta J (all entries eta).
  static ExactMatrix Ones(int64_t d, const Rational& eta) {
    ExactMatrix j(d, d);
    for (Exact& e : j.data) e = Exact(gen::RoundToDouble(eta));
    return j;
  }

  ExactMatrix Weight(const Domain::Drawn& in, const std::vector<int64_t>& i, char p) const {
    if (Aligned(in)) return Ones(in.Dim(kWidth), Rational(1));
    ExactMatrix w = net.Weight(in, i, p);
    if (!EtaOne(in)) return w;
    const Rational old_eta = net.Eta(in).ToRational();
    for (Exact& e : w.data) e = Exact(gen::RoundToDouble(e.ToRational() / old_eta));
    return NetworkParams::Scaled(w, Rational(1));
  }

  /// X_0 and phi0: half of the cases the aligned family, where every
  /// max-norm step of the proofs loses its factor d at once: eta = 1, each
  /// weight eta J, X_0's rows constant with alternating signs (row i =
  /// (-1)^i |X_0(i,0)| 1^T: a residual for P to amplify), in half of those
  /// all of one magnitude (the extreme: the residual is the whole of X_0,
  /// and the rows' midrange stays 0). Then phi0 = ||X_0|| (the smallest
  /// allowed), X_0 scaled by the largest power of two with eps_l < 1 (tight
  /// by construction; exact: powers of two).
  std::pair<ExactMatrix, Exact> XAndPhi0(const Domain::Drawn& in) const {
    ExactMatrix x = in.Param(net.x);
    if (Aligned(in)) {
      const bool one_magnitude = in.ScalarParam(aligned_even).ToDouble() != 0;
      for (int64_t i = 0; i < x.rows; ++i) {
        const double v = std::abs(x(one_magnitude ? 0 : i, 0).ToDouble());
        for (int64_t k = 0; k < x.cols; ++k) x(i, k) = Exact(i % 2 == 0 ? v : -v);
      }
    }
    const Rational eta = Eta(in).ToRational();
    const int64_t heads = in.Dim(kHeadAxis), l = in.Dim(collapse::kLayerAxis) - 1;
    Rational phi0 = MaxNorm<Rational>(x.As<Rational>());
    int shift = 0;
    const auto eps_l = [&](const Rational& p) { return EpsL(eta, p, heads, l); };
    if (phi0 == 0) {
      phi0 = Rational(1, 16);
    } else {
      while (eps_l(2 * phi0) < 1 && 2 * phi0 <= 64 && shift > -60) phi0 *= 2, --shift;
    }
    while (eps_l(phi0) >= 1 && shift < 200) phi0 /= 2, ++shift;
    for (Exact& e : x.data) e = Exact(std::ldexp(e.ToDouble(), -shift));
    return {x, Exact(gen::RoundToDouble(phi0))};
  }
};

/// C2's cases: L in [2,3] layers (l = L - 1), H up to 2, n up to 4, d up to
/// 6 (MPFR 4), all weights bounded by eta (network_cases.h), the families of
/// C2Params. Definition A.2 and the lemma's: every weight (Gv too) within
/// eta, eta in (0,1], ||X_0|| <= phi0, eps_l in (0,1) with l = L - 1 >= 1
/// (exactly). Domain: the network's (network_cases.h) and phi0 <= 2^8.
template <class S>
Domain C2Case() {
  const int64_t max_n = 4, max_d = SizeBudget<S>::Pick(6, 4);
  Domain d;
  C2Params p;
  p.net = collapse::NetworkAxesAndParams<S>(d, {max_n, max_d, 2, 3, 2}, false, true, 0);
  p.gv = d.Param(kWidth, kWidth, NetworkParams::SignOrDyadic());
  p.eta_one = d.ScalarParam(rc::gen::element(Exact(0.0), Exact(1.0)));
  p.aligned = d.ScalarParam(rc::gen::element(Exact(0.0), Exact(1.0)));
  p.aligned_even = d.ScalarParam(rc::gen::element(Exact(0.0), Exact(1.0)));
  collapse::NetworkBuilders b;
  b.x = [p](const Domain::Drawn& in) { return p.XAndPhi0(in).first; };
  b.eta = [p](const Domain::Drawn& in) { return p.Eta(in); };
  b.weight = [p](const Domain::Drawn& in, const std::vector<int64_t>& i, char w) { return p.Weight(in, i, w); };
  collapse::NetworkFields(d, p.net, b);
  collapse::AssumeQueryKeyWithinEta(d);
  d.Built(
      kGv, kWidth, kWidth,
      [p](const Domain::Drawn& in) {
        const Rational eta = p.Eta(in).ToRational();
        return p.Aligned(in) ? C2Params::Ones(in.Dim(kWidth), eta) : NetworkParams::Scaled(in.Param(p.gv), eta);
      },
      Admit::Finite());
  d.Built(kPhi0, [p](const Domain::Drawn& in) { return p.XAndPhi0(in).second; }, Admit::Within(0x1p8));
  d.Assume("eta in (0, 1]", [](const Values& v) {
    const Rational eta = v[kEta].ToRational();
    return eta > 0 && eta <= 1;
  });
  d.Assume("||W_v||_inf <= eta (the reading layer's value weights)",
           [](const Values& v) { return MaxNorm<Rational>(v[kGv].As<Rational>()) <= v[kEta].ToRational(); });
  d.Assume("||X_0|| <= phi0",
           [](const Values& v) { return MaxNorm<Rational>(v[kX].As<Rational>()) <= v[kPhi0].ToRational(); });
  d.Assume("eps_l in (0,1), l = L - 1", [](const Values& v) {
    const Rational e = EpsL(v[kEta].ToRational(), v[kPhi0].ToRational(), v[kH], v[kL] - 1);
    return e > 0 && e < 1;
  });
  return d;
}

struct C2Family {
  template <class S> static Domain Hypotheses() { return C2Case<S>(); }
};

/// X_l (l = L - 1) and B = X_{l+1}.
template <class S>
collapse::Forward<S> C2Forward(const In<S>& in) {
  return collapse::RunNetwork<S>(in.value(), in[kL]);
}

template <class S>
S C2Eps(const In<S>& in) {
  const S eta = in[kEta];
  S e = S(2 * eta * in[kPhi0]);
  for (int64_t i = 0; i + 1 < in[kL]; ++i) e = S(e * S(1 + S(double(in[kH])) * eta));
  return e;
}

// As stated; certified by interval arithmetic (properties/framework/
// certify.h), so no rounding budget.
constexpr const char* kC2Reason = "the lemma as stated";

struct C2Part1 : C2Family, ClaimId<"collapse.lemmaC.2.part1"> {
  template <class S> static void Conclusion(const In<S>& in) {
    using std::exp;
    const int64_t l = in[kL] - 1;
    const collapse::Forward<S> f = C2Forward<S>(in);
    using std::max;
    S nv = 0;
    for (const Head<S>& h : LayerHeads<S>(in.value(), l)) nv = max(nv, MaxNorm<S>(h.wv));
    const S lhs = S(S(exp(S(1)) - 1) * nv * MaxNorm<S>(Res<S>(f.xs[size_t(l)])));
    static const Tolerance kBound{"(e - 1) max_h ||Wv_{l,h}|| ||Res X_l||_inf", "eps_l", kC2Reason,
                                  MetricKind::kClaim};
    ExpectWithin<S>(kBound, lhs, C2Eps<S>(in));
  }
};
ATTNPROP_REGISTER(C2Part1, double, Mpfr, Interval);

// Our second reading of Part 1: theta not fixed at 1 but E's own, as in
// Lemma 5.1 (K = (e^theta - 1)||Wv|| with E = Res(X_l) Wq Wk^T Res(X_l)^T
// theta-balanced, beta = 1): K = max_h (e^theta_h - 1)||Wv_{l,h}||, theta_h
// the smallest balance of head h's E (Definition 3.5).
struct C2Part1OwnTheta : C2Family, ClaimId<"collapse.lemmaC.2.part1.own_theta"> {
  template <class S> static void Conclusion(const In<S>& in) {
    using std::exp;
    using std::max;
    const int64_t l = in[kL] - 1;
    const collapse::Forward<S> f = C2Forward<S>(in);
    const Mat<S> r = Res<S>(f.xs[size_t(l)]);
    S k = 0;
    for (const Head<S>& h : LayerHeads<S>(in.value(), l)) {
      const S theta = collapse::MaxBalance<S>(Mat<S>(r * (h.wq * h.wk.transpose()) * r.transpose()));
      k = max(k, S((exp(theta) - 1) * MaxNorm<S>(h.wv)));
    }
    static const Tolerance kBound{"max_h (e^theta_h - 1) ||Wv_{l,h}|| ||Res X_l||_inf", "eps_l",
                                  "our reading: theta E's own balance", MetricKind::kClaim};
    ExpectWithin<S>(kBound, S(k * MaxNorm<S>(r)), C2Eps<S>(in));
  }
};
ATTNPROP_REGISTER(C2Part1OwnTheta, double, Mpfr, Interval);

struct C2Part2 : C2Family, ClaimId<"collapse.lemmaC.2.part2"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const int64_t l = in[kL] - 1;
    const collapse::Forward<S> f = C2Forward<S>(in);
    const Mat<S> gv = in[kGv];
    const Mat<S> diff = f.xs[size_t(l) + 1] - f.xs[size_t(l)];
    const S lhs = MaxNorm<S>(Mat<S>(diff * gv));
    static const Tolerance kBound{"||(B - X_l) W_v||_inf", "H eps_l", kC2Reason, MetricKind::kClaim};
    ExpectWithin<S>(kBound, lhs, S(S(double(in[kH])) * C2Eps<S>(in)));
  }
};
ATTNPROP_REGISTER(C2Part2, double, Mpfr, Interval);

struct C2Part3 : C2Family, ClaimId<"collapse.lemmaC.2.part3"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const int64_t l = in[kL] - 1;
    const collapse::Forward<S> f = C2Forward<S>(in);
    const Mat<S> gv = in[kGv];
    const S lhs = MaxNorm<S>(Mat<S>(f.xs[size_t(l)] * gv));
    static const Tolerance kBound{"||X_l W_v||_inf", "1", kC2Reason, MetricKind::kClaim};
    ExpectWithin<S>(kBound, lhs, S(1));
  }
};
ATTNPROP_REGISTER(C2Part3, double, Mpfr, Interval);

}  // namespace
}  // namespace attnprop
