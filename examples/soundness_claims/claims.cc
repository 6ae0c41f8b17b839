// Plainly stated claims about logs, powers, softmax and eigenvalues, each
// with its truth known, written as a user of <attnprop/claim.h> would (issue
// 57). The registry (known.tsv) says which are false; ci/soundness_check.sh
// runs them from an empty store and requires: every false claim refuted and
// certified in both backends, no true claim refuted.
#include <attnprop/claim.h>

namespace {
using namespace attnprop;

constexpr Axis kOne{"1"}, kN{"n"};
constexpr MatrixField kZ{"z"};
constexpr ScalarField kX{"x"}, kY{"y"}, kA{"a"}, kB{"b"}, kC{"c"};

// x in [lo, hi], as drawn and as admitted (the search stays there too).
Domain Scalars(double lo, double hi) {
  Domain d;
  d.Scalar(kX, gen::Uniform(lo, hi), Admit::Within(std::max(std::abs(lo), std::abs(hi))));
  d.Assume("lo <= x <= hi", [lo, hi](const Values& v) { return v[kX] >= lo && v[kX] <= hi; });
  return d;
}
Domain TwoNonnegative() {
  Domain d;
  d.Scalar(kX, gen::Uniform(0, 16), Admit::Within(16).Nonnegative());
  d.Scalar(kY, gen::Uniform(0, 16), Admit::Within(16).Nonnegative());
  return d;
}
Domain Logits() {
  Domain d;
  d.Dim(kOne, {1, 1, 1}, 1).Dim(kN, {2, 8, 8});
  d.Matrix(kZ, kOne, kN, gen::RegimeFor<double>({}), Admit::Within(0x1p20));
  return d;
}
Domain Symmetric2() {
  Domain d;
  for (const ScalarField f : {kA, kB, kC}) d.Scalar(f, gen::Uniform(-8, 8), Admit::Within(8));
  return d;
}
template <class S> S MaxWeight(const In<S>& in) {
  const Vec<S> w = Softmax<S>(Vec<S>(in[kZ].row(0).transpose()));
  S m = w[0];
  for (Eigen::Index i = 1; i < w.size(); ++i) { using std::max; m = max(m, w[i]); }
  return m;
}
template <class S> S LambdaMax(const In<S>& in) {
  Mat<S> m(2, 2);
  m << in[kA], in[kB], in[kB], in[kC];
  return (*SymmetricEigenvalues<S>(m))[1];
}

// TRUE: log(1 + x) <= x for x > -1.
struct LogBelowLine : ClaimId<"sound.log1p_below_x"> {
  template <class S> static Domain Hypotheses() { return Scalars(-0.5, 8); }
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance k{"log(1 + x)", "x", "the claim", MetricKind::kClaim};
    using std::log;
    ExpectWithin<S>(k, S(log(S(1) + in[kX])), in[kX]);
  }
};
ATTNPROP_REGISTER(LogBelowLine, double, Mpfr, Interval);

// FALSE: log(1 + x) <= x / 2 on (0, 8] (near 0, log(1 + x) ~ x).
struct LogBelowHalfLine : ClaimId<"sound.log1p_below_half_x"> {
  template <class S> static Domain Hypotheses() { return Scalars(0.01, 8); }
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance k{"log(1 + x)", "x / 2", "the claim", MetricKind::kClaim};
    using std::log;
    ExpectWithin<S>(k, S(log(S(1) + in[kX])), S(in[kX] / S(2)));
  }
};
ATTNPROP_REGISTER(LogBelowHalfLine, double, Mpfr, Interval);

// TRUE: sqrt(x y) <= (x + y) / 2 (AM-GM, with pow(., 0.5)).
struct AmGm : ClaimId<"sound.am_gm"> {
  template <class S> static Domain Hypotheses() { return TwoNonnegative(); }
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance k{"(x y)^0.5", "(x + y) / 2", "the claim", MetricKind::kClaim};
    using std::pow;
    ExpectWithin<S>(k, S(pow(S(in[kX] * in[kY]), 0.5)), S((in[kX] + in[kY]) / S(2)));
  }
};
ATTNPROP_REGISTER(AmGm, double, Mpfr, Interval);

// FALSE: x^0.5 >= x on [0, 4] (false above 1).
struct RootAboveX : ClaimId<"sound.root_above_x"> {
  template <class S> static Domain Hypotheses() { return Scalars(0, 4); }
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance k{"x", "x^0.5", "the claim", MetricKind::kClaim};
    using std::pow;
    ExpectWithin<S>(k, in[kX], S(pow(in[kX], 0.5)));
  }
};
ATTNPROP_REGISTER(RootAboveX, double, Mpfr, Interval);

