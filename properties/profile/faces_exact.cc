// Faces and vertices of the profile that need the spectrum of S
// (001_4e20808ed1137a14.txt, faces items 2-4), checked exactly:
// profile.face_b             b = 0 <=> S semidefinite; b = 1 <=> L symmetric and alpha = beta.
// profile.face_d0.alpha_ge_beta   d = 0 <=> alpha_j >= beta_j for every j.
// profile.face_c0.beta_ge_alpha   c = 0 <=> beta_j >= alpha_j for every j.
// profile.vertices_c1_d1     d = 1 <=> L symmetric NSD; c = 1 <=> L symmetric PSD.
// Hypotheses: L != 0. Rational backend only: "exactly when" statements are
// decided exactly; the eigenvalues of a general sym(L) are irrational, so L
// is built as Q diag(lambda) Q^T + T (Cayley-orthogonal rational Q, T
// antisymmetric) and the spectrum lambda is certified exactly
// (CertifySpectrum, model/profile.h) before alpha, beta, pi are formed.
// Below: the decompositions of faces items 3 and 4 (face_d0.decomposition,
// face_d0.P_norm, face_c0.decomposition), forward exactly, converse in MPFR.
// Shapes steer cases onto the faces: T = 0 (symmetric L), lambda >= 0,
// lambda <= 0, lambda = (x, -x, ...) (alpha = beta), general.
#include <cmath>
#include <optional>

#include "model/charpoly.h"
#include "properties/profile/lambda_checks.h"
#include "properties/profile/square_cases.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

using namespace profile;  // the family's fields and helpers

/// L = Q diag(lambda) Q^T + T and its spectrum lambda for a shape 0..4; T = 0
/// in the cases with shape + N odd (every shape meets both).
std::pair<Mat<Rational>, Mat<Rational>> SpectrumParts(int shape, Mat<Rational> lam, const Mat<Rational>& ku,
                                                      const Mat<Rational>& tu) {
  const int64_t n = lam.cols();
  const bool zero_t = (shape + n) % 2 == 1;
  if (shape == 1) lam = lam.cwiseAbs();
  if (shape == 2) lam = -lam.cwiseAbs();
  if (shape == 3)
    for (int64_t i = 0; i + 1 < n; i += 2) lam(0, i + 1) = -lam(0, i);
  const Mat<Rational> q = Cayley(Antisymmetric(ku));
  Mat<Rational> l = q * lam.row(0).asDiagonal() * q.transpose();
  if (!zero_t) l += Antisymmetric(tu);
  if (l.isZero()) {
    l(0, 0) = 1;
    lam = Mat<Rational>::Zero(1, n);
    lam(0, 0) = 1;
  }
  return {l, lam};
}

/// The exact cases of the face claims (fields shape, L, spectrum; N in
/// [1, 4]): SpectralParts' ingredients, shape in [0, 4], L and its spectrum
/// built by SpectrumParts. Hypotheses: L != 0 and the spectrum certified
/// for sym(L) (exactly).
Domain SpectrumDomain() {
  Domain d;
  const SpectralParams p = SpectralDomainParams(d, 4);
  d.Int(kShape, gen::UniformCount(0, 4), 0, 4);
  auto parts = [p](const Domain::Drawn& in) {
    return SpectrumParts(static_cast<int>(in.fields()[kShape]), Mat<Rational>(in.Param(p.lam).As<Rational>()),
                         Mat<Rational>(in.Param(p.k).As<Rational>()), Mat<Rational>(in.Param(p.t).As<Rational>()));
  };
  d.Built(kL, kSquareN, kSquareN, [parts](const Domain::Drawn& in) { return ToExact(parts(in).first); },
          Admit::Finite());
  d.Built(kSpectrum, kSquareOne, kSquareN, [parts](const Domain::Drawn& in) { return ToExact(parts(in).second); },
          Admit::Finite());
  AssumeCertifiedSpectrum(d);
  return d;
}

struct Exactly {
  Mat<Rational> l;
  std::vector<Rational> alpha, beta;
  ProfileValue<Rational> pi;
  bool symmetric, psd, nsd;
};

