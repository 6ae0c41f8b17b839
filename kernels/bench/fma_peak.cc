// The machine's FMA peak per vector width: independent FMA chains, as many
// as the width's register file holds (a loop with more live accumulators
// than registers spills: 24 chains on AVX2's 16 ymm registers measured half
// the peak on a Zen 3). Compiled with target attributes; each width runs only
// where the CPU supports it, so this file needs no -m flag.
#include "kernels/bench/fma_peak.h"

// GCC 12's avx512fintrin.h warns about its own _mm512_undefined_* (GCC PR 105593).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include <chrono>
#include <thread>
#include <vector>

namespace attnprop::bench {
namespace {

constexpr int kChains256 = 12;  // + 2 constants = 14 of 16 ymm registers
constexpr int kChains512 = 24;  // + 2 constants = 26 of 32 zmm registers

// One function per vector type. The chains are acc = acc * a + b: each FMA
// waits for the previous one of its chain, and without -ffast-math the
// compiler can neither merge nor shorten them.
#define ATTNPROP_FMA_CHAINS(NAME, TARGET, CHAINS, V, SET1, FMA)                   \
  __attribute__((target(TARGET))) double NAME(int64_t iterations) {               \
    V acc[CHAINS];                                                                \
    _Pragma("GCC unroll 32") for (int i = 0; i < CHAINS; ++i)                     \
        acc[i] = SET1(1.0 + i * 1e-3);                                            \
    const V a = SET1(0.999999), b = SET1(1e-7);                                   \
    for (int64_t it = 0; it < iterations; ++it) {                                 \
      _Pragma("GCC unroll 32") for (int i = 0; i < CHAINS; ++i)                   \
          acc[i] = FMA(acc[i], a, b);                                             \
    }                                                                             \
    double sink = 0;                                                              \
    for (int i = 0; i < CHAINS; ++i) {                                            \
      double lane = 0;                                                            \
      __builtin_memcpy(&lane, &acc[i], sizeof lane);                              \
      sink += lane;                                                               \
    }                                                                             \
    return sink;                                                                  \
  }

#define ATTNPROP_SET_PS512(x) _mm512_set1_ps(static_cast<float>(x))
#define ATTNPROP_SET_PS256(x) _mm256_set1_ps(static_cast<float>(x))
ATTNPROP_FMA_CHAINS(Chains512s, "avx512f,fma", kChains512, __m512, ATTNPROP_SET_PS512, _mm512_fmadd_ps)
ATTNPROP_FMA_CHAINS(Chains512d, "avx512f,fma", kChains512, __m512d, _mm512_set1_pd, _mm512_fmadd_pd)
ATTNPROP_FMA_CHAINS(Chains256s, "avx2,fma", kChains256, __m256, ATTNPROP_SET_PS256, _mm256_fmadd_ps)
ATTNPROP_FMA_CHAINS(Chains256d, "avx2,fma", kChains256, __m256d, _mm256_set1_pd, _mm256_fmadd_pd)

}  // namespace

int FmaChains(int bits) { return bits == 512 ? kChains512 : kChains256; }

bool FmaWidthSupported(int bits) {
  __builtin_cpu_init();
  if (bits == 512) return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma");
  if (bits == 256) return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return false;
}

double RunFmaChains(int bits, bool f64, int64_t iterations, int threads) {
  if (!FmaWidthSupported(bits)) return 0;
  auto one = [&] {
    if (bits == 512) return f64 ? Chains512d(iterations) : Chains512s(iterations);
    return f64 ? Chains256d(iterations) : Chains256s(iterations);
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

int64_t FlopsPerIteration(int bits, bool f64) { return int64_t{2} * FmaChains(bits) * (bits / (f64 ? 64 : 32)); }

double MeasurePeakGflops(int bits, bool f64, int threads, double seconds) {
  if (!FmaWidthSupported(bits)) return 0;
  volatile double sink = 0;  // keeps the chains' result alive
  for (int64_t iterations = int64_t{1} << 14;; iterations *= 2) {
    const auto start = std::chrono::steady_clock::now();
    sink = sink + RunFmaChains(bits, f64, iterations, threads);
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (took >= seconds || iterations >= (int64_t{1} << 40))
      return static_cast<double>(FlopsPerIteration(bits, f64) * iterations * threads) / took / 1e9;
  }
}

}  // namespace attnprop::bench
