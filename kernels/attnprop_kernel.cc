// The C ABI (attnprop_kernel.h) and its extension (attnprop_kernel_ext.h):
// argument checks, run-time choice of the SIMD target, and the thread pool.
#include "kernels/attnprop_kernel.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <pthread.h>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "kernels/attnprop_kernel_ext.h"
#include "kernels/kernel_internal.h"

#define ATTNPROP_EXPORT extern "C" __attribute__((visibility("default")))

namespace attnprop::kernel {
namespace {

constexpr int kOk = 0;
constexpr int kInvalidArgument = 1;
constexpr int kBadConfiguration = 2;
constexpr int kOutOfMemory = 3;

const TargetImpl* BestTarget();

// The settings, read from the environment once, at first use.
struct Settings {
  std::atomic<const TargetImpl*> target{nullptr};
  std::atomic<int> threads{0};             // 0 = hardware concurrency
  std::atomic<bool> target_error{false};   // ATTNPROP_KERNEL_TARGET unusable
  std::atomic<bool> threads_error{false};  // ATTNPROP_KERNEL_THREADS unusable
};

Settings& GetSettings() {
  static Settings* settings = [] {
    auto* s = new Settings;  // never destroyed: calls may come during exit
    s->target = BestTarget();
    if (const char* name = std::getenv("ATTNPROP_KERNEL_TARGET"); name != nullptr && *name != '\0') {
      if (std::strcmp(name, "auto") != 0) {
        const TargetImpl* impl = FindTarget(name);
        if (impl == nullptr) {
          std::string names;
          for (int i = 0; i < TargetCount(); ++i) names += std::string(TargetAt(i)->name) + ", ";
          std::fprintf(stderr,
                       "attnprop_kernel: ATTNPROP_KERNEL_TARGET=%s is not a target (%sauto); attention calls "
                       "fail\n",
                       name, names.c_str());
          s->target_error = true;
        } else if (!CpuSupports(impl)) {
          std::fprintf(stderr,
                       "attnprop_kernel: ATTNPROP_KERNEL_TARGET=%s is not supported by this CPU; "
                       "attention calls fail\n",
                       name);
          s->target_error = true;
        } else {
          s->target = impl;
        }
      }
    }
    if (const char* text = std::getenv("ATTNPROP_KERNEL_THREADS"); text != nullptr && *text != '\0') {
      char* end = nullptr;
      const long n = std::strtol(text, &end, 10);
      if (*end != '\0' || n < 0 || n > 4096) {
        std::fprintf(stderr,
                     "attnprop_kernel: ATTNPROP_KERNEL_THREADS=%s is not an integer in [0, 4096]; "
                     "attention calls fail\n",
                     text);
        s->threads_error = true;
      } else {
        s->threads = static_cast<int>(n);
      }
    }
    return s;
  }();
  return *settings;
}

int DefaultThreads() {
  const unsigned hc = std::thread::hardware_concurrency();
  return hc == 0 ? 1 : static_cast<int>(std::min(hc, 4096u));
}

// A pool of sleeping workers (no spinning: the benchmark's BLAS baseline and
// other callers must not lose cores to idle waiters). One call at a time
// uses it; a concurrent call runs on its own thread instead (same results).
class Pool {
 public:
  // Runs job(worker_index) on n threads (the caller is worker 0).
  void Run(int n, const std::function<void(int)>& job) {
    std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
    if (n <= 1 || !busy.owns_lock()) {
      job(0);
      return;
    }
    {
      std::unique_lock<std::mutex> lock(mu_);
      while (static_cast<int>(workers_.size()) < n - 1) {
        const int index = static_cast<int>(workers_.size()) + 1;
        workers_.emplace_back([this, index] { Work(index); });
        workers_.back().detach();
      }
      job_ = &job;
      participants_ = n - 1;
      pending_ = n - 1;
      ++generation_;
    }
    wake_.notify_all();
    job(0);
    std::unique_lock<std::mutex> lock(mu_);
    done_.wait(lock, [this] { return pending_ == 0; });
    job_ = nullptr;
  }

