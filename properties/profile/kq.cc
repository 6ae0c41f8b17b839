// The symmetric part of L = W_K^T W_Q (001_4e20808ed1137a14.txt, "For
// W_K, W_Q in M_{n x N}(R), set [M, J, G] The symmetric part of W_K^T W_Q is
// S = 1/2 M^T J M. For every k >= 1, [elided] If M is surjective and n >= 1,
// the nonzero spectrum of S, with multiplicity, is the spectrum of 1/2 JG.
// Its sorted normalized nonzero spectrum lambda exists uniquely and belongs
// to Lambda_n."; also "If L has rank at most n ..." and the signature
// proposition). Reconstruction (CATALOG.md): M = [W_K; W_Q] (2n x N),
// J = [[0, I], [I, 0]], G = M M^T; "for every k": tr(S^k) = tr((1/2 JG)^k).
//
// profile.KQ.symmetric_part_MJM        sym(W_K^T W_Q) = 1/2 M^T J M.
// profile.KQ.power_traces              tr(S^k) = tr((1/2 JG)^k), k = 1..6.
// profile.KQ.nonzero_spectrum          M surjective: char_S(x) = x^{N-2n} char_{JG/2}(x)
//   and char_{JG/2}(0) != 0 (equal polynomials <=> equal spectra with
//   multiplicity; exact, rationals only: the spectra are irrational).
// profile.KQ.normalized_spectrum_in_Lambda_n  M surjective: S has exactly n
//   positive and n negative eigenvalues (then lambda = sorted nonzero
//   spectrum / ||S|| is a unit vector with lambda_n < 0 < lambda_{n+1}, i.e.
//   in Lambda_n; sorting makes it unique). Exact inertia (model/charpoly.h).
// profile.rank_le_n_inertia            rank L <= n => sym(L) has <= n positive
//   and <= n negative eigenvalues (L = X Y^T, X, Y in Q^{N x n}: every rank
//   <= n matrix has this form).
// profile.signature_n_n_N_minus_2n     (Q, K) surjective => the form
//   S(x,y) = 1/2(<Kx,Qy> + <Qx,Ky>), Gram matrix 1/2(K^T Q + Q^T K), has
//   signature (n, n, N - 2n).
// symmetric_part_MJM and power_traces are certified by intervals: a double
// or MPFR failure beyond its gamma budget is a candidate that intervals
// refute, or leave to the exact route (rationals).
// Cases: W_K, W_Q in every regime (KQInputs), n in [1,3], N in [1,7]
// (surjective claims: N in [2n, 8], M made surjective).
#include "generators/regime.h"
#include "model/charpoly.h"
#include "properties/profile/lambda_checks.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

constexpr Axis kSmallN{"n"}, kBigN{"N"};
constexpr MatrixField kWK{"W_K"}, kWQ{"W_Q"};

template <class S>
Mat<S> StackM(const In<S>& in) {
  const Mat<S> wk = in[kWK], wq = in[kWQ];
  Mat<S> m(wk.rows() + wq.rows(), wk.cols());
  m << wk, wq;
  return m;
}
template <class S>
Mat<S> SwapJ(int64_t n) {
  Mat<S> j = Mat<S>::Zero(2 * n, 2 * n);
  for (int64_t i = 0; i < n; ++i) j(i, n + i) = j(n + i, i) = 1;
  return j;
}

/// M = [W_K; W_Q] has full row rank 2n (exactly).
bool Surjective(const Values& v) {
  Mat<Rational> m(2 * v[kWK].rows, v[kWK].cols);
  m << v[kWK].As<Rational>(), v[kWQ].As<Rational>();
  return Eigen::FullPivLU<Mat<Rational>>(m).rank() == m.rows();
}

