// Cost of generating and shrinking a 256x256 double matrix case (not a test;
// run by hand: build/release/generators/attnprop_generators_bench).
#include <benchmark/benchmark.h>
#include <rapidcheck.h>

#include "generators/matrices.h"
#include "generators/scalars.h"

namespace attnprop::gen {
namespace {


// Always drawn 256 x 256; dimensions shrink down to min_dim.
rc::Gen<ExactMatrix> Gen256(int64_t min_dim) {
  const DimRange d{min_dim, 256, 256, 256};
  return DenseMatrix(d, d, Normal());
}

// Generate one 256x256 case (65536 shrinkable entries) and read its value.
void BM_Generate256(benchmark::State& state) {
  const auto gen = Gen256(256);
  uint64_t seed = 1;
  for (auto _ : state) {
    const ExactMatrix m = gen(rc::Random(seed++), 100).value();
    benchmark::DoNotOptimize(m.data.data());
  }
  state.SetItemsProcessed(state.iterations() * 256 * 256);
}
BENCHMARK(BM_Generate256)->Unit(benchmark::kMillisecond);

// RapidCheck's search on a false property ("no entry >= 2.5"): take the
// first failing shrink until none fails. Dimensions drop to 1x1, then the
// entry shrinks to 3.
void BM_GenerateAndShrink256(benchmark::State& state) {
  const auto gen = Gen256(1);
  uint64_t seed = 1;
  int64_t steps = 0, tried = 0;
  for (auto _ : state) {
    // A case that fails (almost every 256x256 normal matrix has an entry >= 2.5).
    rc::Shrinkable<ExactMatrix> s = gen(rc::Random(seed++), 100);
    if (s.value().rows != 256 || s.value().cols != 256) state.SkipWithError("not 256 x 256");
    auto fails = [](const ExactMatrix& m) {
      for (const Exact& x : m.data)
        if (x.ToDouble() >= 2.5) return true;
      return false;
    };
    if (!fails(s.value())) continue;
    for (bool progress = true; progress;) {
      progress = false;
      rc::Seq<rc::Shrinkable<ExactMatrix>> shrinks = s.shrinks();
      while (auto c = shrinks.next()) {
        ++tried;
        if (fails(c->value())) {
          s = *c;
          progress = true;
          ++steps;
          break;
        }
      }
    }
    benchmark::DoNotOptimize(s.value().data.data());
  }
  state.counters["steps/case"] = benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kAvgIterations);
  state.counters["tried/case"] = benchmark::Counter(static_cast<double>(tried), benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_GenerateAndShrink256)->Unit(benchmark::kMillisecond);

// The first 20 shrink candidates of a 256x256 case (the cost of one step
// that is rejected 20 times, e.g. a property that needs the full size).
void BM_First20Shrinks256(benchmark::State& state) {
  const auto gen = Gen256(1);
  const rc::Shrinkable<ExactMatrix> s = gen(rc::Random(7), 100);
  for (auto _ : state) {
    rc::Seq<rc::Shrinkable<ExactMatrix>> shrinks = s.shrinks();
    for (int i = 0; i < 20; ++i) {
      auto c = shrinks.next();
      if (!c) break;
      benchmark::DoNotOptimize(c->value().data.data());
    }
  }
}
BENCHMARK(BM_First20Shrinks256)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace attnprop::gen

BENCHMARK_MAIN();