 private:
  void Work(int index) {
    uint64_t seen = 0;
    for (;;) {
      const std::function<void(int)>* job = nullptr;
      {
        std::unique_lock<std::mutex> lock(mu_);
        wake_.wait(lock, [&] { return generation_ != seen && index <= participants_; });
        seen = generation_;
        job = job_;
      }
      (*job)(index);
      {
        std::lock_guard<std::mutex> lock(mu_);
        --pending_;
      }
      done_.notify_one();
    }
  }

  std::mutex busy_;
  std::mutex mu_;
  std::condition_variable wake_, done_;
  std::vector<std::thread> workers_;
  const std::function<void(int)>* job_ = nullptr;
  int participants_ = 0;
  int pending_ = 0;
  uint64_t generation_ = 0;
};

std::atomic<Pool*> g_pool{nullptr};

// A forked child has none of the parent's workers: it gets a fresh pool (the
// old one, whose mutexes may be held by threads that do not exist there, is
// abandoned).
void ResetPoolInChild() { g_pool.store(new Pool); }

Pool& GetPool() {
  static Pool* first = [] {
    auto* pool = new Pool;  // never destroyed: detached workers use it
    g_pool.store(pool);
    pthread_atfork(nullptr, nullptr, ResetPoolInChild);
    return pool;
  }();
  (void)first;
  return *g_pool.load();
}

struct AlignedFree {
  void operator()(void* p) const { std::free(p); }
};

bool MulFits(int64_t a, int64_t b, int64_t limit, int64_t* r) {
  return !__builtin_mul_overflow(a, b, r) && *r <= limit;
}

// The scale in T, rounded as IEEE conversion does (to nearest; beyond the
// largest float by half an ulp or more: +-inf). A plain cast of a double out
// of float's range is undefined behaviour in C++.
template <class T>
T ScaleAs(double x) {
  if constexpr (std::is_same_v<T, float>) {
    constexpr double kOverflow = 0x1p128 - 0x1p103;  // FLT_MAX + half an ulp
    if (std::fabs(x) >= kOverflow) return std::copysign(std::numeric_limits<float>::infinity(), static_cast<float>(x > 0 ? 1 : -1));
    if (std::fabs(x) > std::numeric_limits<float>::max())
      return std::copysign(std::numeric_limits<float>::max(), static_cast<float>(x > 0 ? 1 : -1));
  }
  return static_cast<T>(x);
}

// scale * log2(e) in T, rounded once: the product is formed in a type wider
// than T (double for float; long double, 64-bit significand, for double), so
// its error is one rounding to T plus at most 2^-62 relative.
template <class T>
T ScaleLog2As(double scale) {
  constexpr long double kLog2e = 1.442695040888963407359924681001892137L;
  if constexpr (std::is_same_v<T, float>) {
    return ScaleAs<float>(scale * static_cast<double>(kLog2e));
  } else {
    const long double x = static_cast<long double>(scale) * kLog2e;
    if (std::fabs(x) > static_cast<long double>(std::numeric_limits<double>::max()))
      return std::copysign(std::numeric_limits<double>::infinity(), scale);
    return static_cast<double>(x);
  }
}

// Checks the arguments; fills `p` on success.
template <class T>
int Validate(const attnprop_attention_args* args, Problem<T>* p) {
  if (args == nullptr || args->struct_size < sizeof(attnprop_attention_args)) return kInvalidArgument;
  if (args->q == nullptr || args->k == nullptr || args->v == nullptr || args->out == nullptr)
    return kInvalidArgument;
  if (args->batch < 1 || args->t_q < 1 || args->t_k < 1 || args->d_k < 1 || args->d_v < 1)
    return kInvalidArgument;
  if (!std::isfinite(args->scale) || (args->causal != 0 && args->causal != 1)) return kInvalidArgument;
  // Every array's element count must be addressable.
  const int64_t limit = static_cast<int64_t>(PTRDIFF_MAX / static_cast<ptrdiff_t>(sizeof(T))) / 2;
  int64_t rows_q = 0, rows_k = 0, n = 0;
  if (!MulFits(args->batch, args->t_q, limit, &rows_q) || !MulFits(args->batch, args->t_k, limit, &rows_k) ||
      !MulFits(rows_q, args->d_k, limit, &n) || !MulFits(rows_q, args->d_v, limit, &n) ||
      !MulFits(rows_k, args->d_k, limit, &n) || !MulFits(rows_k, args->d_v, limit, &n))
    return kInvalidArgument;
  *p = Problem<T>{args->batch,
                  args->t_q,
                  args->t_k,
                  args->d_k,
                  args->d_v,
                  ScaleAs<T>(args->scale),
                  ScaleLog2As<T>(args->scale),
                  args->causal == 1,
                  static_cast<const T*>(args->q),
                  static_cast<const T*>(args->k),
                  static_cast<const T*>(args->v),
                  static_cast<T*>(args->out),
                  static_cast<T*>(args->lse)};
  return kOk;
}

template <class T>
int Attention(const attnprop_attention_args* args) {
  Settings& settings = GetSettings();
  Problem<T> p{};
  if (const int rc = Validate(args, &p); rc != kOk) return rc;
  if (settings.target_error || settings.threads_error) return kBadConfiguration;
  const TargetImpl* impl = settings.target.load();
  size_t (*workspace)(const Problem<T>&) = nullptr;
  void (*run)(const Problem<T>&, void*, int64_t) = nullptr;
  if constexpr (std::is_same_v<T, float>) {
    workspace = impl->workspace_f32;
    run = impl->run_f32;
  } else {
    workspace = impl->workspace_f64;
    run = impl->run_f64;
  }
  const int64_t items = p.batch * QueryBlocks(p.t_q);
  int threads = settings.threads.load();
  if (threads == 0) threads = DefaultThreads();
  threads = static_cast<int>(std::min<int64_t>(threads, items));

  // All scratch is allocated before anything is written, so that a failed
  // allocation leaves out and lse untouched.
  const size_t bytes = workspace(p);
  std::vector<std::unique_ptr<void, AlignedFree>> spaces;
  spaces.reserve(static_cast<size_t>(threads));
  for (int t = 0; t < threads; ++t) {
    void* ws = std::aligned_alloc(64, bytes);
    if (ws == nullptr) return kOutOfMemory;
    spaces.emplace_back(ws);
  }
  std::atomic<int64_t> next{0};
  const std::function<void(int)> job = [&](int worker) {
    void* ws = spaces[static_cast<size_t>(worker)].get();
    for (int64_t item = next.fetch_add(1); item < items; item = next.fetch_add(1)) run(p, ws, item);
  };
  GetPool().Run(threads, job);
  return kOk;
}

// ABI v2's half-precision entry points: q, k and v converted (exactly) to
// float, the f32 path, out rounded once to nearest-even into the format; lse
// is float already. Accumulation: f32 (attnprop_kernel_accumulation).
float Bf16ToFloat(uint16_t h) {
  const uint32_t x = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

uint16_t FloatToBf16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);  // quiet NaN
  x += 0x7FFFu + ((x >> 16) & 1u);  // round to nearest, ties to even (carries into the exponent)
  return static_cast<uint16_t>(x >> 16);
}

float F16ToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
  float f;
  if (e == 0) {  // zero or subnormal: m 2^-24, exact in float
    f = std::ldexp(static_cast<float>(m), -24);
    return sign ? -f : f;
  }
  const uint32_t x = e == 0x1Fu ? sign | 0x7F800000u | (m << 13) : sign | ((e + 112u) << 23) | (m << 13);
  std::memcpy(&f, &x, 4);
  return f;
}

