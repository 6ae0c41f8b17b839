#include "properties/operator/regime_gen.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace attnprop::ksuite {
namespace {

struct Ranges {
  int64_t batch, t_q, t_k, d_k, d_v;
};

Ranges RangesOf(Regime r) {
  switch (r) {
    case Regime::kLongKv: return {4, 8, 4096, 128, 128};
    case Regime::kWideHeads: return {2, 64, 64, 512, 512};
    case Regime::kLongQueries: return {4, 1024, 512, 64, 64};
    case Regime::kScalars: return {2, 40, 40, 24, 24};
  }
  return {1, 1, 1, 1, 1};
}

/// A dimension in [1, hi], log-uniform: an octave e (0..floor(log2 hi)),
/// then 2^e + f with f = 0, 1 or 2^e - 1 (block and vector boundaries)
/// half the time, uniform in [0, 2^e) otherwise. Shrinks toward 1 (e toward
/// 0, f toward 0: a failure at 257 ends at exactly 257).
/// Drawn at RapidCheck's full size (its inRange scales the range with the
/// size): the regime's ranges are reached from the first case.
rc::Gen<int64_t> RegimeDim(int64_t hi) {
  const int top = static_cast<int>(std::floor(std::log2(static_cast<double>(hi))));
  return rc::gen::resize(100, rc::gen::mapcat(rc::gen::inRange(0, top + 1), [hi](int e) {
    const int64_t base = int64_t{1} << e;
    return rc::gen::map(rc::gen::weightedOneOf<int64_t>({{1, rc::gen::element<int64_t>(0, 1)},
                                                          {1, rc::gen::just<int64_t>(base - 1)},
                                                          {2, rc::gen::inRange<int64_t>(0, base)}}),
                        [hi, base](int64_t f) { return std::min(hi, base + std::min(f, base - 1)); });
  }));
}

/// The scale's boundary values (kScalars), ordinary first (shrinking moves
/// toward earlier entries): 1/sqrt(d_k), then negative, zero (both signs),
/// the smallest subnormal double, a subnormal float, and 2^60 (with q and k
/// scaled by 2^-32 each, so the scores stay those of scale 2^-4).
enum ScaleKind { kInvSqrt, kOne, kMinusOne, kMinusEighth, kZero, kMinusZero, kSubnormalDouble, kSubnormalFloat,
                 kHuge, kMinusHuge, kScaleKinds };

double ScaleOf(int kind, int64_t d_k) {
  switch (kind) {
    case kInvSqrt: return 1 / std::sqrt(static_cast<double>(d_k));
    case kOne: return 1;
    case kMinusOne: return -1;
    case kMinusEighth: return -0.125;
    case kZero: return 0.0;
    case kMinusZero: return -0.0;
    case kSubnormalDouble: return 0x1p-1074;
    case kSubnormalFloat: return 0x1p-140;
    case kHuge: return 0x1p60;
    case kMinusHuge: return -0x1p60;
  }
  return 1;
}

/// The entries' magnitudes (kScalars), ordinary first: as drawn (|x| <= 2),
/// V in the storage type's subnormals (a kernel that flushes them, as
/// AVX512-BF16's dot products do, or divides by them), and Q, K and V there
/// (the scores underflow to 0 too).
enum EntryKind { kOrdinaryEntries, kSubnormalV, kSubnormalQKV, kEntryKinds };

/// The shift that takes SeededMatrix's entries (n / 2^f, |n| <= 2^(f+1))
/// into the subnormals of `t`, every one still exact: f32 n 2^-132 (the
/// largest 2^-127, the smallest nonzero 2^-132 above f32's 2^-149), f64
/// n 2^-1044 (the largest 2^-1023, the smallest 2^-1044 above 2^-1074).
int SubnormalShift(DType t) { return t == DType::kF32 ? -128 : -1024; }

uint64_t SplitMix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// Entry (item b, row r, column c) of matrix `which`: a dyadic n / 2^f with
/// |n / 2^f| <= 2 (f = 4 for f32, 20 for f64: exact in the dtype), times
/// 2^shift; depends on the seed and the position only.
ExactMatrix SeededMatrix(uint64_t seed, int which, int64_t batch, int64_t rows, int64_t cols, DType t, int shift) {
  const int f = t == DType::kF32 ? 4 : 20;
  const int64_t span = int64_t{2} << f;  // n in [-span, span]
  ExactMatrix m(batch * rows, cols);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) {
        const uint64_t h = SplitMix(seed ^ SplitMix((static_cast<uint64_t>(which) << 60) ^
                                                    (static_cast<uint64_t>(b) << 48) ^
                                                    (static_cast<uint64_t>(r) << 24) ^ static_cast<uint64_t>(c)));
        const int64_t n = static_cast<int64_t>(h % static_cast<uint64_t>(2 * span + 1)) - span;
        m(b * rows + r, c) = std::ldexp(static_cast<double>(n), shift - f);
      }
  return m;
}