Exactly Evaluate(const Values& v) {
  Exactly e;
  e.l = v[kL].As<Rational>();
  const Vec<Rational> spec = Mat<Rational>(v[kSpectrum].As<Rational>()).row(0).transpose();
  ExpectThat(CertifySpectrum(SymmetricPart<Rational>(e.l), spec), "spectrum of sym(L) not certified");
  for (int64_t i = 0; i < spec.size(); ++i) {
    if (spec[i] > 0) e.alpha.push_back(spec[i]);
    if (spec[i] < 0) e.beta.push_back(-spec[i]);
  }
  std::sort(e.alpha.begin(), e.alpha.end(), std::greater<Rational>());
  std::sort(e.beta.begin(), e.beta.end(), std::greater<Rational>());
  e.alpha.resize(static_cast<size_t>(spec.size()), Rational(0));
  e.beta.resize(static_cast<size_t>(spec.size()), Rational(0));
  e.pi = ProfileFromSpectrum<Rational>(e.l, spec);
  e.symmetric = e.l == e.l.transpose();
  e.psd = spec.minCoeff() >= 0;
  e.nsd = spec.maxCoeff() <= 0;
  return e;
}

std::string Tf(bool b) { return b ? "true" : "false"; }

/// The face and vertex claims share their hypotheses and cases (exact, no
/// tolerance); each adds its "exactly when" conclusion on Evaluate(c).
struct FaceFamily {
  template <class S> static Domain Hypotheses() { return SpectrumDomain(); }
};

struct FaceB : FaceFamily, ClaimId<"profile.face_b"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Exactly e = Evaluate(Values(in.value()));
    ExpectThat((e.pi.b == 0) == (e.psd || e.nsd),
               "b = 0 is " + Tf(e.pi.b == 0) + ", S semidefinite is " + Tf(e.psd || e.nsd));
    ExpectThat((e.pi.b == 1) == (e.symmetric && e.alpha == e.beta),
               "b = 1 is " + Tf(e.pi.b == 1) + ", L symmetric and alpha = beta is " + Tf(e.symmetric && e.alpha == e.beta));
  }
};
ATTNPROP_REGISTER(FaceB, Rational);

struct FaceD0 : FaceFamily, ClaimId<"profile.face_d0.alpha_ge_beta"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Exactly e = Evaluate(Values(in.value()));
    bool ge = true;
    for (size_t j = 0; j < e.alpha.size(); ++j) ge = ge && e.alpha[j] >= e.beta[j];
    ExpectThat((e.pi.d == 0) == ge, "d = 0 is " + Tf(e.pi.d == 0) + ", alpha_j >= beta_j for all j is " + Tf(ge));
  }
};
ATTNPROP_REGISTER(FaceD0, Rational);

struct FaceC0 : FaceFamily, ClaimId<"profile.face_c0.beta_ge_alpha"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Exactly e = Evaluate(Values(in.value()));
    bool ge = true;
    for (size_t j = 0; j < e.alpha.size(); ++j) ge = ge && e.beta[j] >= e.alpha[j];
    ExpectThat((e.pi.c == 0) == ge, "c = 0 is " + Tf(e.pi.c == 0) + ", beta_j >= alpha_j for all j is " + Tf(ge));
  }
};
ATTNPROP_REGISTER(FaceC0, Rational);

struct VerticesC1D1 : FaceFamily, ClaimId<"profile.vertices_c1_d1"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const Exactly e = Evaluate(Values(in.value()));
    ExpectThat((e.pi.d == 1) == (e.symmetric && e.nsd),
               "d = 1 is " + Tf(e.pi.d == 1) + ", L symmetric NSD is " + Tf(e.symmetric && e.nsd));
    ExpectThat((e.pi.c == 1) == (e.symmetric && e.psd),
               "c = 1 is " + Tf(e.pi.c == 1) + ", L symmetric PSD is " + Tf(e.symmetric && e.psd));
  }
};
ATTNPROP_REGISTER(VerticesC1D1, Rational);

