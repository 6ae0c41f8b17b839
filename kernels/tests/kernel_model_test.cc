// The kernel against the reference model: Attention<Mpfr> (model/attention.h)
// at 128 bits on the same inputs, converted exactly, on every target the CPU
// supports. Each comparison's tolerance comes from the one error model
// (kernels/error_model.h), never fitted to observations.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "kernels/error_model.h"
#include "kernels/kernel_internal.h"
#include "kernels/tests/kernel_test_util.h"
#include "model/attention.h"
#include "model/scalar.h"

namespace attnprop::kernel_test {
namespace {

constexpr int kMpfrBits = 128;

struct Worst {
  double out_ratio = 0;  // max observed error / tolerance
  double lse_ratio = 0;
  double max_abs_score = 0;
};

// Compares one kernel result with the model on every batch item, each
// element within the error model's bound (kernels/error_model.h: derivation
// there) for this target: u of T, R = ceil(t_k / block_k) - 1 rescales (the
// target's key block), lambda = the smallest normal (exp2 flushes below it).
//   |out_ic - out*_ic| <= rho_i sum_j a*_ij |v_jc| + 2 t_k lambda max_j |v_jc|,
//   |lse_i - lse*_i|   <= delta_i + 2 gamma_n.
template <class T>
Worst ExpectMatchesModel(const Problem<T>& p, const Result<T>& r, const char* what) {
  Worst worst;
  const kernel::TargetImpl* impl = kernel::FindTarget(attnprop_kernel_target());
  const double block_k = static_cast<double>(std::is_same_v<T, float> ? impl->block_k_f32 : impl->block_k_f64);
  const double t_k = static_cast<double>(p.t_k);
  for (int64_t b = 0; b < p.batch; ++b) {
    Mat<Mpfr> q(p.t_q, p.d_k), k(p.t_k, p.d_k), v(p.t_k, p.d_v);
    for (int64_t i = 0; i < p.t_q; ++i)
      for (int64_t l = 0; l < p.d_k; ++l) q(i, l) = Mpfr(p.q[static_cast<size_t>((b * p.t_q + i) * p.d_k + l)]);
    for (int64_t j = 0; j < p.t_k; ++j) {
      for (int64_t l = 0; l < p.d_k; ++l) k(j, l) = Mpfr(p.k[static_cast<size_t>((b * p.t_k + j) * p.d_k + l)]);
      for (int64_t c = 0; c < p.d_v; ++c) v(j, c) = Mpfr(p.v[static_cast<size_t>((b * p.t_k + j) * p.d_v + c)]);
    }
    const AttentionResult<Mpfr> ref =
        Attention(q, k, v, Mpfr(p.scale), p.causal ? Mask::Causal() : Mask::None());
    for (int64_t i = 0; i < p.t_q; ++i) {
      const size_t row = static_cast<size_t>(b * p.t_q + i);
      const bool empty = ToDouble(ref.lse[i]) == -std::numeric_limits<double>::infinity();
      if (empty) {
        // No visible key: out is exactly 0 and lse exactly -inf.
        for (int64_t c = 0; c < p.d_v; ++c)
          EXPECT_EQ(r.out[row * static_cast<size_t>(p.d_v) + static_cast<size_t>(c)], T{0})
              << what << ": empty row " << i << " of batch " << b;
        EXPECT_EQ(r.lse[row], -std::numeric_limits<T>::infinity()) << what << ": empty row " << i;
        continue;
      }
      double max_a = 0, max_s = 0;
      for (int64_t j = 0; j < p.t_k; ++j) {
        if (p.causal && j > i + p.t_k - p.t_q) continue;
        double a = 0, s = 0;
        for (int64_t l = 0; l < p.d_k; ++l) {
          a += std::fabs(ToDouble(q(i, l)) * ToDouble(k(j, l)));
          s += ToDouble(q(i, l)) * ToDouble(k(j, l));
        }
        max_a = std::max(max_a, a);
        max_s = std::max(max_s, std::fabs(p.scale * s));
      }
      worst.max_abs_score = std::max(worst.max_abs_score, max_s);
      numerics::AttentionRow model;
      model.u = numerics::UnitRoundoffOf<T>();
      model.d_k = static_cast<double>(p.d_k);
      model.t_k = t_k;
      // max_a is summed in double (relative error ~1e-16, far below the bound's terms).
      model.smax = std::fabs(p.scale) * max_a * (1 + 1e-12);
      model.lambda = numerics::MinNormalOf<T>();
      model.rescales = std::ceil(t_k / block_k) - 1;
      const numerics::AttentionRowBound bound = numerics::BoundAttentionRow(model);
      for (int64_t c = 0; c < p.d_v; ++c) {
        double m = 0, vmax = 0;
        for (int64_t j = 0; j < p.t_k; ++j) {
          m += ToDouble(ref.weights(i, j)) * std::fabs(ToDouble(v(j, c)));
          vmax = std::max(vmax, std::fabs(ToDouble(v(j, c))));
        }
        const double tol = numerics::AttentionOutBound(bound, m * (1 + 1e-12), vmax);
        const T got = r.out[row * static_cast<size_t>(p.d_v) + static_cast<size_t>(c)];
        const double err = ToDouble(Mpfr(abs(Mpfr(got) - ref.out(i, c))));
        const double ratio = err / tol;
        worst.out_ratio = std::max(worst.out_ratio, std::isnan(ratio) ? INFINITY : ratio);
        EXPECT_LE(err, tol) << what << ": out(" << i << "," << c << ") of batch " << b << " = " << got
                            << ", model " << ToDouble(ref.out(i, c)) << ", |s| <= " << max_s;
      }
      const double lse_ref = ToDouble(ref.lse[i]);
      const double lse_tol = bound.lse;
      const double lse_err = ToDouble(Mpfr(abs(Mpfr(r.lse[row]) - ref.lse[i])));
      worst.lse_ratio = std::max(worst.lse_ratio, std::isnan(lse_err) ? INFINITY : lse_err / lse_tol);
      EXPECT_LE(lse_err, lse_tol) << what << ": lse(" << i << ") of batch " << b << " = " << r.lse[row]
                                  << ", model " << lse_ref;
    }
  }
  return worst;
}

struct Shape {
  int64_t batch, t_q, t_k, d_k, d_v;
};

// Block and vector tails: widths around 1, 4, 8 and 16 lanes, lengths around
// the key blocks and the query block (kBlockQ = 64; each target's kBlockK is
// 64 or 128 at present; the shapes also straddle 48 and 128).
const Shape kShapes[] = {
    {1, 1, 1, 1, 1},    {1, 3, 5, 7, 9},    {2, 5, 17, 8, 16},  {1, 17, 47, 16, 17},
    {1, 48, 48, 15, 8}, {1, 49, 49, 17, 31}, {1, 63, 50, 9, 33}, {1, 65, 97, 4, 3},
    {1, 130, 20, 3, 5}, {1, 7, 130, 33, 2},  {2, 66, 66, 2, 2},  {1, 1, 200, 24, 40}, {1, 64, 64, 16, 16}, {1, 20, 129, 6, 7}, {1, 128, 128, 2, 1},
};

class ModelTest : public TargetTest {};

template <class T>
void SweepShapes(const char* target, int e_lo, int e_hi, double scale_factor, uint64_t seed) {
  MpfrPrecisionScope precision(kMpfrBits);
  std::mt19937_64 rng(seed);
  Worst worst;
  for (const Shape& s : kShapes) {
    for (bool causal : {false, true}) {
      const double scale = scale_factor / std::sqrt(static_cast<double>(s.d_k)) * ((rng() & 1) ? 1 : -1);
      const Problem<T> p = MakeProblem<T>(rng, s.batch, s.t_q, s.t_k, s.d_k, s.d_v, scale, causal, e_lo, e_hi);
      const Result<T> r = Run(p);
      ASSERT_EQ(r.rc, 0);
      char what[160];
      std::snprintf(what, sizeof what, "%s b=%lld t_q=%lld t_k=%lld d_k=%lld d_v=%lld causal=%d", target,
                    static_cast<long long>(s.batch), static_cast<long long>(s.t_q),
                    static_cast<long long>(s.t_k), static_cast<long long>(s.d_k),
                    static_cast<long long>(s.d_v), causal ? 1 : 0);
      const Worst w = ExpectMatchesModel(p, r, what);
      worst.out_ratio = std::max(worst.out_ratio, w.out_ratio);
      worst.lse_ratio = std::max(worst.lse_ratio, w.lse_ratio);
      worst.max_abs_score = std::max(worst.max_abs_score, w.max_abs_score);
    }
  }
  std::printf("[%s] max |s| %.3g; worst error/tolerance: out %.3g, lse %.3g\n", target, worst.max_abs_score,
              worst.out_ratio, worst.lse_ratio);
}

TEST_P(ModelTest, F32MatchesMpfrModel) { SweepShapes<float>(GetParam(), -1, 0, 1.0, 101); }
TEST_P(ModelTest, F64MatchesMpfrModel) { SweepShapes<double>(GetParam(), -1, 0, 1.0, 102); }
// Entries spread over 2^-12 .. 2^2: cancellation in the scores.
TEST_P(ModelTest, F32MixedMagnitudes) { SweepShapes<float>(GetParam(), -12, 2, 3.0, 103); }
TEST_P(ModelTest, F64MixedMagnitudes) { SweepShapes<double>(GetParam(), -12, 2, 3.0, 104); }
// Scores in the hundreds (entries up to 4, scale 30/sqrt(d)): the tolerance
// grows with |s| u, and a correct f32 kernel must still meet it.
TEST_P(ModelTest, F32LargeScores) { SweepShapes<float>(GetParam(), 1, 2, 30.0, 105); }
TEST_P(ModelTest, F64LargeScores) { SweepShapes<double>(GetParam(), 1, 2, 30.0, 106); }

// Causal with t_q != t_k both ways: queries are the last t_q positions; with
// t_q > t_k the first t_q - t_k rows see no key (out 0, lse -inf).
template <class T>
void CausalRectangular(const char* target) {
  MpfrPrecisionScope precision(kMpfrBits);
  std::mt19937_64 rng(107);
  const Shape shapes[] = {{1, 10, 70, 8, 8},  {1, 70, 10, 8, 8}, {2, 100, 33, 5, 17},
                          {1, 33, 100, 17, 5}, {1, 130, 1, 3, 3}, {1, 1, 130, 3, 3}};
  for (const Shape& s : shapes) {
    const Problem<T> p = MakeProblem<T>(rng, s.batch, s.t_q, s.t_k, s.d_k, s.d_v, 0.5, true);
    const Result<T> r = Run(p);
    ASSERT_EQ(r.rc, 0);
    char what[96];
    std::snprintf(what, sizeof what, "%s causal t_q=%lld t_k=%lld", target, static_cast<long long>(s.t_q),
                  static_cast<long long>(s.t_k));
    ExpectMatchesModel(p, r, what);
    int64_t empty = 0;
    for (int64_t b = 0; b < p.batch; ++b)
      for (int64_t i = 0; i < p.t_q; ++i)
        empty += r.lse[static_cast<size_t>(b * p.t_q + i)] == -std::numeric_limits<T>::infinity();
    EXPECT_EQ(empty, p.batch * std::max<int64_t>(0, p.t_q - p.t_k)) << what;
  }
}
TEST_P(ModelTest, F32CausalRectangular) { CausalRectangular<float>(GetParam()); }
TEST_P(ModelTest, F64CausalRectangular) { CausalRectangular<double>(GetParam()); }

ATTNPROP_INSTANTIATE_TARGETS(ModelTest);

}  // namespace
}  // namespace attnprop::kernel_test
