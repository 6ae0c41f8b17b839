// "Only Large Weights (And Not Skip Connections) Can Prevent the Perils of
// Rank Collapse" (004_fc07a226cef95160.txt), Appendix D.1, Remark D.2.
// eps_l = 2 phi0 eta (1 + H eta)^l (Definition A.2), l in [L],
// C = max_l 3 eta (eps_l^2 + 1), delta = max_l 2 g(2 H eps_l) > 0.
//
// collapse.remarkD.2.C_le_6eta
//   With eps_l in (0,1) for all l in [L]: C <= 6 eta. Holds.
// collapse.remarkD.2.case1_final_bound
//   Case 1: eta a fixed constant (eta in (0,1], as Lemma C.2 assumes),
//   phi0 <= 0.5 eta/(1 + H eta)^L, eps_l in (0,1): the final bound
//   (C^L + ... + C + 1) delta <= delta (1 + 10 C). Since delta > 0 it is
//   checked as C^L + ... + 1 <= 1 + 10 C (exact). Expected REFUTED: eta = 1,
//   H = 1, L = 3, phi0 = 1/20: eps = 0.2, 0.4, 0.8, C = 4.92, the sum is
//   149.2 > 50.2. (It holds when C is small, e.g. C <= 0.9.)
// collapse.remarkD.2.case2_eta_choice
//   Case 2 (phi0 > 1 a constant): "to make eps_l <= 1 we need to choose
//   eta <= 1/(phi0 H L)". Encoded as the choice the remark makes: eta <=
//   1/(phi0 H L) => eps_l <= 1 for all l in [L]. Expected REFUTED: phi0 = 2,
//   H = L = 1, eta = 1/2 give eps_1 = 3. (The other reading, "necessary",
//   fails too: H = 1, L = 10, eta = 1/50, phi0 = 20 has eps_10 < 0.98 with
//   eta > 1/200; noted, not a separate property.)
// All rational; backends double, MPFR, rational.
#include <cmath>
#include <string>

#include "properties/collapse/collapse_cases.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace {

/// eps_l for l = 1..L, in S.
template <class S>
std::vector<S> Eps(const S& eta, const S& phi0, int64_t h, int64_t l_max) {
  std::vector<S> eps;
  S power = 1;
  for (int64_t l = 1; l <= l_max; ++l) {
    power *= S(1 + S(h) * eta);
    eps.push_back(S(2 * phi0 * eta * power));
  }
  return eps;
}

/// C = max_l 3 eta (eps_l^2 + 1), in S.
template <class S>
S BigC(const Case& c) {
  const S eta = c.Get<S>("eta"), phi0 = c.Get<S>("phi0");
  S big_c = 0;
  for (const S& e : Eps<S>(eta, phi0, c.GetInt("H"), c.GetInt("L"))) {
    const S v = S(3 * eta * (e * e + 1));
    if (v > big_c) big_c = v;
  }
  return big_c;
}

/// The parameters' domain in every backend: eta, phi0 finite in [2^-200,
/// 2^200] and H, L in [1, 64], so eps_l, C, C^L and the exact rational
/// powers (1 + H eta)^l stay finite, normal and of bounded size (the
/// generators draw H <= 4, L <= 6, eta >= 2^-14, phi0 <= 9).
bool ParamsInDomain(const Case& c) {
  for (const char* s : {"eta", "phi0"}) {
    const double v = std::abs(c.GetScalar(s).ToDouble());
    if (!(v <= 0x1p200 && v >= 0x1p-200)) return false;
  }
  const int64_t h = c.GetInt("H"), l = c.GetInt("L");
  return h >= 1 && h <= 64 && l >= 1 && l <= 64;
}