// profile.P_upper_bound_rho (001, "Let S be symmetric ... If lambda_+ != 0 and
// rho = ||lambda_-||/||lambda_+||, then P <= 1 - |1 - rho|/sqrt(1 + rho^2), with
// equality iff lambda_- = rho lambda_+"; P = 1 - ||lambda_+ - lambda_-||/||S||).
// Checked on S = sym(L) of the cases above (lambda_+- = alpha, beta), without
// roots: with A = ||alpha||^2, B = ||beta||^2, C = <alpha, beta>, D =
// ||alpha - beta||^2 = A + B - 2C, ||S||^2 = A + B = A(1 + rho^2) and
// |1 - rho| ||lambda_+|| = |sqrt A - sqrt B|, so the inequality reads
// D >= (sqrt A - sqrt B)^2, i.e. sqrt(AB) >= C, i.e. AB >= C^2 (C >= 0);
// equality iff AB = C^2. Equality side: lambda_- = rho lambda_+ is tested as
// beta = t alpha with t = C/A (the only candidate; then t = rho).
struct PUpperBoundRho : ClaimId<"profile.P_upper_bound_rho"> {
  template <class S> static Domain Hypotheses() {
    Domain d = SpectrumDomain();
    d.Assume("lambda_+ != 0", [](const Values& v) { return Mat<Rational>(v[kSpectrum].As<Rational>()).maxCoeff() > 0; });
    return d;
  }
  template <class S> static void Conclusion(const In<S>& in) {
    const Exactly e = Evaluate(Values(in.value()));
    Rational a = 0, b = 0, cc = 0, d = 0;
    for (size_t j = 0; j < e.alpha.size(); ++j) {
      a += e.alpha[j] * e.alpha[j], b += e.beta[j] * e.beta[j], cc += e.alpha[j] * e.beta[j];
      d += (e.alpha[j] - e.beta[j]) * (e.alpha[j] - e.beta[j]);
    }
    ExpectThat(d == a + b - 2 * cc && cc >= 0, "internal: D != A + B - 2C");
    ExpectThat(a * b >= cc * cc, "P > 1 - |1 - rho|/sqrt(1 + rho^2): AB = " + Rational(a * b).str() + " < C^2 = " +
                                     Rational(cc * cc).str());
    const Rational t = cc / a;
    bool proportional = true;
    for (size_t j = 0; j < e.alpha.size(); ++j) proportional = proportional && e.beta[j] == t * e.alpha[j];
    ExpectThat((a * b == cc * cc) == proportional,
               "equality is " + Tf(a * b == cc * cc) + ", lambda_- = rho lambda_+ is " + Tf(proportional));
  }
};
ATTNPROP_REGISTER(PUpperBoundRho, Rational);


// ---------------------------------------------------------------------------
// profile.face_d0.decomposition (001, faces item 3): d = 0 exactly when S =
//   H + P with H symmetric with spectrum symmetric about zero and P positive
//   semidefinite; H, P may be chosen to commute with S and with each other.
// profile.face_d0.P_norm (same item): the commuting choice has ||P||^2 = c ||L||^2.
// profile.face_c0.decomposition (001, faces item 4): c = 0 exactly when S =
//   H - P with the same conditions, commuting, ||P||^2 = d ||L||^2.
// Forward direction (rational, exact): on the cases above with d = 0 (resp.
//   c = 0), H and P are built from rank-one spectral projectors of S
//   (rational: eigenspaces are kernels of S - mu I, an orthogonal basis by
//   Gram-Schmidt without normalisation, u u^T / u^T u): with the positive
//   copies alpha_j and the negative copies -beta_j paired in sorted order,
//   H = sum_j beta_j (Pi_{alpha_j} - Pi_{beta_j}), P = sum_j (alpha_j -
//   beta_j) Pi_{alpha_j} (the unpaired alpha_j with beta_j = 0). Checked
//   exactly, without using the construction's reasons: S = H + P, H
//   symmetric with char poly of H's parity (spectrum symmetric about 0), P
//   PSD (exact inertia), HS = SH, PS = SP, HP = PH, ||P||^2 = c ||L||^2.
//   Off the face (d > 0) the construction must fail: some beta_j > alpha_j.
// Converse (MPFR): S = H + P (resp. H - P) with H = Q diag(x, -x, ..., 0)
//   Q^T (Cayley Q) and P = B B^T for a general B (P need not commute with H),
//   L = S + T: d = 0 (resp. c = 0), i.e. alpha_j >= beta_j for every j,
//   checked on the eigen-solver's spectrum of S with the margin 2 eta ||L||_F,
//   eta = the solver's error measured against rigorous enclosures
//   (RelativeEigenvalueError) + 2u for rounding L and forming S (Weyl: each
//   computed eigenvalue is then within eta ||L||_F of the exact one of the
//   same rank; alpha_j and beta_j each move by that).

/// Rank-one orthogonal projectors of a rational symmetric S with certified
/// spectrum: S = sum_k mu_k Pi_k, sum_k Pi_k = I (checked by the caller).
struct SpectralProjectors {
  std::vector<Rational> mu;
  std::vector<Mat<Rational>> pi;
};