uint16_t FloatToF16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const auto sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t ax = x & 0x7FFFFFFFu;
  if (ax > 0x7F800000u) return static_cast<uint16_t>(sign | 0x7E00u);  // NaN
  if (ax >= 0x477FF000u) return static_cast<uint16_t>(sign | 0x7C00u);  // >= 65520: rounds to inf
  if (ax < 0x38800000u) {  // below 2^-14: a subnormal step is 2^-24; |f| 2^24 is exact, rounded to even
    float a;
    std::memcpy(&a, &ax, 4);
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(a * 0x1p24f)));
  }
  uint32_t h = ((((ax >> 23) - 112u) << 10) | ((ax & 0x7FFFFFu) >> 13));
  const uint32_t rest = ax & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // a carry moves into the exponent, as it should
  return static_cast<uint16_t>(sign | h);
}

template <float (*ToFloat)(uint16_t), uint16_t (*FromFloat)(float)>
int AttentionHalf(const attnprop_attention_args* args) {
  Problem<float> p{};
  if (const int rc = Validate(args, &p); rc != kOk) return rc;
  const auto count = [](int64_t a, int64_t b, int64_t c) { return static_cast<size_t>(a * b * c); };
  const size_t nq = count(args->batch, args->t_q, args->d_k), nk = count(args->batch, args->t_k, args->d_k),
               nv = count(args->batch, args->t_k, args->d_v), no = count(args->batch, args->t_q, args->d_v);
  std::unique_ptr<float[]> buf(new (std::nothrow) float[nq + nk + nv + no]);
  if (!buf) return kOutOfMemory;
  float *q = buf.get(), *k = q + nq, *v = k + nk, *out = v + nv;
  const auto convert = [](const void* src, float* dst, size_t n) {
    const auto* s = static_cast<const uint16_t*>(src);
    for (size_t i = 0; i < n; ++i) dst[i] = ToFloat(s[i]);
  };
  convert(args->q, q, nq);
  convert(args->k, k, nk);
  convert(args->v, v, nv);
  attnprop_attention_args a = *args;
  a.struct_size = sizeof a;
  a.q = q;
  a.k = k;
  a.v = v;
  a.out = out;
  if (const int rc = Attention<float>(&a); rc != kOk) return rc;
  auto* o = static_cast<uint16_t*>(args->out);
  for (size_t i = 0; i < no; ++i) o[i] = FromFloat(out[i]);
  return kOk;
}

}  // namespace

