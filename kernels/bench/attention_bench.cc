// Benchmark of attnprop's attention kernel (Google Benchmark), in one run:
//   peak/<type>/<bits>bit/threads:N  the FMA peak per vector width this CPU has
//                                (independent FMA chains, as many as the
//                                width's register file holds),
//   flash/<type>/T/d/causal/N    the kernel through the C ABI, one head,
//   unfused/<type>/T/d/causal/N  OpenBLAS gemm (Q K^T), row softmax, gemm (P V),
//                                computing the whole T x T matrix even when causal.
//   onednn/<type>/T/d/causal/N   oneDNN 2.6's matmul, softmax and matmul
//                                primitives (adapters/onednn, the code its
//                                check-kernel test checks; f32, and bf16 where
//                                oneDNN implements it on this CPU), the whole
//                                T x T matrix too, the causal mask as a post-op;
//                                out only (no lse: oneDNN's path has none).
// GFLOP/s counts 4 T^2 d flops per head, half of that when causal (for the
// baseline too: it is credited with the useful flops only). Each kernel row
// measures the FMA peak just before and just after itself (row_monitor.h:
// the active target's vector width, the row's threads, 50 ms each) and the
// other processes' load during it. After the runs a summary prints, per
// row: kernel, oneDNN and baseline GFLOP/s, both adjacent peaks, the ratio
// kernel/peak against the higher of the two, kernel/baseline,
// kernel/oneDNN, the other processes' load, a noise flag (peaks more than 5% apart) and 2 threads/1 thread; then
// the peak resident memory after the kernel runs and after the baseline.
// The peak's width is that of the active target (avx2: 256-bit, avx512:
// 512-bit; any other target: the widest this CPU has). The kernel runs the
// target ATTNPROP_KERNEL_TARGET names (default: the best this CPU supports).
// Benchmarks run in registration order (peak, kernel, baseline), so the RSS
// recorded after the kernel runs excludes the baseline's T x T buffers.
#include <benchmark/benchmark.h>
#include <cblas.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "kernels/attnprop_kernel.h"
#include "kernels/attnprop_kernel_ext.h"
#include "kernels/bench/baseline_softmax.h"
#include "kernels/bench/fma_peak.h"
#include "kernels/bench/row_monitor.h"
#if ATTNPROP_BENCH_ONEDNN
#include "adapters/onednn/onednn_attention.h"
#endif

namespace {

double PeakRssMiB() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB
}

double FlopsPerHead(int64_t t, int64_t d, bool causal) {
  const double f = 4.0 * static_cast<double>(t) * static_cast<double>(t) * static_cast<double>(d);
  return causal ? f / 2 : f;
}

template <class T>
struct Inputs {
  std::vector<T> q, k, v, out, lse;
  Inputs(int64_t t, int64_t d) {
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    auto fill = [&](std::vector<T>& x) {
      x.resize(static_cast<size_t>(t * d));
      for (T& e : x) e = static_cast<T>(dist(rng));
    };
    fill(q);
    fill(k);
    fill(v);
    out.resize(static_cast<size_t>(t * d));
    lse.resize(static_cast<size_t>(t));
  }
};

