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
#include <optional>

#include "model/charpoly.h"
#include "properties/profile/lambda_checks.h"
#include "properties/profile/square_cases.h"

namespace attnprop {
namespace {

rc::Gen<Case> SpectrumCase(int64_t max_n) {
  // shape 0..4; T = 0 in the cases with shape + N odd (every shape meets both).
  return SpectralParts(max_n, 5, [](int shape, Mat<Rational> lam, const Mat<Rational>& ku, const Mat<Rational>& tu) {
    const int64_t n = lam.cols();
    const bool zero_t = (shape + n) % 2 == 1;
    if (shape == 1) lam = lam.cwiseAbs();
    if (shape == 2) lam = -lam.cwiseAbs();
    if (shape == 3)
      for (int64_t i = 0; i + 1 < n; i += 2) lam(0, i + 1) = -lam(0, i);
    Mat<Rational> k = Mat<Rational>::Zero(n, n), t = Mat<Rational>::Zero(n, n);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = i + 1; j < n; ++j) {
        k(i, j) = ku(i, j), k(j, i) = -ku(i, j);
        if (!zero_t) t(i, j) = tu(i, j), t(j, i) = -tu(i, j);
      }
    const Mat<Rational> id = Mat<Rational>::Identity(n, n);
    const Mat<Rational> q = (id - k) * Eigen::FullPivLU<Mat<Rational>>(Mat<Rational>(id + k)).inverse();
    Mat<Rational> l = q * lam.row(0).asDiagonal() * q.transpose() + t;
    if (l.isZero()) {
      l(0, 0) = 1;
      lam = Mat<Rational>::Zero(1, n);
      lam(0, 0) = 1;
    }
    return Case().Int("shape", shape).Matrix("L", ToExact(l)).Matrix("spectrum", ToExact(lam));
  });
}

bool SpectrumHypotheses(const Case& c) {
  const Mat<Rational> l = c.GetMat<Rational>("L"), spec = c.GetMat<Rational>("spectrum");
  return l.rows() == l.cols() && l.rows() >= 1 && !l.isZero() && spec.rows() == 1 && spec.cols() == l.rows() &&
         CertifySpectrum(SymmetricPart<Rational>(l), spec.row(0).transpose());
}

struct Exactly {
  Mat<Rational> l;
  std::vector<Rational> alpha, beta;
  ProfileValue<Rational> pi;
  bool symmetric, psd, nsd;
};

Exactly Evaluate(const Case& c) {
  Exactly e;
  e.l = c.GetMat<Rational>("L");
  const Vec<Rational> spec = c.GetMat<Rational>("spectrum").row(0).transpose();
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
  static std::vector<Tolerance> Tolerances() { return {}; }
  static bool HypothesesHold(const Case& c) { return SpectrumHypotheses(c); }
  template <class S>
  static rc::Gen<Case> Hypotheses() {
    return SpectrumCase(4);
  }
};

struct FaceB : FaceFamily {
  static constexpr const char* kId = "profile.face_b";
  static constexpr const char* kSource = "001, faces item 2";
  template <class S>
  static void Conclusion(const Case& c) {
    const Exactly e = Evaluate(c);
    ExpectThat((e.pi.b == 0) == (e.psd || e.nsd),
               "b = 0 is " + Tf(e.pi.b == 0) + ", S semidefinite is " + Tf(e.psd || e.nsd));
    ExpectThat((e.pi.b == 1) == (e.symmetric && e.alpha == e.beta),
               "b = 1 is " + Tf(e.pi.b == 1) + ", L symmetric and alpha = beta is " + Tf(e.symmetric && e.alpha == e.beta));
  }
};
ATTNPROP_REGISTER(FaceB, Rational);

struct FaceD0 : FaceFamily {
  static constexpr const char* kId = "profile.face_d0.alpha_ge_beta";
  static constexpr const char* kSource = "001, faces item 3";
  template <class S>
  static void Conclusion(const Case& c) {
    const Exactly e = Evaluate(c);
    bool ge = true;
    for (size_t j = 0; j < e.alpha.size(); ++j) ge = ge && e.alpha[j] >= e.beta[j];
    ExpectThat((e.pi.d == 0) == ge, "d = 0 is " + Tf(e.pi.d == 0) + ", alpha_j >= beta_j for all j is " + Tf(ge));
  }
};
ATTNPROP_REGISTER(FaceD0, Rational);

struct FaceC0 : FaceFamily {
  static constexpr const char* kId = "profile.face_c0.beta_ge_alpha";
  static constexpr const char* kSource = "001, faces item 4";
  template <class S>
  static void Conclusion(const Case& c) {
    const Exactly e = Evaluate(c);
    bool ge = true;
    for (size_t j = 0; j < e.alpha.size(); ++j) ge = ge && e.beta[j] >= e.alpha[j];
    ExpectThat((e.pi.c == 0) == ge, "c = 0 is " + Tf(e.pi.c == 0) + ", beta_j >= alpha_j for all j is " + Tf(ge));
  }
};
ATTNPROP_REGISTER(FaceC0, Rational);

struct VerticesC1D1 : FaceFamily {
  static constexpr const char* kId = "profile.vertices_c1_d1";
  static constexpr const char* kSource = "001, faces items 3, 4";
  template <class S>
  static void Conclusion(const Case& c) {
    const Exactly e = Evaluate(c);
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
struct PUpperBoundRho {
  static constexpr const char* kId = "profile.P_upper_bound_rho";
  static constexpr const char* kSource = "001, rho inequality";
  static std::vector<Tolerance> Tolerances() { return {}; }  // exact
  static bool HypothesesHold(const Case& c) {
    if (!SpectrumHypotheses(c)) return false;
    return c.GetMat<Rational>("spectrum").maxCoeff() > 0;  // lambda_+ != 0
  }
  template <class S>
  static rc::Gen<Case> Hypotheses() {
    return rc::gen::suchThat(SpectrumCase(4), [](const Case& c) { return HypothesesHold(c); });
  }
  template <class S>
  static void Conclusion(const Case& c) {
    const Exactly e = Evaluate(c);
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
//   checked on the eigen-solver's spectrum of S with the margin 2 eta ||S||_F,
//   eta = EigenBackwardConstant(N) u (Weyl: each computed eigenvalue is within
//   eta ||S||_2 of an exact one, in sorted order).

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

/// Converse cases: L = H + sign P + T, H = Q diag(x_1, -x_1, ..., 0) Q^T,
/// P = B B^T (B lower triangular from the drawn matrix), T antisymmetric.
rc::Gen<Case> ConverseCase(int sign) {
  return SpectralParts(4, 1, [sign](int, const Mat<Rational>& lam, const Mat<Rational>& ku, const Mat<Rational>& tu) {
    const int64_t n = lam.cols();
    Mat<Rational> h = Mat<Rational>::Zero(1, n);
    for (int64_t i = 0; i + 1 < n; i += 2) h(0, i) = lam(0, i), h(0, i + 1) = -lam(0, i);
    Mat<Rational> k = Mat<Rational>::Zero(n, n), t = Mat<Rational>::Zero(n, n), b = Mat<Rational>::Zero(n, n);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        if (j > i) k(i, j) = ku(i, j), k(j, i) = -ku(i, j), t(i, j) = tu(i, j), t(j, i) = -tu(i, j);
        if (j <= i) b(i, j) = tu(i, j);
      }
    const Mat<Rational> id = Mat<Rational>::Identity(n, n);
    const Mat<Rational> q = (id - k) * Eigen::FullPivLU<Mat<Rational>>(Mat<Rational>(id + k)).inverse();
    const Mat<Rational> hm = q * h.row(0).asDiagonal() * q.transpose(), pm = b * b.transpose();
    Mat<Rational> l = hm + Rational(sign) * pm + t;
    return Case().Matrix("L", ToExact(l)).Matrix("H", ToExact(hm)).Matrix("P", ToExact(pm));
  });
}

/// H symmetric with spectrum symmetric about 0, P symmetric PSD, sym(L) =
/// H + sign P, L != 0 (all exact). Domain (MPFR): the ProfileDomain limits.
bool ConverseHolds(const Case& c, int sign) {
  const Mat<Rational> l = c.GetMat<Rational>("L"), h = c.GetMat<Rational>("H"), p = c.GetMat<Rational>("P");
  if (l.rows() < 1 || l.rows() != l.cols() || h.rows() != l.rows() || h.cols() != l.rows() || p.rows() != l.rows() ||
      p.cols() != l.rows() || l.isZero())
    return false;
  return ProfileDomain<Mpfr>(c.GetMatrix("L"), 0x1p100) && h == h.transpose() && p == p.transpose() &&
         SpectrumSymmetricAboutZero(h) && SymmetricInertia(p).negative == 0 &&
         SymmetricPart<Rational>(l) == Mat<Rational>(h + Rational(sign) * p);
}

/// Converse: the computed alpha_j - beta_j (sign +1; beta_j - alpha_j for
/// sign -1) >= -2 eta ||S||_F for every j.
template <int kSign>
void ConverseConclusion(const Case& c, const Tolerance& tol) {
  const Mat<Mpfr> s = SymmetricPart<Mpfr>(c.GetMat<Mpfr>("L"));
  const auto eig = SymmetricEigenvalues<Mpfr>(s);
  ExpectThat(eig.has_value(), "eigen-solver did not converge");
  std::vector<Mpfr> alpha, beta;
  for (Eigen::Index i = 0; i < eig->size(); ++i) {
    if ((*eig)[i] > 0) alpha.push_back((*eig)[i]);
    if ((*eig)[i] < 0) beta.push_back(-(*eig)[i]);
  }
  std::sort(alpha.begin(), alpha.end(), std::greater<Mpfr>());
  std::sort(beta.begin(), beta.end(), std::greater<Mpfr>());
  alpha.resize(static_cast<size_t>(s.rows()), Mpfr(0)), beta.resize(static_cast<size_t>(s.rows()), Mpfr(0));
  const Mpfr margin = 2 * EigenBackwardConstant(s.rows()) * ScalarTraits<Mpfr>::UnitRoundoff() * Mpfr(s.norm());
  for (size_t j = 0; j < alpha.size(); ++j) {
    const Mpfr small = kSign > 0 ? beta[j] : alpha[j], large = kSign > 0 ? alpha[j] : beta[j];
    ExpectWithin(tol, small, Mpfr(large + margin));
  }
}

template <int kSign>
struct DecompositionFamily {
  // The converse's metric is recorded by the MPFR backend only (the
  // rational backend checks the forward direction exactly).
  template <class S>
  static std::vector<Tolerance> Tolerances() {
    if constexpr (std::is_same_v<S, Rational>) return {};
    else return {ConverseTolerance()};
  }
  static const Tolerance& ConverseTolerance() {
    static const Tolerance t{kSign > 0 ? "beta_j against alpha_j (S = H + P)" : "alpha_j against beta_j (S = H - P)",
                             "the other + 2 eta ||S||_F, eta = EigenBackwardConstant(N) u",
                             "Weyl: the computed sorted eigenvalues are each within eta ||S||_2 of the exact ones",
                             MetricKind::kClaim};
    return t;
  }
  template <class S>
  static bool HypothesesHold(const Case& c) {
    if constexpr (std::is_same_v<S, Rational>) return SpectrumHypotheses(c);
    else return ConverseHolds(c, kSign);
  }
  template <class S>
  static rc::Gen<Case> Hypotheses() {
    if constexpr (std::is_same_v<S, Rational>) return SpectrumCase(4);
    else return ConverseCase(kSign);
  }
  /// The forward direction, exactly: returns the commuting P (or nothing off the face).
  static std::optional<Mat<Rational>> Forward(const Case& c) {
    const Exactly e = Evaluate(c);
    const Mat<Rational> s = SymmetricPart<Rational>(e.l);
    const Decomposed d = Decompose(s, c.GetMat<Rational>("spectrum").row(0).transpose(), kSign);
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

struct FaceD0Decomposition : DecompositionFamily<1> {
  static constexpr const char* kId = "profile.face_d0.decomposition";
  static constexpr const char* kSource = "001, faces item 3";
  template <class S>
  static void Conclusion(const Case& c) {
    if constexpr (std::is_same_v<S, Rational>) Forward(c);
    else ConverseConclusion<1>(c, ConverseTolerance());
  }
};
ATTNPROP_REGISTER(FaceD0Decomposition, Rational, Mpfr);

struct FaceD0PNorm : DecompositionFamily<1> {
  static constexpr const char* kId = "profile.face_d0.P_norm";
  static constexpr const char* kSource = "001, faces item 3";
  template <class S>
  static std::vector<Tolerance> Tolerances() {
    return {};
  }
  template <class S>
  static bool HypothesesHold(const Case& c) { return SpectrumHypotheses(c); }
  template <class S>
  static rc::Gen<Case> Hypotheses() { return SpectrumCase(4); }
  template <class S>
  static void Conclusion(const Case& c) {
    const auto p = Forward(c);
    if (!p) return;  // off the face: no commuting choice (checked by Forward)
    const Exactly e = Evaluate(c);
    ExpectThat(FrobeniusSq<Rational>(*p) == e.pi.c * FrobeniusSq<Rational>(e.l), "||P||^2 != c ||L||^2");
  }
};
ATTNPROP_REGISTER(FaceD0PNorm, Rational);

struct FaceC0Decomposition : DecompositionFamily<-1> {
  static constexpr const char* kId = "profile.face_c0.decomposition";
  static constexpr const char* kSource = "001, faces item 4";
  template <class S>
  static void Conclusion(const Case& c) {
    if constexpr (std::is_same_v<S, Rational>) {
      const auto p = Forward(c);
      if (!p) return;
      const Exactly e = Evaluate(c);
      ExpectThat(FrobeniusSq<Rational>(*p) == e.pi.d * FrobeniusSq<Rational>(e.l), "||P||^2 != d ||L||^2");
    } else {
      ConverseConclusion<-1>(c, ConverseTolerance());
    }
  }
};
ATTNPROP_REGISTER(FaceC0Decomposition, Rational, Mpfr);

}  // namespace
}  // namespace attnprop
