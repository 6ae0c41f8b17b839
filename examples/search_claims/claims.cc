// Claims with known truth whose witnesses a random case rarely is, written
// from the docs alone as a user of <attnprop/claim.h> would (issue 59): the
// two inputs of a Lipschitz bound drawn independently (its witnesses are
// close pairs), a monotonicity whose hypothesis relates two inputs, a
// temperature parameter whose bad values are small. The registry (known.tsv)
// says which are false; ci/search_check.sh runs them from an empty store and
// requires every false claim refuted and certified in both backends, no true
// claim refuted, and every printed replay to reproduce from another folder.
#include <attnprop/claim.h>

namespace {
using namespace attnprop;

constexpr Axis kOne{"1"}, kN{"n"}, kD{"d"};
constexpr MatrixField kZ{"z"}, kW{"w"}, kX{"x"}, kY{"y"};
constexpr ScalarField kA{"a"}, kB{"b"}, kTau{"tau"};

// a, b in [-16, 16], drawn independently.
Domain TwoReals() {
  Domain d;
  d.Scalar(kA, gen::Uniform(-16, 16), Admit::Within(16));
  d.Scalar(kB, gen::Uniform(-16, 16), Admit::Within(16));
  return d;
}

// |sin a^2 - sin b^2| <= L |a - b| on [-16, 16]: L = 10 is FALSE (the slope
// 2a cos a^2 passes 10 wherever |a| > 5 and |cos a^2| > 5/|a|); L = 32 is
// true (|2a cos a^2| <= 32 there).
template <int kL>
struct SinSquareLipschitz {
  template <class S> static Domain Hypotheses() { return TwoReals(); }
  template <class S> static void Conclusion(const In<S>& in) {
    using std::abs, std::sin;
    static const Tolerance k{"|sin a^2 - sin b^2|", std::to_string(kL) + " |a - b|", "the claim",
                             MetricKind::kClaim};
    const S a = in[kA], b = in[kB];
    ExpectWithin<S>(k, S(abs(S(sin(S(a * a)) - sin(S(b * b))))), S(kL * abs(S(a - b))));
  }
};
struct SinSquare10 : SinSquareLipschitz<10>, ClaimId<"search.sin_square_lipschitz_10"> {
  static constexpr const char* kStatement = "|sin a^2 - sin b^2| <= 10 |a - b| for a, b in [-16, 16]";
};
ATTNPROP_REGISTER(SinSquare10, double, Mpfr, Interval);
struct SinSquare32 : SinSquareLipschitz<32>, ClaimId<"search.sin_square_lipschitz_32"> {
  static constexpr const char* kStatement = "|sin a^2 - sin b^2| <= 32 |a - b| for a, b in [-16, 16]";
};
ATTNPROP_REGISTER(SinSquare32, double, Mpfr, Interval);

// X, Y: n x d (n, d in 1..4), entries in [-4, 4], drawn independently.
Domain TwoInputs() {
  Domain d;
  d.Dim(kN, {1, 4, 4}).Dim(kD, {1, 4, 4});
  d.Matrix(kX, kN, kD, gen::Uniform(-4, 4), Admit::Within(4));
  d.Matrix(kY, kN, kD, gen::Uniform(-4, 4), Admit::Within(4));
  return d;
}
template <class S> Mat<S> SelfAttention(const Mat<S>& x) {
  return Attention<S>(x, x, x, S(1), Mask::None()).out;
}

// Self-attention X -> softmax(X X^T) X is 10-Lipschitz in the Frobenius
// norm on [-4, 4]^{n x d}: FALSE (its Jacobian grows like |X|^3; near X with
// two rows of norm 4 in tied directions the local constant passes 10).
struct SelfAttentionLipschitz10 : ClaimId<"search.self_attention_lipschitz_10"> {
  template <class S> static Domain Hypotheses() { return TwoInputs(); }
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance k{"||SA(X) - SA(Y)||_F", "10 ||X - Y||_F", "the claim", MetricKind::kClaim};
    const Mat<S> x = in[kX], y = in[kY];
    ExpectWithin<S>(k, S((SelfAttention<S>(x) - SelfAttention<S>(y)).norm()), S(10 * (x - y).norm()));
  }
};
ATTNPROP_REGISTER(SelfAttentionLipschitz10, double, Mpfr, Interval);

