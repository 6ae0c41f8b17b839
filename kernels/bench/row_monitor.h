// What the machine did around one benchmark row (issue 38): the FMA peak
// measured just before and just after the row, in the row's own process, at
// the kernel target's vector width and on the row's thread count, and how
// busy the other processes kept the CPUs meanwhile. A kernel/peak ratio is
// only meaningful against a peak measured next to it: the clock moves with
// the load (a Xeon's 512-bit peak read 154.6 GFLOP/s with the other vCPU
// busy and 233.6 on a quiet machine).
#pragma once

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>

namespace attnprop::bench {

/// A row is noisy when its two adjacent peaks differ by more than this.
inline constexpr double kNoisyPeakSpread = 0.05;

class RowMonitor {
 public:
  /// Measures the peak before the row (call before the timing loop).
  RowMonitor(int bits, bool f64, int threads);
  /// Measures the peak after the row (call after the timing loop) and sets
  /// the row's counters: peak_before, peak_after (GFLOP/s), other_load (the
  /// CPUs' busy time not spent by this process, in CPUs, averaged over the
  /// row) and noisy (1 when the peaks differ by more than kNoisyPeakSpread).
  void Finish(benchmark::State& state);

 private:
  int bits_, threads_;
  bool f64_;
  double peak_before_;
  double busy_start_s_, process_start_s_;
  std::chrono::steady_clock::time_point wall_start_;
};

}  // namespace attnprop::bench
