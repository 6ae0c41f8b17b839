// The machine's FMA peak: independent FMA chains (enough to cover latency x
// issue width on any current core), widest vectors the CPU has. Compiled with
// target attributes; each variant runs only where the CPU supports it.
#include "kernels/bench/fma_peak.h"

#include <immintrin.h>

#include <thread>
#include <vector>

namespace attnprop::bench {
namespace {

constexpr int kChains = 24;  // FMA latency 4 x 2 ports = 8 needed; 24 is ample

// One function per vector type, each compiled for its own ISA (target
// attribute), so that this file needs no -m flag and runs anywhere.
#define ATTNPROP_FMA_CHAINS(NAME, TARGET, V, SET1, FMA)                             \
  __attribute__((target(TARGET))) double NAME(int64_t iterations) {                 \
    V acc[kChains];                                                                 \
    _Pragma("GCC unroll 24") for (int i = 0; i < kChains; ++i)                      \
        acc[i] = SET1(1.0 + i * 1e-3);                                              \
    const V a = SET1(0.999999), b = SET1(1e-7);                                     \
    for (int64_t it = 0; it < iterations; ++it) {                                   \
      _Pragma("GCC unroll 24") for (int i = 0; i < kChains; ++i)                    \
          acc[i] = FMA(acc[i], a, b);                                               \
      /* no barrier needed: without -ffast-math the chains cannot be collapsed */  \
    }                                                                               \
    double sink = 0;                                                                \
    for (int i = 0; i < kChains; ++i) {                                             \
      double lane = 0;                                                              \
      __builtin_memcpy(&lane, &acc[i], sizeof lane);                                \
      sink += lane;                                                                 \
    }                                                                               \
    return sink;                                                                    \
  }

#define ATTNPROP_SET_PS512(x) _mm512_set1_ps(static_cast<float>(x))
#define ATTNPROP_SET_PS256(x) _mm256_set1_ps(static_cast<float>(x))
ATTNPROP_FMA_CHAINS(Chains512s, "avx512f,fma", __m512, ATTNPROP_SET_PS512, _mm512_fmadd_ps)
ATTNPROP_FMA_CHAINS(Chains512d, "avx512f,fma", __m512d, _mm512_set1_pd, _mm512_fmadd_pd)
ATTNPROP_FMA_CHAINS(Chains256s, "avx2,fma", __m256, ATTNPROP_SET_PS256, _mm256_fmadd_ps)
ATTNPROP_FMA_CHAINS(Chains256d, "avx2,fma", __m256d, _mm256_set1_pd, _mm256_fmadd_pd)

}  // namespace

int PeakLanes(bool f64) {
  __builtin_cpu_init();
  const int bytes = __builtin_cpu_supports("avx512f") ? 64 : __builtin_cpu_supports("fma") ? 32 : 0;
  return bytes / (f64 ? 8 : 4);
}

double RunFmaChains(bool f64, int64_t iterations, int threads) {
  const int lanes = PeakLanes(f64);
  auto one = [&] {
    if (lanes == 16) return Chains512s(iterations);
    if (lanes == 8 && f64) return Chains512d(iterations);
    if (lanes == 8) return Chains256s(iterations);
    if (lanes == 4) return Chains256d(iterations);
    return 0.0;
  };
  std::vector<std::thread> pool;
  std::vector<double> sinks(static_cast<size_t>(threads));
  for (int t = 1; t < threads; ++t) pool.emplace_back([&, t] { sinks[static_cast<size_t>(t)] = one(); });
  sinks[0] = one();
  for (auto& th : pool) th.join();
  double s = 0;
  for (double x : sinks) s += x;
  return s;
}

int64_t FlopsPerIteration(bool f64) { return int64_t{2} * kChains * PeakLanes(f64); }

}  // namespace attnprop::bench