// z, w in [-8, 8]^n, n in 2..6.
template <bool kOrdered>
Domain TwoLogits() {
  Domain d;
  d.Dim(kOne, {1, 1, 1}, 1).Dim(kN, {2, 6, 6});
  d.Matrix(kZ, kOne, kN, gen::Uniform(-8, 8), Admit::Within(8));
  d.Matrix(kW, kOne, kN, gen::Uniform(-8, 8), Admit::Within(8));
  if (kOrdered)
    d.Assume("z_1 <= w_1 and z_i >= w_i for i > 1", [](const Values& v) {
      const ExactMatrix &z = v[kZ], &w = v[kW];
      if (!(z(0, 0).ToRational() <= w(0, 0).ToRational())) return false;
      for (int64_t i = 1; i < z.cols; ++i)
        if (!(z(0, i).ToRational() >= w(0, i).ToRational())) return false;
      return true;
    });
  else
    d.Assume("z <= w coordinatewise", [](const Values& v) {
      const ExactMatrix &z = v[kZ], &w = v[kW];
      for (int64_t i = 0; i < z.cols; ++i)
        if (!(z(0, i).ToRational() <= w(0, i).ToRational())) return false;
      return true;
    });
  return d;
}
template <class S> Vec<S> Row(const In<S>& in, MatrixField f) { return in[f].row(0).transpose(); }

// Raising the first logit and lowering the others cannot lower the first
// weight: TRUE (softmax_1 is increasing in z_1, decreasing in the others).
struct FirstWeightMonotone : ClaimId<"search.first_weight_monotone"> {
  template <class S> static Domain Hypotheses() { return TwoLogits<true>(); }
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance k{"softmax(z)_1", "softmax(w)_1", "the claim", MetricKind::kClaim};
    ExpectWithin<S>(k, S(Softmax<S>(Row(in, kZ))[0]), S(Softmax<S>(Row(in, kW))[0]));
  }
};
ATTNPROP_REGISTER(FirstWeightMonotone, double, Mpfr, Interval);

// Raising every logit cannot lower the first weight: FALSE (raise the
// others more).
struct FirstWeightMonotoneInAll : ClaimId<"search.first_weight_monotone_in_all"> {
  template <class S> static Domain Hypotheses() { return TwoLogits<false>(); }
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance k{"softmax(z)_1", "softmax(w)_1", "the claim", MetricKind::kClaim};
    ExpectWithin<S>(k, S(Softmax<S>(Row(in, kZ))[0]), S(Softmax<S>(Row(in, kW))[0]));
  }
};
ATTNPROP_REGISTER(FirstWeightMonotoneInAll, double, Mpfr, Interval);

// z in [-1, 1]^n (n in 2..6) at temperature tau in (0, 16].
Domain TemperedLogits() {
  Domain d;
  d.Dim(kOne, {1, 1, 1}, 1).Dim(kN, {2, 6, 6});
  d.Matrix(kZ, kOne, kN, gen::Uniform(-1, 1), Admit::Within(1));
  d.Scalar(kTau, gen::Uniform(0x1p-10, 16), Admit::Within(16).Positive());
  return d;
}

// tau lse(z / tau) <= max_i z_i + tau log n: TRUE (lse(x) <= max x + log n).
struct TemperedLse : ClaimId<"search.tempered_lse_bound"> {
  template <class S> static Domain Hypotheses() { return TemperedLogits(); }
  template <class S> static void Conclusion(const In<S>& in) {
    using std::log;
    static const Tolerance k{"tau lse(z / tau)", "max z + tau log n", "the claim", MetricKind::kClaim};
    const Vec<S> z = Row(in, kZ);
    const S tau = in[kTau];
    ExpectWithin<S>(k, S(tau * LogSumExp<S>(Vec<S>(z / tau))), S(z.maxCoeff() + tau * log(S(z.size()))));
  }
};
ATTNPROP_REGISTER(TemperedLse, double, Mpfr, Interval);

