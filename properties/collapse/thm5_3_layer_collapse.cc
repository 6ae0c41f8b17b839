// "Only Large Weights (And Not Skip Connections) Can Prevent the Perils of
// Rank Collapse" (004_fc07a226cef95160.txt), Section 5.3, Theorem 5.3 (=
// Theorem 1.2).
//
// collapse.thm5.3.layer_collapse
//   S an SAtt network with residuals (L layers, H heads, X_{l+1} = X_l +
//   sum_h softm_h(X_l) X_l Wv_h, beta = 1) whose weights all satisfy
//   ||Wq||, ||Wk||, ||Wv||_inf <= eta => there is a one-layer SAtt with
//   residuals S' with ||S(X) - S'(X)||_inf <= O(eta) ||X||_inf for every X.
//   An existence claim with an O(eta): encoded with an explicit witness and
//   an explicit constant.
//   Witness: S' = the first layer of S (a one-layer SAtt with residuals,
//   the same heads).
//   Constant: ||S(X) - S'(X)|| <= f(eta) ||X|| with f(eta) = (1 + H d eta)^L
//   - (1 + H d eta), and f(eta) <= C eta for eta <= 1 with C(d, H, L) =
//   (1 + H d)^L - (1 + H d) (f is convex with f(0) = 0). Why: every layer
//   adds sum_h P X_l Wv_h with ||P X_l Wv_h|| <= d ||X_l|| eta (P's rows are
//   convex weights; the product sums d terms), so ||X_l|| <= (1 + H d eta)^l
//   ||X|| and ||X_L - X_1|| <= sum_{l=1}^{L-1} H d eta ||X_l||; f is attained
//   (one token, every weight eta, X all equal), so no smaller constant of
//   this form holds; as eta -> 0, f(eta)/eta -> (L - 1) H d.
//   Checked as eta shrinks: each case's network is evaluated with its
//   weights scaled to eta_k = eta 2^-k (Wq, Wk and Wv alike), k = 0..5,
//   checking ||S(X) - S'(X)|| against f(eta_k)||X|| (the explicit form, any
//   eta) and against C eta_k ||X|| (the O(eta) statement, eta_k <= 1).
//   What this establishes: the theorem as stated, for the generated
//   networks and inputs, with the witness and constant above; the constant
//   is linear in d and exponential in L, which the O(eta) hides. What it
//   does not: the paper's proof route (Lemmas 5.1, C.1, C.2, D.5-D.7 and
//   Remark D.2 are refuted here), that S' is best, or anything about eta
//   large (f(eta)/eta grows like eta^{L-1}). It also shows the statement is
//   weak: S' with Wv = 0 (the identity) is within ((1 + H d eta)^L - 1)
//   ||X|| of S as well, so "collapse to one layer" says no more than
//   "collapse to the identity".
//   Generated: L in [1,3], H in [1,3], n up to 5, d up to 4 (MPFR 3), every
//   weight eta w with w in every regime within [-1,1] (tiny query/key
//   weights beside value weights at eta; all-equal, rank-one structures),
//   eta at scales 2^-20..2^2. Backends double, MPFR (exp).
#include <cmath>
#include <string>
#include <vector>

#include "properties/collapse/network_cases.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

using namespace collapse;  // the family's fields and helpers

constexpr int kShrinkSteps = 6;  // eta, eta/2, ..., eta/32

/// The case with every weight multiplied by 2^-k (exact: powers of two) and
/// eta with them.
Case Scaled(const Case& c, int k) {
  Case out = c;
  for (int64_t l = 0; l < c.GetInt("L"); ++l)
    for (int64_t h = 0; h < c.GetInt("H"); ++h)
      for (const char* p : {"q", "k", "v"}) {
        ExactMatrix w = c.GetMatrix(HeadName(l, h) + p);
        for (Exact& e : w.data) e = Exact(std::ldexp(e.ToDouble(), -k));
        out.Matrix(HeadName(l, h) + p, w);
      }
  return out.Scalar("eta", Exact(std::ldexp(c.GetScalar("eta").ToDouble(), -k)));
}

struct LayerCollapse : ClaimId<"collapse.thm5.3.layer_collapse"> {
  static constexpr const char* kReason =
      "the explicit constant derived above (certified by interval arithmetic: no rounding budget)";
  // Every weight within eta (the theorem's), eta > 0; the network domain
  // (network_cases.h: n, d <= 16, H, L <= 8, entries and eta <= 2^8), and
  // eta <= 2^3 with H d <= 16: each layer grows ||X|| by <= 1 + 128, so
  // ||X_L|| <= 2^8 129^L stays below 2^65 for L <= 8 and the scores finite.
  // The generator draws eta <= 4.
  template <class S> static Domain Hypotheses() {
    const int64_t max_n = SizeBudget<S>::Pick(5, 3), max_d = SizeBudget<S>::Pick(4, 3);
    Domain d;
    const collapse::NetworkParams p = collapse::NetworkAxesAndParams<S>(d, {max_n, max_d, 3, 3}, false, true, 2);
    collapse::NetworkBuilders b;
    b.eta_admit = Admit::Within(8).Positive();
    collapse::NetworkFields(d, p, b);
    collapse::AssumeQueryKeyWithinEta(d);
    d.Assume("H d <= 16 (computability: ||X_L|| and the scores finite in double)",
             [](const Values& v) { return v[kH] * v[kX].cols <= 16; });
    return d;
  }
  template <class S> static void Conclusion(const In<S>& in) {
    const Case& c = in.value();
    const int64_t layers = in[kL];
    const double hd = double(in[kH]) * double(in[kX].cols());
    const double big_c = std::pow(1 + hd, double(layers)) - (1 + hd);  // an integer below 2^53: exact
    static const Tolerance kExplicit{"||S(X) - S'(X)||_inf (weights scaled to eta_k)", "f(eta_k) ||X||_inf",
                                     kReason, MetricKind::kClaim};
    static const Tolerance kBigO{"||S(X) - S'(X)||_inf (eta_k <= 1)", "C(d,H,L) eta_k ||X||_inf", kReason,
                                 MetricKind::kClaim};
    for (int k = 0; k < kShrinkSteps; ++k) {
      const Case ck = Scaled(c, k);
      const collapse::Forward<S> f = collapse::RunNetwork<S>(ck, layers);
      const S nx = MaxNorm<S>(f.xs[0]);
      const S lhs = MaxNorm<S>(Mat<S>(f.xs[size_t(layers)] - f.xs[1]));
      const S eta = In<S>(ck)[kEta];
      const S grow = S(1 + S(hd) * eta);
      // f(eta) = grow (grow^{L-1} - 1): exactly 0 for one layer.
      S power = 1;
      for (int64_t l = 1; l < layers; ++l) power = S(power * grow);
      ExpectWithin<S>(kExplicit, lhs, S(S(grow * S(power - 1)) * nx));
      if (eta <= S(1)) ExpectWithin<S>(kBigO, lhs, S(S(S(big_c) * eta) * nx));
    }
  }
};

ATTNPROP_REGISTER(LayerCollapse, double, Mpfr, Interval);

}  // namespace
}  // namespace attnprop
