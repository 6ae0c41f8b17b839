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
// Shapes steer cases onto the faces: T = 0 (symmetric L), lambda >= 0,
// lambda <= 0, lambda = (x, -x, ...) (alpha = beta), general.
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

}  // namespace
}  // namespace attnprop
