// "Only Large Weights (And Not Skip Connections) Can Prevent the Perils of
// Rank Collapse" (004_fc07a226cef95160.txt), Section 4.2, Lemma 4.2 and the
// proof's Eq. (2). alpha(x) = <exp(x), 1_n> (Definition 3.1).
//
// Hypotheses (Lemma 4.2): a, b in R^n, ||b||_inf <= eps.
// collapse.lemma4.2.exp_rel_a       |e^{a_i+b_i} - e^{a_i}| <= (e^eps - 1) e^{a_i}      (each i)
// collapse.lemma4.2.exp_rel_aplusb  |e^{a_i+b_i} - e^{a_i}| <= (e^eps - 1) e^{a_i+b_i}  (each i)
// collapse.lemma4.2.alpha_rel_a     |alpha(a+b) - alpha(a)| <= (e^eps - 1) alpha(a)
// collapse.lemma4.2.alpha_rel_aplusb|alpha(a+b) - alpha(a)| <= (e^eps - 1) alpha(a+b)
// collapse.lemma4.2.eq2             |b| <= eps => max{|e^{-b}-1|, |e^b-1|} <= e^eps - 1
// All hold; b = +-eps makes the first two tight.
// Generated (collapse::PerturbedWithinEps(2)): n in [1,8], a in every regime
// (|a_i| <= 300), eps in [0,2], b = eps r with r in [-1,1] (half the entries
// +-1: the tight case), rounded to double; eq2 its own scalars (Eq2 below).
// Backends double, MPFR, interval (exp).
// Certified by interval arithmetic: no rounding budget. The generator draws
// the tight case b_i = +-eps half the time, where the claims hold with
// equality: enclosures cannot prove an equality, so the certifier takes the
// tight entries as decided exactly (TightAt, ExpectWithinAtEquality) and
// decides the others, strict, by intervals.
#include <string>
#include <vector>

#include "properties/collapse/collapse_cases.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

enum class Which { kExpA, kExpAB, kAlphaA, kAlphaAB };

/// The equality cases, decided in rationals on the case's own values: |e^b
/// - 1| = e^eps - 1 iff b = eps, and |1 - e^-b| = e^eps - 1 iff b = -eps
/// (|b| <= eps; each side strictly monotone in b), so exp_rel_a is tight at
/// b_i = eps, exp_rel_aplusb at b_i = -eps, and the alpha claims (sums of
/// the same terms, weighted by e^{a_i} > 0) when every b_i is. Elsewhere the
/// inequality is strict and intervals decide it.
template <class S>
std::vector<bool> TightAt(const In<S>& in, Which which) {
  const Mat<Rational> b = in.exact(collapse::kB).template As<Rational>();
  const Rational eps = in.exact(collapse::kEps).ToRational();
  const Rational edge = which == Which::kExpA || which == Which::kAlphaA ? eps : Rational(-eps);
  std::vector<bool> tight(static_cast<size_t>(b.cols()));
  for (Eigen::Index i = 0; i < b.cols(); ++i) tight[static_cast<size_t>(i)] = b(0, i) == edge;
  return tight;
}

template <class S>
void CheckExp(const In<S>& in, Which which, const Tolerance& tolerance) {
  using std::abs;
  using std::exp;
  const Mat<S> a = in[collapse::kA], b = in[collapse::kB];
  const S factor = exp(S(in[collapse::kEps])) - 1;
  // Only the certifier reads the equality cases (ExpectWithinAtEquality).
  std::vector<bool> tight(static_cast<size_t>(a.cols()), false);
  if constexpr (std::is_same_v<S, Interval>) tight = TightAt(in, which);
  S alpha_a = 0, alpha_ab = 0;
  bool all_tight = true;
  for (Eigen::Index i = 0; i < a.cols(); ++i) {
    const S e_a = exp(a(0, i)), e_ab = exp(S(a(0, i) + b(0, i)));
    alpha_a += e_a;
    alpha_ab += e_ab;
    all_tight = all_tight && tight[static_cast<size_t>(i)];
    if (which == Which::kExpA || which == Which::kExpAB)
      ExpectWithinAtEquality<S>(tolerance, abs(S(e_ab - e_a)), S(factor * (which == Which::kExpA ? e_a : e_ab)),
                                tight[static_cast<size_t>(i)]);
  }
  if (which == Which::kAlphaA || which == Which::kAlphaAB)
    ExpectWithinAtEquality<S>(tolerance, abs(S(alpha_ab - alpha_a)),
                              S(factor * (which == Which::kAlphaA ? alpha_a : alpha_ab)), all_tight);
}

