// Second moments of L, S, T for random L (001_4e20808ed1137a14.txt, first
// paragraphs: "Let the entries of L be independent, mean zero, square-
// integrable with common variance sigma^2. Then [elided] For N > 0 and
// sigma != 0, the ratios to E||L||^2 are (N+1)/(2N) and (N-1)/(2N)";
// "Let W_K, W_Q in M_{n x N}(R) have jointly independent, mean-zero, square-
// integrable entries, with variances sigma_K^2, sigma_Q^2. For L = W_K^T W_Q,
// [elided] ... the ratios of the last two expectations to the first are
// (N+1)/(2N) and (N-1)/(2N)"). Reconstruction (CATALOG.md):
// E||L||^2 = N^2 s^2, E||S||^2 = N(N+1)s^2/2, E||T||^2 = N(N-1)s^2/2, with
// s^2 = sigma^2 (iid) or n sigma_K^2 sigma_Q^2 (L = W_K^T W_Q).
//
// Checked by exact enumeration (CATALOG.md: "exact enumeration for discrete
// laws"), no sampling and so no false alarm: the entries follow centered
// two-point laws {x, y}, x < 0 < y, P(x) = y/(y - x), P(y) = -x/(y - x)
// (mean 0, variance -xy), one law per entry (the claims need independence and
// a common variance, not identical laws: entries here get different laws with
// the same variance by swapping the roles of x and y, {-y, -x}). Every sign
// pattern of the N^2 (or 2nN) entries is enumerated with its probability and
// the expectations are summed exactly in rationals.
// The atoms x, y are drawn at every scale (LawCase: 2^-20..2^6, short to
// 24-bit mantissas), so the probabilities y/(y - x) reach 2^-26.
// Sizes: iid N in [1,3] (<= 512 outcomes); KQ (n, N) with 2nN <= 12.
#include <array>
#include <functional>
#include <limits>

#include "properties/profile/lambda_checks.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

struct TwoPointLaw {
  Rational x, y;  // x < 0 < y
  Rational Px() const { return y / (y - x); }
  Rational Py() const { return -x / (y - x); }
  Rational Variance() const { return -x * y; }
};

/// Law of entry k: the base law, or its mirror {-y, -x} when bit k of
/// `mirror` is set (same variance, different law).
TwoPointLaw EntryLaw(const TwoPointLaw& base, int64_t mirror, int64_t k) {
  if ((mirror >> (k % 62)) & 1) return {-base.y, -base.x};
  return base;
}

struct Moments {
  Rational l, s, t;
};

/// E||L||^2, E||S||^2, E||T||^2 (S, T the symmetric and antisymmetric
/// parts) over all 2^count outcomes of the entry laws, exactly: a
/// depth-first walk that carries each outcome's probability (one product
/// per step) and forms each L = mat(values) once.
Moments Enumerate(const std::vector<TwoPointLaw>& laws,
                  const std::function<Mat<Rational>(const std::vector<Rational>&)>& mat) {
  const size_t count = laws.size();
  std::vector<Rational> values(count), px(count), py(count), prob(count + 1);
  for (size_t k = 0; k < count; ++k) px[k] = laws[k].Px(), py[k] = laws[k].Py();
  prob[0] = 1;
  Moments m{0, 0, 0};
  std::function<void(size_t)> walk = [&](size_t k) {
    if (k == count) {
      const Mat<Rational> l = mat(values);
      m.l += prob[k] * FrobeniusSq<Rational>(l);
      m.s += prob[k] * FrobeniusSq<Rational>(SymmetricPart<Rational>(l));
      m.t += prob[k] * FrobeniusSq<Rational>(AntisymmetricPart<Rational>(l));
      return;
    }
    values[k] = laws[k].x, prob[k + 1] = prob[k] * px[k];
    walk(k + 1);
    values[k] = laws[k].y, prob[k + 1] = prob[k] * py[k];
    walk(k + 1);
  };
  walk(0);
  return m;
}

constexpr Axis kOne{"1"};
constexpr IntField kHeadN{"n"}, kN{"N"}, kMirror{"mirror"};
constexpr ScalarField kX{"x"}, kY{"y"}, kXQ{"x_Q"}, kYQ{"y_Q"};

