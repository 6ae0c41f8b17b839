#include "properties/framework/search.h"

#include <algorithm>
#include <chrono>

#include "properties/framework/case_edit.h"
#include "properties/framework/rc_bridge.h"

namespace attnprop {
namespace {

using Clock = std::chrono::steady_clock;

class Collect : public ObservationSink {
 public:
  void Observe(const Observation& o) override { seen.push_back(o); }
  std::vector<Observation> seen;
};

double Elapsed(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

constexpr size_t kPool = 8;

}  // namespace

Trial Try(const PropertyDef& def, const Case& c) {
  Trial t;
  try {
    if (!def.hypotheses_hold(c)) return t;
  } catch (const std::exception&) {
    return t;  // the case does not have the claim's fields
  }
  Collect collect;
  Outcome o;
  {
    ScopedObservationSink scope(&collect);
    o = Evaluate(def.conclusion, c);
  }
  switch (o.kind) {
    case Outcome::Kind::kPasses:
      t.kind = Trial::Kind::kPasses;
      for (const auto& ob : collect.seen) t.score = std::max(t.score, ObservationRatio(ob));
      t.observations = std::move(collect.seen);
      return t;
    case Outcome::Kind::kFails:
      t.kind = Trial::Kind::kFails;
      t.message = o.message;
      return t;
    case Outcome::Kind::kDiscarded:
    case Outcome::Kind::kMisfit:
    case Outcome::Kind::kException:  // an edited case the claim cannot compute with: never reported
      return t;
  }
  return t;
}

ClimbResult Climb(const PropertyDef& def, std::vector<ScoredCase> pool, const ShapeModel& shapes, uint64_t seed,
                  int steps, double seconds, const ObservationsSeen& seen) {
  ClimbResult r;
  if (pool.empty()) return r;
  auto by_score = [](const ScoredCase& a, const ScoredCase& b) { return a.score > b.score; };
  std::stable_sort(pool.begin(), pool.end(), by_score);
  if (pool.size() > kPool) pool.resize(kPool);
  r.best_score = pool.front().score;
  EditRng rng(seed);
  const auto start = Clock::now();
  for (int step = 0; step < steps && Elapsed(start) < seconds; ++step) {
    // The best case half of the time, else any case of the pool.
    const size_t parent = rng.Chance(50) ? 0 : rng.Below(pool.size());
    Case candidate = Mutate(pool[parent].value, rng, shapes);
    for (int extra = 0; extra < 2 && rng.Chance(30); ++extra) candidate = Mutate(candidate, rng, shapes);
    ++r.tried;
    Trial t = Try(def, candidate);
    if (t.kind == Trial::Kind::kOutside) {
      ++r.outside;
      continue;
    }
    if (t.kind == Trial::Kind::kFails) {
      r.failing = std::move(candidate);
      r.message = std::move(t.message);
      return r;
    }
    if (seen) seen(t.observations, candidate);
    // Keep what raises the score (or holds it: a plateau is walked on).
    if (t.score < pool[parent].score) continue;
    r.raised += t.score > pool[parent].score;
    r.best_score = std::max(r.best_score, t.score);
    if (pool.size() < kPool) {
      pool.push_back({t.score, std::move(candidate)});
    } else {
      pool.back() = {t.score, std::move(candidate)};
    }
    std::stable_sort(pool.begin(), pool.end(), by_score);
  }
  return r;
}

ShrinkResult Shrink(const PropertyDef& def, Case failing, std::string message, const ShapeModel& shapes, int steps,
                    double seconds) {
  ShrinkResult r{std::move(failing), std::move(message)};
  const auto start = Clock::now();
  bool progress = true;
  while (progress && r.tried < steps && Elapsed(start) < seconds) {
    progress = false;
    for (Case& candidate : Simplifications(r.value, shapes)) {
      if (r.tried >= steps || Elapsed(start) >= seconds) break;
      ++r.tried;
      Trial t = Try(def, candidate);
      if (t.kind != Trial::Kind::kFails) continue;
      r.value = std::move(candidate);
      r.message = std::move(t.message);
      ++r.accepted;
      progress = true;
      break;  // candidates of the new, smaller case
    }
  }
  return r;
}

}  // namespace attnprop
