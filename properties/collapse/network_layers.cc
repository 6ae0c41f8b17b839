// "Only Large Weights (And Not Skip Connections) Can Prevent the Perils of
// Rank Collapse" (004_fc07a226cef95160.txt): claims about the layer map
// X_{l+1} = X_l + sum_h softmv_h(X_l), softmv(X) = softm(X Wq Wk^T X^T) X Wv
// (Definitions 3.7, A.1; beta = 1), entrywise max norm.
//
// collapse.sec1.identity_via_zero_values (Section 1)
//   A self-attention network with skip connections whose value weights are
//   all 0 is the identity: S(X) = X for every X. Holds (exactly: 0 times a
//   finite number is +-0, and X + 0 = X). Generated: L in [1,3], H in [1,2],
//   n in [1,4], d in [1,3], arbitrary Wq, Wk, Wv = 0.
//
// collapse.lemmaD.7.part1 (Appendix D.4, Lemma D.7 Part 1)
//   ||Wv_h||_inf <= eta for every head => ||X_{l+1}||_inf <= (1+H eta)||X_l||_inf.
//   Expected REFUTED (its proof uses the false Fact 3.3 (2)): n = 1, d = 2,
//   X = (1 1), H = 1, Wq = Wk = 0, Wv = all ones, eta = 1: softm = (1) exactly,
//   X_1 = X + X Wv = (3 3), but (1 + H eta)||X|| = 2.
// collapse.lemmaD.7.part2 (Part 2)
//   ||X_0|| <= phi0, ||Wv|| <= eta => ||X_l||_inf <= phi0 (1+H eta)^l.
//   Expected REFUTED by the same case (l = 1, phi0 = 1).
//   Generated (NetworkLayout): n up to 5, d up to 4, H up to 3, L in [1,2]
//   (part 2), X and Wq, Wk in every regime, eta up to 8, Wv = eta r with r
//   in [-1,1] (half +-1). Backends double, MPFR (exp).
//
// collapse.lemmaD.6.layer_lipschitz (stated in appendix_d_lipschitz.cc) and
// collapse.lemmaD.6.layer_lipschitz.with_distance (NEW: the second reading)
//   The lemma's proof derives ||softmv(X_l) - softmv(Y)|| <= K2 ||X - Y||
//   and bounds K2, so the printed bound 3 eta (eps_l^2 + 1) plausibly lacks
//   the factor ||X_l - Y||; this reading puts it back:
//   ||softmv(X_l) - softmv(Y)|| <= 3 eta (eps_l^2 + 1) ||X_l - Y||.
//   Expected REFUTED for d >= 4 (the step ||(X - Y) Wv|| <= ||Wv|| ||X - Y||
//   is the false Fact 3.3 (2); the factor is d): one token X_0 = (1,1,1,1),
//   first layer Wv = 0 (X_1 = X_0), eta = 1/8, the head G with Gq = Gk = 0,
//   Gv = eta J, Y = X_1 + (2,2,2,2): the difference is ||Delta Gv|| = 1 >
//   3 eta (eps_1^2 + 1) ||Delta|| = 0.809 (eps_1 = 9/32). Generated as
//   Lemma D.6 (one layer, H <= 3, all weights within eta) with d up to 6
//   (MPFR 5) and, in a third of the cases, the aligned family Gv = eta J,
//   Delta = 2||X_1|| (1 - 2^-20) in every entry.
#include <cmath>
#include <string>
#include <vector>

#include "properties/collapse/network_cases.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace {

using collapse::HeadName;
using collapse::Head;
using collapse::LayerBudget;
using collapse::LayerHeads;
using collapse::MaxNorm;
using collapse::NetworkCase;
using collapse::NetworkHypothesesHold;
using collapse::NetworkLayout;

struct IdentityViaZeroValues {
  static constexpr const char* kId = "collapse.sec1.identity_via_zero_values";
  static constexpr const char* kSource = "004 Section 1 (Rank Collapse and Skip Connections)";
  static inline const Tolerance kIdentity{
      "||S(X) - X||_inf", "0", "every head adds softm(.) X 0 = +-0 exactly (finite times 0), and X + 0 = X"};
  static std::vector<Tolerance> Tolerances() { return {kIdentity}; }
  static bool HypothesesHold(const Case& c) { return NetworkHypothesesHold(c, true); }
  template <class S>
  static rc::Gen<Case> Hypotheses() {
    return NetworkCase<S>(3, true);
  }
  template <class S>
  static void Conclusion(const Case& c) {
    const Mat<S> x0 = c.GetMat<S>("X");
    Mat<S> x = x0;
    for (int64_t l = 0; l < c.GetInt("L"); ++l) x = collapse::Layer<S>(x, LayerHeads<S>(c, l));
    ExpectWithin(kIdentity, ToDouble(MaxNorm<S>(Mat<S>(x - x0))), 0.0);
  }
};

