// FMA peak microbenchmark (see fma_peak.cc).
#pragma once

#include <cstdint>

namespace attnprop::bench {

/// Independent FMA chains per vector width: as many as the register file
/// holds next to the loop's two constants (256-bit: 16 ymm registers, 12
/// chains; 512-bit: 32 zmm registers, 24 chains). Both cover FMA latency x
/// ports (4-5 cycles x 2 on current cores) with room to spare.
int FmaChains(int bits);
/// Whether this CPU runs FMA at this vector width (256: AVX2+FMA; 512: AVX-512F).
bool FmaWidthSupported(int bits);
/// Runs `iterations` rounds of the width's chains on `threads` threads;
/// returns a value that depends on every chain (to keep it from being elided).
double RunFmaChains(int bits, bool f64, int64_t iterations, int threads);
/// Floating-point operations per round per thread (2 per FMA lane).
int64_t FlopsPerIteration(int bits, bool f64);
/// The FMA peak in GFLOP/s by wall time on `threads` threads: rounds of
/// RunFmaChains, doubled until one run lasts at least `seconds`.
double MeasurePeakGflops(int bits, bool f64, int threads, double seconds);

}  // namespace attnprop::bench
