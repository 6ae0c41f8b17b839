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
//   by HypothesesHold), Wv_2 = s r with the largest power of two s that
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
//   half the cases, in a third the aligned family (eta = 1, every weight J, the
//   rows of X_0 constant, alternating in sign, in half of those all of one
//   magnitude: where each max-norm step loses its factor d); else all weights
//   eta w with w in every regime within [-1,1] (value weights in half the
//   cases), eta in (0,1], phi0 = ||X_0|| with X_0 scaled by the largest
//   power of two that keeps eps_l < 1 (tight by construction; ||X_0|| <= 2^7).
// Backends double, MPFR (exp).
#include <cmath>
#include <string>
#include <vector>

#include "properties/collapse/network_cases.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace {

using collapse::Head;
using collapse::HeadName;
using collapse::LayerHeads;
using collapse::MaxNorm;

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
C1Sides<S> C1HypothesisSides(const Case& c) {
  using std::exp;
  const Mat<S> x = c.GetMat<S>("X");
  const Mat<S> r = Res<S>(x);
  const S nr = MaxNorm<S>(r);
  C1Sides<S> s;
  Mat<S> b = x;
  for (const Head<S>& h : LayerHeads<S>(c, 0)) {
    const Mat<S> a = collapse::Softmv<S>(x, h.wq, h.wk, h.wv, S(1));
    b += a;
    const S k_res = S(S(exp(HeadTheta<S>(r, h)) - 1) * MaxNorm<S>(h.wv) * nr);
    if (MaxNorm<S>(Res<S>(a)) > k_res) s.each_head = false;
    if (k_res > s.k_res_x) s.k_res_x = k_res;
  }
  const Mat<S> gv = c.GetMat<S>("Gv");
  s.shift_v = MaxNorm<S>(Mat<S>((b - x) * gv));
  s.x_v = MaxNorm<S>(Mat<S>(x * gv));
  return s;
}

/// The lemma's hypotheses (in 256-bit MPFR): every head's ||Res A_i|| <= K_i
/// ||Res X|| <= eps, ||(B - X) Gv|| <= H eps, ||X Gv|| <= 1. Structure: one
/// layer of H heads W0_<h>{q,k,v} and the second layer's Gq, Gk, Gv, all
/// d x d. Domain where the check is computable in double: n, d <= 16, H <=
/// 8, entries |.| <= 2^8 and 0 <= eps <= 100 (3 g(2H eps) finite for H <= 8:
/// e^1600 is not, so H eps <= 300 is checked too), theta_i <= 600.
bool C1HypothesesHold(const Case& c) {
  const ExactMatrix& x = c.GetMatrix("X");
  const int64_t d = x.cols, heads = c.GetInt("H");
  if (x.rows < 1 || d < 1 || x.rows > 16 || d > 16 || heads < 1 || heads > 8) return false;
  if (!collapse::EntriesWithin(x, 0x1p8)) return false;
  for (int64_t h = 0; h < heads; ++h)
    for (const char* p : {"q", "k", "v"}) {
      const ExactMatrix& w = c.GetMatrix(HeadName(0, h) + p);
      if (w.rows != d || w.cols != d || !collapse::EntriesWithin(w, 0x1p8)) return false;
    }
  for (const char* g : {"Gq", "Gk", "Gv"}) {
    const ExactMatrix& w = c.GetMatrix(g);
    if (w.rows != d || w.cols != d || !collapse::EntriesWithin(w, 0x1p8)) return false;
  }
  const Exact& eps = c.GetScalar("eps");
  if (!collapse::ScalarWithin(eps, 100) || eps.ToDouble() < 0 || double(heads) * eps.ToDouble() > 300) return false;
  MpfrPrecisionScope precise(256);
  const Mat<Mpfr> r = Res<Mpfr>(c.GetMat<Mpfr>("X"));
  for (const Head<Mpfr>& h : LayerHeads<Mpfr>(c, 0))
    if (HeadTheta<Mpfr>(r, h) > 600) return false;
  const C1Sides<Mpfr> s = C1HypothesisSides<Mpfr>(c);
  const Mpfr e = c.Get<Mpfr>("eps");
  return s.each_head && s.k_res_x <= e && s.shift_v <= Mpfr(double(heads)) * e && s.x_v <= 1;
}

