// Softmax is 1/2-Lipschitz in the Euclidean norm (true, and tight: near
// x = y = 0 along (1, -1)); with 1/4 it is false.
#include <attnprop/claim.h>

namespace {
using namespace attnprop;

constexpr Axis kOne{"1"}, kN{"n"};
constexpr MatrixField kX{"x"}, kY{"y"};

// For x, y in R^n (n = 1..8; entries from every regime), ||softmax(x) -
// softmax(y)||_2 <= L ||x - y||_2.
template <int kDenominator>
struct Lipschitz {
  template <class S> static Domain Hypotheses() {
    Domain d;
    d.Dim(kOne, {1, 1, 1}, 1).Dim(kN, {1, 8, 8});
    d.Matrix(kX, kOne, kN, gen::RegimeFor<S>({}), Admit::Within(0x1p100));
    d.Matrix(kY, kOne, kN, gen::RegimeFor<S>({}), Admit::Within(0x1p100));
    return d;
  }
  template <class S> static void Conclusion(const In<S>& in) {
    const Vec<S> x = in[kX].row(0).transpose(), y = in[kY].row(0).transpose();
    static const Tolerance kStep{"||softmax(x) - softmax(y)||_2", "||x - y||_2 / " + std::to_string(kDenominator),
                                 "the claim", MetricKind::kClaim};
    ExpectWithin<S>(kStep, S((Softmax<S>(x) - Softmax<S>(y)).norm()), S((x - y).norm() / kDenominator));
  }
};

struct HalfLipschitz : Lipschitz<2>, ClaimId<"softmax.lipschitz_half"> {};
ATTNPROP_REGISTER(HalfLipschitz, double, Mpfr, Interval);

struct QuarterLipschitz : Lipschitz<4>, ClaimId<"softmax.lipschitz_quarter"> {};
ATTNPROP_REGISTER(QuarterLipschitz, double, Mpfr, Interval);

}  // namespace