SpectralProjectors Projectors(const Mat<Rational>& s, const Vec<Rational>& spec) {
  SpectralProjectors r;
  std::vector<Rational> distinct;
  for (Eigen::Index i = 0; i < spec.size(); ++i)
    if (std::find(distinct.begin(), distinct.end(), spec[i]) == distinct.end()) distinct.push_back(spec[i]);
  const Eigen::Index n = s.rows();
  for (const Rational& mu : distinct) {
    const Mat<Rational> shifted = s - mu * Mat<Rational>::Identity(n, n);
    const Eigen::FullPivLU<Mat<Rational>> lu(shifted);
    if (lu.rank() == n) continue;
    const Mat<Rational> kernel = lu.kernel();
    std::vector<Vec<Rational>> basis;
    for (Eigen::Index k = 0; k < kernel.cols(); ++k) {
      Vec<Rational> v = kernel.col(k);
      for (const Vec<Rational>& b : basis) v -= (b.dot(v) / b.dot(b)) * b;
      basis.push_back(v);
      r.mu.push_back(mu);
      r.pi.push_back(v * v.transpose() / v.dot(v));
    }
  }
  return r;
}

/// Whether the spectrum of a symmetric rational H is symmetric about zero:
/// char_H(-x) = (-1)^N char_H(x), i.e. every coefficient of x^k with N - k
/// odd vanishes.
bool SpectrumSymmetricAboutZero(const Mat<Rational>& h) {
  const std::vector<Rational> c = CharPoly(h);
  const size_t n = static_cast<size_t>(h.rows());
  for (size_t k = 0; k < c.size(); ++k)
    if ((n - k) % 2 == 1 && c[k] != 0) return false;
  return true;
}

struct Decomposed {
  bool on_face;  // alpha_j >= beta_j for every j (the pairing is possible)
  Mat<Rational> h, p;
};

/// The commuting decomposition of sign * S = H + P (sign -1: the c = 0 face
/// as the d = 0 face of -S; then S = -H - P and the caller negates H).
Decomposed Decompose(const Mat<Rational>& s, const Vec<Rational>& spec, int sign) {
  const Mat<Rational> ss = sign * s;
  const Vec<Rational> sp = sign * spec;
  const SpectralProjectors pr = Projectors(ss, sp);
  const Eigen::Index n = s.rows();
  Mat<Rational> sum = Mat<Rational>::Zero(n, n), id = Mat<Rational>::Zero(n, n);
  for (size_t k = 0; k < pr.pi.size(); ++k) sum += pr.mu[k] * pr.pi[k], id += pr.pi[k];
  ExpectThat(static_cast<Eigen::Index>(pr.pi.size()) == n && sum == ss && id == Mat<Rational>::Identity(n, n),
             "spectral projectors of S not certified");
  std::vector<size_t> pos, neg;
  for (size_t k = 0; k < pr.mu.size(); ++k) {
    if (pr.mu[k] > 0) pos.push_back(k);
    if (pr.mu[k] < 0) neg.push_back(k);
  }
  std::stable_sort(pos.begin(), pos.end(), [&](size_t a, size_t b) { return pr.mu[a] > pr.mu[b]; });
  std::stable_sort(neg.begin(), neg.end(), [&](size_t a, size_t b) { return pr.mu[a] < pr.mu[b]; });
  Decomposed d{neg.size() <= pos.size(), Mat<Rational>::Zero(n, n), Mat<Rational>::Zero(n, n)};
  for (size_t j = 0; j < pos.size(); ++j) {
    const Rational alpha = pr.mu[pos[j]], beta = j < neg.size() ? Rational(-pr.mu[neg[j]]) : Rational(0);
    if (alpha < beta) d.on_face = false;
    d.p += (alpha - beta) * pr.pi[pos[j]];
    if (j < neg.size()) d.h += beta * Mat<Rational>(pr.pi[pos[j]] - pr.pi[neg[j]]);
  }
  return d;
}

constexpr MatrixField kH{"H"}, kP{"P"};