/// W_K, W_Q (n x N, one axis each: n in [1, max_n], N in [1, max_big_n])
/// in every regime (gen::Layout), handed to backend S by DerivedArithFor<S>.
/// Surjective claims: N in [1, 2 max_n + 2] and the assumption M = [W_K;
/// W_Q] surjective; a non-surjective draw with N >= 2n is made surjective
/// by adding 64N to the leading 2n x 2n diagonal of M, which makes that
/// block strictly diagonally dominant (a draw with N < 2n cannot be, and is
/// discarded by the assumption). The Domain has no predicate on the drawn
/// dimensions, so N is no longer drawn within 2n + [0, 2] (the old
/// generator's DimsOk): it is drawn in [1, 2 max_n + 2] and filtered.
/// Domain (both): W_K, W_Q finite; double, MPFR: nonzero |entries| in
/// [2^-64, 2^64] (ProfileDomain: the traces multiply up to 12 entries:
/// 2^768 at most).
template <class S>
Domain KQInputs(int64_t max_n, int64_t max_big_n, bool surjective) {
  const int64_t cap = surjective ? 2 * max_n + 2 : max_big_n;
  const gen::Regime regime = gen::RegimeFor<S>(gen::Regime{});
  const Admit entries = ScalarTraits<S>::kExact ? Admit::Finite() : Admit::Within(0x1p64).NonzeroAtLeast(0x1p-64);
  Domain d;
  d.Dim(kSmallN, {1, max_n, max_n}).Dim(kBigN, {1, cap, cap});
  const int k_m = d.Param(kSmallN, kBigN, regime), q_m = d.Param(kSmallN, kBigN, regime);
  // Both weights from the two drawn matrices (the surjective repair moves both).
  auto weights = [k_m, q_m, surjective](const Domain::Drawn& in, bool key) {
    Mat<Rational> wk = in.Param(k_m).As<Rational>(), wq = in.Param(q_m).As<Rational>();
    const int64_t n = wk.rows(), big_n = wk.cols();
    if (surjective && big_n >= 2 * n) {
      Mat<Rational> m(2 * n, big_n);
      m << wk, wq;
      if (Eigen::FullPivLU<Mat<Rational>>(m).rank() < 2 * n) {
        for (int64_t i = 0; i < 2 * n; ++i) m(i, i) += 64 * big_n;
        wk = m.topRows(n), wq = m.bottomRows(n);
      }
    }
    return gen::FromRationals(key ? wk : wq, gen::DerivedArithFor<S>());
  };
  d.Built(kWK, kSmallN, kBigN, [weights](const Domain::Drawn& in) { return weights(in, true); }, entries);
  d.Built(kWQ, kSmallN, kBigN, [weights](const Domain::Drawn& in) { return weights(in, false); }, entries);
  if (surjective) d.Assume("M = [W_K; W_Q] surjective (rank 2n)", Surjective);
  return d;
}

template <class S> constexpr int64_t kMaxBigN = SizeBudget<S>::Pick(7, 5);

/// Claims on any W_K, W_Q (n in [1,3], N in [1,7]; MPFR, rationals [1,5]).
struct KQFamily {
  template <class S> static Domain Hypotheses() { return KQInputs<S>(3, kMaxBigN<S>, false); }
};

/// Claims that assume M = [W_K; W_Q] surjective (N in [2n, 8]).
struct SurjectiveFamily {
  template <class S> static Domain Hypotheses() { return KQInputs<S>(3, 2, true); }
};

struct SymmetricPartMJM : KQFamily, ClaimId<"profile.KQ.symmetric_part_MJM"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> wk = in[kWK], wq = in[kWQ];
    const int64_t n = wk.rows();
    const Mat<S> lhs = SymmetricPart<S>(Mat<S>(wk.transpose() * wq));
    const Mat<S> m = StackM<S>(in);
    const Mat<S> rhs = Mat<S>(m.transpose() * SwapJ<S>(n) * m) / S(2);
    const Mat<S> scale = Mat<S>(wk.cwiseAbs().transpose() * wq.cwiseAbs() + wq.cwiseAbs().transpose() * wk.cwiseAbs());
    if constexpr (ScalarTraits<S>::kExact) ExpectThat(lhs == rhs, "sym(W_K^T W_Q) != M^T J M / 2");
    S worst = 0;
    using std::abs;
    using std::max;  // Interval's (found by argument-dependent lookup) is the hull
    for (int64_t i = 0; i < lhs.rows(); ++i)
      for (int64_t j = 0; j < lhs.cols(); ++j) {
        const S err = abs(S(lhs(i, j) - rhs(i, j)));
        if (scale(i, j) == 0) ExpectThat(err == 0, "nonzero difference where all products vanish");
        else worst = max(worst, S(err / scale(i, j)));
      }
    static const Tolerance kRelative{
        "max_ij |sym(W_K^T W_Q) - M^T J M/2|_ij / (|W_K|^T|W_Q| + |W_Q|^T|W_K|)_ij", "2 gamma_{n+2}",
        "each side is a sum of the same 2n products in different groupings: inner products gamma_n "
        "relative to the absolute sums, one addition and the (exact) halving: gamma_{n+1} per side", MetricKind::kRounding};
    ExpectWithin<S>(kRelative, worst, S(2 * Gamma(static_cast<double>(n) + 2, ScalarTraits<S>::UnitRoundoff())));
  }
};