// The target table, generated from kernels/CMakeLists.txt: each entry's ops
// (defined in kernel_<name>.cc) and its CPU check (compiled here, for the
// baseline ISA).
#define ATTNPROP_KERNEL_TARGET(name, supported) \
  namespace name {                              \
  extern const TargetImpl kImpl;                \
  }
#include "kernels/kernel_targets.inc"
#undef ATTNPROP_KERNEL_TARGET

namespace {

struct TargetEntry {
  const TargetImpl* impl;
  bool (*supported)();
};

const TargetEntry kTargets[] = {
#define ATTNPROP_KERNEL_TARGET(name, supported) \
  {&name::kImpl, [] {                           \
     __builtin_cpu_init();                      \
     return supported;                          \
   }},
#include "kernels/kernel_targets.inc"
#undef ATTNPROP_KERNEL_TARGET
};

constexpr int kTargetCount = static_cast<int>(sizeof kTargets / sizeof kTargets[0]);

// The last entry this CPU supports (the table is in order of preference).
const TargetImpl* BestTarget() {
  for (int i = kTargetCount - 1; i > 0; --i)
    if (kTargets[i].supported()) return kTargets[i].impl;
  return kTargets[0].impl;
}

}  // namespace

int TargetCount() { return kTargetCount; }

const TargetImpl* TargetAt(int i) { return i >= 0 && i < kTargetCount ? kTargets[i].impl : nullptr; }

const TargetImpl* FindTarget(const char* name) {
  if (name == nullptr) return nullptr;
  for (const TargetEntry& t : kTargets)
    if (std::strcmp(name, t.impl->name) == 0) return t.impl;
  return nullptr;
}

bool CpuSupports(const TargetImpl* impl) {
  for (const TargetEntry& t : kTargets)
    if (t.impl == impl) return t.supported();
  return false;
}