struct LayerNormGrowth {
  static constexpr const char* kId = "collapse.lemmaD.7.part1";
  static constexpr const char* kSource = "004 Appendix D.4, Lemma D.7 Part 1";
  static inline const Tolerance kNextNorm{
      "||X_{l+1}||_inf", "(1 + H eta)||X_l||_inf (1 + gamma_2) + layer budget",
      "layer budget: scores gamma_{2d+2}; softmax entries (2 max|score| + n + 3)u; P X Wv gamma_{n+d}; "
      "skip and head sums H+1 roundings: gamma_{2n+2d+H+8} (||X|| + sum_h (1+2s_h) n d ||X|| ||Wv_h|| (1+n))",
      MetricKind::kClaim};
  static std::vector<Tolerance> Tolerances() { return {kNextNorm}; }
  static bool HypothesesHold(const Case& c) { return NetworkHypothesesHold(c, false); }
  template <class S>
  static rc::Gen<Case> Hypotheses() {
    return NetworkCase<S>(1, false);
  }
  template <class S>
  static void Conclusion(const Case& c) {
    const Mat<S> x = c.GetMat<S>("X");
    const std::vector<Head<S>> heads = LayerHeads<S>(c, 0);
    const Mat<S> next = collapse::Layer<S>(x, heads);
    const double u = ScalarTraits<S>::UnitRoundoff();
    // In S: the bound is attained with equality (one token, Wv = eta).
    const S bound = S(S(1) + S(double(c.GetInt("H"))) * c.Get<S>("eta")) * MaxNorm<S>(x) * S(S(1) + S(Gamma(2, u))) +
                    S(LayerBudget<S>(x, heads));
    ExpectWithin(kNextNorm, MaxNorm<S>(next), bound);
  }
};

struct LayerNormPower {
  static constexpr const char* kId = "collapse.lemmaD.7.part2";
  static constexpr const char* kSource = "004 Appendix D.4, Lemma D.7 Part 2";
  static inline const Tolerance kRatio{
      "max_l ||X_l||_inf / (phi0 (1+H eta)^l + budget_l)", "1",
      "phi0 = ||X_0|| (the smallest allowed); budget_l = the per-layer budget of part 1 accumulated, "
      "each layer's amplified by (1+H eta) and the power's l roundings gamma_{l+2} phi0(1+H eta)^l",
      MetricKind::kClaim};
  static std::vector<Tolerance> Tolerances() { return {kRatio}; }
  static bool HypothesesHold(const Case& c) { return NetworkHypothesesHold(c, false); }
  template <class S>
  static rc::Gen<Case> Hypotheses() {
    return NetworkCase<S>(2, false);
  }
  template <class S>
  static void Conclusion(const Case& c) {
    // In S: the bound is attained with equality (one token, Wv = eta).
    Mat<S> x = c.GetMat<S>("X");
    const double u = ScalarTraits<S>::UnitRoundoff();
    const S phi0 = MaxNorm<S>(x);
    const S growth = S(1) + S(double(c.GetInt("H"))) * c.Get<S>("eta");
    S budget = 0, power = 1, worst = 0;
    for (int64_t l = 0; l < c.GetInt("L"); ++l) {
      const std::vector<Head<S>> heads = LayerHeads<S>(c, l);
      budget = S(budget * growth) + S(LayerBudget<S>(x, heads));
      x = collapse::Layer<S>(x, heads);
      power = S(power * growth);
      const S allowed = S(phi0 * power * S(S(1) + S(Gamma(double(l) + 3, u)))) + budget;
      const S ratio = allowed > 0 ? S(MaxNorm<S>(x) / allowed) : S(MaxNorm<S>(x) > 0 ? 2 : 0);
      if (ratio > worst) worst = ratio;
    }
    ExpectWithin(kRatio, worst, S(1));
  }
};