/// Converse cases (MPFR; fields L, H, P; N in [1, 4]): L = H + sign P + T,
/// H = Q diag(x_1, -x_1, ..., 0) Q^T, P = B B^T (B lower triangular from
/// the drawn matrix), T antisymmetric, from SpectralParts' ingredients.
/// Hypotheses: H symmetric with spectrum symmetric about 0, P symmetric
/// PSD, sym(L) = H + sign P, L != 0 (all exact). Domain (MPFR): L's
/// nonzero |entries| in [2^-100, 2^100] (the ProfileDomain limits: the
/// eigen-solver's products stay normal); H, P finite.
struct ConverseParts {
  Mat<Rational> l, h, p;
};
ConverseParts MakeConverse(int sign, const Mat<Rational>& lam, const Mat<Rational>& ku, const Mat<Rational>& tu) {
  const int64_t n = lam.cols();
  Mat<Rational> h = Mat<Rational>::Zero(1, n);
  for (int64_t i = 0; i + 1 < n; i += 2) h(0, i) = lam(0, i), h(0, i + 1) = -lam(0, i);
  Mat<Rational> b = Mat<Rational>::Zero(n, n);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j <= i; ++j) b(i, j) = tu(i, j);
  const Mat<Rational> q = Cayley(Antisymmetric(ku));
  const Mat<Rational> hm = q * h.row(0).asDiagonal() * q.transpose(), pm = b * b.transpose();
  return {Mat<Rational>(hm + Rational(sign) * pm + Antisymmetric(tu)), hm, pm};
}

Domain ConverseDomain(int sign) {
  Domain d;
  const SpectralParams p = SpectralDomainParams(d, 4);
  auto parts = [p, sign](const Domain::Drawn& in) {
    return MakeConverse(sign, Mat<Rational>(in.Param(p.lam).As<Rational>()), Mat<Rational>(in.Param(p.k).As<Rational>()),
                        Mat<Rational>(in.Param(p.t).As<Rational>()));
  };
  d.Built(kL, kSquareN, kSquareN, [parts](const Domain::Drawn& in) { return ToExact(parts(in).l); },
          Admit::Within(0x1p100).NonzeroAtLeast(0x1p-100));
  d.Built(kH, kSquareN, kSquareN, [parts](const Domain::Drawn& in) { return ToExact(parts(in).h); }, Admit::Finite());
  d.Built(kP, kSquareN, kSquareN, [parts](const Domain::Drawn& in) { return ToExact(parts(in).p); }, Admit::Finite());
  d.Assume("L != 0", [](const Values& v) { return !Mat<Rational>(v[kL].As<Rational>()).isZero(); });
  d.Assume("H symmetric with spectrum symmetric about 0", [](const Values& v) {
    const Mat<Rational> h = v[kH].As<Rational>();
    return h == h.transpose() && SpectrumSymmetricAboutZero(h);
  });
  d.Assume("P symmetric positive semidefinite", [](const Values& v) {
    const Mat<Rational> pm = v[kP].As<Rational>();
    return pm == pm.transpose() && SymmetricInertia(pm).negative == 0;
  });
  d.Assume(sign > 0 ? "S = H + P" : "S = H - P", [sign](const Values& v) {
    const Mat<Rational> l = v[kL].As<Rational>(), h = v[kH].As<Rational>(), pm = v[kP].As<Rational>();
    return SymmetricPart<Rational>(l) == Mat<Rational>(h + Rational(sign) * pm);
  });
  return d;
}

/// Converse: the computed alpha_j - beta_j (sign +1; beta_j - alpha_j for
/// sign -1) >= -2 eta ||S||_F for every j.
template <int kSign>
void ConverseConclusion(const Case& c, const Tolerance& tol) {
  const Mat<Mpfr> l = In<Mpfr>(c)[kL];
  const Mat<Mpfr> s = SymmetricPart<Mpfr>(l);
  const auto eig = SymmetricEigenvalues<Mpfr>(s);
  ExpectThat(eig.has_value(), "eigen-solver did not converge");
  const double eta = RelativeEigenvalueError(s, *eig) + 2 * ScalarTraits<Mpfr>::UnitRoundoff();
  ExpectThat(std::isfinite(eta), "no rigorous enclosure of the spectrum of S");
  std::vector<Mpfr> alpha, beta;
  for (Eigen::Index i = 0; i < eig->size(); ++i) {
    if ((*eig)[i] > 0) alpha.push_back((*eig)[i]);
    if ((*eig)[i] < 0) beta.push_back(-(*eig)[i]);
  }
  std::sort(alpha.begin(), alpha.end(), std::greater<Mpfr>());
  std::sort(beta.begin(), beta.end(), std::greater<Mpfr>());
  alpha.resize(static_cast<size_t>(s.rows()), Mpfr(0)), beta.resize(static_cast<size_t>(s.rows()), Mpfr(0));
  const Mpfr margin = 2 * Mpfr(eta) * Mpfr(l.norm());
  for (size_t j = 0; j < alpha.size(); ++j) {
    const Mpfr small = kSign > 0 ? beta[j] : alpha[j], large = kSign > 0 ? alpha[j] : beta[j];
    ExpectWithin(tol, small, Mpfr(large + margin));
  }
}