template <class S>
rc::Gen<Case> C1Case() {
  gen::Layout layout;
  const int64_t max_nd = SizeBudget<S>::Pick(4, 3);
  const int n = layout.Axis({1, max_nd, max_nd}), d = layout.Axis({1, max_nd, max_nd}), heads = layout.Axis({1, 2, 2});
  gen::Regime xr = gen::RegimeFor<S>(gen::Regime{}), wr = xr;
  xr.max_abs = 2, xr.max_scale = 2;
  wr.max_scale = 2;
  const int x_m = layout.Matrix(n, d, xr), wq_m = layout.Stack({heads}, d, d, wr),
            wk_m = layout.Stack({heads}, d, d, wr), wv_m = layout.Stack({heads}, d, d, wr),
            gq_m = layout.Matrix(d, d, wr), gk_m = layout.Matrix(d, d, wr),
            gv_m = layout.Raw(d, d, collapse::NetworkLayout::SignOrDyadic()),
            annihilate = layout.Scalar(rc::gen::element(Exact(0.0), Exact(1.0), Exact(1.0)));
  return layout.Build<Case>([=](const gen::Layout::Drawn& dr) {
    Case c;
    c.Matrix("X", dr.Matrix(x_m)).Int("H", dr.Dim(heads));
    for (int64_t h = 0; h < dr.Dim(heads); ++h)
      c.Matrix(HeadName(0, h) + "q", dr.Matrix(wq_m, {h}))
          .Matrix(HeadName(0, h) + "k", dr.Matrix(wk_m, {h}))
          .Matrix(HeadName(0, h) + "v", dr.Matrix(wv_m, {h}));
    ExactMatrix r = dr.Matrix(gv_m);
    const int64_t dd = dr.Dim(d);
    if (dr.Scalar(annihilate).ToDouble() != 0 && dd >= 2) {
      // Two thirds of the cases: the first layer writes nothing into the last
      // coordinate (every Wv_{1,i} has a zero last column) and Wv_2 reads
      // only that coordinate (its other rows 0), so (B - X) Wv_2 = 0
      // exactly while X Wv_2 need not be: the hypothesis on Wv_2 then leaves
      // ||X Wv_2|| <= 1 as the only limit.
      for (int64_t h = 0; h < dr.Dim(heads); ++h) {
        ExactMatrix v = c.GetMatrix(HeadName(0, h) + "v");
        for (int64_t i = 0; i < dd; ++i) v(i, dd - 1) = Exact(0.0);
        c.Matrix(HeadName(0, h) + "v", v);
      }
      for (int64_t i = 0; i + 1 < dd; ++i)
        for (int64_t j = 0; j < dd; ++j) r(i, j) = Exact(0.0);
    }
    c.Matrix("Gq", dr.Matrix(gq_m)).Matrix("Gk", dr.Matrix(gk_m)).Matrix("Gv", r).Scalar("eps", Exact(0.0));
    const C1Sides<double> unit = C1HypothesisSides<double>(c);
    const double eps = unit.k_res_x * (1 + 0x1p-20);
    // Gv = s r, s the largest power of two with s||(B-X) r|| <= H eps and
    // s ||X r|| <= 1, a 2^-20 margin for double's rounding of the sides.
    double s = 0x1p20;
    const double h_eps = double(c.GetInt("H")) * eps * (1 - 0x1p-20);
    if (unit.shift_v > 0) s = std::min(s, h_eps / unit.shift_v);
    if (unit.x_v > 0) s = std::min(s, (1 - 0x1p-20) / unit.x_v);
    s = s > 0x1p-60 ? std::ldexp(1.0, int(std::floor(std::log2(s)))) : 0.0;
    ExactMatrix gv = r;
    for (Exact& e : gv.data) e = Exact(e.ToDouble() * s);
    return c.Matrix("Gv", gv).Scalar("eps", Exact(eps));
  });
}

