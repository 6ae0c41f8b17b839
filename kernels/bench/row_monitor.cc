// RowMonitor (row_monitor.h): adjacent FMA peaks and the other processes' load.
#include "kernels/bench/row_monitor.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "kernels/bench/fma_peak.h"

namespace attnprop::bench {
namespace {

// Each adjacent peak runs this long: 2 x 50 ms per row, against rows of
// 0.5 s or more (Google Benchmark's default minimum time).
constexpr double kPeakSeconds = 0.05;

// Busy CPU seconds of the whole machine since boot (/proc/stat's first line:
// every state but idle and iowait; steal counts as busy, it is time another
// guest took from this one).
double MachineBusySeconds() {
  std::FILE* f = std::fopen("/proc/stat", "r");
  if (f == nullptr) return std::nan("");
  unsigned long long user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
  const int n = std::fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &system, &idle, &iowait,
                            &irq, &softirq, &steal);
  std::fclose(f);
  if (n < 4) return std::nan("");
  return static_cast<double>(user + nice + system + irq + softirq + steal) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

double ProcessCpuSeconds() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
  return s(ru.ru_utime) + s(ru.ru_stime);
}

}  // namespace

RowMonitor::RowMonitor(int bits, bool f64, int threads)
    : bits_(bits), threads_(threads), f64_(f64), peak_before_(MeasurePeakGflops(bits, f64, threads, kPeakSeconds)) {
  busy_start_s_ = MachineBusySeconds();
  process_start_s_ = ProcessCpuSeconds();
  wall_start_ = std::chrono::steady_clock::now();
}

void RowMonitor::Finish(benchmark::State& state) {
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start_).count();
  const double others = (MachineBusySeconds() - busy_start_s_) - (ProcessCpuSeconds() - process_start_s_);
  const double peak_after = MeasurePeakGflops(bits_, f64_, threads_, kPeakSeconds);
  state.counters["peak_before"] = peak_before_;
  state.counters["peak_after"] = peak_after;
  // /proc/stat counts in clock ticks (10 ms): a short row reads a little
  // below 0; that is 0.
  state.counters["other_load"] = wall > 0 ? std::max(0.0, others / wall) : std::nan("");
  const double high = std::max(peak_before_, peak_after), low = std::min(peak_before_, peak_after);
  state.counters["noisy"] = high > 0 && (high - low) / high > kNoisyPeakSpread ? 1 : 0;
}

}  // namespace attnprop::bench
