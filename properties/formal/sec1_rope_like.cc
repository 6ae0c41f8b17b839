// Section 1 of the Lean-formalised paper on attention functions
// (000_b045eeb287420cf4.txt), RoPE-like bilinear attention functions: a
// bilinear attention function on a head space H = R^m has forms B_{k-1},
// ..., B_0; L_j: H -> H^dual, L_j(v)(u) = B_j(u,v); B_0 nondegenerate;
// T_d = L_0^{-1} L_d. In coordinates B_d(u,v) = u^T M_d v, L_d has matrix
// M_d and T_d = M_0^{-1} M_d. RoPE-like: T_{d+e} = T_d T_e whenever d, e >= 0
// and d + e < k.
//
// formal.prop.rope_like_iff_powers
//   With B_0 nondegenerate: RoPE-like <=> there is S in End(H) with T_d = S^d
//   for all 0 <= d < k. The right side is decided exactly: such an S must be
//   T_1 (its d = 1 instance; for k = 1 any S works, T_0 = I = S^0), so it
//   holds iff T_d = T_1^d for every d < k. Conclusion: the two booleans are
//   equal on every case, true on the families built from an S (M_d = M_0
//   S^d, the "if" direction: a power family is RoPE-like) and false on the
//   perturbed ones (M_j = M_0 S^j + E for one j in [2, k), E != 0: T_j =
//   S^j + M_0^{-1} E != T_1 T_{j-1}, so the condition fails, and with it the
//   powers: the "only if" direction has a case where both sides are false).
// formal.prop.rope_like_S_is_T1
//   When S exists it is T_1 = L_0^{-1} L_1: on the power families (k >= 2)
//   the S they were built from equals T_1 exactly, and T_d = S^d.
// Generated: m in [1,4], k in [1,6], M_0 and S in every regime (M_0 made
// nondegenerate by adding (1 + sum|entries|) I when singular: strictly
// diagonally dominant), in half the cases a perturbation E (every regime,
// made nonzero) at a j in [2, k). Exact rationals: the claim is algebraic
// (backend rational).
#include <Eigen/LU>

#include <algorithm>
#include <string>
#include <vector>

#include "generators/regime.h"
#include "generators/scalars.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace {

constexpr int64_t kMaxForms = 6;

std::string Form(int64_t d) { return "M" + std::to_string(d); }

Mat<Rational> Power(const Mat<Rational>& s, int64_t d) {
  Mat<Rational> p = Mat<Rational>::Identity(s.rows(), s.cols());
  for (int64_t i = 0; i < d; ++i) p = Mat<Rational>(p * s);
  return p;
}

/// T_d = M_0^{-1} M_d, d = 0..k-1 (exact).
std::vector<Mat<Rational>> Ts(const Case& c) {
  const Mat<Rational> m0 = c.GetMat<Rational>(Form(0));
  const Eigen::FullPivLU<Mat<Rational>> lu(m0);
  std::vector<Mat<Rational>> t;
  for (int64_t d = 0; d < c.GetInt("k"); ++d) t.push_back(lu.solve(c.GetMat<Rational>(Form(d))));
  return t;
}

bool RopeLike(const std::vector<Mat<Rational>>& t) {
  const int64_t k = int64_t(t.size());
  for (int64_t d = 0; d < k; ++d)
    for (int64_t e = 0; d + e < k; ++e)
      if (t[size_t(d + e)] != Mat<Rational>(t[size_t(d)] * t[size_t(e)])) return false;
  return true;
}

/// There is S with T_d = S^d for all d < k (S must be T_1; any S if k = 1).
bool Powers(const std::vector<Mat<Rational>>& t) {
  if (t.size() < 2) return t.empty() || t[0] == Mat<Rational>::Identity(t[0].rows(), t[0].cols());
  for (size_t d = 0; d < t.size(); ++d)
    if (t[d] != Power(t[1], int64_t(d))) return false;
  return true;
}

bool HasField(const Case& c, const std::string& name) {
  for (const auto& f : c.fields())
    if (f.first == name) return true;
  return false;
}

/// max entry |A - B| (exact).
Rational MaxDiff(const Mat<Rational>& a, const Mat<Rational>& b) {
  Rational m = 0;
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < a.cols(); ++j) m = std::max(m, Rational(abs(Rational(a(i, j) - b(i, j)))));
  return m;
}

/// The forms M_0..M_{k-1} (m x m), S (m x m), perturbed in {0,1}, and the
/// perturbation's index j (0 when unperturbed). B_0 nondegenerate (the
/// claim's hypothesis, checked exactly); the construction's facts the
/// conclusions read: unperturbed => M_d = M_0 S^d; perturbed => 2 <= j < k,
/// M_d = M_0 S^d for d != j and M_j != M_0 S^j. Domain: m <= 8, k <= 8.
bool RopeHypothesesHold(const Case& c) {
  const int64_t k = c.GetInt("k"), pert = c.GetInt("perturbed"), j = c.GetInt("j");
  if (k < 1 || k > 8 || (pert != 0 && pert != 1)) return false;
  const Mat<Rational> s = c.GetMat<Rational>("S");
  const int64_t m = s.rows();
  if (m < 1 || m > 8 || s.cols() != m) return false;
  for (int64_t d = 0; d < k; ++d) {
    if (!HasField(c, Form(d))) return false;
    const Mat<Rational> md = c.GetMat<Rational>(Form(d));
    if (md.rows() != m || md.cols() != m) return false;
  }
  if (HasField(c, Form(k))) return false;
  const Mat<Rational> m0 = c.GetMat<Rational>(Form(0));
  if (!Eigen::FullPivLU<Mat<Rational>>(m0).isInvertible()) return false;
  if (pert == 1 && !(j >= 2 && j < k)) return false;
  if (pert == 0 && j != 0) return false;
  for (int64_t d = 0; d < k; ++d) {
    const bool equal = c.GetMat<Rational>(Form(d)) == Mat<Rational>(m0 * Power(s, d));
    if (equal == (pert == 1 && d == j)) return false;
  }
  return true;
}

