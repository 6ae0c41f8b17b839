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
// Generated (RopeFamily's domain): m in [1,4], k in [1,6], M_0 and S in
// every regime (M_0 made nondegenerate by adding (1 + sum|entries|) I when
// singular: strictly diagonally dominant), in half the cases with k >= 3 a
// perturbation E (every regime, made nonzero) at a j in [2, k). Exact rationals: the claim is algebraic
// (backend rational).
#include <Eigen/LU>

#include <algorithm>
#include <string>
#include <vector>

#include "generators/regime.h"
#include "generators/scalars.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace ATTNPROP_UNIT {

constexpr int64_t kMaxForms = 6;

std::string Form(int64_t d) { return "M" + std::to_string(d); }

Mat<Rational> Power(const Mat<Rational>& s, int64_t d) {
  Mat<Rational> p = Mat<Rational>::Identity(s.rows(), s.cols());
  for (int64_t i = 0; i < d; ++i) p = Mat<Rational>(p * s);
  return p;
}

constexpr Axis kM{"m"}, kForms{"k"};
constexpr MatrixField kS{"S"};
constexpr IntField kK{"k"}, kPerturbed{"perturbed"}, kJ{"j"};

/// M_d (a member of the group of forms, named "M" + d).
Mat<Rational> FormMat(const Values& v, int64_t d) { return v.value().GetMat<Rational>(Form(d)); }

/// T_d = M_0^{-1} M_d, d = 0..k-1 (exact).
std::vector<Mat<Rational>> Ts(const Values& v) {
  const Mat<Rational> m0 = FormMat(v, 0);
  const Eigen::FullPivLU<Mat<Rational>> lu(m0);
  std::vector<Mat<Rational>> t;
  for (int64_t d = 0; d < v[kK]; ++d) t.push_back(lu.solve(FormMat(v, d)));
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

/// max entry |A - B| (exact).
Rational MaxDiff(const Mat<Rational>& a, const Mat<Rational>& b) {
  Rational m = 0;
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < a.cols(); ++j) m = std::max(m, Rational(abs(Rational(a(i, j) - b(i, j)))));
  return m;
}

/// M_0 as drawn, made nondegenerate by adding (1 + sum|entries|) I when
/// singular (strictly diagonally dominant).
Mat<Rational> NondegenerateM0(Mat<Rational> m0) {
  if (!Eigen::FullPivLU<Mat<Rational>>(m0).isInvertible()) {
    Rational sum = 1;
    for (Eigen::Index i = 0; i < m0.size(); ++i) sum += abs(m0.data()[i]);
    m0 += sum * Mat<Rational>::Identity(m0.rows(), m0.cols());
  }
  return m0;
}