/// The laws' atoms -x, y, -x_Q, y_Q are regime scalars (gen::Layout: each
/// its own scale 2^-20..2^6, so the two atoms of a law can differ by 2^26
/// and a probability be 2^-26; short, 10-bit or 24-bit mantissas: the
/// enumeration is exact whatever the bits, which buy no rounding to test
/// here, and 53-bit atoms made it 7 times slower); an atom drawn 0 becomes 1
/// (the laws need x < 0 < y). n in [1, 2] (1 for the iid claims), N in
/// [1, 3], mirror in [0, 4095].
/// Hypotheses: centred two-point laws x < 0 < y (and x_Q < 0 < y_Q), n,
/// N >= 1, mirror >= 0 (its bits pick mirrored laws). Domain: the
/// enumeration runs over 2^(entries) outcomes: 2 n N <= 12 entries for
/// L = W_K^T W_Q and N^2 <= 12 for the iid L (a cost limit; the generator
/// draws within it), so n, N <= 6.
Domain LawDomain(bool kq) {
  Domain d;
  d.Dim(kOne, {1, 1, 1}, 1);
  std::array<int, 4> atoms;
  for (int& a : atoms) a = d.PositiveAtomParam(kOne);
  const int n_s = d.ScalarParam(gen::UniformInteger(1, 2)), big_n_s = d.ScalarParam(gen::UniformInteger(1, 3));
  const int mirror_s = d.ScalarParam(gen::UniformInteger(0, 4095));
  auto atom = [atoms](const Domain::Drawn& in, int k) { return in.PositiveAtom(atoms[static_cast<size_t>(k)]); };
  d.Built(
      kHeadN, [kq, n_s](const Domain::Drawn& in) { return kq ? static_cast<int64_t>(in.ScalarParam(n_s).ToDouble()) : 1; },
      1, 6);
  d.Built(
      kN,
      [big_n_s](const Domain::Drawn& in) {
        const int64_t n = in.fields()[kHeadN];
        int64_t big_n = static_cast<int64_t>(in.ScalarParam(big_n_s).ToDouble());
        while (2 * n * big_n > 12) --big_n;  // enumeration size
        return big_n;
      },
      1, 6);
  d.Built(kX, [atom](const Domain::Drawn& in) { return Exact(Rational(-atom(in, 0))); }, Admit::Finite());
  d.Built(kY, [atom](const Domain::Drawn& in) { return Exact(atom(in, 1)); }, Admit::Finite().Positive());
  d.Built(kXQ, [atom](const Domain::Drawn& in) { return Exact(Rational(-atom(in, 2))); }, Admit::Finite());
  d.Built(kYQ, [atom](const Domain::Drawn& in) { return Exact(atom(in, 3)); }, Admit::Finite().Positive());
  d.Built(
      kMirror, [mirror_s](const Domain::Drawn& in) { return static_cast<int64_t>(in.ScalarParam(mirror_s).ToDouble()); },
      0, std::numeric_limits<int64_t>::max());
  d.Assume("x < 0 and x_Q < 0 (centred two-point laws x < 0 < y)",
           [](const Values& v) { return v[kX].ToRational() < 0 && v[kXQ].ToRational() < 0; });
  d.Assume("(computability) 2 n N <= 12 enumerated entries",
           [](const Values& v) { return 2 * v[kHeadN] * v[kN] <= 12; });
  if (!kq)
    d.Assume("(computability) N^2 <= 12 enumerated entries (iid L)", [](const Values& v) { return v[kN] * v[kN] <= 12; });
  return d;
}

Moments IidMoments(const Values& c, Rational* sigma2) {
  const int64_t big_n = c[kN];
  const TwoPointLaw base{c[kX].ToRational(), c[kY].ToRational()};
  *sigma2 = base.Variance();
  std::vector<TwoPointLaw> laws;
  for (int64_t k = 0; k < big_n * big_n; ++k) laws.push_back(EntryLaw(base, c[kMirror], k));
  auto mat = [big_n](const std::vector<Rational>& v) {
    Mat<Rational> l(big_n, big_n);
    for (int64_t i = 0; i < big_n; ++i)
      for (int64_t j = 0; j < big_n; ++j) l(i, j) = v[static_cast<size_t>(i * big_n + j)];
    return l;
  };
  return Enumerate(laws, mat);
}