template <int kSign>
struct DecompositionFamily {
  // The converse's metric is recorded by the MPFR backend only (the
  // rational backend checks the forward direction exactly).
  static const Tolerance& ConverseTolerance() {
    static const Tolerance t{kSign > 0 ? "beta_j against alpha_j (S = H + P)" : "alpha_j against beta_j (S = H - P)",
                             "the other + 2 eta ||L||_F, eta = the measured eigenvalue error + 2u",
                             "Weyl: the computed sorted eigenvalues are each within eta ||L||_F of the exact ones "
                             "(the solver's error measured against rigorous enclosures; L rounded, S formed)",
                             MetricKind::kClaim};
    return t;
  }
  // Rational: the face cases (SpectrumDomain); MPFR: the converse cases
  // (ConverseDomain).
  template <class S> static Domain Hypotheses() {
    if constexpr (std::is_same_v<S, Rational>) return SpectrumDomain();
    else return ConverseDomain(kSign);
  }
  /// The forward direction, exactly: returns the commuting P (or nothing off the face).
  static std::optional<Mat<Rational>> Forward(const Values& v) {
    const Exactly e = Evaluate(v);
    const Mat<Rational> s = SymmetricPart<Rational>(e.l);
    const Decomposed d = Decompose(s, Mat<Rational>(v[kSpectrum].As<Rational>()).row(0).transpose(), kSign);
    const bool face = kSign > 0 ? e.pi.d == 0 : e.pi.c == 0;
    ExpectThat(face == d.on_face, std::string(kSign > 0 ? "d = 0" : "c = 0") + " is " + Tf(face) +
                                      ", the paired decomposition exists is " + Tf(d.on_face));
    if (!d.on_face) return std::nullopt;
    const Mat<Rational> h = Rational(kSign) * d.h, p = d.p;
    ExpectThat(s == Mat<Rational>(h + Rational(kSign) * p), "S != H +- P");
    ExpectThat(h == h.transpose() && SpectrumSymmetricAboutZero(h), "H is not symmetric with spectrum symmetric about 0");
    ExpectThat(p == p.transpose() && SymmetricInertia(p).negative == 0, "P is not positive semidefinite");
    ExpectThat(h * s == s * h && p * s == s * p && h * p == p * h, "H, P do not commute with S and each other");
    return p;
  }
};

struct FaceD0Decomposition : DecompositionFamily<1>, ClaimId<"profile.face_d0.decomposition"> {
  template <class S> static void Conclusion(const In<S>& in) {
    if constexpr (std::is_same_v<S, Rational>) Forward(Values(in.value()));
    else ConverseConclusion<1>(in.value(), ConverseTolerance());
  }
};
ATTNPROP_REGISTER(FaceD0Decomposition, Rational, Mpfr);

struct FaceD0PNorm : DecompositionFamily<1>, ClaimId<"profile.face_d0.P_norm"> {
  template <class S> static Domain Hypotheses() { return SpectrumDomain(); }
  template <class S> static void Conclusion(const In<S>& in) {
    const Values v(in.value());
    const auto p = Forward(v);
    if (!p) return;  // off the face: no commuting choice (checked by Forward)
    const Exactly e = Evaluate(v);
    ExpectThat(FrobeniusSq<Rational>(*p) == e.pi.c * FrobeniusSq<Rational>(e.l), "||P||^2 != c ||L||^2");
  }
};
ATTNPROP_REGISTER(FaceD0PNorm, Rational);

struct FaceC0Decomposition : DecompositionFamily<-1>, ClaimId<"profile.face_c0.decomposition"> {
  template <class S> static void Conclusion(const In<S>& in) {
    if constexpr (std::is_same_v<S, Rational>) {
      const Values v(in.value());
      const auto p = Forward(v);
      if (!p) return;
      const Exactly e = Evaluate(v);
      ExpectThat(FrobeniusSq<Rational>(*p) == e.pi.d * FrobeniusSq<Rational>(e.l), "||P||^2 != d ||L||^2");
    } else {
      ConverseConclusion<-1>(in.value(), ConverseTolerance());
    }
  }
};
ATTNPROP_REGISTER(FaceC0Decomposition, Rational, Mpfr);

}  // namespace
}  // namespace attnprop
