// FMA peak microbenchmark (see fma_peak.cc).
#pragma once

#include <cstdint>

namespace attnprop::bench {

/// Lanes of the widest FMA vector this CPU has for the type (0: no FMA).
int PeakLanes(bool f64);
/// Runs `iterations` rounds of independent FMA chains on `threads` threads;
/// returns a value that depends on every chain (to keep it from being elided).
double RunFmaChains(bool f64, int64_t iterations, int threads);
/// Floating-point operations per round per thread (2 per FMA lane).
int64_t FlopsPerIteration(bool f64);

}  // namespace attnprop::bench
