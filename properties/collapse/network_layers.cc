// "Only Large Weights (And Not Skip Connections) Can Prevent the Perils of
// Rank Collapse" (004_fc07a226cef95160.txt): claims about the layer map
// X_{l+1} = X_l + sum_h softmv_h(X_l), softmv(X) = softm(X Wq Wk^T X^T) X Wv
// (Definitions 3.7, A.1; beta = 1), entrywise max norm.
//
// collapse.sec1.identity_via_zero_values (Section 1)
//   A self-attention network with skip connections whose value weights are
//   all 0 is the identity: S(X) = X for every X. Holds (exactly: 0 times a
//   finite number is +-0, and X + 0 = X). Generated: L in [1,3], H in [1,3],
//   n in [1,6] (MPFR 4), d in [1,4] (MPFR 3), Wq, Wk in every regime, Wv = 0.
//   Backends double, MPFR.
//
// collapse.lemmaD.7.part1 (Appendix D.4, Lemma D.7 Part 1)
//   ||Wv_h||_inf <= eta for every head => ||X_{l+1}||_inf <= (1+H eta)||X_l||_inf.
//   Expected REFUTED (its proof uses the false Fact 3.3 (2)): n = 1, d = 2,
//   X = (1 1), H = 1, Wq = Wk = 0, Wv = all ones, eta = 1: softm = (1) exactly,
//   X_1 = X + X Wv = (3 3), but (1 + H eta)||X|| = 2.
// collapse.lemmaD.7.part2 (Part 2)
//   ||X_0|| <= phi0, ||Wv|| <= eta => ||X_l||_inf <= phi0 (1+H eta)^l.
//   Expected REFUTED by the same case (l = 1, phi0 = 1).
//   Generated (network_cases.h): n up to 5 (MPFR 4), d up to 4 (MPFR 3), H up
//   to 3, L in [1,2] (part 2), X and Wq, Wk in every regime, eta up to 8,
//   Wv = eta r with r in [-1,1] (half +-1). Backends double, MPFR, interval
//   (exp).
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
//   Lemma D.6 (l in [1,2] layers, H <= 3, all weights within eta) with d up
//   to 6 (MPFR 5) and, in a third of the cases, the aligned family Gv = eta
//   J, Delta = 2||X_l|| (1 - 2^-20) in every entry. Backends double, MPFR,
//   interval.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "properties/collapse/network_cases.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

using namespace collapse;  // the family's fields and helpers

struct IdentityViaZeroValues : ClaimId<"collapse.sec1.identity_via_zero_values"> {
  // Every Wv = 0 (the document's); the network domain (network_cases.h).
  template <class S> static Domain Hypotheses() { return NetworkDomain<S>(3, true); }
  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> x0 = in[kX];
    Mat<S> x = x0;
    for (int64_t l = 0; l < in[kL]; ++l) x = collapse::Layer<S>(x, LayerHeads<S>(in.value(), l));
    static const Tolerance kIdentity{
        "||S(X) - X||_inf", "0", "every head adds softm(.) X 0 = +-0 exactly (finite times 0), and X + 0 = X", MetricKind::kRounding};
    ExpectWithin(kIdentity, ToDouble(MaxNorm<S>(Mat<S>(x - x0))), 0.0);
  }
};

struct LayerNormGrowth : ClaimId<"collapse.lemmaD.7.part1"> {
  // Every ||Wv|| <= eta (the lemma's); the network domain.
  template <class S> static Domain Hypotheses() { return NetworkDomain<S>(1, false); }
  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> x = in[kX];
    const std::vector<Head<S>> heads = LayerHeads<S>(in.value(), 0);
    const Mat<S> next = collapse::Layer<S>(x, heads);
    // As stated; certified by interval arithmetic (properties/framework/
    // certify.h), so no rounding budget. Attained with equality (one token,
    // Wv = eta): such cases may stay undecided, never refuted.
    static const Tolerance kNextNorm{"||X_{l+1}||_inf", "(1 + H eta)||X_l||_inf", "the lemma as stated",
                                     MetricKind::kClaim};
    ExpectWithin<S>(kNextNorm, MaxNorm<S>(next), S(S(S(1) + S(double(in[kH])) * in[kEta]) * MaxNorm<S>(x)));
  }
};