ExactMatrix ToExact(const Mat<Rational>& a) {
  ExactMatrix e(a.rows(), a.cols());
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < a.cols(); ++j) e(i, j) = Exact(a(i, j));
  return e;
}

template <class S>
rc::Gen<Case> RopeCase() {
  gen::Layout layout;
  const int m = layout.Axis({1, 4, 4});
  gen::Regime r = gen::RegimeFor<S>(gen::Regime{});
  r.max_scale = 1;
  const int m0_m = layout.Matrix(m, m, r), s_m = layout.Matrix(m, m, r), e_m = layout.Matrix(m, m, r);
  const int k_s = layout.Scalar(gen::UniformInteger(1, kMaxForms)), pert_s = layout.Scalar(gen::UniformInteger(0, 1)),
            j_s = layout.Scalar(gen::UniformInteger(0, kMaxForms));
  return layout.Build<Case>([=](const gen::Layout::Drawn& dr) {
    Mat<Rational> m0 = dr.Matrix(m0_m).As<Rational>();
    if (!Eigen::FullPivLU<Mat<Rational>>(m0).isInvertible()) {
      Rational sum = 1;
      for (Eigen::Index i = 0; i < m0.size(); ++i) sum += abs(m0.data()[i]);
      m0 += sum * Mat<Rational>::Identity(m0.rows(), m0.cols());
    }
    const Mat<Rational> s = dr.Matrix(s_m).As<Rational>();
    Mat<Rational> e = dr.Matrix(e_m).As<Rational>();
    if (e.isZero()) e(0, 0) = 1;
    const int64_t k = int64_t(dr.Scalar(k_s).ToDouble());
    const bool pert = dr.Scalar(pert_s).ToDouble() != 0 && k >= 3;
    const int64_t j = pert ? 2 + int64_t(dr.Scalar(j_s).ToDouble()) % (k - 2) : 0;
    Case c;
    c.Matrix("S", ToExact(s)).Int("k", k).Int("perturbed", pert ? 1 : 0).Int("j", j);
    for (int64_t d = 0; d < k; ++d) {
      Mat<Rational> md = m0 * Power(s, d);
      if (pert && d == j) md += e;
      c.Matrix(Form(d), ToExact(md));
    }
    return c;
  });
}

struct RopeFamily {
  static bool HypothesesHold(const Case& c) { return RopeHypothesesHold(c); }
  template <class S>
  static rc::Gen<Case> Hypotheses() {
    return RopeCase<S>();
  }
};

struct RopeLikeIffPowers : RopeFamily {
  static constexpr const char* kId = "formal.prop.rope_like_iff_powers";
  static constexpr const char* kSource = "000 Section 1, RoPE-like proposition";
  static inline const Tolerance kCondition{
      "max_{d+e<k} |T_{d+e} - T_d T_e| on the power families", "0", "exact rationals (M_0^{-1} by exact LU)"};
  static std::vector<Tolerance> Tolerances() { return {kCondition}; }
  template <class S>
  static void Conclusion(const Case& c) {
    const std::vector<Mat<Rational>> t = Ts(c);
    const bool rope = RopeLike(t), powers = Powers(t);
    ExpectThat(rope == powers, std::string("RoPE-like is ") + (rope ? "true" : "false") + " but T_d = S^d is " +
                                   (powers ? "true" : "false"));
    if (c.GetInt("perturbed") != 0) {
      ExpectThat(!rope, "a perturbed family (M_j = M_0 S^j + E) passes the RoPE-like condition");
    } else {
      Rational worst = 0;
      for (size_t d = 0; d < t.size(); ++d)
        for (size_t e = 0; d + e < t.size(); ++e) worst = std::max(worst, MaxDiff(t[d + e], Mat<Rational>(t[d] * t[e])));
      ExpectWithin(kCondition, worst.convert_to<double>(), 0.0);
    }
  }
};

struct RopeLikeSIsT1 : RopeFamily {
  static constexpr const char* kId = "formal.prop.rope_like_S_is_T1";
  static constexpr const char* kSource = "000 Section 1, RoPE-like proposition";
  static inline const Tolerance kSIsT1{"|S - T_1| and max_d |T_d - S^d| on the power families (k >= 2)", "0",
                                       "exact rationals (M_0^{-1} by exact LU)"};
  static std::vector<Tolerance> Tolerances() { return {kSIsT1}; }
  template <class S>
  static void Conclusion(const Case& c) {
    if (c.GetInt("perturbed") != 0 || c.GetInt("k") < 2) return;  // no S, or S not determined (k = 1)
    const std::vector<Mat<Rational>> t = Ts(c);
    const Mat<Rational> s = c.GetMat<Rational>("S");
    ExpectThat(t[1] == s, "S != T_1 = L_0^{-1} L_1");
    Rational worst = MaxDiff(s, t[1]);
    for (size_t d = 0; d < t.size(); ++d) worst = std::max(worst, MaxDiff(t[d], Power(s, int64_t(d))));
    ExpectWithin(kSIsT1, worst.convert_to<double>(), 0.0);
  }
};

ATTNPROP_REGISTER(RopeLikeIffPowers, Rational);
ATTNPROP_REGISTER(RopeLikeSIsT1, Rational);

}  // namespace
}  // namespace attnprop
