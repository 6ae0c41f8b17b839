// The kernel's behaviour beyond accuracy, on every target the CPU supports:
// its exp, lse optional, batch, thread-count independence, repeatability,
// KV-cache decode, and the ABI contract (invalid arguments write nothing;
// nothing outside out/lse is written; inputs are untouched).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "kernels/error_model.h"
#include "kernels/kernel_internal.h"
#include "kernels/tests/kernel_test_util.h"

namespace attnprop::kernel_test {
namespace {

class BehaviourTest : public TargetTest {};

// The exp2 each target uses (exp2_impl.inc, written once over its ops),
// measured: relative error <= numerics::kExpUlps u (the error model's
// assumption) wherever the result is normal; exactly 0 below 2^kExp2Min*,
// for -inf and for NaN; exp2(0) = 1 and exp2 of integers exact. Float: one
// point in every 61 of all floats in [kExp2MinF32, 0] (about 18 million,
// every binade and every last-bit pattern class); double: 4 million points
// (uniform over the range, uniform and log-spaced near 0), against
// long double exp2l (64-bit significand, 2^-11 u of double).
template <class T>
double MeasureExp2(void (*exp2)(const T*, T*, int64_t), const std::vector<T>& x) {
  std::vector<T> y(x.size());
  exp2(x.data(), y.data(), static_cast<int64_t>(x.size()));
  double worst = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const long double ref = std::exp2(static_cast<long double>(x[i]));
    const double err = static_cast<double>(std::fabs((static_cast<long double>(y[i]) - ref) / ref));
    worst = std::max(worst, std::isnan(err) ? INFINITY : err);
  }
  return worst / numerics::UnitRoundoffOf<T>();
}

TEST_P(BehaviourTest, ExpAccuracy) {
  const kernel::TargetImpl* impl = kernel::FindTarget(GetParam());
  ASSERT_NE(impl, nullptr);
  {
    std::vector<float> x;
    uint32_t lo = 0x80000000u, hi = 0;  // bit patterns of -0.0f and of kExp2MinF32
    std::memcpy(&hi, &kernel::kExp2MinF32, sizeof hi);
    for (uint32_t bits = lo; bits <= hi; bits += 61) {
      float t;
      std::memcpy(&t, &bits, sizeof t);
      x.push_back(t);
    }
    for (int n = -126; n <= 0; ++n) x.push_back(static_cast<float>(n));
    const double worst = MeasureExp2(impl->exp2_f32, x);
    std::printf("[%s] exp2 f32: max relative error %.3g u over %zu points in [%g, 0]\n", GetParam(), worst,
                x.size(), static_cast<double>(kernel::kExp2MinF32));
    EXPECT_LE(worst, numerics::kExpUlps);
  }
  {
    std::vector<double> x;
    std::mt19937_64 rng(200);
    std::uniform_real_distribution<double> whole(kernel::kExp2MinF64, 0.0), near0(-1.0, 0.0), e(-60.0, 0.0);
    for (int i = 0; i < 2000000; ++i) x.push_back(whole(rng));
    for (int i = 0; i < 1000000; ++i) x.push_back(near0(rng));
    for (int i = 0; i < 1000000; ++i) x.push_back(-std::exp2(e(rng)));
    for (int n = -1022; n <= 0; ++n) x.push_back(static_cast<double>(n));
    const double worst = MeasureExp2(impl->exp2_f64, x);
    std::printf("[%s] exp2 f64: max relative error %.3g u over %zu points in [%g, 0]\n", GetParam(), worst,
                x.size(), kernel::kExp2MinF64);
    EXPECT_LE(worst, numerics::kExpUlps);
  }
  {
    const float fx[6] = {0.0f, -1.0f, kernel::kExp2MinF32, -std::numeric_limits<float>::infinity(), std::nanf(""),
                         std::nextafter(kernel::kExp2MinF32, -1000.0f)};
    float fy[6] = {7, 7, 7, 1, 1, 1};
    impl->exp2_f32(fx, fy, 6);
    EXPECT_EQ(fy[0], 1.0f);
    EXPECT_EQ(fy[1], 0.5f);
    EXPECT_EQ(fy[2], std::numeric_limits<float>::min());
    for (int i = 3; i < 6; ++i) EXPECT_EQ(fy[i], 0.0f) << "input " << fx[i];
  }
  {
    const double dx[6] = {0.0, -1.0, kernel::kExp2MinF64, -std::numeric_limits<double>::infinity(), std::nan(""),
                          std::nextafter(kernel::kExp2MinF64, -1e5)};
    double dy[6] = {7, 7, 7, 1, 1, 1};
    impl->exp2_f64(dx, dy, 6);
    EXPECT_EQ(dy[0], 1.0);
    EXPECT_EQ(dy[1], 0.5);
    EXPECT_EQ(dy[2], std::numeric_limits<double>::min());
    for (int i = 3; i < 6; ++i) EXPECT_EQ(dy[i], 0.0) << "input " << dx[i];
  }
}

template <class T>
void LseOptional() {
  std::mt19937_64 rng(201);
  for (bool causal : {false, true}) {
    const Problem<T> p = MakeProblem<T>(rng, 2, 70, 90, 19, 23, 0.3, causal);
    const Result<T> with = Run(p, true), without = Run(p, false);
    ASSERT_EQ(with.rc, 0);
    ASSERT_EQ(without.rc, 0);
    EXPECT_TRUE(SameBytes(with.out, without.out));
    for (T x : without.lse) EXPECT_TRUE(std::isnan(x)) << "lse written although NULL was passed";
    for (T x : with.lse) EXPECT_FALSE(std::isnan(x));
  }
}
TEST_P(BehaviourTest, F32LseOptional) { LseOptional<float>(); }
TEST_P(BehaviourTest, F64LseOptional) { LseOptional<double>(); }

// A batch equals its items computed one call each, bit for bit.
template <class T>
void BatchEqualsSeparateCalls() {
  std::mt19937_64 rng(202);
  for (bool causal : {false, true}) {
    const Problem<T> p = MakeProblem<T>(rng, 3, 67, 51, 10, 18, 0.7, causal);
    const Result<T> all = Run(p);
    ASSERT_EQ(all.rc, 0);
    for (int64_t b = 0; b < p.batch; ++b) {
      Problem<T> one = p;
      one.batch = 1;
      auto slice = [&](const std::vector<T>& x, int64_t n) {
        return std::vector<T>(x.begin() + b * n, x.begin() + (b + 1) * n);
      };
      one.q = slice(p.q, p.t_q * p.d_k);
      one.k = slice(p.k, p.t_k * p.d_k);
      one.v = slice(p.v, p.t_k * p.d_v);
      const Result<T> r = Run(one);
      ASSERT_EQ(r.rc, 0);
      EXPECT_TRUE(SameBytes(r.out, slice(all.out, p.t_q * p.d_v))) << "batch item " << b;
      EXPECT_TRUE(SameBytes(r.lse, slice(all.lse, p.t_q))) << "batch item " << b;
    }
  }
}
TEST_P(BehaviourTest, F32BatchEqualsSeparateCalls) { BatchEqualsSeparateCalls<float>(); }
TEST_P(BehaviourTest, F64BatchEqualsSeparateCalls) { BatchEqualsSeparateCalls<double>(); }

// Results do not depend on the thread count, and a call repeated gives the
// same bytes.
template <class T>
void ThreadCountIndependent() {
  std::mt19937_64 rng(203);
  for (bool causal : {false, true}) {
    const Problem<T> p = MakeProblem<T>(rng, 3, 300, 260, 24, 20, 0.25, causal);
    ASSERT_EQ(attnprop_kernel_set_threads(1), 0);
    const Result<T> ref = Run(p);
    ASSERT_EQ(ref.rc, 0);
    for (int threads : {1, 2, 3, 5, 0}) {
      ASSERT_EQ(attnprop_kernel_set_threads(threads), 0);
      for (int rep = 0; rep < 2; ++rep) {
        const Result<T> r = Run(p);
        ASSERT_EQ(r.rc, 0);
        EXPECT_TRUE(SameBytes(r.out, ref.out)) << threads << " threads, repetition " << rep;
        EXPECT_TRUE(SameBytes(r.lse, ref.lse)) << threads << " threads, repetition " << rep;
      }
    }
  }
}
TEST_P(BehaviourTest, F32ThreadCountIndependent) { ThreadCountIndependent<float>(); }
TEST_P(BehaviourTest, F64ThreadCountIndependent) { ThreadCountIndependent<double>(); }

// KV-cache decode: one query against the first n keys (t_q = 1, t_k = n,
// causal) gives exactly row n-1 of the full causal computation.
template <class T>
void KvCacheDecode() {
  std::mt19937_64 rng(204);
  const int64_t t = 110, d_k = 20, d_v = 12;
  const Problem<T> full = MakeProblem<T>(rng, 1, t, t, d_k, d_v, 0.4, true);
  const Result<T> all = Run(full);
  ASSERT_EQ(all.rc, 0);
  for (int64_t n = 1; n <= t; ++n) {
    Problem<T> step = full;
    step.t_q = 1;
    step.t_k = n;
    step.q.assign(full.q.begin() + (n - 1) * d_k, full.q.begin() + n * d_k);
    step.k.assign(full.k.begin(), full.k.begin() + n * d_k);
    step.v.assign(full.v.begin(), full.v.begin() + n * d_v);
    const Result<T> r = Run(step);
    ASSERT_EQ(r.rc, 0);
    EXPECT_TRUE(SameBytes(r.out, std::vector<T>(all.out.begin() + (n - 1) * d_v, all.out.begin() + n * d_v)))
        << "decode step " << n;
    EXPECT_EQ(std::memcmp(&r.lse[0], &all.lse[static_cast<size_t>(n - 1)], sizeof(T)), 0) << "decode step " << n;
  }
}
TEST_P(BehaviourTest, F32KvCacheDecode) { KvCacheDecode<float>(); }
TEST_P(BehaviourTest, F64KvCacheDecode) { KvCacheDecode<double>(); }

// A single key: out = v exactly (p = exp2(0) = 1, l = 1), and lse = s
// within the error model's bound for one key (kernels/error_model.h).
template <class T>
void SingleKeyIsExact() {
  std::mt19937_64 rng(205);
  const Problem<T> p = MakeProblem<T>(rng, 2, 5, 1, 1, 19, 0.5, false);
  const Result<T> r = Run(p);
  ASSERT_EQ(r.rc, 0);
  for (int64_t b = 0; b < p.batch; ++b)
    for (int64_t i = 0; i < p.t_q; ++i) {
      for (int64_t c = 0; c < p.d_v; ++c)
        EXPECT_EQ(r.out[static_cast<size_t>((b * p.t_q + i) * p.d_v + c)], p.v[static_cast<size_t>(b * p.d_v + c)]);
      // The entries are exact in T, their product exact in double.
      const double s = p.scale * (static_cast<double>(p.q[static_cast<size_t>(b * p.t_q + i)]) *
                                  static_cast<double>(p.k[static_cast<size_t>(b)]));
      numerics::AttentionRow row;
      row.u = numerics::UnitRoundoffOf<T>();
      row.smax = std::fabs(s);
      row.rescales = 0;
      const double got = static_cast<double>(r.lse[static_cast<size_t>(b * p.t_q + i)]);
      EXPECT_LE(std::fabs(got - s), numerics::BoundAttentionRow(row).lse) << "lse " << got << ", exact " << s;
    }
}
TEST_P(BehaviourTest, F32SingleKeyIsExact) { SingleKeyIsExact<float>(); }
TEST_P(BehaviourTest, F64SingleKeyIsExact) { SingleKeyIsExact<double>(); }

// The ABI contract. Buffers carry canaries before and after out and lse;
// inputs are compared byte for byte after the call.
template <class T>
struct Guarded {
  static constexpr size_t kPad = 64;
  std::vector<T> buf;
  size_t n;
  explicit Guarded(size_t count) : buf(count + 2 * kPad), n(count) {
    for (size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<T>(-1234.5 - static_cast<double>(i));
  }
  T* data() { return buf.data() + kPad; }
  bool CanariesIntact() const {
    for (size_t i = 0; i < buf.size(); ++i)
      if ((i < kPad || i >= kPad + n) && buf[i] != static_cast<T>(-1234.5 - static_cast<double>(i))) return false;
    return true;
  }
  bool Untouched() const {
    for (size_t i = 0; i < buf.size(); ++i)
      if (buf[i] != static_cast<T>(-1234.5 - static_cast<double>(i))) return false;
    return true;
  }
};

template <class T>
void NoWritesOutsideOutAndLse() {
  std::mt19937_64 rng(206);
  for (bool causal : {false, true}) {
    const Problem<T> p = MakeProblem<T>(rng, 2, 75, 53, 17, 21, 0.5, causal);
    const Problem<T> copy = p;
    Guarded<T> out(static_cast<size_t>(p.batch * p.t_q * p.d_v)), lse(static_cast<size_t>(p.batch * p.t_q));
    const attnprop_attention_args a = Args(p, out.data(), lse.data());
    ASSERT_EQ(Call(&a, static_cast<T*>(nullptr)), 0);
    EXPECT_TRUE(out.CanariesIntact());
    EXPECT_TRUE(lse.CanariesIntact());
    EXPECT_TRUE(SameBytes(p.q, copy.q) && SameBytes(p.k, copy.k) && SameBytes(p.v, copy.v)) << "inputs modified";
    for (size_t i = 0; i < out.n; ++i) EXPECT_NE(out.data()[i], static_cast<T>(-1234.5 - double(i + out.kPad)));
  }
}
TEST_P(BehaviourTest, F32NoWritesOutsideOutAndLse) { NoWritesOutsideOutAndLse<float>(); }
TEST_P(BehaviourTest, F64NoWritesOutsideOutAndLse) { NoWritesOutsideOutAndLse<double>(); }

template <class T>
void InvalidArgumentsWriteNothing() {
  std::mt19937_64 rng(207);
  const Problem<T> p = MakeProblem<T>(rng, 1, 4, 6, 3, 5, 1.0, false);
  Guarded<T> out(static_cast<size_t>(p.t_q * p.d_v)), lse(static_cast<size_t>(p.t_q));
  const attnprop_attention_args good = Args(p, out.data(), lse.data());
  using Mutate = void (*)(attnprop_attention_args&);
  const std::pair<const char*, Mutate> cases[] = {
      {"struct_size 0", [](attnprop_attention_args& a) { a.struct_size = 0; }},
      {"struct_size short", [](attnprop_attention_args& a) { a.struct_size = sizeof a - 1; }},
      {"q NULL", [](attnprop_attention_args& a) { a.q = nullptr; }},
      {"k NULL", [](attnprop_attention_args& a) { a.k = nullptr; }},
      {"v NULL", [](attnprop_attention_args& a) { a.v = nullptr; }},
      {"out NULL", [](attnprop_attention_args& a) { a.out = nullptr; }},
      {"batch 0", [](attnprop_attention_args& a) { a.batch = 0; }},
      {"t_q 0", [](attnprop_attention_args& a) { a.t_q = 0; }},
      {"t_k -1", [](attnprop_attention_args& a) { a.t_k = -1; }},
      {"d_k 0", [](attnprop_attention_args& a) { a.d_k = 0; }},
      {"d_v 0", [](attnprop_attention_args& a) { a.d_v = 0; }},
      {"t_q huge", [](attnprop_attention_args& a) { a.t_q = INT64_MAX; }},
      {"scale +inf", [](attnprop_attention_args& a) { a.scale = INFINITY; }},
      {"scale -inf", [](attnprop_attention_args& a) { a.scale = -INFINITY; }},
      {"scale NaN", [](attnprop_attention_args& a) { a.scale = NAN; }},
      {"causal 2", [](attnprop_attention_args& a) { a.causal = 2; }},
      {"causal -1", [](attnprop_attention_args& a) { a.causal = -1; }},
  };
  for (const auto& [what, mutate] : cases) {
    attnprop_attention_args a = good;
    mutate(a);
    EXPECT_NE(Call(&a, static_cast<T*>(nullptr)), 0) << what;
    EXPECT_TRUE(out.Untouched()) << what;
    EXPECT_TRUE(lse.Untouched()) << what;
  }
  EXPECT_NE(Call(nullptr, static_cast<T*>(nullptr)), 0) << "args NULL";
  // A caller compiled against a later, larger struct is accepted.
  attnprop_attention_args a = good;
  a.struct_size = sizeof a + 64;
  EXPECT_EQ(Call(&a, static_cast<T*>(nullptr)), 0);
  EXPECT_TRUE(out.CanariesIntact());
}
// A finite double scale beyond float's range is valid: the f32 kernel rounds
// it as IEEE conversion does (to +-inf, or to the largest float) and runs
// (its scores then overflow, as f32 arithmetic does). (GCC's UBSan does not
// flag double-to-float overflow, so the kernel's explicit rounding is what
// keeps this defined; this test only checks that such calls are accepted.)
TEST_P(BehaviourTest, F32HugeScaleIsAccepted) {
  std::mt19937_64 rng(209);
  for (double scale : {1e300, -1e300, 0x1p128 - 0x1p104, 1e-300}) {
    const Problem<float> p = MakeProblem<float>(rng, 1, 3, 4, 2, 2, scale, false);
    EXPECT_EQ(kernel_test::Run(p).rc, 0) << scale;
  }
}

TEST_P(BehaviourTest, F32InvalidArgumentsWriteNothing) { InvalidArgumentsWriteNothing<float>(); }
TEST_P(BehaviourTest, F64InvalidArgumentsWriteNothing) { InvalidArgumentsWriteNothing<double>(); }

ATTNPROP_INSTANTIATE_TARGETS(BehaviourTest);

// Not per target: the controls themselves.
TEST(KernelControls, VersionAndTargets) {
  EXPECT_EQ(attnprop_kernel_abi_version(), ATTNPROP_KERNEL_ABI_VERSION);
  EXPECT_EQ(attnprop_kernel_target_supported("scalar"), 1);
  EXPECT_EQ(attnprop_kernel_target_supported("auto"), 1);
  EXPECT_EQ(attnprop_kernel_target_supported("sse9"), 0);
  EXPECT_EQ(attnprop_kernel_target_supported(nullptr), 0);
  ASSERT_EQ(attnprop_kernel_set_target("scalar"), 0);
  EXPECT_STREQ(attnprop_kernel_target(), "scalar");
  EXPECT_NE(attnprop_kernel_set_target("sse9"), 0);
  EXPECT_NE(attnprop_kernel_set_target(nullptr), 0);
  EXPECT_STREQ(attnprop_kernel_target(), "scalar") << "a refused target changed the setting";
  // The target list: unique names, the first one "scalar" (runs anywhere),
  // every supported one selectable, every other one refused.
  const std::vector<const char*> names = TargetNames();
  ASSERT_GE(names.size(), 1u);
  EXPECT_STREQ(names[0], "scalar");
  EXPECT_EQ(attnprop_kernel_target_name(-1), nullptr);
  EXPECT_EQ(attnprop_kernel_target_name(attnprop_kernel_target_count()), nullptr);
  for (size_t i = 0; i < names.size(); ++i) {
    ASSERT_NE(names[i], nullptr);
    for (size_t j = 0; j < i; ++j) EXPECT_STRNE(names[i], names[j]);
    if (attnprop_kernel_target_supported(names[i]) == 1) {
      EXPECT_EQ(attnprop_kernel_set_target(names[i]), 0) << names[i];
      EXPECT_STREQ(attnprop_kernel_target(), names[i]);
    } else {
      EXPECT_NE(attnprop_kernel_set_target(names[i]), 0) << names[i];
    }
  }
  // "auto" is the last supported entry.
  ASSERT_EQ(attnprop_kernel_set_target("auto"), 0);
  const char* best = names[0];
  for (const char* n : names)
    if (attnprop_kernel_target_supported(n) == 1) best = n;
  EXPECT_STREQ(attnprop_kernel_target(), best);
#ifdef ATTNPROP_KERNEL_TARGETS
  // The build's list (kernels/CMakeLists.txt) is the library's.
  std::string joined;
  for (const char* n : names) joined += (joined.empty() ? "" : ",") + std::string(n);
  EXPECT_EQ(joined, ATTNPROP_KERNEL_TARGETS);
#endif
  ASSERT_EQ(attnprop_kernel_set_target("auto"), 0);
  EXPECT_NE(attnprop_kernel_set_threads(-1), 0);
  EXPECT_EQ(attnprop_kernel_set_threads(0), 0);
}

// After fork() the child has none of the pool's worker threads; a
// multi-threaded call there must still complete (and give the same bytes).
TEST(KernelControls, WorksInForkedChild) {
  std::mt19937_64 rng(208);
  const Problem<float> p = MakeProblem<float>(rng, 2, 200, 150, 8, 8, 0.5, true);
  ASSERT_EQ(attnprop_kernel_set_threads(2), 0);
  const Result<float> parent = kernel_test::Run(p);  // starts the pool's workers
  ASSERT_EQ(parent.rc, 0);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    alarm(20);  // a deadlock ends the child with SIGALRM
    const Result<float> child = kernel_test::Run(p);
    _exit(child.rc == 0 && SameBytes(child.out, parent.out) ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status)) << "child killed by signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0);
  attnprop_kernel_set_threads(0);
}

// The environment is read once, at first use: each case runs in a fresh
// process (death-test style "threadsafe" re-executes the binary).
int CallOnce() {
  const float q[2] = {1, 2}, k[2] = {3, 4}, v[1] = {5};
  float out[1] = {0};
  attnprop_attention_args a;
  std::memset(&a, 0, sizeof a);
  a.struct_size = sizeof a;
  a.batch = a.t_q = a.t_k = a.d_v = 1;
  a.d_k = 2;
  a.scale = 1;
  a.q = q;
  a.k = k;
  a.v = v;
  a.out = out;
  return attnprop_attention_f32(&a);
}

TEST(KernelEnvironment, UnknownTargetFailsWithMessage) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        setenv("ATTNPROP_KERNEL_TARGET", "sse9", 1);
        std::exit(CallOnce() != 0 ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "ATTNPROP_KERNEL_TARGET=sse9 is not a target");
  EXPECT_EXIT(
      {
        setenv("ATTNPROP_KERNEL_THREADS", "two", 1);
        std::exit(CallOnce() != 0 ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "ATTNPROP_KERNEL_THREADS=two");
  EXPECT_EXIT(
      {
        setenv("ATTNPROP_KERNEL_TARGET", "scalar", 1);
        setenv("ATTNPROP_KERNEL_THREADS", "1", 1);
        std::exit(CallOnce() == 0 && std::strcmp(attnprop_kernel_target(), "scalar") == 0 ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
  for (const char* name : TargetNames()) {
    if (attnprop_kernel_target_supported(name) == 1) continue;
    EXPECT_EXIT(
        {
          setenv("ATTNPROP_KERNEL_TARGET", name, 1);
          std::exit(CallOnce() != 0 ? 0 : 1);
        },
        ::testing::ExitedWithCode(0), "not supported by this CPU");
  }
}

}  // namespace
}  // namespace attnprop::kernel_test