struct LayerNormPower : ClaimId<"collapse.lemmaD.7.part2"> {
  // Every ||Wv|| <= eta, phi0 = ||X_0|| (the smallest the lemma allows, so
  // not a field); the network domain.
  template <class S> static Domain Hypotheses() { return NetworkDomain<S>(2, false); }
  template <class S> static void Conclusion(const In<S>& in) {
    // As stated; certified by interval arithmetic (properties/framework/
    // certify.h), so no rounding budget. Attained with equality (one token,
    // Wv = eta): such cases may stay undecided, never refuted.
    Mat<S> x = in[kX];
    const S phi0 = MaxNorm<S>(x);  // the smallest phi0 the lemma allows
    const S growth = S(1) + S(double(in[kH])) * in[kEta];
    S power = 1;
    static const Tolerance kLayerNorm{"||X_l||_inf (each layer l)", "phi0 (1 + H eta)^l", "the lemma as stated",
                                      MetricKind::kClaim};
    for (int64_t l = 0; l < in[kL]; ++l) {
      x = collapse::Layer<S>(x, LayerHeads<S>(in.value(), l));
      power = S(power * growth);
      ExpectWithin<S>(kLayerNorm, MaxNorm<S>(x), S(phi0 * power));
    }
  }
};


/// X_l: the case's L layers applied to X_0 = X.
template <class S>
Mat<S> LayerOutput(const Case& c) {
  Mat<S> x = c.GetMat<S>("X");
  for (int64_t l = 0; l < c.GetInt("L"); ++l) x = collapse::Layer<S>(x, LayerHeads<S>(c, l));
  return x;
}

/// Lemma D.6's hypotheses and cases, shared by its two readings.
/// kAlignedShare: with probability 1/kAlignedShare (0: never) a case of the
/// aligned family: the second layer's Gv = eta J and Delta = its largest
/// admissible value 2||X_1|| (1 - 2^-20) in every entry, where ||Delta Gv||
/// = d eta ||Delta|| (the factor d the max-norm bounds lose).
constexpr MatrixField kGq{"Gq"}, kGk{"Gk"}, kGv{"Gv"}, kDelta{"Delta"};
constexpr ScalarField kPhi0{"phi0"};

template <int64_t kMaxD, int kAlignedShare>
struct LayerLipschitzFamily {
  // l = L in [1,2] network layers (the lemma's X_l), then the next layer's
  // head G and Delta = Y - X_l on the same axes, phi0 = ||X_0||.
  // The lemma's: every weight (the layer's Wq, Wk, Wv and G) within eta,
  // ||X_0|| <= phi0, ||Y - X_1|| <= 2||X_1|| (in 256-bit MPFR). Domain:
  // the network's (network_cases.h), G in the same (|.| <= 2^8), Delta
  // <= 2^20 (Y's scores finite), phi0 <= 2^20.
  template <class S> static Domain Hypotheses() {
    Domain d;
    const NetworkParams p =
        kMaxD == 0 ? collapse::NetworkAxesAndParams<S>(d, 2, false, 2)
                   : collapse::NetworkAxesAndParams<S>(
                         d, {SizeBudget<S>::Pick(5, 4), SizeBudget<S>::Pick(kMaxD, kMaxD - 1), 3, 2, 1, 2}, false, false, 3);
    const int gq_m = d.Param(kWidth, kWidth, NetworkParams::SignOrDyadic()),
              gk_m = d.Param(kWidth, kWidth, NetworkParams::SignOrDyadic()),
              gv_m = d.Param(kWidth, kWidth, NetworkParams::SignOrDyadic()),
              r_m = d.Param(kTokens, kWidth, NetworkParams::SignOrDyadic());
    const int aligned_m = kAlignedShare > 0 ? d.ScalarParam(gen::UniformInteger(1, kAlignedShare)) : -1;
    collapse::NetworkBuilders b;
    // Wq, Wk of the layer bounded by eta too (Lemma D.6 bounds all weights):
    // each entry clamped to [-eta, eta].
    b.weight = [p](const Domain::Drawn& in, const std::vector<int64_t>& i, char w) {
      ExactMatrix m = p.Weight(in, i, w);
      if (w == 'v') return m;
      const Rational eta = p.Eta(in).ToRational();
      for (Exact& e : m.data)
        if (abs(e.ToRational()) > eta) e = Exact(gen::RoundToDouble(e.ToRational() > 0 ? eta : Rational(-eta)));
      return m;
    };
    collapse::NetworkFields(d, p, b);
    const auto scaled = [](const Domain::Drawn& in, ExactMatrix w) {
      const Rational eta = in.fields()[kEta].ToRational();
      for (Exact& e : w.data) e = Exact(gen::RoundToDouble(eta * e.ToRational()));
      return w;
    };
    const auto aligned = [aligned_m](const Domain::Drawn& in) {
      return aligned_m >= 0 && in.ScalarParam(aligned_m).ToDouble() == 1;
    };
    const Admit weights = Admit::Within(0x1p8);
    d.Built(kGq, kWidth, kWidth, [=](const Domain::Drawn& in) { return scaled(in, in.Param(gq_m)); }, weights);
    d.Built(kGk, kWidth, kWidth, [=](const Domain::Drawn& in) { return scaled(in, in.Param(gk_m)); }, weights);
    d.Built(
        kGv, kWidth, kWidth,
        [=](const Domain::Drawn& in) {
          ExactMatrix gv = scaled(in, in.Param(gv_m));
          if (aligned(in))
            for (Exact& e : gv.data) e = Exact(gen::RoundToDouble(in.fields()[kEta].ToRational()));
          return gv;
        },
        weights);
    // Delta = 2||X_l|| (1 - 2^-20) r (r = 1 in the aligned family).
    d.Built(
        kDelta, kTokens, kWidth,
        [=](const Domain::Drawn& in) {
          ExactMatrix delta = in.Param(r_m);
          if (aligned(in))
            for (Exact& e : delta.data) e = Exact(1.0);
          const double scale = 2 * MaxNorm<double>(LayerOutput<double>(in.fields().value())) * (1 - 0x1p-20);
          for (Exact& e : delta.data) e = Exact(e.ToDouble() * scale);
          return delta;
        },
        Admit::Within(0x1p20));
    d.Built(
        kPhi0, [](const Domain::Drawn& in) { return Exact(MaxNorm<Rational>(in.fields()[kX].As<Rational>())); },
        Admit::Within(0x1p20));
    collapse::AssumeQueryKeyWithinEta(d);
    d.Assume("||Gq||, ||Gk||, ||Gv|| <= eta (the second layer's weights)", [](const Values& v) {
      const Rational eta = v[kEta].ToRational();
      for (const MatrixField w : {kGq, kGk, kGv})
        if (MaxNorm<Rational>(v[w].As<Rational>()) > eta) return false;
      return true;
    });
    d.Assume("||X_0|| <= phi0",
             [](const Values& v) { return MaxNorm<Rational>(v[kX].As<Rational>()) <= v[kPhi0].ToRational(); });
    d.Assume("||Y - X_l|| <= 2||X_l||", [](const Values& v) {
      MpfrPrecisionScope precise(256);
      return MaxNorm<Mpfr>(v[kDelta].As<Mpfr>()) <= 2 * MaxNorm<Mpfr>(LayerOutput<Mpfr>(v.value()));
    });
    return d;
  }
};