/// Lemma D.6's hypotheses and cases, shared by its two readings.
/// kAlignedShare: with probability 1/kAlignedShare (0: never) a case of the
/// aligned family: the second layer's Gv = eta J and Delta = its largest
/// admissible value 2||X_1|| (1 - 2^-20) in every entry, where ||Delta Gv||
/// = d eta ||Delta|| (the factor d the max-norm bounds lose).
template <int64_t kMaxD, int kAlignedShare>
struct LayerLipschitzFamily {
  static bool HypothesesHold(const Case& c) {
    // NetworkHypothesesHold (one layer), the lemma's bounds on every weight,
    // ||X_0|| <= phi0, ||Y - X_1|| <= 2||X_1|| (in 256-bit MPFR); the second
    // layer's weights G and Delta in the same domain (|.| <= 2^8, Delta
    // <= 2^20: Y's scores finite), phi0 finite.
    if (!NetworkHypothesesHold(c, false) || c.GetInt("L") != 1) return false;
    const int64_t d = c.GetMatrix("X").cols;
    for (const char* w : {"Gq", "Gk", "Gv"})
      if (!collapse::EntriesWithin(c.GetMatrix(w), 0x1p8)) return false;
    if (!collapse::EntriesWithin(c.GetMatrix("Delta"), 0x1p20) || !collapse::ScalarWithin(c.GetScalar("phi0"), 0x1p20))
      return false;
    const Rational eta = c.Get<Rational>("eta");
    for (const char* w : {"Gq", "Gk", "Gv"})
      if (c.GetMatrix(w).rows != d || c.GetMatrix(w).cols != d || MaxNorm<Rational>(c.GetMat<Rational>(w)) > eta)
        return false;
    for (int64_t h = 0; h < c.GetInt("H"); ++h)
      for (const char* p : {"q", "k"})
        if (MaxNorm<Rational>(c.GetMat<Rational>(HeadName(0, h) + p)) > eta) return false;
    if (c.GetMatrix("Delta").rows != c.GetMatrix("X").rows || c.GetMatrix("Delta").cols != d) return false;
    if (MaxNorm<Rational>(c.GetMat<Rational>("X")) > c.Get<Rational>("phi0")) return false;
    MpfrPrecisionScope precise(256);
    const Mat<Mpfr> x1 = collapse::Layer<Mpfr>(c.GetMat<Mpfr>("X"), LayerHeads<Mpfr>(c, 0));
    return MaxNorm<Mpfr>(c.GetMat<Mpfr>("Delta")) <= 2 * MaxNorm<Mpfr>(x1);
  }
  template <class S>
  static rc::Gen<Case> Hypotheses() {
    // One network layer, then the second layer's weights G and Delta (all
    // bounded by eta) on the same axes.
    NetworkLayout l = kMaxD == 0 ? NetworkLayout::Make<S>(1, false)
                                 : NetworkLayout::Make<S>({SizeBudget<S>::Pick(5, 4), SizeBudget<S>::Pick(kMaxD, kMaxD - 1), 3, 1},
                                                          false, false, 3);
    const int gq_m = l.layout.Raw(l.d, l.d, NetworkLayout::SignOrDyadic()),
              gk_m = l.layout.Raw(l.d, l.d, NetworkLayout::SignOrDyadic()),
              gv_m = l.layout.Raw(l.d, l.d, NetworkLayout::SignOrDyadic()),
              r_m = l.layout.Raw(l.n, l.d, NetworkLayout::SignOrDyadic());
    const int aligned_m = kAlignedShare > 0 ? l.layout.Scalar(gen::UniformInteger(1, kAlignedShare)) : -1;
    return l.layout.Build<Case>([=](const gen::Layout::Drawn& dr) {
      Case c = l.Base(dr);
      const Rational eta = c.Get<Rational>("eta");
      auto scaled = [&](ExactMatrix w) {
        for (Exact& e : w.data) e = Exact(gen::RoundToDouble(eta * e.ToRational()));
        return w;
      };
      // Wq, Wk of the layer bounded by eta too (Lemma D.6 bounds all weights):
      // each entry clamped to [-eta, eta].
      for (int64_t h = 0; h < c.GetInt("H"); ++h)
        for (const char* p : {"q", "k"}) {
          ExactMatrix w = c.GetMatrix(HeadName(0, h) + p);
          for (Exact& e : w.data)
            if (abs(e.ToRational()) > eta) e = Exact(gen::RoundToDouble(e.ToRational() > 0 ? eta : Rational(-eta)));
          c.Matrix(HeadName(0, h) + p, w);
        }
      const bool aligned = aligned_m >= 0 && dr.Scalar(aligned_m).ToDouble() == 1;
      ExactMatrix gv = scaled(dr.Matrix(gv_m)), delta = dr.Matrix(r_m);
      if (aligned) {
        for (Exact& e : gv.data) e = Exact(gen::RoundToDouble(eta));
        for (Exact& e : delta.data) e = Exact(1.0);
      }
      c.Matrix("Gq", scaled(dr.Matrix(gq_m))).Matrix("Gk", scaled(dr.Matrix(gk_m))).Matrix("Gv", gv);
      const Mat<double> x1 = collapse::Layer<double>(c.GetMat<double>("X"), LayerHeads<double>(c, 0));
      const double scale = 2 * MaxNorm<double>(x1) * (1 - 0x1p-20);
      for (Exact& e : delta.data) e = Exact(e.ToDouble() * scale);
      c.Matrix("Delta", delta).Scalar("phi0", Exact(MaxNorm<Rational>(c.GetMat<Rational>("X"))));
      return c;
    });
  }
};

