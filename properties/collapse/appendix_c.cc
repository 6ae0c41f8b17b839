// "Only Large Weights (And Not Skip Connections) Can Prevent the Perils of
// Rank Collapse" (004_fc07a226cef95160.txt), Appendix C.1, the proof steps of
// Lemma C.1 that use g(eps) = 2(e^eps - 1).
//
// collapse.lemmaC.1.g_properties
//   For eps >= 0 and H >= 1 heads: eps <= g(eps), 2H g(eps) <= g(2H eps),
//   g(eps) + g(2 eps) <= 2 g(2 eps). All hold (e^x - 1 >= x; e^{kx} - 1 >=
//   k(e^x - 1) for k >= 1, x >= 0 by convexity; g increasing).
//   Generated: eps dyadic in [0,2] (0 included), H in [1,4] (an axis of the
//   domain, drawn by its edge classes). Backends double, MPFR (exp).
#include "properties/collapse/collapse_cases.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

constexpr Axis kHeadAxis{"H"};
constexpr IntField kH{"H"};

struct GProperties : ClaimId<"collapse.lemmaC.1.g_properties"> {
  static constexpr const char* kReason = "Lemma C.1's proof step as stated (certified by interval arithmetic)";
  // eps >= 0 and H >= 1 (the document's); 2 H eps <= 600 and H <= 2^20:
  // e^{2H eps} (in g(2H eps) and the budget) finite in double, no inf - inf
  // (drawn: eps = 0 or dyadic in (0, 2], H in [1, 4]).
  template <class S> static Domain Hypotheses() {
    Domain d;
    d.Dim(kHeadAxis, {1, 4, 4}, int64_t(1) << 20);
    d.Scalar(collapse::kEps, rc::gen::oneOf(rc::gen::just(Exact(0.0)), gen::PositiveDyadic(2, 20)),
             Admit::Within(600).Nonnegative());
    d.Int(kH, kHeadAxis);
    d.Assume("2 H eps <= 600 (computability: e^{2H eps} finite in double)",
             [](const Values& v) { return 2 * double(v[kH]) * v[collapse::kEps].ToDouble() <= 600; });
    return d;
  }
  template <class S> static void Conclusion(const In<S>& in) {
    const S eps = in[collapse::kEps];
    const double h = double(in[kH]);
    const S g1 = collapse::G<S>(eps), g2 = collapse::G<S>(S(2 * eps)), g2h = collapse::G<S>(S(2 * h * eps));
    static const Tolerance kBelowG{"eps", "g(eps)", kReason, MetricKind::kClaim};
    ExpectWithin<S>(kBelowG, eps, g1);
    static const Tolerance kHeads{"2H g(eps)", "g(2H eps)", kReason, MetricKind::kClaim};
    ExpectWithin<S>(kHeads, S(2 * h * g1), g2h);
    static const Tolerance kSum{"g(eps) + g(2eps)", "2g(2eps)", kReason, MetricKind::kClaim};
    ExpectWithin<S>(kSum, S(g1 + g2), S(2 * g2));
  }
};

ATTNPROP_REGISTER(GProperties, double, Mpfr, Interval);

}  // namespace
}  // namespace attnprop