// The largest weight of softmax(z / tau) is at most 0.999: FALSE, but only
// for a temperature well below the logits' gap (tau < 0.3 or so: z in
// [-1, 1] has gaps of at most 2).
struct TemperedMaxWeight : ClaimId<"search.tempered_max_weight_below_0999"> {
  template <class S> static Domain Hypotheses() { return TemperedLogits(); }
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance k{"max_i softmax(z / tau)_i", "0.999", "the claim", MetricKind::kClaim};
    const Vec<S> w = Softmax<S>(Vec<S>(Row(in, kZ) / in[kTau]));
    ExpectWithin<S>(k, S(w.maxCoeff()), S(S(999) / 1000));
  }
};
ATTNPROP_REGISTER(TemperedMaxWeight, double, Mpfr, Interval);

// Every weight of softmax(z / tau) is at least e^{-2/tau} / n: TRUE (each
// term e^{z_i/tau} >= e^{-1/tau}, the sum <= n e^{1/tau}; equality at z_i =
// -1 with every other logit 1). With e^{-1/tau} / n: FALSE (z = (-1, 1),
// tau = 1: 0.119 < 0.184).
template <int kSpread>
struct TemperedMinWeight {
  template <class S> static Domain Hypotheses() { return TemperedLogits(); }
  template <class S> static void Conclusion(const In<S>& in) {
    using std::exp;
    static const Tolerance k{"e^{-" + std::to_string(kSpread) + "/tau} / n", "min_i softmax(z / tau)_i",
                             "the claim", MetricKind::kClaim};
    const Vec<S> z = Row(in, kZ);
    const S tau = in[kTau];
    const Vec<S> w = Softmax<S>(Vec<S>(z / tau));
    ExpectWithin<S>(k, S(exp(S(-kSpread / tau)) / S(z.size())), S(w.minCoeff()));
  }
};
struct TemperedMinWeight2 : TemperedMinWeight<2>, ClaimId<"search.tempered_min_weight_2"> {};
ATTNPROP_REGISTER(TemperedMinWeight2, double, Mpfr, Interval);
struct TemperedMinWeight1 : TemperedMinWeight<1>, ClaimId<"search.tempered_min_weight_1"> {};
ATTNPROP_REGISTER(TemperedMinWeight1, double, Mpfr, Interval);

// z in [-16, 16]^n, n in 2..8.
Domain WideLogits() {
  Domain d;
  d.Dim(kOne, {1, 1, 1}, 1).Dim(kN, {2, 8, 8});
  d.Matrix(kZ, kOne, kN, gen::Uniform(-16, 16), Admit::Within(16));
  return d;
}

// At most two weights of softmax(z) exceed 1 / (n + 1): FALSE (three logits
// tied near the top give three weights near 1/3 > 1/(n + 1) for n >= 3);
// random logits in [-16, 16] rarely have three so close. A count: no
// magnitude to climb on (ExpectThat), so the search must draw afresh.
struct FewLargeWeights : ClaimId<"search.at_most_two_large_weights"> {
  template <class S> static Domain Hypotheses() { return WideLogits(); }
  template <class S> static void Conclusion(const In<S>& in) {
    const Vec<S> w = Softmax<S>(Row(in, kZ));
    const S threshold = S(1) / S(w.size() + 1);
    int large = 0;
    for (Eigen::Index i = 0; i < w.size(); ++i) large += w[i] > threshold;
    ExpectThat(large <= 2, "at most two weights above 1/(n+1): " + std::to_string(large) + " are");
  }
};
ATTNPROP_REGISTER(FewLargeWeights, double, Mpfr, Interval);

// At most n - 1 weights of softmax(z) exceed their mean 1/n: TRUE (they sum
// to 1). Equal logits put every weight at the mean, a comparison no
// enclosure decides: undecided there, never refuted.
struct FewWeightsAboveMean : ClaimId<"search.at_most_n_minus_1_above_mean"> {
  template <class S> static Domain Hypotheses() { return WideLogits(); }
  template <class S> static void Conclusion(const In<S>& in) {
    const Vec<S> w = Softmax<S>(Row(in, kZ));
    const S mean = S(1) / S(w.size());
    Eigen::Index above = 0;
    for (Eigen::Index i = 0; i < w.size(); ++i) above += w[i] > mean;
    ExpectThat(above <= w.size() - 1, "at most n - 1 weights above 1/n: " + std::to_string(above) + " are");
  }
};
ATTNPROP_REGISTER(FewWeightsAboveMean, double, Mpfr, Interval);

}  // namespace