void SetRate(benchmark::State& state, double flops_per_iteration) {
  state.counters["GFLOP/s"] =
      benchmark::Counter(flops_per_iteration / 1e9, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["GFLOP"] = flops_per_iteration / 1e9;
  state.counters["maxrss_MiB"] = PeakRssMiB();
}

void BmPeak(benchmark::State& state, int bits, bool f64, int threads) {
  const int64_t iterations = 1 << 20;
  for (auto _ : state) benchmark::DoNotOptimize(attnprop::bench::RunFmaChains(bits, f64, iterations, threads));
  SetRate(state, static_cast<double>(attnprop::bench::FlopsPerIteration(bits, f64) * iterations * threads));
}

std::string PeakKey(const char* type, int bits, int threads) {
  return std::string("peak/") + type + "/" + std::to_string(bits) + "bit/threads:" + std::to_string(threads);
}

// The vector width of a target's FMA (the peak its rows are compared with).
int PeakBitsFor(const char* target) {
  if (std::strcmp(target, "avx2") == 0) return 256;
  if (std::strcmp(target, "avx512") == 0) return 512;
  return attnprop::bench::FmaWidthSupported(512) ? 512 : 256;
}

// The CPU's model name (/proc/cpuinfo), for the report.
std::string CpuModel() {
  std::FILE* f = std::fopen("/proc/cpuinfo", "r");
  if (f == nullptr) return "unknown CPU";
  char line[512];
  std::string model = "unknown CPU";
  while (std::fgets(line, sizeof line, f) != nullptr) {
    if (std::strncmp(line, "model name", 10) == 0) {
      const char* colon = std::strchr(line, ':');
      if (colon != nullptr) {
        model = colon + 1;
        while (!model.empty() && (model.front() == ' ' || model.front() == '\t')) model.erase(0, 1);
        while (!model.empty() && (model.back() == '\n' || model.back() == ' ')) model.pop_back();
      }
      break;
    }
  }
  std::fclose(f);
  return model;
}

/// One batch item, t_q = t_k = t, d_k = d_v = d, scale 1/sqrt(d); buffers unset.
attnprop_attention_args SquareArgs(int64_t t, int64_t d, bool causal) {
  attnprop_attention_args a;
  std::memset(&a, 0, sizeof a);
  a.struct_size = sizeof a;
  a.batch = 1;
  a.t_q = a.t_k = t;
  a.d_k = a.d_v = d;
  a.scale = 1.0 / std::sqrt(static_cast<double>(d));
  a.causal = causal ? 1 : 0;
  return a;
}

template <class T>
void BmFlash(benchmark::State& state, int64_t t, int64_t d, bool causal, int threads) {
  Inputs<T> in(t, d);
  attnprop_attention_args a = SquareArgs(t, d, causal);
  a.q = in.q.data();
  a.k = in.k.data();
  a.v = in.v.data();
  a.out = in.out.data();
  a.lse = in.lse.data();
  attnprop_kernel_set_threads(threads);
  attnprop::bench::RowMonitor monitor(PeakBitsFor(attnprop_kernel_target()), std::is_same_v<T, double>, threads);
  for (auto _ : state) {
    const int rc = std::is_same_v<T, float> ? attnprop_attention_f32(&a) : attnprop_attention_f64(&a);
    if (rc != 0) {
      state.SkipWithError("kernel call failed");
      break;
    }
    benchmark::DoNotOptimize(in.out.data());
    benchmark::ClobberMemory();
  }
  monitor.Finish(state);
  SetRate(state, FlopsPerHead(t, d, causal));
}

// ABI v2's half-precision entry points (bf16, f16 storage; attnprop's kernel
// converts to its f32 path): the f32 inputs' values (in [-1, 1]) truncated
// to bf16 / f16 bit patterns (f16: below 2^-14 to 0), out in the format, lse in float.
uint16_t TruncateToHalf(float x, bool f16) {
  uint32_t b;
  std::memcpy(&b, &x, 4);
  if (!f16) return static_cast<uint16_t>(b >> 16);
  const uint32_t sign = (b >> 16) & 0x8000u, e = (b >> 23) & 0xFFu;
  if (e < 113) return static_cast<uint16_t>(sign);  // below 2^-14 (and zero)
  return static_cast<uint16_t>(sign | ((e - 112u) << 10) | ((b & 0x7FFFFFu) >> 13));
}

void BmFlashHalf(benchmark::State& state, int64_t t, int64_t d, bool causal, int threads, bool f16) {
  const Inputs<float> in(t, d);
  auto convert = [f16](const std::vector<float>& x) {
    std::vector<uint16_t> h(x.size());
    for (size_t i = 0; i < x.size(); ++i) h[i] = TruncateToHalf(x[i], f16);
    return h;
  };
  const std::vector<uint16_t> q = convert(in.q), k = convert(in.k), v = convert(in.v);
  std::vector<uint16_t> out(in.out.size());
  std::vector<float> lse(in.lse.size());
  attnprop_attention_args a = SquareArgs(t, d, causal);
  a.q = q.data();
  a.k = k.data();
  a.v = v.data();
  a.out = out.data();
  a.lse = lse.data();
  attnprop_kernel_set_threads(threads);
  attnprop::bench::RowMonitor monitor(PeakBitsFor(attnprop_kernel_target()), false, threads);
  for (auto _ : state) {
    const int rc = f16 ? attnprop_attention_f16(&a) : attnprop_attention_bf16(&a);
    if (rc != 0) {
      state.SkipWithError("kernel call failed");
      break;
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  monitor.Finish(state);
  SetRate(state, FlopsPerHead(t, d, causal));
}

void Gemm(bool trans_b, int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* c) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans, static_cast<int>(m),
              static_cast<int>(n), static_cast<int>(k), 1.0f, a, static_cast<int>(k), b,
              static_cast<int>(trans_b ? k : n), 0.0f, c, static_cast<int>(n));
}
void Gemm(bool trans_b, int64_t m, int64_t n, int64_t k, const double* a, const double* b, double* c) {
  cblas_dgemm(CblasRowMajor, CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans, static_cast<int>(m),
              static_cast<int>(n), static_cast<int>(k), 1.0, a, static_cast<int>(k), b,
              static_cast<int>(trans_b ? k : n), 0.0, c, static_cast<int>(n));
}

// Row softmax (bench/baseline_softmax.cc), rows split evenly over threads.
template <class T>
void Softmax(std::vector<T>& s, int64_t t, T scale, bool causal, int threads) {
  auto rows = [&](int64_t lo, int64_t hi) { attnprop::bench::SoftmaxRows(s.data(), t, scale, causal, lo, hi); };
  std::vector<std::thread> pool;
  for (int w = 1; w < threads; ++w) pool.emplace_back(rows, t * w / threads, t * (w + 1) / threads);
  rows(0, t / threads);
  for (auto& th : pool) th.join();
}

template <class T>
void BmUnfused(benchmark::State& state, int64_t t, int64_t d, bool causal, int threads) {
  Inputs<T> in(t, d);
  std::vector<T> s(static_cast<size_t>(t * t));
  openblas_set_num_threads(threads);
  const T scale = static_cast<T>(1.0 / std::sqrt(static_cast<double>(d)));
  for (auto _ : state) {
    Gemm(true, t, t, d, in.q.data(), in.k.data(), s.data());  // S = Q K^T
    Softmax(s, t, scale, causal, threads);
    Gemm(false, t, d, t, s.data(), in.v.data(), in.out.data());  // O = P V
    benchmark::DoNotOptimize(in.out.data());
    benchmark::ClobberMemory();
  }
  SetRate(state, FlopsPerHead(t, d, causal));
}

#if ATTNPROP_BENCH_ONEDNN
// oneDNN through the adapter's computation, one head, on `threads` OpenMP
// threads; bf16 inputs are the f32 inputs truncated as for the kernel.
void BmOneDnn(benchmark::State& state, int64_t t, int64_t d, bool causal, int threads, bool bf16) {
  const Inputs<float> in(t, d);
  std::vector<uint16_t> q, k, v, out16;
  attnprop_attention_args a = SquareArgs(t, d, causal);
  std::vector<float> out(in.out.size());
  if (bf16) {
    for (auto [src, dst] : {std::pair{&in.q, &q}, std::pair{&in.k, &k}, std::pair{&in.v, &v}})
      for (float x : *src) dst->push_back(TruncateToHalf(x, false));
    out16.resize(in.out.size());
    a.q = q.data(), a.k = k.data(), a.v = v.data(), a.out = out16.data();
  } else {
    a.q = in.q.data(), a.k = in.k.data(), a.v = in.v.data(), a.out = out.data();
  }
  const auto storage = bf16 ? attnprop::onednn::Storage::kBF16 : attnprop::onednn::Storage::kF32;
  attnprop::onednn::SetThreads(threads);
  for (auto _ : state) {
    if (attnprop::onednn::Attend(&a, storage) != 0) {
      state.SkipWithError("oneDNN call failed");
      break;
    }
    benchmark::DoNotOptimize(a.out);
    benchmark::ClobberMemory();
  }
  SetRate(state, FlopsPerHead(t, d, causal));
}
#endif

// Collects every run's GFLOP/s and RSS for the summary.
class Collector : public benchmark::ConsoleReporter {
 public:
  // GFLOP/s per second of wall time, and the peak resident memory.
  std::map<std::string, double> gflops, rss;
  // The adjacent peaks and load of each kernel row (RowMonitor's counters).
  std::map<std::string, std::map<std::string, double>> monitor;
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      if (r.error_occurred || r.run_type != Run::RT_Iteration) continue;
      std::string name = r.benchmark_name();
      if (const size_t at = name.find("/process_time"); at != std::string::npos) name.erase(at);
      if (const size_t at = name.find("/real_time"); at != std::string::npos) name.erase(at);
      if (auto it = r.counters.find("GFLOP/s"); it != r.counters.end()) gflops[name] = it->second.value;
      if (auto it = r.counters.find("maxrss_MiB"); it != r.counters.end()) rss[name] = it->second.value;
      for (const char* c : {"peak_before", "peak_after", "other_load", "noisy"})
        if (auto it = r.counters.find(c); it != r.counters.end()) monitor[name][c] = it->second.value;
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

/// A table cell: the value, or "-" where its benchmark did not run (oneDNN
/// has no f64 or f16 row, or is not built; a filter left a peak or baseline
/// out), never "nan".
std::string Cell(double x, int decimals) {
  if (std::isnan(x)) return "-";
  char b[32];
  std::snprintf(b, sizeof b, "%.*f", decimals, x);
  return b;
}

std::string Key(const char* kind, const char* type, int64_t t, int64_t d, bool causal, int threads) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "%s/%s/T:%lld/d:%lld/causal:%d/threads:%d", kind, type,
                static_cast<long long>(t), static_cast<long long>(d), causal ? 1 : 0, threads);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  // Debian's OpenBLAS 0.3.21 (DYNAMIC_ARCH) does not know every recent CPU and
  // then falls back to its SSE3 "Prescott" kernels, which would make the
  // baseline a strawman. It reads OPENBLAS_CORETYPE when loaded, so choose the
  // best kernel set this CPU runs and start again (once).
  if (std::getenv("OPENBLAS_CORETYPE") == nullptr && std::strcmp(openblas_get_corename(), "Prescott") == 0) {
    __builtin_cpu_init();
    const char* core = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") ? "SkylakeX"
                       : __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? "Haswell"
                                                                                          : nullptr;
    if (core != nullptr) {
      std::fprintf(stderr, "OpenBLAS chose Prescott on this CPU; re-running with OPENBLAS_CORETYPE=%s\n", core);
      setenv("OPENBLAS_CORETYPE", core, 1);
      execv("/proc/self/exe", argv);
    }
  }
  const int64_t kT[] = {256, 1024, 4096};
  const int64_t kD[] = {64, 128};
  const int kThreads[] = {1, 2};
  // bf16 and f16 (flash only): compared with the f32 baseline and peak.
  const char* kTypes[] = {"f32", "f64", "bf16", "f16"};
  auto base = [&](int ty) { return kTypes[ty == 1 ? 1 : 0]; };
  for (int bits : {256, 512})
    for (int f64 = 0; f64 < 2; ++f64)
      for (int th : kThreads)
        if (attnprop::bench::FmaWidthSupported(bits))
          benchmark::RegisterBenchmark(PeakKey(kTypes[f64], bits, th).c_str(),
                                       [bits, f64, th](benchmark::State& st) { BmPeak(st, bits, f64 == 1, th); })
              ->UseRealTime()
              ->MeasureProcessCPUTime()
              ->Unit(benchmark::kMillisecond);
  for (const char* kind : {"flash", "unfused"})
    for (int f64 = 0; f64 < 2; ++f64)
      for (int64_t t : kT)
        for (int64_t d : kD)
          for (bool causal : {false, true})
            for (int th : kThreads) {
              const std::string name = Key(kind, kTypes[f64], t, d, causal, th);
              const bool flash = std::strcmp(kind, "flash") == 0;
              benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) {
                if (flash && f64 == 0) BmFlash<float>(st, t, d, causal, th);
                if (flash && f64 == 1) BmFlash<double>(st, t, d, causal, th);
                if (!flash && f64 == 0) BmUnfused<float>(st, t, d, causal, th);
                if (!flash && f64 == 1) BmUnfused<double>(st, t, d, causal, th);
              })->UseRealTime()->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
            }
  for (int ty = 2; ty < 4; ++ty)
    for (int64_t t : kT)
      for (int64_t d : kD)
        for (bool causal : {false, true})
          for (int th : kThreads)
            benchmark::RegisterBenchmark(Key("flash", kTypes[ty], t, d, causal, th).c_str(),
                                         [=](benchmark::State& st) { BmFlashHalf(st, t, d, causal, th, ty == 3); })
                ->UseRealTime()
                ->MeasureProcessCPUTime()
                ->Unit(benchmark::kMillisecond);