Moments KQMoments(const Values& c, Rational* sk2, Rational* sq2) {
  const int64_t n = c[kHeadN], big_n = c[kN];
  const TwoPointLaw kb{c[kX].ToRational(), c[kY].ToRational()}, qb{c[kXQ].ToRational(), c[kYQ].ToRational()};
  *sk2 = kb.Variance(), *sq2 = qb.Variance();
  std::vector<TwoPointLaw> laws;
  for (int64_t k = 0; k < n * big_n; ++k) laws.push_back(EntryLaw(kb, c[kMirror], k));
  for (int64_t k = 0; k < n * big_n; ++k) laws.push_back(EntryLaw(qb, c[kMirror], n * big_n + k));
  auto mat = [n, big_n](const std::vector<Rational>& v) {
    Mat<Rational> wk(n, big_n), wq(n, big_n);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < big_n; ++j) {
        wk(i, j) = v[static_cast<size_t>(i * big_n + j)];
        wq(i, j) = v[static_cast<size_t>(n * big_n + i * big_n + j)];
      }
    return Mat<Rational>(wk.transpose() * wq);
  };
  return Enumerate(laws, mat);
}

void ExpectMoments(const Moments& m, int64_t big_n, const Rational& s2) {
  const Rational nn(big_n);
  ExpectThat(m.l == nn * nn * s2, "E||L||^2 = " + m.l.str() + " != N^2 s^2 = " + Rational(nn * nn * s2).str());
  ExpectThat(m.s == nn * (nn + 1) * s2 / 2, "E||S||^2 = " + m.s.str() + " != N(N+1)s^2/2");
  ExpectThat(m.t == nn * (nn - 1) * s2 / 2, "E||T||^2 = " + m.t.str() + " != N(N-1)s^2/2");
}
void ExpectRatios(const Moments& m, int64_t big_n) {
  const Rational nn(big_n);
  ExpectThat(m.s / m.l == (nn + 1) / (2 * nn), "E||S||^2 / E||L||^2 = " + Rational(m.s / m.l).str() + " != (N+1)/(2N)");
  ExpectThat(m.t / m.l == (nn - 1) / (2 * nn), "E||T||^2 / E||L||^2 = " + Rational(m.t / m.l).str() + " != (N-1)/(2N)");
}

/// No sampling, so no false alarm: the expectations are exact sums.
const Statistics kEnumeration{0, "case", "exact enumeration in rationals (no sampling)", true, 1,
                              "any error in the claimed expectations (compared exactly)",
                              "every sign pattern of the <= 12 entries (<= 4096 outcomes)"};

/// The four claims share their hypotheses (centred two-point laws) and,
/// iid or L = W_K^T W_Q, their cases; all are exact enumerations.
template <bool kKQ>
struct LawFamily {
  // A reference (constant-initialised) to the TU's constant: a static
  // member of a class template is initialised in no order relative to the
  // registration that copies it (JoinRegistry caught it empty).
  static inline const Statistics& kStatistics = kEnumeration;
  // Centred two-point laws, n, N >= 1, mirror >= 0, and the enumeration's
  // cost limit (LawDomain).
  template <class S> static Domain Hypotheses() { return LawDomain(kKQ); }
};

struct ExpectIidNorms : LawFamily<false>, ClaimId<"profile.expect_iid.norms"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Values c(in.value());
    Rational s2;
    ExpectMoments(IidMoments(c, &s2), c[kN], s2);
  }
};
ATTNPROP_REGISTER(ExpectIidNorms, Rational);
struct ExpectIidRatios : LawFamily<false>, ClaimId<"profile.expect_iid.ratios"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Values c(in.value());
    Rational s2;
    ExpectRatios(IidMoments(c, &s2), c[kN]);
  }
};
ATTNPROP_REGISTER(ExpectIidRatios, Rational);
struct ExpectKQNorms : LawFamily<true>, ClaimId<"profile.expect_KQ.norms"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Values c(in.value());
    Rational sk2, sq2;
    const Moments m = KQMoments(c, &sk2, &sq2);
    ExpectMoments(m, c[kN], Rational(c[kHeadN]) * sk2 * sq2);
  }
};
ATTNPROP_REGISTER(ExpectKQNorms, Rational);
struct ExpectKQRatios : LawFamily<true>, ClaimId<"profile.expect_KQ.ratios"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Values c(in.value());
    Rational sk2, sq2;
    ExpectRatios(KQMoments(c, &sk2, &sq2), c[kN]);
  }
};
ATTNPROP_REGISTER(ExpectKQRatios, Rational);

}  // namespace
}  // namespace attnprop
