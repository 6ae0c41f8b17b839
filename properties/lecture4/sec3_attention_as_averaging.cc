// Lecture 4, section 3 "Attention as averaging" (003_dd971a1151775776.txt).
//
// lecture4.prop3.1.simplex_rows (Prop 3.1)
// Statement: every unmasked row of A = softmax(S), S = c Q K^T, lies in the
// relative interior of the simplex: A_ij > 0 and sum_j A_ij = 1.
// Hypotheses: Q (t_q x d_k), K (t_k x d_k) real, no mask, any scale c.
#include <cmath>
#include <limits>

#include "generators/scalars.h"
#include "generators/shape.h"
#include "model/attention.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace {

/// Sizes per backend: MPFR costs ~10^3 x double per operation (NOTES.md).
template <class S>
constexpr int64_t kMaxLen = std::is_same_v<S, double> ? 40 : 12;
template <class S>
constexpr int64_t kMaxWidth = std::is_same_v<S, double> ? 16 : 6;

struct SimplexRows {
  static constexpr const char* kId = "lecture4.prop3.1.simplex_rows";

  static std::vector<Tolerance> Tolerances() {
    return {{"|sum_j A_ij - 1|", "gamma_{T+1}(u) + gamma_T(u_mpfr)",
             "computed weights e_j/Z with Z = fl(sum e_j): normalising gives (1+gamma_{T-1})/(1+delta) "
             "<= gamma_{T+1}; the exp and score errors cancel since Z sums the same e_j; the checker "
             "sums the T weights in MPFR (gamma_T at its precision)"}};
  }

  template <class S>
  static rc::Gen<Case> Hypotheses() {
    // Shaped (generators/shape.h): t_q, t_k, d_k are drawn from their edge
    // classes and keep shrinking (rows and columns dropped) after entries
    // shrank. A per-case magnitude in {1, 8, 64} (shrinking toward 1) scales
    // entries on the 2^-10 grid (exact: powers of two). Entries up to 64 with
    // d_k up to 16 give |scores| in the thousands: far past the overflow of
    // exp (709.8) without max subtraction.
    const gen::DimRange len{1, kMaxLen<S>, kMaxLen<S>}, width{1, kMaxWidth<S>, kMaxWidth<S>};
    const rc::Gen<Exact> magnitude =
        rc::gen::map(rc::gen::inRange<int>(0, 3), [](int k) { return Exact(std::ldexp(1.0, 3 * k)); });
    return gen::Shaped<Case>(
        {{len}, {len}, {width}}, {{{0, 2}, gen::Dyadic(1, 10)}, {{1, 2}, gen::Dyadic(1, 10)}, {{}, magnitude}},
        [](const gen::Params& p) {
          const double m = p.arrays[2][0].ToDouble();
          auto scaled = [m](ExactMatrix x) {
            for (Exact& e : x.data) e = Exact(e.ToDouble() * m);
            return x;
          };
          return Case()
              .Matrix("Q", scaled(p.Matrix(0)))
              .Matrix("K", scaled(p.Matrix(1)))
              .Scalar("scale", 1.0 / std::sqrt(static_cast<double>(p.dims[2])));
        });
  }

  template <class S>
  static void Conclusion(const Case& c) {
    using std::log;
    const Mat<S> q = c.GetMat<S>("Q"), k = c.GetMat<S>("K");
    const S scale = c.Get<S>("scale");
    const Mat<S> a = Attention<S>(q, k, Mat<S>::Zero(k.rows(), 1), scale).weights;
    const Eigen::Index t = k.rows();
    const double u = ScalarTraits<S>::UnitRoundoff();
    // Below this score gap the exact weight is under S's smallest normal
    // number and cannot be represented: positivity is checked above it.
    const double ln_min = ToDouble(S(log(std::numeric_limits<S>::min())));
    const Mat<Mpfr> q_hi = c.GetMat<Mpfr>("Q"), k_hi = c.GetMat<Mpfr>("K");
    const Mpfr scale_hi = c.Get<Mpfr>("scale");
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
      Mpfr sum = 0;
      for (Eigen::Index j = 0; j < t; ++j) {
        ExpectThat(a(i, j) >= 0, "A(" + std::to_string(i) + "," + std::to_string(j) + ") = " +
                                     std::to_string(ToDouble(a(i, j))) + " is not >= 0");
        sum += Mpfr(a(i, j));
      }
      ExpectWithin("|sum_j A_ij - 1|", ToDouble(Mpfr(abs(sum - 1))),
                   Gamma(static_cast<double>(t + 1), u) + Gamma(static_cast<double>(t), ScalarTraits<Mpfr>::UnitRoundoff()));
      // Exact scores and their computed error bound gamma_{d+1} c sum|q||k|.
      Vec<Mpfr> s(t);
      double worst_err = 0;
      for (Eigen::Index j = 0; j < t; ++j) {
        Mpfr dot = 0, mag = 0;
        for (Eigen::Index l = 0; l < q_hi.cols(); ++l) {
          dot += q_hi(i, l) * k_hi(j, l);
          mag += abs(q_hi(i, l) * k_hi(j, l));
        }
        s[j] = scale_hi * dot;
        worst_err = std::max(worst_err, ToDouble(Mpfr(abs(scale_hi) * mag)) * Gamma(static_cast<double>(q_hi.cols() + 1), u));
      }
      const Mpfr m = s.maxCoeff();
      for (Eigen::Index j = 0; j < t; ++j) {
        const double gap = ToDouble(Mpfr(s[j] - m));
        if (gap >= ln_min + 1 + 2 * worst_err)
          ExpectThat(a(i, j) > 0, "A(" + std::to_string(i) + "," + std::to_string(j) +
                                      ") is not > 0 although its score gap " + std::to_string(gap) +
                                      " is above the underflow threshold");
      }
    }
  }
};

ATTNPROP_REGISTER(SimplexRows, double, Mpfr);

}  // namespace
}  // namespace attnprop