/// The four claims of Lemma 4.2 share their hypotheses (||b||_inf <= eps,
/// exactly; a and b the same length) and their cases.
struct ExpFamily {
  // ||b||_inf <= eps (the lemma's); the domain of collapse::PerturbedVector.
  template <class S> static Domain Hypotheses() { return collapse::PerturbedWithinEps(2); }
};

struct ExpRelA : ExpFamily, ClaimId<"collapse.lemma4.2.exp_rel_a"> {
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kExp{"|e^{a_i+b_i} - e^{a_i}|", "(e^eps - 1) e^{a_i}", "Lemma 4.2 as stated",
                                MetricKind::kClaim};
    CheckExp<S>(in, Which::kExpA, kExp);
  }
};
ATTNPROP_REGISTER(ExpRelA, double, Mpfr, Interval);

struct ExpRelAB : ExpFamily, ClaimId<"collapse.lemma4.2.exp_rel_aplusb"> {
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kExp{"|e^{a_i+b_i} - e^{a_i}|", "(e^eps - 1) e^{a_i+b_i}", "Lemma 4.2 as stated",
                                MetricKind::kClaim};
    CheckExp<S>(in, Which::kExpAB, kExp);
  }
};
ATTNPROP_REGISTER(ExpRelAB, double, Mpfr, Interval);

struct AlphaRelA : ExpFamily, ClaimId<"collapse.lemma4.2.alpha_rel_a"> {
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kAlpha{"|alpha(a+b) - alpha(a)|", "(e^eps - 1) alpha(a)", "Lemma 4.2 as stated",
                                  MetricKind::kClaim};
    CheckExp<S>(in, Which::kAlphaA, kAlpha);
  }
};
ATTNPROP_REGISTER(AlphaRelA, double, Mpfr, Interval);

struct AlphaRelAB : ExpFamily, ClaimId<"collapse.lemma4.2.alpha_rel_aplusb"> {
  template <class S> static void Conclusion(const In<S>& in) {
    static const Tolerance kAlpha{"|alpha(a+b) - alpha(a)|", "(e^eps - 1) alpha(a+b)", "Lemma 4.2 as stated",
                                  MetricKind::kClaim};
    CheckExp<S>(in, Which::kAlphaAB, kAlpha);
  }
};
ATTNPROP_REGISTER(AlphaRelAB, double, Mpfr, Interval);

constexpr ScalarField kPerturbation{"b"};

struct Eq2 : ClaimId<"collapse.lemma4.2.eq2"> {
  // |b| <= eps (the document's), both finite; eps <= 300: e^eps, e^{+-b}
  // finite in double. Drawn: eps in (0, 4] and b = eps r, r in [-1, 1]
  // (half the cases +-1: the tight case).
  template <class S> static Domain Hypotheses() {
    Domain d;
    const int eps = d.ScalarParam(gen::PositiveDyadic(4, 10));
    const int r = d.ScalarParam(rc::gen::oneOf(rc::gen::element(Exact(-1.0), Exact(1.0)), gen::Dyadic(1, 10)));
    d.Built(
        kPerturbation,
        [eps, r](const Domain::Drawn& in) { return Exact(in.ScalarParam(eps).ToRational() * in.ScalarParam(r).ToRational()); },
        Admit::Within(300));
    d.Built(collapse::kEps, [eps](const Domain::Drawn& in) { return in.ScalarParam(eps); }, Admit::Within(300));
    d.Assume("|b| <= eps", [](const Values& v) {
      const Rational b = v[kPerturbation].ToRational(), e = v[collapse::kEps].ToRational();
      return b <= e && -b <= e;
    });
    return d;
  }
  template <class S> static void Conclusion(const In<S>& in) {
    using std::abs;
    using std::exp;
    const S b = in[kPerturbation], eps = in[collapse::kEps];
    using std::max;
    const S lhs = max(S(abs(S(exp(S(-b)) - 1))), S(abs(S(exp(b) - 1))));
    static const Tolerance kEq2{"max{|e^{-b}-1|, |e^b-1|}", "e^eps - 1", "Eq. (2) as stated", MetricKind::kClaim};
    // Tight iff |b| = eps (the max is |e^|b|| - 1|, increasing in |b|),
    // decided in rationals on the case's values for the certifier.
    bool tight = false;
    if constexpr (std::is_same_v<S, Interval>) {
      const Rational rb = in.exact(kPerturbation).ToRational(), re = in.exact(collapse::kEps).ToRational();
      tight = rb == re || -rb == re;
    }
    ExpectWithinAtEquality<S>(kEq2, lhs, S(exp(eps) - 1), tight);
  }
};
ATTNPROP_REGISTER(Eq2, double, Mpfr, Interval);

}  // namespace
}  // namespace attnprop