template <class S>
void CheckC1(const Case& c, bool part2, const Tolerance& tolerance) {
  const Mat<S> x = c.GetMat<S>("X");
  Mat<S> b = x;
  const std::vector<Head<S>> heads = LayerHeads<S>(c, 0);
  for (const Head<S>& h : heads) b += collapse::Softmv<S>(x, h.wq, h.wk, h.wv, S(1));
  const Head<S> g{c.GetMat<S>("Gq"), c.GetMat<S>("Gk"), c.GetMat<S>("Gv")};
  const Mat<S> pb = collapse::SoftmW<S>(b, g.wq, g.wk, S(1)), px = collapse::SoftmW<S>(x, g.wq, g.wk, S(1));
  const S lhs = part2 ? MaxNorm<S>(Mat<S>(pb * b * g.wv - px * x * g.wv)) : MaxNorm<S>(Mat<S>(pb - px));
  const double hh = double(c.GetInt("H"));
  const S eps0 = S(3 * collapse::G<S>(S(2 * S(hh) * c.Get<S>("eps"))));
  const double u = ScalarTraits<S>::UnitRoundoff();
  // B carries the layer budget; an input error delta moves softm_2 by <= 4 t
  // delta (t = d^2 ||W_2|| (||B|| + ||X||), the scores' derivative) and the
  // softmv by that times n d ||B|| ||Gv|| plus d ||Gv|| delta; each softmax
  // entry errs (2 s + n + 3)u itself (s its max |score|); eps_0 carries
  // 3 (2u e^{2H eps} + u) (exp, subtraction, the products).
  const double n = double(x.rows()), d = double(x.cols());
  const double nb = ToDouble(MaxNorm<S>(b)), nx = ToDouble(MaxNorm<S>(x)), ng = ToDouble(MaxNorm<S>(g.wv));
  const double t = d * d * ToDouble(MaxNorm<S>(Mat<S>(g.wq * g.wk.transpose()))) * (nb + nx);
  const double sb = ToDouble(MaxNorm<S>(Mat<S>(b * g.wq * g.wk.transpose() * b.transpose()))),
               sx = ToDouble(MaxNorm<S>(Mat<S>(x * g.wq * g.wk.transpose() * x.transpose())));
  const double delta_b = collapse::LayerBudget<S>(x, heads);
  double budget = 4 * t * delta_b + Gamma(2 * d + 2, u) * 4 * (sb + sx) + (2 * (sb + sx) + 2 * n + 6) * u;
  if (part2) budget = budget * n * d * (nb + nx) * ng + d * ng * delta_b + Gamma(n + d + 2, u) * n * d * (nb + nx) * ng;
  budget += 3 * (2 * u * std::exp(2 * hh * ToDouble(c.Get<S>("eps"))) + u);
  ExpectWithin(tolerance, ToDouble(lhs), ToDouble(eps0) + budget);
}

/// Both parts of Lemma C.1 share the hypotheses and the cases.
struct C1Family {
  static bool HypothesesHold(const Case& c) { return C1HypothesesHold(c); }
  template <class S>
  static rc::Gen<Case> Hypotheses() {
    return C1Case<S>();
  }
};

constexpr const char* kC1Reason =
    "B = X + sum A_i carries the layer budget delta_B, which moves softm_2 by <= 4 t delta_B (t = d^2 "
    "||W_2|| (||B|| + ||X||)); the scores gamma_{2d+2}, each softmax entry (2s + n + 3)u; part 2 carries that "
    "through P B Gv (n d (||B|| + ||X||) ||Gv||, gamma_{n+d+2}); eps_0 = 3 g(2H eps) errs 3 (2u e^{2H eps} + u)";

struct C1Part1 : C1Family {
  static constexpr const char* kId = "collapse.lemmaC.1.part1";
  static constexpr const char* kSource = "004 Appendix C.1, Lemma C.1 Part 1";
  static inline const Tolerance kDistance{"||softm_2(B) - softm_2(X)||_inf", "3 g(2H eps) + budget", kC1Reason,
                                          MetricKind::kClaim};
  static std::vector<Tolerance> Tolerances() { return {kDistance}; }
  template <class S>
  static void Conclusion(const Case& c) {
    CheckC1<S>(c, false, kDistance);
  }
};

