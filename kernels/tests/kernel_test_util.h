// Shared helpers of the kernel tests: problems with exactly representable
// entries, calling the kernel through the ABI, and the per-target fixture.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernels/attnprop_kernel.h"
#include "kernels/attnprop_kernel_ext.h"

namespace attnprop::kernel_test {

/// One attention call's inputs (batch items back to back, row-major).
template <class T>
struct Problem {
  int64_t batch = 1, t_q = 1, t_k = 1, d_k = 1, d_v = 1;
  double scale = 1.0;
  bool causal = false;
  std::vector<T> q, k, v;
};

/// A value m * 2^(e - 23) with |m| < 2^23 (so exact in float and double) and
/// e uniform in [e_lo, e_hi]: magnitudes spread over 2^e_lo .. 2^e_hi.
template <class T>
T RandomEntry(std::mt19937_64& rng, int e_lo, int e_hi) {
  const int64_t m = static_cast<int64_t>(rng() % (int64_t{1} << 24)) - (int64_t{1} << 23);
  const int e = e_lo + static_cast<int>(rng() % static_cast<uint64_t>(e_hi - e_lo + 1));
  return static_cast<T>(std::ldexp(static_cast<double>(m), e - 23));
}

template <class T>
Problem<T> MakeProblem(std::mt19937_64& rng, int64_t batch, int64_t t_q, int64_t t_k, int64_t d_k,
                       int64_t d_v, double scale, bool causal, int e_lo = -1, int e_hi = 0) {
  Problem<T> p;
  p.batch = batch;
  p.t_q = t_q;
  p.t_k = t_k;
  p.d_k = d_k;
  p.d_v = d_v;
  p.scale = scale;
  p.causal = causal;
  auto fill = [&](std::vector<T>& x, int64_t n) {
    x.resize(static_cast<size_t>(n));
    for (T& e : x) e = RandomEntry<T>(rng, e_lo, e_hi);
  };
  fill(p.q, batch * t_q * d_k);
  fill(p.k, batch * t_k * d_k);
  fill(p.v, batch * t_k * d_v);
  return p;
}

template <class T>
attnprop_attention_args Args(const Problem<T>& p, T* out, T* lse) {
  attnprop_attention_args a;
  std::memset(&a, 0, sizeof a);
  a.struct_size = sizeof a;
  a.batch = p.batch;
  a.t_q = p.t_q;
  a.t_k = p.t_k;
  a.d_k = p.d_k;
  a.d_v = p.d_v;
  a.scale = p.scale;
  a.causal = p.causal ? 1 : 0;
  a.q = p.q.data();
  a.k = p.k.data();
  a.v = p.v.data();
  a.out = out;
  a.lse = lse;
  return a;
}

inline int Call(const attnprop_attention_args* a, float*) { return attnprop_attention_f32(a); }
inline int Call(const attnprop_attention_args* a, double*) { return attnprop_attention_f64(a); }

template <class T>
struct Result {
  int rc = -1;
  std::vector<T> out, lse;
};

/// Runs the kernel; out and lse are prefilled with NaN so unwritten entries show.
template <class T>
Result<T> Run(const Problem<T>& p, bool want_lse = true) {
  Result<T> r;
  r.out.assign(static_cast<size_t>(p.batch * p.t_q * p.d_v), std::nan(""));
  r.lse.assign(static_cast<size_t>(p.batch * p.t_q), std::nan(""));
  const attnprop_attention_args a = Args(p, r.out.data(), want_lse ? r.lse.data() : nullptr);
  r.rc = Call(&a, static_cast<T*>(nullptr));
  return r;
}

template <class T>
bool SameBytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

/// The library's target list (attnprop_kernel_target_count/_name: the target
/// table in kernels/CMakeLists.txt), supported here or not.
inline std::vector<const char*> TargetNames() {
  std::vector<const char*> names;
  for (int i = 0; i < attnprop_kernel_target_count(); ++i) names.push_back(attnprop_kernel_target_name(i));
  return names;
}

/// Every test of the kernel's numerics runs once per target; a target this
/// CPU cannot run is skipped (and says so), never passed.
class TargetTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    if (attnprop_kernel_target_supported(GetParam()) != 1)
      GTEST_SKIP() << "target " << GetParam() << " is not supported by this CPU";
    ASSERT_EQ(attnprop_kernel_set_target(GetParam()), 0);
    ASSERT_STREQ(attnprop_kernel_target(), GetParam());
    ASSERT_EQ(attnprop_kernel_set_threads(0), 0);
  }
  void TearDown() override {
    attnprop_kernel_set_target("auto");
    attnprop_kernel_set_threads(0);
  }
};

/// Prints, before the first test, which targets this CPU runs and which one
/// the library chose by default (reproducibility banner).
class KernelBanner : public ::testing::Environment {
 public:
  void SetUp() override {
    // Must not read the library's settings: the environment tests need them
    // unread until their first call.
    const char* env = std::getenv("ATTNPROP_KERNEL_TARGET");
    std::printf("attnprop kernel: ABI %d, ATTNPROP_KERNEL_TARGET=%s; this CPU runs:", attnprop_kernel_abi_version(),
                env != nullptr ? env : "(unset: best supported)");
    for (const char* t : TargetNames())
      if (attnprop_kernel_target_supported(t) == 1) std::printf(" %s", t);
    std::printf("\n");
  }
};
inline ::testing::Environment* const kKernelBanner = ::testing::AddGlobalTestEnvironment(new KernelBanner);

inline std::string TargetName(const ::testing::TestParamInfo<const char*>& info) { return info.param; }

/// Instantiates Suite once per entry of the target list (names end in /<target>).
#define ATTNPROP_INSTANTIATE_TARGETS(Suite)                                                          \
  INSTANTIATE_TEST_SUITE_P(Targets, Suite, ::testing::ValuesIn(::attnprop::kernel_test::TargetNames()), \
                           ::attnprop::kernel_test::TargetName)

}  // namespace attnprop::kernel_test