/// Halves dimensions until the call's work is at most kBigWork and its
/// entries at most kBigEntries: batch, then d_v, d_k, t_q, t_k (the
/// regime's long dimension last).
void CutToBudget(int64_t* batch, int64_t* t_q, int64_t* t_k, int64_t* d_k, int64_t* d_v) {
  auto over = [&] {
    return *batch * *t_q * *t_k * (*d_k + *d_v) > kBigWork ||
           *batch * (*t_q * *d_k + *t_k * (*d_k + *d_v)) > kBigEntries;
  };
  for (int64_t* x : {batch, d_v, d_k, t_q, t_k})
    while (over() && *x > 1) *x = (*x + 1) / 2;
}

}  // namespace

const char* RegimeName(Regime r) {
  switch (r) {
    case Regime::kLongKv: return "long KV, few queries";
    case Regime::kWideHeads: return "wide heads";
    case Regime::kLongQueries: return "long query blocks";
    case Regime::kScalars: return "scalar arguments";
  }
  return "?";
}

int64_t CallWork(const Problem& p) { return p.batch * p.t_q * p.t_k * (p.d_k + p.d_v); }

ShapeSpec RegimeShape() {
  ShapeSpec s;
  s.any_scale = true;
  return s;
}

rc::Gen<Case> RegimeGen(InputKind in, Regime regime) {
  const Ranges rg = RangesOf(regime);
  const DType t = in.dtype;
  using Draw = std::tuple<bool, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int, int, int64_t, int64_t>;
  const bool scalars = regime == Regime::kScalars;
  const rc::Gen<int> scale_gen = scalars ? rc::gen::resize(100, rc::gen::inRange(0, static_cast<int>(kScaleKinds)))
                                         : rc::gen::element<int>(kInvSqrt, kOne);
  // Ordinary entries two times in three: the scale kinds are the regime's
  // first subject.
  const rc::Gen<int> entry_gen = scalars ? rc::gen::weightedElement<int>({{4, kOrdinaryEntries}, {1, kSubnormalV}, {1, kSubnormalQKV}})
                                         : rc::gen::just<int>(kOrdinaryEntries);
  return rc::gen::map(
      rc::gen::tuple(rc::gen::weightedElement<bool>({{4 - kBigShareOutOf4, false}, {kBigShareOutOf4, true}}),
                     RegimeDim(rg.batch), RegimeDim(rg.t_q), RegimeDim(rg.t_k), RegimeDim(rg.d_k),
                     RegimeDim(rg.d_v), rc::gen::element<int64_t>(0, 1), scale_gen, entry_gen,
                     rc::gen::element<int64_t>(1, 0), rc::gen::noShrink(rc::gen::arbitrary<int64_t>())),
      [t, regime](const Draw& d) {
        auto [big, batch, t_q, t_k, d_k, d_v, causal, scale_kind, entry_kind, lse, seed] = d;
        if (!big) {  // the small share: MPFR-checked (CallWork <= 4 8 16 16)
          batch = std::min<int64_t>(batch, 4);
          t_q = std::min<int64_t>(t_q, 8);
          t_k = std::min<int64_t>(t_k, 16);
          d_k = std::min<int64_t>(d_k, 8);
          d_v = std::min<int64_t>(d_v, 8);
        }
        CutToBudget(&batch, &t_q, &t_k, &d_k, &d_v);
        const bool huge = regime == Regime::kScalars && (scale_kind == kHuge || scale_kind == kMinusHuge);
        const int qk_shift = entry_kind == kSubnormalQKV ? SubnormalShift(t) : huge ? -32 : 0;
        const int v_shift = entry_kind == kOrdinaryEntries ? 0 : SubnormalShift(t);
        return SeededProblem(t, batch, t_q, t_k, d_k, d_v, causal, ScaleOf(scale_kind, d_k), lse,
                             static_cast<uint64_t>(seed), qk_shift, v_shift);
      });
}

Case SeededProblem(DType t, int64_t batch, int64_t t_q, int64_t t_k, int64_t d_k, int64_t d_v, int64_t causal,
                   double scale, int64_t lse, uint64_t seed, int qk_shift, int v_shift) {
  return Case()
      .Int("batch", batch)
      .Int("causal", causal)
      .Scalar("scale", scale)
      .Int("lse", lse)
      .Matrix("Q", SeededMatrix(seed, 0, batch, t_q, d_k, t, qk_shift))
      .Matrix("K", SeededMatrix(seed, 1, batch, t_k, d_k, t, qk_shift))
      .Matrix("V", SeededMatrix(seed, 2, batch, t_k, d_v, t, v_shift));
}

bool RegimeHolds(InputKind in, const Case& c) {
  const int64_t lse = c.GetInt("lse");
  return (lse == 0 || lse == 1) && ProblemHolds(in.dtype, RegimeShape(), c);
}

}  // namespace attnprop::ksuite