bool AllEpsInOpenUnit(const Case& c) {
  if (!ParamsInDomain(c)) return false;
  const Rational eta = c.Get<Rational>("eta"), phi0 = c.Get<Rational>("phi0");
  if (c.GetInt("H") < 1 || c.GetInt("L") < 1 || eta <= 0 || phi0 <= 0) return false;
  for (const Rational& e : Eps<Rational>(eta, phi0, c.GetInt("H"), c.GetInt("L")))
    if (!(e > 0 && e < 1)) return false;
  return true;
}

/// eta in (0,1], H in [1,4], L in [1,6], phi0 = t phi_max with t in (0,1):
/// phi_max = 1/(2 eta (1+H eta)^L) (then every eps_l < 1), times `extra`.
rc::Gen<Case> ParamCase(bool case1) {
  return rc::gen::apply(
      [case1](Exact eta, int64_t h, int64_t l, Exact t) {
        const Rational e = eta.ToRational();
        Rational power = 1;
        for (int64_t i = 0; i < l; ++i) power *= Rational(1 + Rational(h) * e);
        // Case 1 caps phi0 at 0.5 eta / (1+H eta)^L; else eps_L < 1 caps it.
        const Rational cap = case1 ? Rational(e / (2 * power)) : Rational(1 / (2 * e * power));
        Rational phi0 = Rational(t.ToRational() * cap);
        if (phi0 >= cap) phi0 = cap / 2;
        return Case().Scalar("eta", eta).Int("H", h).Int("L", l).Scalar("phi0", Exact(phi0));
      },
      rc::gen::oneOf(rc::gen::just(Exact(1.0)), gen::PositiveDyadic(1, 6)), gen::UniformCount(1, 4),
      gen::UniformCount(1, 6), gen::PositiveDyadic(1, 8));
}

struct CLe6Eta {
  static constexpr const char* kId = "collapse.remarkD.2.C_le_6eta";
  static constexpr const char* kSource = "004 Appendix D.1, Remark D.2";
  static inline const Tolerance kRatio{
      "C / (6 eta)", "1 + gamma_{L+6}; exact: 1",
      "eps_l is a product of L+2 roundings, C two more, 6 eta one: relative gamma_{L+6}", MetricKind::kClaim};
  static std::vector<Tolerance> Tolerances() { return {kRatio}; }
  // eps_l in (0,1) for all l in [L], H, L >= 1, eta, phi0 > 0 (the remark's);
  // ParamsInDomain for the computation.
  static bool HypothesesHold(const Case& c) { return AllEpsInOpenUnit(c); }
  template <class S>
  static rc::Gen<Case> Hypotheses() {
    return ParamCase(false);
  }
  template <class S>
  static void Conclusion(const Case& c) {
    const S eta = c.Get<S>("eta");
    const S big_c = BigC<S>(c);
    if constexpr (ScalarTraits<S>::kExact) ExpectThat(big_c <= 6 * eta, "C > 6 eta: C = " + big_c.str());
    const double u = ScalarTraits<S>::UnitRoundoff();
    ExpectWithin(kRatio, ToDouble(S(big_c / (6 * eta))), 1 + Gamma(double(c.GetInt("L") + 6), u));
  }
};