#ifdef ATTNPROP_KERNEL_PROFILE
namespace {
std::atomic<uint64_t> g_phase_cycles[2][kPhaseCount];
void PrintProfile() {
  const char* names[kPhaseCount] = {"pack", "scores", "softmax", "out", "final"};
  for (int t = 0; t < 2; ++t) {
    uint64_t total = 0;
    for (auto& c : g_phase_cycles[t]) total += c.load();
    if (total == 0) continue;
    std::fprintf(stderr, "attnprop_kernel profile %s: %.4g Gcycles (TSC);", t ? "f64" : "f32",
                 static_cast<double>(total) * 1e-9);
    for (int p = 0; p < kPhaseCount; ++p)
      std::fprintf(stderr, " %s %.1f%%", names[p],
                   100.0 * static_cast<double>(g_phase_cycles[t][p].load()) / static_cast<double>(total));
    std::fprintf(stderr, "\n");
  }
}
}  // namespace

void ProfileAdd(bool f64, int phase, uint64_t cycles) {
  static const bool registered = [] { return std::atexit(PrintProfile) == 0; }();
  (void)registered;
  g_phase_cycles[f64 ? 1 : 0][phase].fetch_add(cycles, std::memory_order_relaxed);
}
#endif

}  // namespace attnprop::kernel

using attnprop::kernel::BestTarget;
using attnprop::kernel::CpuSupports;
using attnprop::kernel::FindTarget;
using attnprop::kernel::GetSettings;

ATTNPROP_EXPORT int attnprop_kernel_abi_version(void) { return ATTNPROP_KERNEL_ABI_VERSION; }

ATTNPROP_EXPORT int attnprop_attention_f32(const attnprop_attention_args* args) {
  return attnprop::kernel::Attention<float>(args);
}

ATTNPROP_EXPORT int attnprop_attention_f64(const attnprop_attention_args* args) {
  return attnprop::kernel::Attention<double>(args);
}

ATTNPROP_EXPORT int attnprop_attention_bf16(const attnprop_attention_args* args) {
  using namespace attnprop::kernel;
  return AttentionHalf<Bf16ToFloat, FloatToBf16>(args);
}

ATTNPROP_EXPORT int attnprop_attention_f16(const attnprop_attention_args* args) {
  using namespace attnprop::kernel;
  return AttentionHalf<F16ToFloat, FloatToF16>(args);
}

ATTNPROP_EXPORT int attnprop_kernel_accumulation(int format) {
  return format == ATTNPROP_FORMAT_BF16 || format == ATTNPROP_FORMAT_F16 ? ATTNPROP_FORMAT_F32 : 0;
}

ATTNPROP_EXPORT int attnprop_kernel_set_target(const char* name) {
  auto& settings = GetSettings();
  if (name == nullptr) return 1;
  const auto* impl = std::strcmp(name, "auto") == 0 ? BestTarget() : FindTarget(name);
  if (impl == nullptr || !CpuSupports(impl)) return 1;
  settings.target = impl;
  settings.target_error = false;
  return 0;
}

ATTNPROP_EXPORT const char* attnprop_kernel_target(void) { return GetSettings().target.load()->name; }

ATTNPROP_EXPORT int attnprop_kernel_target_supported(const char* name) {
  if (name != nullptr && std::strcmp(name, "auto") == 0) return 1;
  const auto* impl = FindTarget(name);
  return impl != nullptr && CpuSupports(impl) ? 1 : 0;
}

ATTNPROP_EXPORT int attnprop_kernel_target_count(void) { return attnprop::kernel::TargetCount(); }

ATTNPROP_EXPORT const char* attnprop_kernel_target_name(int i) {
  const auto* impl = attnprop::kernel::TargetAt(i);
  return impl != nullptr ? impl->name : nullptr;
}

ATTNPROP_EXPORT int attnprop_kernel_set_threads(int n) {
  auto& settings = GetSettings();
  if (n < 0) return 1;
  settings.threads = n;
  settings.threads_error = false;
  return 0;
}
