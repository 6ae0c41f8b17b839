/* An independent timing of attnprop's kernel (issue 38): no Google
 * Benchmark, no fma_peak.cc. The kernel through its C ABI, timed with
 * clock_gettime (best of a few calls), against a peak estimated as
 *   core clock (a chain of dependent integer adds, one per cycle) x
 *   FMA flops per cycle (the microarchitecture's, given on the command line:
 *   Zen 2/3/4 32 f32 / 16 f64 at 256 and 512 bits; a Xeon with two 512-bit
 *   FMA units 64 / 32 at 512 bits).
 * Its kernel/peak ratio is compared with attnprop_kernel_bench's
 * (docs/performance.md says how).
 *   independent_timing FLOPS_PER_CYCLE_F32 [T d causal]...  (f32, one thread) */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernels/attnprop_kernel.h"
#include "kernels/attnprop_kernel_ext.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* GHz: 100 dependent adds per loop turn, each one cycle of latency. */
static double core_ghz(void) {
  const int64_t turns = 4000000;
  uint64_t x = 0;
  const double t0 = now();
  for (int64_t i = 0; i < turns; ++i) __asm__ volatile(".rept 100\n\tadd $1, %0\n\t.endr" : "+r"(x));
  const double s = now() - t0;
  if (x != (uint64_t)turns * 100) return NAN;
  return (double)turns * 100 / s / 1e9;
}

int main(int argc, char** argv) {
  if (argc < 2 || (argc - 2) % 3 != 0) {
    fprintf(stderr, "usage: independent_timing FLOPS_PER_CYCLE_F32 [T d causal]...\n");
    return 2;
  }
  const double flops_per_cycle = atof(argv[1]);
  attnprop_kernel_set_threads(1);
  const double ghz_before = core_ghz();
  printf("target %s; core clock %.3f GHz (dependent adds); peak estimate %.1f GFLOP/s (%.0f flops/cycle)\n",
         attnprop_kernel_target(), ghz_before, ghz_before * flops_per_cycle, flops_per_cycle);
  for (int a = 2; a + 2 < argc; a += 3) {
    const int64_t t = atoll(argv[a]), d = atoll(argv[a + 1]);
    const int causal = atoi(argv[a + 2]);
    float* buf = malloc(sizeof(float) * (size_t)(4 * t * d + t));
    srand(42);
    for (int64_t i = 0; i < 3 * t * d; ++i) buf[i] = 2.0f * (float)rand() / (float)RAND_MAX - 1.0f;
    attnprop_attention_args args;
    memset(&args, 0, sizeof args);
    args.struct_size = sizeof args;
    args.batch = 1;
    args.t_q = args.t_k = t;
    args.d_k = args.d_v = d;
    args.scale = 1.0 / sqrt((double)d);
    args.causal = causal;
    args.q = buf;
    args.k = buf + t * d;
    args.v = buf + 2 * t * d;
    args.out = buf + 3 * t * d;
    args.lse = buf + 4 * t * d;
    double best = INFINITY;
    const double until = now() + 1.0; /* at least 3 calls and 1 s */
    for (int call = 0; call < 3 || now() < until; ++call) {
      const double t0 = now();
      if (attnprop_attention_f32(&args) != 0) return 1;
      const double s = now() - t0;
      if (s < best) best = s;
    }
    const double flops = 4.0 * (double)t * (double)t * (double)d * (causal ? 0.5 : 1.0);
    const double ghz = core_ghz();
    printf("f32 T=%lld d=%lld causal=%d: %.1f GFLOP/s; clock after %.3f GHz; kernel/peak %.3f\n", (long long)t,
           (long long)d, causal, flops / best / 1e9, ghz, flops / best / 1e9 / (ghz * flops_per_cycle));
    free(buf);
  }
  return 0;
}