struct Case1FinalBound {
  static constexpr const char* kId = "collapse.remarkD.2.case1_final_bound";
  static constexpr const char* kSource = "004 Appendix D.1, Remark D.2 Case 1";
  static inline const Tolerance kRatio{
      "(C^L + ... + 1) / (1 + 10 C)", "1 + gamma_{3L+8}; exact: 1",
      "C carries gamma_{L+4}; the geometric sum of L+1 powers relative gamma_{2L+2} more (nonnegative "
      "terms), 1 + 10C and the quotient two more",
      MetricKind::kClaim};
  static std::vector<Tolerance> Tolerances() { return {kRatio}; }
  // eta in (0,1], phi0 <= 0.5 eta/(1 + H eta)^L, eps_l in (0,1) (Case 1's);
  // ParamsInDomain for the computation.
  static bool HypothesesHold(const Case& c) {
    if (!AllEpsInOpenUnit(c)) return false;
    const Rational eta = c.Get<Rational>("eta"), phi0 = c.Get<Rational>("phi0");
    if (eta > 1) return false;
    Rational power = 1;
    for (int64_t i = 0; i < c.GetInt("L"); ++i) power *= Rational(1 + Rational(c.GetInt("H")) * eta);
    return phi0 <= eta / (2 * power);
  }
  template <class S>
  static rc::Gen<Case> Hypotheses() {
    return ParamCase(true);
  }
  template <class S>
  static void Conclusion(const Case& c) {
    const S big_c = BigC<S>(c);
    S sum = 0, power = 1;
    for (int64_t k = 0; k <= c.GetInt("L"); ++k) {
      sum += power;
      power *= big_c;
    }
    const S rhs = S(1 + 10 * big_c);
    if constexpr (ScalarTraits<S>::kExact)
      ExpectThat(sum <= rhs, "C^L+...+1 = " + sum.str() + " > 1 + 10C = " + rhs.str() + " (C = " + big_c.str() + ")");
    const double u = ScalarTraits<S>::UnitRoundoff();
    ExpectWithin(kRatio, ToDouble(S(sum / rhs)), 1 + Gamma(double(3 * c.GetInt("L") + 8), u));
  }
};

struct Case2EtaChoice {
  static constexpr const char* kId = "collapse.remarkD.2.case2_eta_choice";
  static constexpr const char* kSource = "004 Appendix D.1, Remark D.2 Case 2";
  static inline const Tolerance kMaxEps{"max_l eps_l", "1 + gamma_{L+3}; exact: 1",
                                        "eps_l is a product of L+2 roundings", MetricKind::kClaim};
  static std::vector<Tolerance> Tolerances() { return {kMaxEps}; }
  // phi0 > 1, eta > 0 and the remark's choice eta <= 1/(phi0 H L);
  // ParamsInDomain for the computation.
  static bool HypothesesHold(const Case& c) {
    if (!ParamsInDomain(c)) return false;
    const Rational eta = c.Get<Rational>("eta"), phi0 = c.Get<Rational>("phi0");
    const int64_t h = c.GetInt("H"), l = c.GetInt("L");
    return h >= 1 && l >= 1 && phi0 > 1 && eta > 0 && eta <= Rational(1) / (phi0 * h * l);
  }
  template <class S>
  static rc::Gen<Case> Hypotheses() {
    return rc::gen::apply(
        [](Exact phi_minus_1, int64_t h, int64_t l, Exact t) {
          const Rational phi0 = Rational(1 + phi_minus_1.ToRational());
          const Rational eta = Rational(t.ToRational() / (phi0 * h * l));
          return Case().Scalar("eta", Exact(eta)).Int("H", h).Int("L", l).Scalar("phi0", Exact(phi0));
        },
        gen::PositiveDyadic(8, 4), gen::UniformCount(1, 4), gen::UniformCount(1, 6),
        rc::gen::oneOf(rc::gen::just(Exact(1.0)), gen::PositiveDyadic(1, 8)));
  }
  template <class S>
  static void Conclusion(const Case& c) {
    S worst = 0;
    for (const S& e : Eps<S>(c.Get<S>("eta"), c.Get<S>("phi0"), c.GetInt("H"), c.GetInt("L")))
      if (e > worst) worst = e;
    if constexpr (ScalarTraits<S>::kExact) ExpectThat(worst <= 1, "max_l eps_l = " + worst.str() + " > 1");
    const double u = ScalarTraits<S>::UnitRoundoff();
    ExpectWithin(kMaxEps, ToDouble(worst), 1 + Gamma(double(c.GetInt("L") + 3), u));
  }
};

ATTNPROP_REGISTER(CLe6Eta, double, Mpfr, Rational);
ATTNPROP_REGISTER(Case1FinalBound, double, Mpfr, Rational);
ATTNPROP_REGISTER(Case2EtaChoice, double, Mpfr, Rational);

}  // namespace
}  // namespace attnprop