struct C1Part2 : C1Family {
  static constexpr const char* kId = "collapse.lemmaC.1.part2";
  static constexpr const char* kSource = "004 Appendix C.1, Lemma C.1 Part 2";
  static inline const Tolerance kDistance{"||softmv_2(B) - softmv_2(X)||_inf", "3 g(2H eps) + budget", kC1Reason,
                                          MetricKind::kClaim};
  static std::vector<Tolerance> Tolerances() { return {kDistance}; }
  template <class S>
  static void Conclusion(const Case& c) {
    CheckC1<S>(c, true, kDistance);
  }
};

ATTNPROP_REGISTER(C1Part1, double, Mpfr);
ATTNPROP_REGISTER(C1Part2, double, Mpfr);

// ---------------------------------------------------------------- Lemma C.2

/// eps_l = 2 eta phi0 (1 + H eta)^l, exactly.
Rational EpsL(const Rational& eta, const Rational& phi0, int64_t heads, int64_t l) {
  Rational e = 2 * eta * phi0;
  for (int64_t i = 0; i < l; ++i) e *= 1 + Rational(heads) * eta;
  return e;
}

/// Definition A.2 and the lemma's: every weight (Gv too) within eta, eta in
/// (0,1], ||X_0|| <= phi0, eps_l in (0,1) with l = L - 1 >= 1 (exactly).
/// Structure: the network's L x H heads (BoundedNetworkHypothesesHold: its
/// computability domain) and Gv d x d.
bool C2HypothesesHold(const Case& c) {
  if (c.GetInt("L") < 2 || !collapse::BoundedNetworkHypothesesHold(c)) return false;
  const int64_t d = c.GetMatrix("X").cols;
  const ExactMatrix& gv = c.GetMatrix("Gv");
  if (gv.rows != d || gv.cols != d || !collapse::ScalarWithin(c.GetScalar("phi0"), 0x1p8)) return false;
  const Rational eta = c.Get<Rational>("eta"), phi0 = c.Get<Rational>("phi0");
  if (!(eta > 0) || eta > 1 || MaxNorm<Rational>(c.GetMat<Rational>("Gv")) > eta) return false;
  if (MaxNorm<Rational>(c.GetMat<Rational>("X")) > phi0) return false;
  const Rational e = EpsL(eta, phi0, c.GetInt("H"), c.GetInt("L") - 1);
  return e > 0 && e < 1;
}

