// The half-precision entry points of kernel ABI v2 (kernels/attnprop_kernel.h)
// for the planted plug-ins, linked with plugin_kernel.cc (its correct f32 and
// f64 entry points, ATTNPROP_BUG=0). A naive kernel: q, k, v decoded to
// float, scores, max, exp, sums and the division in float, out rounded once
// to nearest-even into the format; lse in float. Its own conversions, written
// apart from attnprop's. With -DATTNPROP_HALF_BUG=n, one bug (bf16 only; the
// correct kernel also has f16):
//   1 accumulates in bf16: every arithmetic result rounded to bf16, but the
//     kernel does not declare it (no attnprop_kernel_accumulation: f32 is
//     assumed)  -> abi.half_accuracy
//   2 rounds the weights P to bf16 twice: p_j = bf16(exp(s_j - m)), then
//     a_j = bf16(p_j / l), out = sum_j a_j v_j  -> abi.half_accuracy
//   3 reads and writes bf16 bit patterns as IEEE binary16  -> abi.half_single_key
//   4 declares ATTNPROP_FORMAT_MIXED but rounds the scores to bf16 as well as
//     the weights P  -> abi.half_accuracy
// With -DATTNPROP_HALF_ARITHMETIC=n, a correct kernel that computes otherwise
// and declares it (attnprop_kernel_accumulation):
//   1 P, its row sum, the normalised weights and the P V sums rounded to the
//     storage format, scores and lse in float (declares ATTNPROP_FORMAT_BF16
//     / _F16: all within its u; the weights normalised before P V so that
//     f16's range, 65504, holds the sums)
//   2 f32 arithmetic with the weights P rounded once to the storage format
//     before P V, the row sum from the unrounded P (declares
//     ATTNPROP_FORMAT_MIXED: FlashAttention-style half kernels)
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "kernels/attnprop_kernel.h"

#ifndef ATTNPROP_HALF_BUG
#define ATTNPROP_HALF_BUG 0
#endif
#define HALF_BUG_BF16_ACCUMULATION 1
#define HALF_BUG_P_ROUNDED_TWICE 2
#define HALF_BUG_BF16_AS_F16 3
#define HALF_BUG_MIXED_SCORES_ROUNDED 4
#ifndef ATTNPROP_HALF_ARITHMETIC
#define ATTNPROP_HALF_ARITHMETIC 0
#endif
#define HALF_ARITHMETIC_IN_FORMAT 1
#define HALF_ARITHMETIC_MIXED 2