template <class S>
S TracePower(const Mat<S>& x, int k) {
  Mat<S> p = x;
  for (int i = 1; i < k; ++i) p = Mat<S>(p * x);
  return p.trace();
}

struct PowerTraces : KQFamily, ClaimId<"profile.KQ.power_traces"> {
  static constexpr int kMaxK = 6;
  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> wk = in[kWK], wq = in[kWQ];
    const int64_t n = wk.rows(), big_n = wk.cols();
    const Mat<S> s = SymmetricPart<S>(Mat<S>(wk.transpose() * wq));
    const Mat<S> m = StackM<S>(in), j = SwapJ<S>(n);
    const Mat<S> h = Mat<S>(j * Mat<S>(m * m.transpose())) / S(2);
    const Mat<S> abs_s = Mat<S>(wk.cwiseAbs().transpose() * wq.cwiseAbs() + wq.cwiseAbs().transpose() * wk.cwiseAbs()) / S(2);
    const Mat<S> abs_h = Mat<S>(j * Mat<S>(m.cwiseAbs() * m.cwiseAbs().transpose())) / S(2);
    const double u = ScalarTraits<S>::UnitRoundoff();
    static const Tolerance kTraces{
        "|tr(S^k) - tr((JG/2)^k)| / (tr(|S|^k) + tr((|J||M||M|^T/2)^k))", "gamma_{k(N+2n)+8}",
        "a product of k matrices errs entrywise by gamma_{(k-1)d} times the product of the absolute "
        "matrices (d the inner dimension); S and G = M M^T carry gamma_{n+1} and gamma_N already; the "
        "trace adds gamma_d; the absolute matrices bound the true ones entrywise", MetricKind::kRounding};
    for (int k = 1; k <= kMaxK; ++k) {
      const S lhs = TracePower<S>(s, k), rhs = TracePower<S>(h, k);
      if constexpr (ScalarTraits<S>::kExact) ExpectThat(lhs == rhs, "tr(S^k) != tr((JG/2)^k) at k = " + std::to_string(k));
      using std::abs;
      const S scale = TracePower<S>(abs_s, k) + TracePower<S>(abs_h, k);
      if (scale == 0) {
        ExpectThat(lhs == rhs, "traces differ where every product vanishes");
        continue;
      }
      ExpectWithin<S>(kTraces, S(abs(S(lhs - rhs)) / scale), S(Gamma(static_cast<double>(k * (big_n + 2 * n) + 8), u)));
    }
  }
};

struct NonzeroSpectrum : SurjectiveFamily, ClaimId<"profile.KQ.nonzero_spectrum"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<Rational> wk = in.exact(kWK).template As<Rational>(), wq = in.exact(kWQ).template As<Rational>();
    const int64_t n = wk.rows(), big_n = wk.cols();
    const Mat<Rational> s = SymmetricPart<Rational>(Mat<Rational>(wk.transpose() * wq));
    const Mat<Rational> m = StackM<Rational>(In<Rational>(in.value()));
    const Mat<Rational> h = Mat<Rational>(SwapJ<Rational>(n) * Mat<Rational>(m * m.transpose())) / Rational(2);
    const std::vector<Rational> cs = CharPoly(s), ch = CharPoly(h);
    ExpectThat(ch[0] != 0, "JG/2 is singular: 0 in its spectrum");
    std::vector<Rational> shifted(static_cast<size_t>(big_n + 1), Rational(0));
    for (size_t i = 0; i < ch.size(); ++i) shifted[i + static_cast<size_t>(big_n - 2 * n)] = ch[i];
    ExpectThat(cs == shifted, "char_S(x) != x^{N-2n} char_{JG/2}(x): the nonzero spectra differ");
  }
};