template <class S>
rc::Gen<Case> C2Case() {
  const int64_t max_n = 4, max_d = SizeBudget<S>::Pick(6, 4);
  const collapse::NetworkLayout::Dims dims{max_n, max_d, 2, 3, 2};
  collapse::NetworkLayout l = collapse::NetworkLayout::Make<S>(dims, false, true, 0);
  const int gv_m = l.layout.Raw(l.d, l.d, collapse::NetworkLayout::SignOrDyadic());
  const int eta_one = l.layout.Scalar(rc::gen::element(Exact(0.0), Exact(1.0)));
  const int aligned = l.layout.Scalar(rc::gen::element(Exact(0.0), Exact(0.0), Exact(1.0)));
  const int aligned_even = l.layout.Scalar(rc::gen::element(Exact(0.0), Exact(1.0)));
  return l.layout.Build<Case>([=](const gen::Layout::Drawn& dr) {
    // Half the cases at eta = 1 (the largest the lemma allows: the factor
    // d the proofs lose needs H eta near 1 to beat eps_l's (1 + H eta)^l),
    // the weights eta w drawn for that eta.
    collapse::NetworkLayout at = l;
    Case c = at.Base(dr);
    const bool is_aligned = dr.Scalar(aligned).ToDouble() != 0;
    if (is_aligned || dr.Scalar(eta_one).ToDouble() != 0) {
      const Rational old_eta = c.Get<Rational>("eta");
      for (int64_t li = 0; li < c.GetInt("L"); ++li)
        for (int64_t h = 0; h < c.GetInt("H"); ++h)
          for (const char* p : {"q", "k", "v"}) {
            ExactMatrix w = c.GetMatrix(HeadName(li, h) + p);
            for (Exact& e : w.data) e = Exact(gen::RoundToDouble(e.ToRational() / old_eta));
            c.Matrix(HeadName(li, h) + p, collapse::NetworkLayout::Scaled(w, Rational(1)));
          }
      c.Scalar("eta", Exact(1.0));
    }
    const Rational eta = c.Get<Rational>("eta");
    c.Matrix("Gv", collapse::NetworkLayout::Scaled(dr.Matrix(gv_m), eta));
    if (is_aligned) {
      // A third of the cases: the aligned family, where every max-norm
      // step of the proofs loses its factor d at once: eta = 1, each weight
      // eta J (all entries eta), X_0's rows constant with alternating signs
      // (row i = (-1)^i |X_0(i,0)| 1^T: a residual for P to amplify).
      const int64_t dd = c.GetMatrix("X").cols;
      ExactMatrix j(dd, dd);
      for (Exact& e : j.data) e = Exact(gen::RoundToDouble(eta));
      for (int64_t li = 0; li < c.GetInt("L"); ++li)
        for (int64_t h = 0; h < c.GetInt("H"); ++h)
          for (const char* p : {"q", "k", "v"}) c.Matrix(HeadName(li, h) + p, j);
      c.Matrix("Gv", j);
      // Half of them with one magnitude in every row (the extreme: the
      // residual is the whole of X_0, and the rows' midrange stays 0).
      ExactMatrix x0 = c.GetMatrix("X");
      const bool one_magnitude = dr.Scalar(aligned_even).ToDouble() != 0;
      for (int64_t i = 0; i < x0.rows; ++i) {
        const double v = std::abs(x0(one_magnitude ? 0 : i, 0).ToDouble());
        for (int64_t k = 0; k < dd; ++k) x0(i, k) = Exact(i % 2 == 0 ? v : -v);
      }
      c.Matrix("X", x0);
    }
    // phi0 = ||X_0|| (the smallest allowed), X_0 scaled by the largest power
    // of two with eps_l < 1 (tight by construction; exact: powers of two).
    ExactMatrix x = c.GetMatrix("X");
    Rational phi0 = MaxNorm<Rational>(c.GetMat<Rational>("X"));
    int shift = 0;
    const auto eps_l = [&](const Rational& p) { return EpsL(eta, p, c.GetInt("H"), c.GetInt("L") - 1); };
    if (phi0 == 0) {
      phi0 = Rational(1, 16);
    } else {
      while (eps_l(2 * phi0) < 1 && 2 * phi0 <= 64 && shift > -60) phi0 *= 2, --shift;
    }
    while (eps_l(phi0) >= 1 && shift < 200) phi0 /= 2, ++shift;
    for (Exact& e : x.data) e = Exact(std::ldexp(e.ToDouble(), -shift));
    return c.Matrix("X", x).Scalar("phi0", Exact(gen::RoundToDouble(phi0)));
  });
}

struct C2Family {
  static bool HypothesesHold(const Case& c) { return C2HypothesesHold(c); }
  template <class S>
  static rc::Gen<Case> Hypotheses() {
    return C2Case<S>();
  }
};

/// X_l (l = L - 1), B = X_{l+1} and their budgets.
template <class S>
collapse::Forward<S> C2Forward(const Case& c) {
  return collapse::RunNetwork<S>(c, c.GetInt("L"));
}

template <class S>
S C2Eps(const Case& c) {
  const S eta = c.Get<S>("eta");
  S e = S(2 * eta * c.Get<S>("phi0"));
  for (int64_t i = 0; i + 1 < c.GetInt("L"); ++i) e = S(e * S(1 + S(double(c.GetInt("H"))) * eta));
  return e;
}