namespace {

float Bf16Value(uint16_t h) {
  const uint32_t x = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

uint16_t Bf16Bits(float f) {  // to nearest, ties to even (the 16 low bits dropped)
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t low = x & 0xFFFFu, keep = x >> 16;
  const bool up = low > 0x8000u || (low == 0x8000u && (keep & 1u));
  return static_cast<uint16_t>(keep + (up ? 1u : 0u));
}

[[maybe_unused]] float RoundBf16(float f) { return Bf16Value(Bf16Bits(f)); }

[[maybe_unused]] float F16Value(uint16_t h) {
  const int e = (h >> 10) & 0x1F, m = h & 0x3FF;
  const double mag = e == 0 ? std::ldexp(m, -24) : e == 31 ? HUGE_VAL : std::ldexp(m + 1024, e - 25);
  return static_cast<float>((h & 0x8000) ? -mag : mag);
}

[[maybe_unused]] uint16_t F16Bits(float f) {  // by value: the nearest multiple of the binade's step, ties to even
  const uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  const double a = std::fabs(static_cast<double>(f));
  if (a == 0) return sign;
  const int e = std::max(std::ilogb(a), -14);
  const double n = std::nearbyint(std::ldexp(a, 10 - e));  // significand, 1024..2048 (normal) or < 1024
  if (e == -14 && n < 1024) return static_cast<uint16_t>(sign | static_cast<uint16_t>(n));
  const int e2 = n == 2048 ? e + 1 : e;
  if (e2 > 15) return static_cast<uint16_t>(sign | 0x7C00);
  const auto frac = static_cast<uint16_t>((n == 2048 ? 1024 : n) - 1024);
  return static_cast<uint16_t>(sign | static_cast<uint16_t>((e2 + 15) << 10) | frac);
}

bool Valid(const attnprop_attention_args* a) {
  return a && a->struct_size >= sizeof(attnprop_attention_args) && a->q && a->k && a->v && a->out && a->batch >= 1 &&
         a->t_q >= 1 && a->t_k >= 1 && a->d_k >= 1 && a->d_v >= 1 && std::isfinite(a->scale) &&
         (a->causal == 0 || a->causal == 1);
}

template <float (*Value)(uint16_t), uint16_t (*Bits)(float)>
float InFormat(float x) {
  return Value(Bits(x));
}

template <float (*Value)(uint16_t), uint16_t (*Bits)(float)>
int Attend(const attnprop_attention_args* a) {
  // The arithmetic: float, or every result rounded to the storage format
  // (declared, or bug 1: bf16, undeclared).
  const auto R = [](float x) {
#if ATTNPROP_HALF_BUG == HALF_BUG_BF16_ACCUMULATION
    return RoundBf16(x);
#elif ATTNPROP_HALF_ARITHMETIC == HALF_ARITHMETIC_IN_FORMAT
    return InFormat<Value, Bits>(x);
#else
    return x;
#endif
  };
  // The scores, their max and lse: float, except with bug 1 (bf16). A kernel
  // that declares the storage format rounds P and the sums to it; computing
  // the rest in float is within that declaration (a smaller u), and keeps
  // scores beyond f16's range (65504) finite.
  const auto RS = [R](float x) {
#if ATTNPROP_HALF_ARITHMETIC == HALF_ARITHMETIC_IN_FORMAT
    (void)R;
    return x;
#else
    return R(x);
#endif
  };
  if (!Valid(a)) return 1;
  const int64_t tq = a->t_q, tk = a->t_k, dk = a->d_k, dv = a->d_v;
  const auto* q = static_cast<const uint16_t*>(a->q);
  const auto* k = static_cast<const uint16_t*>(a->k);
  const auto* v = static_cast<const uint16_t*>(a->v);
  auto* out = static_cast<uint16_t*>(a->out);
  auto* lse = static_cast<float*>(a->lse);
  const float scale = RS(static_cast<float>(a->scale));
  std::vector<float> s(static_cast<size_t>(tk)), acc(static_cast<size_t>(dv));
  for (int64_t b = 0; b < a->batch; ++b)
    for (int64_t i = 0; i < tq; ++i) {
      const int64_t visible = a->causal ? std::min(tk, i + (tk - tq) + 1) : tk;
      uint16_t* oi = out + (b * tq + i) * dv;
      float* li = lse ? lse + b * tq + i : nullptr;
      if (visible <= 0) {
        for (int64_t c = 0; c < dv; ++c) oi[c] = Bits(0.0f);
        if (li) *li = -std::numeric_limits<float>::infinity();
        continue;
      }
      float m = -std::numeric_limits<float>::infinity();
      for (int64_t j = 0; j < visible; ++j) {
        float dot = 0;
        for (int64_t l = 0; l < dk; ++l)
          dot = RS(dot + RS(Value(q[(b * tq + i) * dk + l]) * Value(k[(b * tk + j) * dk + l])));
        s[static_cast<size_t>(j)] = RS(scale * dot);
#if ATTNPROP_HALF_BUG == HALF_BUG_MIXED_SCORES_ROUNDED
        s[static_cast<size_t>(j)] = InFormat<Value, Bits>(s[static_cast<size_t>(j)]);
#endif
        m = std::max(m, s[static_cast<size_t>(j)]);
      }
      float z = 0;
      for (int64_t j = 0; j < visible; ++j) {
        float p = R(std::exp(RS(s[static_cast<size_t>(j)] - m)));
#if ATTNPROP_HALF_BUG == HALF_BUG_P_ROUNDED_TWICE
        p = RoundBf16(p);
#endif
        z = R(z + p);
#if ATTNPROP_HALF_ARITHMETIC == HALF_ARITHMETIC_MIXED || ATTNPROP_HALF_BUG == HALF_BUG_MIXED_SCORES_ROUNDED
        p = InFormat<Value, Bits>(p);  // P rounded once for P V; the row sum had it unrounded
#endif
        s[static_cast<size_t>(j)] = p;
      }
      for (int64_t c = 0; c < dv; ++c) acc[static_cast<size_t>(c)] = 0;
      for (int64_t j = 0; j < visible; ++j) {
        float w = s[static_cast<size_t>(j)];
#if ATTNPROP_HALF_ARITHMETIC == HALF_ARITHMETIC_IN_FORMAT
        w = R(w / z);  // normalised first: the format's range holds sum_j w_j v_j (f16's ends at 65504)
#endif
#if ATTNPROP_HALF_BUG == HALF_BUG_P_ROUNDED_TWICE
        w = RoundBf16(w / z);  // normalised first, rounded again
#endif
        for (int64_t c = 0; c < dv; ++c)
          acc[static_cast<size_t>(c)] = R(acc[static_cast<size_t>(c)] + R(w * Value(v[(b * tk + j) * dv + c])));
      }
      for (int64_t c = 0; c < dv; ++c) {
#if ATTNPROP_HALF_BUG == HALF_BUG_P_ROUNDED_TWICE || ATTNPROP_HALF_ARITHMETIC == HALF_ARITHMETIC_IN_FORMAT
        oi[c] = Bits(acc[static_cast<size_t>(c)]);
#else
        oi[c] = Bits(R(acc[static_cast<size_t>(c)] / z));
#endif
      }
      if (li) *li = RS(m + RS(std::log(z)));
    }
  return 0;
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) int attnprop_attention_bf16(const attnprop_attention_args* args) {
#if ATTNPROP_HALF_BUG == HALF_BUG_BF16_AS_F16
  return Attend<F16Value, F16Bits>(args);
#else
  return Attend<Bf16Value, Bf16Bits>(args);
#endif
}

#if ATTNPROP_HALF_BUG == HALF_BUG_MIXED_SCORES_ROUNDED
__attribute__((visibility("default"))) int attnprop_kernel_accumulation(int format) {
  return format == ATTNPROP_FORMAT_BF16 ? ATTNPROP_FORMAT_MIXED : 0;
}
#endif

#if ATTNPROP_HALF_BUG == 0
__attribute__((visibility("default"))) int attnprop_attention_f16(const attnprop_attention_args* args) {
  return Attend<F16Value, F16Bits>(args);
}

// Declared: f32 arithmetic for both formats (what the default would assume),
// or what ATTNPROP_HALF_ARITHMETIC says.
// ATTNPROP_HALF_DECLINE_F16 (the half_declines_f16 plug-in): 0 for f16, "not
// implemented here", as a library that lacks the CPU's f16 instructions says.
#ifndef ATTNPROP_HALF_DECLINE_F16
#define ATTNPROP_HALF_DECLINE_F16 0
#endif
__attribute__((visibility("default"))) int attnprop_kernel_accumulation(int format) {
  if (ATTNPROP_HALF_DECLINE_F16 && format == ATTNPROP_FORMAT_F16) return 0;
  if (format != ATTNPROP_FORMAT_BF16 && format != ATTNPROP_FORMAT_F16) return 0;
#if ATTNPROP_HALF_ARITHMETIC == HALF_ARITHMETIC_IN_FORMAT
  return format;
#elif ATTNPROP_HALF_ARITHMETIC == HALF_ARITHMETIC_MIXED
  return ATTNPROP_FORMAT_MIXED;
#else
  return ATTNPROP_FORMAT_F32;
#endif
}
#endif

}  // extern "C"