// TRUE: 2xy - x^2 - y^2 <= 0.
struct CrossTerm : ClaimId<"sound.cross_term"> {
  template <class S> static Domain Hypotheses() { return TwoNonnegative(); }
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance k{"2xy - x^2 - y^2", "0", "the claim", MetricKind::kClaim};
    const S x = in[kX], y = in[kY];
    ExpectWithin<S>(k, S(S(2) * x * y - x * x - y * y), S(0));
  }
};
ATTNPROP_REGISTER(CrossTerm, double, Mpfr, Interval);

// FALSE: exp(x) >= 1 + x + x^2 / 2 on [-4, 4] (false for x < 0).
struct ExpAboveQuadratic : ClaimId<"sound.exp_above_quadratic"> {
  template <class S> static Domain Hypotheses() { return Scalars(-4, 4); }
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance k{"1 + x + x^2/2", "exp(x)", "the claim", MetricKind::kClaim};
    using std::exp;
    const S x = in[kX];
    ExpectWithin<S>(k, S(S(1) + x + x * x / S(2)), S(exp(x)));
  }
};
ATTNPROP_REGISTER(ExpAboveQuadratic, double, Mpfr, Interval);

// TRUE: the largest softmax weight of n logits is at least 1/n.
struct MaxWeightAtLeastMean : ClaimId<"sound.max_weight_at_least_mean"> {
  template <class S> static Domain Hypotheses() { return Logits(); }
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance k{"1/n", "max_i softmax(z)_i", "the claim", MetricKind::kClaim};
    ExpectWithin<S>(k, S(S(1) / S(static_cast<double>(in[kZ].cols()))), MaxWeight<S>(in));
  }
};
ATTNPROP_REGISTER(MaxWeightAtLeastMean, double, Mpfr, Interval);

// FALSE: the largest softmax weight is at most 1/2 + 1/n.
struct MaxWeightAtMostHalf : ClaimId<"sound.max_weight_at_most_half"> {
  template <class S> static Domain Hypotheses() { return Logits(); }
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance k{"max_i softmax(z)_i", "1/2 + 1/n", "the claim", MetricKind::kClaim};
    ExpectWithin<S>(k, MaxWeight<S>(in), S(S(1) / S(2) + S(1) / S(static_cast<double>(in[kZ].cols()))));
  }
};
ATTNPROP_REGISTER(MaxWeightAtMostHalf, double, Mpfr, Interval);

// TRUE: lambda_max([[a, b], [b, c]]) >= max(a, c).
struct LambdaMaxAboveDiagonal : ClaimId<"sound.lambda_max_above_diagonal"> {
  template <class S> static Domain Hypotheses() { return Symmetric2(); }
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance k{"max(a, c)", "lambda_max", "the claim", MetricKind::kClaim};
    using std::max;
    ExpectWithin<S>(k, S(max(in[kA], in[kC])), LambdaMax<S>(in));
  }
};
ATTNPROP_REGISTER(LambdaMaxAboveDiagonal, double, Mpfr, Interval);

// FALSE: lambda_max([[a, b], [b, c]]) <= max(a, c) + |b| / 2 (a = c: a + |b|).
struct LambdaMaxBelowHalfB : ClaimId<"sound.lambda_max_below_half_b"> {
  template <class S> static Domain Hypotheses() { return Symmetric2(); }
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance k{"lambda_max", "max(a, c) + |b|/2", "the claim", MetricKind::kClaim};
    using std::abs;
    using std::max;
    ExpectWithin<S>(k, LambdaMax<S>(in), S(max(in[kA], in[kC]) + abs(in[kB]) / S(2)));
  }
};
ATTNPROP_REGISTER(LambdaMaxBelowHalfB, double, Mpfr, Interval);

// TRUE, with a tolerance of the old default kind: x/2 <= (1 + x) - 1 on [0, 1].
struct HalfBelowCancelled : ClaimId<"sound.half_below_cancelled"> {
  template <class S> static Domain Hypotheses() { return Scalars(0, 1); }
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance k{"x/2", "(1 + x) - 1", "the claim", MetricKind::kRounding};
    ExpectWithin<S>(k, S(in[kX] / S(2)), S((S(1) + in[kX]) - S(1)));
  }
};
ATTNPROP_REGISTER(HalfBelowCancelled, double, Mpfr, Interval);

// FALSE: the softmax weights of (x, x, x) are pairwise distinct (every
// witness is an equality no enclosure decides: undecided in intervals, and
// refuted only where the backend computes them equal: never "holds").
struct EqualLogitsDistinct : ClaimId<"sound.equal_logits_distinct_weights"> {
  template <class S> static Domain Hypotheses() { return Scalars(-8, 8); }
  template <class S> static void Conclusion(const In<S>& in) {
    Vec<S> z(3);
    z << in[kX], in[kX], in[kX];
    const Vec<S> w = Softmax<S>(z);
    ExpectThat(w[0] != w[1], "w_0 = w_1");
  }
};
ATTNPROP_REGISTER(EqualLogitsDistinct, double, Mpfr, Interval);

}  // namespace