/// ||softmv(X_l) - softmv(Y)||, Y = X_l + Delta, softmv the next layer's
/// head G.
template <class S>
S D6Distance(const In<S>& in) {
  const Mat<S> x1 = LayerOutput<S>(in.value());
  const Mat<S> y = x1 + in[kDelta];
  const Head<S> g{in[kGq], in[kGk], in[kGv]};
  const Mat<S> diff = collapse::Softmv<S>(x1, g.wq, g.wk, g.wv, S(1)) - collapse::Softmv<S>(y, g.wq, g.wk, g.wv, S(1));
  return MaxNorm<S>(diff);
}

template <class S>
S D6Bound(const In<S>& in) {
  const S eta = in[kEta];
  const S growth = S(1) + S(double(in[kH])) * eta;
  S power = 1;  // (1 + H eta)^l
  for (int64_t l = 0; l < in[kL]; ++l) power = S(power * growth);
  const S eps = S(2 * eta * in[kPhi0] * power);
  return S(3 * eta * (eps * eps + 1));
}

struct LayerLipschitz : LayerLipschitzFamily<0, 0>, ClaimId<"collapse.lemmaD.6.layer_lipschitz"> {
  template <class S> static void Conclusion(const In<S>& in) {
    // As stated; certified by interval arithmetic (properties/framework/
    // certify.h), so no rounding budget.
    static const Tolerance kDistance{"||softmv(X_l) - softmv(Y)||_inf", "3 eta (eps_l^2 + 1)", "the lemma as stated",
                                     MetricKind::kClaim};
    ExpectWithin<S>(kDistance, D6Distance<S>(in), D6Bound<S>(in));
  }
};

struct LayerLipschitzWithDistance : LayerLipschitzFamily<6, 3>,
                                    ClaimId<"collapse.lemmaD.6.layer_lipschitz.with_distance"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const S dist = MaxNorm<S>(in[kDelta]);  // ||X_l - Y|| = ||Delta||
    static const Tolerance kDistance{"||softmv(X_l) - softmv(Y)||_inf", "3 eta (eps_l^2 + 1) ||X_l - Y||",
                                     "our reading with the missing factor ||X_l - Y||", MetricKind::kClaim};
    ExpectWithin<S>(kDistance, D6Distance<S>(in), S(D6Bound<S>(in) * dist));
  }
};

ATTNPROP_REGISTER(LayerLipschitzWithDistance, double, Mpfr, Interval);
ATTNPROP_REGISTER(LayerLipschitz, double, Mpfr, Interval);
ATTNPROP_REGISTER(IdentityViaZeroValues, double, Mpfr);
ATTNPROP_REGISTER(LayerNormGrowth, double, Mpfr, Interval);
ATTNPROP_REGISTER(LayerNormPower, double, Mpfr, Interval);

}  // namespace
}  // namespace attnprop