struct NormalizedSpectrumInLambda : SurjectiveFamily, ClaimId<"profile.KQ.normalized_spectrum_in_Lambda_n"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<Rational> wk = in.exact(kWK).template As<Rational>(), wq = in.exact(kWQ).template As<Rational>();
    const int64_t n = wk.rows(), big_n = wk.cols();
    const Mat<Rational> s = SymmetricPart<Rational>(Mat<Rational>(wk.transpose() * wq));
    const InertiaValue inertia = SymmetricInertia(s);
    // lambda has 2n entries (the nonzero eigenvalues), n of each sign, and
    // unit norm (sum mu_i^2 = ||S||^2): the definition of Lambda_n.
    ExpectThat(inertia.positive == n && inertia.negative == n && inertia.zero == big_n - 2 * n,
               "inertia of S is (" + std::to_string(inertia.positive) + ", " + std::to_string(inertia.negative) + ", " +
                   std::to_string(inertia.zero) + "), not (n, n, N - 2n): lambda not in Lambda_n");
  }
};

struct RankLeNInertia : ClaimId<"profile.rank_le_n_inertia"> {
  // As KQFamily, N in [1, 6].
  template <class S> static Domain Hypotheses() { return KQInputs<S>(3, 6, false); }
  template <class S> static void Conclusion(const In<S>& in) {
    // L = W_K^T W_Q (N x N, rank <= n); its rank is checked, not assumed.
    const Mat<Rational> wk = in.exact(kWK).template As<Rational>(), wq = in.exact(kWQ).template As<Rational>();
    const int64_t n = wk.rows();
    const Mat<Rational> l = wk.transpose() * wq;
    ExpectThat(Eigen::FullPivLU<Mat<Rational>>(l).rank() <= n, "rank L > n");
    const InertiaValue inertia = SymmetricInertia(SymmetricPart<Rational>(l));
    ExpectThat(inertia.positive + inertia.negative + inertia.zero == l.rows(), "inertia does not add up to N");
    ExpectThat(inertia.positive <= n && inertia.negative <= n,
               "sym(L) has " + std::to_string(inertia.positive) + " positive and " + std::to_string(inertia.negative) +
                   " negative eigenvalues, rank L <= n = " + std::to_string(n));
  }
};

struct SignatureNN : SurjectiveFamily, ClaimId<"profile.signature_n_n_N_minus_2n"> {
  template <class S> static void Conclusion(const In<S>& in) {
    // Q, K : C -> H as n x N matrices (W_Q, W_K); Gram matrix of S in the
    // standard basis: S(e_i, e_j) = 1/2(<K e_i, Q e_j> + <Q e_i, K e_j>).
    const Mat<Rational> k = in.exact(kWK).template As<Rational>(), q = in.exact(kWQ).template As<Rational>();
    const int64_t n = k.rows(), big_n = k.cols();
    Mat<Rational> gram(big_n, big_n);
    for (int64_t i = 0; i < big_n; ++i)
      for (int64_t j = 0; j < big_n; ++j) gram(i, j) = (k.col(i).dot(q.col(j)) + q.col(i).dot(k.col(j))) / 2;
    const InertiaValue inertia = SymmetricInertia(gram);
    ExpectThat(inertia == InertiaValue{n, n, big_n - 2 * n},
               "signature (" + std::to_string(inertia.positive) + ", " + std::to_string(inertia.negative) + ", " +
                   std::to_string(inertia.zero) + ") != (n, n, N - 2n)");
  }
};