#if ATTNPROP_BENCH_ONEDNN
  for (int ty : {0, 2})
    if (attnprop::onednn::Implements(ty == 0 ? attnprop::onednn::Storage::kF32 : attnprop::onednn::Storage::kBF16))
      for (int64_t t : kT)
        for (int64_t d : kD)
          for (bool causal : {false, true})
            for (int th : kThreads)
              benchmark::RegisterBenchmark(Key("onednn", kTypes[ty], t, d, causal, th).c_str(),
                                           [=](benchmark::State& st) { BmOneDnn(st, t, d, causal, th, ty == 2); })
                  ->UseRealTime()
                  ->MeasureProcessCPUTime()
                  ->Unit(benchmark::kMillisecond);
  const char* onednn = attnprop::onednn::Describe();
#else
  const char* onednn = "not built (libdnnl-dev not found)";
#endif
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  const int peak_bits = PeakBitsFor(attnprop_kernel_target());
  double load_start[3] = {0, 0, 0}, load_end[3] = {0, 0, 0};
  getloadavg(load_start, 3);
  std::printf("CPU: %s; attnprop kernel target: %s (peak: %d-bit FMA, %d chains); OpenBLAS: %s, core %s; %s\n",
              CpuModel().c_str(), attnprop_kernel_target(), peak_bits, attnprop::bench::FmaChains(peak_bits),
              openblas_get_config(), openblas_get_corename(), onednn);
  Collector collector;
  benchmark::RunSpecifiedBenchmarks(&collector);
  getloadavg(load_end, 3);

  double rss_kernel = 0, rss_all = 0;
  for (const auto& [name, value] : collector.rss) {
    rss_all = std::max(rss_all, value);
    if (name.rfind("flash/", 0) == 0 || name.rfind("peak/", 0) == 0) rss_kernel = std::max(rss_kernel, value);
  }
  // Summary: one row per kernel configuration that ran, the same rows in the
  // console and as Markdown. Its ratio to the peak is against the higher of
  // the two peaks measured next to it (RowMonitor), not the peak/*
  // benchmarks': those ran first, minutes before, at another clock (101 GFLOP/s
  // against 116 next to the row, seen on a Zen 4).
  struct Row {
    const char* type;
    int64_t t, d;
    bool causal;
    int threads;
    double kernel, onednn, unfused, peak_before, peak_after, other_load, noisy, speedup;
    double Peak() const { return std::max(peak_before, peak_after); }
  };
  auto get = [](const std::map<std::string, double>& rates, const std::string& key) {
    auto it = rates.find(key);
    return it == rates.end() ? std::nan("") : it->second;
  };
  std::vector<Row> rows;
  for (int f64 = 0; f64 < 4; ++f64)
    for (int64_t t : kT)
      for (int64_t d : kD)
        for (bool causal : {false, true})
          for (int th : kThreads) {
            const std::string key = Key("flash", kTypes[f64], t, d, causal, th);
            const double k = get(collector.gflops, key);
            if (std::isnan(k)) continue;
            const std::map<std::string, double>& m = collector.monitor[key];
            const double k1 = get(collector.gflops, Key("flash", kTypes[f64], t, d, causal, 1));
            rows.push_back({kTypes[f64], t, d, causal, th, k,
                            get(collector.gflops, Key("onednn", kTypes[f64], t, d, causal, th)),
                            get(collector.gflops, Key("unfused", base(f64), t, d, causal, th)), get(m, "peak_before"),
                            get(m, "peak_after"), get(m, "other_load"), get(m, "noisy"), th == 2 ? k / k1 : std::nan("")});
          }
  std::printf("\nGFLOP/s by wall time; target %s, peaks %d-bit FMA on the row's threads, just before and after it\n",
              attnprop_kernel_target(), peak_bits);
  std::printf("%-4s %5s %4s %6s %3s | %7s %7s %7s | %7s %7s | %6s %6s %6s | %5s %5s %5s\n", "type", "T", "d",
              "causal", "thr", "kernel", "oneDNN", "unfused", "pk_bef", "pk_aft", "k/peak", "k/unf", "k/1dnn", "load",
              "noisy", "2t/1t");
  for (const Row& r : rows)
    std::printf("%-4s %5lld %4lld %6d %3d | %7.1f %7s %7s | %7s %7s | %6s %6s %6s | %5s %5s %5s\n", r.type,
                static_cast<long long>(r.t), static_cast<long long>(r.d), r.causal ? 1 : 0, r.threads, r.kernel,
                Cell(r.onednn, 1).c_str(), Cell(r.unfused, 1).c_str(), Cell(r.peak_before, 1).c_str(),
                Cell(r.peak_after, 1).c_str(), Cell(r.kernel / r.Peak(), 2).c_str(),
                Cell(r.kernel / r.unfused, 2).c_str(), Cell(r.kernel / r.onednn, 2).c_str(),
                Cell(r.other_load, 2).c_str(), r.noisy > 0 ? "NOISY" : "", Cell(r.speedup, 2).c_str());
  int noisy = 0;
  for (const Row& r : rows) noisy += r.noisy > 0 ? 1 : 0;
  std::printf("%d of %zu rows noisy (their two adjacent peaks differ by more than %.0f%%: the clock moved during "
              "the row; rerun on a quieter machine)\n",
              noisy, rows.size(), 100 * attnprop::bench::kNoisyPeakSpread);
  std::string peaks;
  for (int bits : {256, 512})
    for (int f64 = 0; f64 < 2; ++f64)
      for (int th : kThreads)
        if (auto it = collector.gflops.find(PeakKey(kTypes[f64], bits, th)); it != collector.gflops.end())
          peaks += " " + std::to_string(bits) + "-bit " + kTypes[f64] + " " + std::to_string(th) + "t " +
                   Cell(it->second, 1) + ";";
  std::printf("\nFMA peak (GFLOP/s, wall time, the peak/* benchmarks, run first):%s\n",
              peaks.empty() ? " none ran (--benchmark_filter)" : peaks.c_str());
  // The same rows as a Markdown table (docs/performance.md's table).
  std::printf("\nMarkdown (README): %s, kernel target %s, peaks = %d-bit FMA next to each row; load average %.2f "
              "at the start, %.2f at the end (%d CPUs)\n\n",
              CpuModel().c_str(), attnprop_kernel_target(), peak_bits, load_start[0], load_end[0],
              static_cast<int>(std::thread::hardware_concurrency()));
  std::printf("| type | T | d | causal | threads | kernel GFLOP/s | oneDNN GFLOP/s | baseline GFLOP/s | peak before | "
              "peak after | kernel/peak | kernel/baseline | kernel/oneDNN | other load | noisy | 2 threads/1 |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|\n");
  for (const Row& r : rows)
    std::printf("| %s | %lld | %lld | %d | %d | %.1f | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
                r.type, static_cast<long long>(r.t), static_cast<long long>(r.d), r.causal ? 1 : 0, r.threads,
                r.kernel, Cell(r.onednn, 1).c_str(), Cell(r.unfused, 1).c_str(), Cell(r.peak_before, 1).c_str(),
                Cell(r.peak_after, 1).c_str(), Cell(r.kernel / r.Peak(), 2).c_str(),
                Cell(r.kernel / r.unfused, 2).c_str(), Cell(r.kernel / r.onednn, 2).c_str(),
                Cell(r.other_load, 2).c_str(), r.noisy > 0 ? "noisy" : "", Cell(r.speedup, 2).c_str());
  std::printf("\nGFLOP/s: 4 T^2 d per head (causal: half). Peak RSS after peak+kernel runs: %.1f MiB; "
              "after the unfused baseline too: %.1f MiB (its T x T score matrix alone: %.1f MiB at T = 4096, f64).\n",
              rss_kernel, rss_all, 4096.0 * 4096.0 * 8 / (1 << 20));
  benchmark::Shutdown();
  return 0;
}