/// ||softmv(X_1) - softmv(Y)||, Y = X_1 + Delta, softmv the second layer's
/// head G; and the layer budgets of X_1, softmv(X_1), softmv(Y).
template <class S>
std::pair<S, double> D6Distance(const Case& c, Mat<S>* x1_out = nullptr) {
  const Mat<S> x0 = c.GetMat<S>("X");
  const std::vector<Head<S>> heads = LayerHeads<S>(c, 0);
  const Mat<S> x1 = collapse::Layer<S>(x0, heads);
  const Mat<S> y = x1 + c.GetMat<S>("Delta");
  const Head<S> g{c.GetMat<S>("Gq"), c.GetMat<S>("Gk"), c.GetMat<S>("Gv")};
  const Mat<S> diff = collapse::Softmv<S>(x1, g.wq, g.wk, g.wv, S(1)) - collapse::Softmv<S>(y, g.wq, g.wk, g.wv, S(1));
  if (x1_out) *x1_out = x1;
  return {MaxNorm<S>(diff), LayerBudget<S>(x0, heads) + LayerBudget<S>(x1, {g}) + LayerBudget<S>(y, {g})};
}

template <class S>
S D6Bound(const Case& c) {
  const S eta = c.Get<S>("eta");
  const S eps = S(2 * eta * c.Get<S>("phi0") * S(1 + S(double(c.GetInt("H"))) * eta));
  return S(3 * eta * (eps * eps + 1));
}

struct LayerLipschitz : LayerLipschitzFamily<0, 0> {
  static constexpr const char* kId = "collapse.lemmaD.6.layer_lipschitz";
  static constexpr const char* kSource = "004 Appendix D.3, Lemma D.6";
  static inline const Tolerance kDistance{
      "||softmv(X_l) - softmv(Y)||_inf", "3 eta (eps_l^2 + 1)(1 + gamma_{l+6}) + layer budgets of X_l and Y",
      "eps_l is a product of l+2 roundings, the bound 3 more; softmv(X_l), softmv(Y) and X_l itself carry "
      "the layer budget of part 1 (scores, softmax, P X Wv)",
      MetricKind::kClaim};
  static std::vector<Tolerance> Tolerances() { return {kDistance}; }
  template <class S>
  static void Conclusion(const Case& c) {
    const auto [lhs, budget] = D6Distance<S>(c);
    const double u = ScalarTraits<S>::UnitRoundoff();
    ExpectWithin(kDistance, ToDouble(lhs), ToDouble(D6Bound<S>(c)) * (1 + Gamma(7, u)) + budget);
  }
};

struct LayerLipschitzWithDistance : LayerLipschitzFamily<6, 3> {
  static constexpr const char* kId = "collapse.lemmaD.6.layer_lipschitz.with_distance";
  static constexpr const char* kSource = "004 Appendix D.3, Lemma D.6 (with the factor ||X_l - Y|| its proof derives)";
  static inline const Tolerance kDistance{
      "||softmv(X_l) - softmv(Y)||_inf", "3 eta (eps_l^2 + 1) ||X_l - Y|| (1 + gamma_{l+7}) + layer budgets",
      "eps_l is a product of l+2 roundings, the bound 4 more (||X_l - Y|| = ||Delta|| exactly); softmv(X_l), "
      "softmv(Y) and X_l carry the layer budgets (scores, softmax, P X Wv)",
      MetricKind::kClaim};
  static std::vector<Tolerance> Tolerances() { return {kDistance}; }
  template <class S>
  static void Conclusion(const Case& c) {
    const auto [lhs, budget] = D6Distance<S>(c);
    const double u = ScalarTraits<S>::UnitRoundoff();
    const S dist = MaxNorm<S>(c.GetMat<S>("Delta"));
    ExpectWithin(kDistance, ToDouble(lhs), ToDouble(S(D6Bound<S>(c) * dist)) * (1 + Gamma(8, u)) + budget);
  }
};

ATTNPROP_REGISTER(LayerLipschitzWithDistance, double, Mpfr);
ATTNPROP_REGISTER(LayerLipschitz, double, Mpfr);
ATTNPROP_REGISTER(IdentityViaZeroValues, double, Mpfr);
ATTNPROP_REGISTER(LayerNormGrowth, double, Mpfr);
ATTNPROP_REGISTER(LayerNormPower, double, Mpfr);

}  // namespace
}  // namespace attnprop