// profile.KQ.H_power_sums: M surjective, H = JG/(2||S||): tr(H^k) = sum_i lambda_i^k,
// lambda the sorted normalised nonzero spectrum of S (k = 1..6). Double and
// MPFR: lambda from Eigen's eigen-solver on S (the 2n eigenvalues largest in
// modulus: exactly 2n are nonzero when M is surjective). Rationals cannot
// hold lambda (irrational) or ||S||; that exact identity is power_traces.
struct HPowerSums : SurjectiveFamily, ClaimId<"profile.KQ.H_power_sums"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Mat<S> wk = in[kWK], wq = in[kWQ];
    const int64_t n = wk.rows(), big_n = wk.cols();
    const Mat<S> s = SymmetricPart<S>(Mat<S>(wk.transpose() * wq));
    using std::sqrt;
    using std::abs;
    const S s_norm = sqrt(FrobeniusSq<S>(s));
    const Mat<S> m = StackM<S>(in), j = SwapJ<S>(n);
    const Mat<S> h = Mat<S>(j * Mat<S>(m * m.transpose())) / S(2 * s_norm);
    const Mat<S> abs_h = Mat<S>(j * Mat<S>(m.cwiseAbs() * m.cwiseAbs().transpose())) / S(2 * s_norm);
    const auto eig = SymmetricEigenvalues<S>(s);
    ExpectThat(eig.has_value(), "eigen-solver did not converge");
    std::vector<S> mu(eig->data(), eig->data() + eig->size());
    std::sort(mu.begin(), mu.end(), [](const S& x, const S& y) { return abs(x) > abs(y); });
    mu.resize(static_cast<size_t>(2 * n));
    const double u = ScalarTraits<S>::UnitRoundoff();
    const double nd = static_cast<double>(big_n);
    // The computed S is within gamma_{n+1} |W_K|^T |W_Q| of the exact one
    // (n products summed, then the symmetric part rounded), entrywise.
    const double formed = Gamma(static_cast<double>(n) + 2, u) *
                          ToDouble(S(sqrt(FrobeniusSq<S>(Mat<S>(wk.cwiseAbs().transpose() * wq.cwiseAbs()))))) /
                          ToDouble(s_norm);
    const double shift = RelativeEigenvalueError(s, *eig);
    ExpectThat(std::isfinite(shift), "no rigorous enclosure of the spectrum of S");
    const double eta = 2 * (shift + formed + Gamma(nd * nd + 3, u));
    double worst = 0;
    for (int k = 1; k <= PowerTraces::kMaxK; ++k) {
      S sum = 0;
      for (const S& x : mu) sum += pow(S(x / s_norm), k);
      const S lhs = TracePower<S>(h, k);
      const double bound = 2 * static_cast<double>(n) * k * eta + (nd - 2 * static_cast<double>(n)) * std::pow(eta, k) +
                           Gamma(static_cast<double>(k) * (nd + 2 * static_cast<double>(n)) + 8, u) *
                               ToDouble(TracePower<S>(abs_h, k));
      worst = std::max(worst, ToDouble(S(abs(S(lhs - sum)))) / bound);
    }
    static const Tolerance kPowerSums{
        "max_k |tr(H^k) - sum lambda_i^k| / bound_k", "1",
        "bound_k = 2n k eta' + (N-2n) eta'^k + gamma_{k(N+2n)+8} tr((|J||M||M|^T/(2||S||))^k) with "
        "eta' = 2(shift + formed + gamma_{N^2+3}): each computed eigenvalue is within shift ||S||_F of the "
        "computed S's (measured against rigorous enclosures, model/spectral_enclosure.h), which is within "
        "formed ||S||_F of the exact S (Weyl; gamma_{n+2} |W_K|^T|W_Q|), normalising by the computed ||S|| "
        "adds gamma_{N^2+3}; |lambda_i| < 1 makes "
        "x^k k-Lipschitz; a zero eigenvalue taken for a tiny nonzero one costs <= eta'^k; products as in "
        "power_traces", MetricKind::kRounding};
    ExpectWithin(kPowerSums, worst, 1.0);
  }
};
ATTNPROP_REGISTER(HPowerSums, double, Mpfr);

ATTNPROP_REGISTER(SymmetricPartMJM, double, Mpfr, Interval, Rational);
ATTNPROP_REGISTER(PowerTraces, double, Mpfr, Interval, Rational);
ATTNPROP_REGISTER(NonzeroSpectrum, Rational);
ATTNPROP_REGISTER(NormalizedSpectrumInLambda, Rational);
ATTNPROP_REGISTER(RankLeNInertia, Rational);
ATTNPROP_REGISTER(SignatureNN, Rational);

}  // namespace
}  // namespace attnprop