/// The fields S (m x m), k, perturbed in {0,1}, the perturbation's index j
/// (0 when unperturbed), then the forms M0..M{k-1} (m x m, a group over the
/// axis k). Drawn: m in [1,4], k in [1,6], M_0, S and E in every regime
/// (scales up to 2^1); perturbed in half the cases with k >= 3, j in
/// [2, k). Hypotheses: B_0 nondegenerate (the claim's hypothesis, checked
/// exactly); the construction's facts the conclusions read: unperturbed =>
/// j = 0 and M_d = M_0 S^d; perturbed => 2 <= j < k, M_d = M_0 S^d for
/// d != j and M_j != M_0 S^j. Domain: m <= 8, k <= 8 (the exact products
/// S^d in mpq).
struct RopeFamily {
  template <class S> static Domain Hypotheses() {
    Domain d;
    d.Dim(kM, {1, 4, 4}, 8).Dim(kForms, {1, kMaxForms, kMaxForms}, 8);
    gen::Regime r = gen::RegimeFor<S>(gen::Regime{});
    r.max_scale = 1;
    const int m0_m = d.Param(kM, kM, r), s_m = d.Param(kM, kM, r), e_m = d.Param(kM, kM, r);
    const int pert_s = d.ScalarParam(gen::UniformInteger(0, 1)), j_s = d.ScalarParam(gen::UniformInteger(0, kMaxForms));
    d.Built(kS, kM, kM, [s_m](const Domain::Drawn& in) { return in.Param(s_m); }, Admit::Finite());
    d.Int(kK, kForms);
    d.Built(
        kPerturbed,
        [pert_s](const Domain::Drawn& in) -> int64_t {
          return in.ScalarParam(pert_s).ToDouble() != 0 && in.Dim(kForms) >= 3 ? 1 : 0;
        },
        0, 1);
    d.Built(
        kJ,
        [j_s](const Domain::Drawn& in) -> int64_t {
          const int64_t k = in.Dim(kForms);
          return in.fields()[kPerturbed] != 0 ? 2 + int64_t(in.ScalarParam(j_s).ToDouble()) % (k - 2) : 0;
        },
        0, 7);
    d.Group({kForms}, [](const std::vector<int64_t>& i) { return Form(i[0]); },
            {{"", kM, kM,
              [m0_m, e_m](const Domain::Drawn& in, const std::vector<int64_t>& i) {
                const Values v = in.fields();
                const Mat<Rational> m0 = NondegenerateM0(in.Param(m0_m).As<Rational>());
                Mat<Rational> md = m0 * Power(v[kS].As<Rational>(), i[0]);
                if (v[kPerturbed] != 0 && i[0] == v[kJ]) {
                  Mat<Rational> e = in.Param(e_m).As<Rational>();
                  if (e.isZero()) e(0, 0) = 1;
                  md += e;
                }
                return ToExact(md);
              },
              Admit::Finite()}});
    d.Assume("B_0 nondegenerate (M_0 invertible)",
             [](const Values& v) { return Eigen::FullPivLU<Mat<Rational>>(FormMat(v, 0)).isInvertible(); });
    d.Assume("(construction) perturbed: 2 <= j < k; unperturbed: j = 0", [](const Values& v) {
      return v[kPerturbed] == 1 ? v[kJ] >= 2 && v[kJ] < v[kK] : v[kJ] == 0;
    });
    d.Assume("(construction) M_d = M_0 S^d for every d < k, except M_j != M_0 S^j when perturbed",
             [](const Values& v) {
               const Mat<Rational> m0 = FormMat(v, 0), s = v[kS].As<Rational>();
               for (int64_t dd = 0; dd < v[kK]; ++dd) {
                 const bool equal = FormMat(v, dd) == Mat<Rational>(m0 * Power(s, dd));
                 if (equal == (v[kPerturbed] == 1 && dd == v[kJ])) return false;
               }
               return true;
             });
    return d;
  }
};

struct RopeLikeIffPowers : RopeFamily, ClaimId<"formal.prop.rope_like_iff_powers"> {
  template <class S> static void Conclusion(const In<S>& in) {
    const std::vector<Mat<Rational>> t = Ts(Values(in.value()));
    const bool rope = RopeLike(t), powers = Powers(t);
    ExpectThat(rope == powers, std::string("RoPE-like is ") + (rope ? "true" : "false") + " but T_d = S^d is " +
                                   (powers ? "true" : "false"));
    if (in[kPerturbed] != 0) {
      ExpectThat(!rope, "a perturbed family (M_j = M_0 S^j + E) passes the RoPE-like condition");
    } else {
      Rational worst = 0;
      for (size_t d = 0; d < t.size(); ++d)
        for (size_t e = 0; d + e < t.size(); ++e) worst = std::max(worst, MaxDiff(t[d + e], Mat<Rational>(t[d] * t[e])));
      static const Tolerance kCondition{
          "max_{d+e<k} |T_{d+e} - T_d T_e| on the power families", "0", "exact rationals (M_0^{-1} by exact LU)", MetricKind::kRounding};
      ExpectWithin(kCondition, worst.convert_to<double>(), 0.0);
    }
  }
};

struct RopeLikeSIsT1 : RopeFamily, ClaimId<"formal.prop.rope_like_S_is_T1"> {
  template <class S> static void Conclusion(const In<S>& in) {
    if (in[kPerturbed] != 0 || in[kK] < 2) return;  // no S, or S not determined (k = 1)
    const std::vector<Mat<Rational>> t = Ts(Values(in.value()));
    const Mat<Rational> s = in.exact(kS).template As<Rational>();
    ExpectThat(t[1] == s, "S != T_1 = L_0^{-1} L_1");
    Rational worst = MaxDiff(s, t[1]);
    for (size_t d = 0; d < t.size(); ++d) worst = std::max(worst, MaxDiff(t[d], Power(s, int64_t(d))));
    static const Tolerance kSIsT1{"|S - T_1| and max_d |T_d - S^d| on the power families (k >= 2)", "0",
                                         "exact rationals (M_0^{-1} by exact LU)", MetricKind::kRounding};
    ExpectWithin(kSIsT1, worst.convert_to<double>(), 0.0);
  }
};

ATTNPROP_REGISTER(RopeLikeIffPowers, Rational);
ATTNPROP_REGISTER(RopeLikeSIsT1, Rational);

}  // namespace
}  // namespace attnprop