struct C2Part1 : C2Family {
  static constexpr const char* kId = "collapse.lemmaC.2.part1";
  static constexpr const char* kSource = "004 Appendix C.2, Lemma C.2 Part 1";
  static inline const Tolerance kBound{
      "(e - 1) max_h ||Wv_{l,h}|| ||Res X_l||_inf", "eps_l (1 + gamma_{l+3}) + budget",
      "X_l carries the accumulated layer budget (network_cases.h), the midrange Res doubles it and rounds once "
      "(2u||X_l||); e - 1 and the two products gamma_4 relative; eps_l is l + 2 products",
      MetricKind::kClaim};
  static std::vector<Tolerance> Tolerances() { return {kBound}; }
  template <class S>
  static void Conclusion(const Case& c) {
    using std::exp;
    const int64_t l = c.GetInt("L") - 1;
    const collapse::Forward<S> f = C2Forward<S>(c);
    S nv = 0;
    for (const Head<S>& h : LayerHeads<S>(c, l)) nv = std::max(nv, MaxNorm<S>(h.wv));
    const S lhs = S(S(exp(S(1)) - 1) * nv * MaxNorm<S>(Res<S>(f.xs[size_t(l)])));
    const double u = ScalarTraits<S>::UnitRoundoff();
    const double budget = 2 * ToDouble(nv) * (2 * f.budgets[size_t(l)] + 2 * u * ToDouble(MaxNorm<S>(f.xs[size_t(l)])));
    ExpectWithin(kBound, ToDouble(lhs),
                 ToDouble(C2Eps<S>(c)) * (1 + Gamma(double(l) + 3, u)) + budget + Gamma(4, u) * ToDouble(lhs));
  }
};

struct C2Part2 : C2Family {
  static constexpr const char* kId = "collapse.lemmaC.2.part2";
  static constexpr const char* kSource = "004 Appendix C.2, Lemma C.2 Part 2";
  static inline const Tolerance kBound{
      "||(B - X_l) W_v||_inf", "H eps_l (1 + gamma_{l+3}) + budget",
      "B and X_l carry the accumulated layer budgets; the product with W_v sums d terms (d ||W_v|| (budgets) + "
      "gamma_{d+1} d ||B - X_l|| ||W_v||)",
      MetricKind::kClaim};
  static std::vector<Tolerance> Tolerances() { return {kBound}; }
  template <class S>
  static void Conclusion(const Case& c) {
    const int64_t l = c.GetInt("L") - 1;
    const collapse::Forward<S> f = C2Forward<S>(c);
    const Mat<S> gv = c.GetMat<S>("Gv");
    const Mat<S> diff = f.xs[size_t(l) + 1] - f.xs[size_t(l)];
    const S lhs = MaxNorm<S>(Mat<S>(diff * gv));
    const double u = ScalarTraits<S>::UnitRoundoff(), d = double(gv.rows()), ng = ToDouble(MaxNorm<S>(gv));
    const double budget = d * ng * (f.budgets[size_t(l) + 1] + f.budgets[size_t(l)]) +
                          Gamma(d + 2, u) * d * ToDouble(MaxNorm<S>(diff)) * ng;
    ExpectWithin(kBound, ToDouble(lhs),
                 double(c.GetInt("H")) * ToDouble(C2Eps<S>(c)) * (1 + Gamma(double(l) + 3, u)) + budget);
  }
};

struct C2Part3 : C2Family {
  static constexpr const char* kId = "collapse.lemmaC.2.part3";
  static constexpr const char* kSource = "004 Appendix C.2, Lemma C.2 Part 3";
  static inline const Tolerance kBound{
      "||X_l W_v||_inf", "1 + budget",
      "X_l carries the accumulated layer budget; the product with W_v sums d terms (d ||W_v|| budget + "
      "gamma_{d+1} d ||X_l|| ||W_v||)",
      MetricKind::kClaim};
  static std::vector<Tolerance> Tolerances() { return {kBound}; }
  template <class S>
  static void Conclusion(const Case& c) {
    const int64_t l = c.GetInt("L") - 1;
    const collapse::Forward<S> f = C2Forward<S>(c);
    const Mat<S> gv = c.GetMat<S>("Gv");
    const S lhs = MaxNorm<S>(Mat<S>(f.xs[size_t(l)] * gv));
    const double u = ScalarTraits<S>::UnitRoundoff(), d = double(gv.rows()), ng = ToDouble(MaxNorm<S>(gv));
    const double budget = d * ng * f.budgets[size_t(l)] + Gamma(d + 2, u) * d * ToDouble(MaxNorm<S>(f.xs[size_t(l)])) * ng;
    ExpectWithin(kBound, ToDouble(lhs), 1 + budget);
  }
};

ATTNPROP_REGISTER(C2Part1, double, Mpfr);
ATTNPROP_REGISTER(C2Part2, double, Mpfr);
ATTNPROP_REGISTER(C2Part3, double, Mpfr);

}  // namespace
}  // namespace attnprop
