// Helpers for the generator tests: sampling a default run, shrinking to a
// local minimum the way RapidCheck does, and walking random shrink paths.
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "generators/show.h"

namespace attnprop {
/// gtest prints Exact values exactly (found by ADL).
inline void PrintTo(const Exact& x, std::ostream* os) { *os << x.ToDisplay(); }
inline void PrintTo(const ExactMatrix& m, std::ostream* os) { *os << gen::MatrixText(m); }
}  // namespace attnprop

namespace attnprop::gen::testing {

/// A default RapidCheck run: 100 cases, sizes 0..99 (RapidCheck's schedule
/// with max_success = max_size = 100), from a fixed seed.
inline constexpr int kDefaultCases = 100;

template <class T>
std::vector<rc::Shrinkable<T>> SampleShrinkables(const rc::Gen<T>& gen, int cases = kDefaultCases,
                                                 uint64_t seed = 20261129) {
  std::vector<rc::Shrinkable<T>> out;
  rc::Random r(seed);
  for (int i = 0; i < cases; ++i) out.push_back(gen(r.split(), i * 100 / cases));
  return out;
}

template <class T>
std::vector<T> Sample(const rc::Gen<T>& gen, int cases = kDefaultCases, uint64_t seed = 20261129) {
  std::vector<T> out;
  for (const auto& s : SampleShrinkables(gen, cases, seed)) out.push_back(s.value());
  return out;
}

/// RapidCheck's search: repeatedly take the first shrink for which `fails`
/// still holds, until none does. Returns the local minimum (and the steps).
template <class T>
T ShrinkFully(rc::Shrinkable<T> s, const std::function<bool(const T&)>& fails, int* steps = nullptr) {
  int n = 0;
  for (bool progress = true; progress;) {
    progress = false;
    rc::Seq<rc::Shrinkable<T>> shrinks = s.shrinks();
    while (auto c = shrinks.next()) {
      if (fails(c->value())) {
        s = *c;
        progress = true;
        ++n;
        break;
      }
    }
  }
  if (steps) *steps = n;
  return s.value();
}

/// Walks `paths` random shrink paths of up to `depth` steps from s, calling
/// check on every candidate seen (the first `width` shrinks at each level);
/// returns how many values were checked.
template <class T>
int WalkShrinks(const rc::Shrinkable<T>& s, const std::function<void(const T&)>& check, uint64_t seed,
                int paths = 3, int depth = 6, int width = 12) {
  int checked = 0;
  rc::Random r(seed);
  for (int p = 0; p < paths; ++p) {
    rc::Shrinkable<T> cur = s;
    for (int d = 0; d < depth; ++d) {
      std::vector<rc::Shrinkable<T>> seen;
      rc::Seq<rc::Shrinkable<T>> shrinks = cur.shrinks();
      while (auto c = shrinks.next()) {
        seen.push_back(*c);
        if (static_cast<int>(seen.size()) >= width) break;
      }
      if (seen.empty()) break;
      for (const auto& c : seen) {
        check(c.value());
        ++checked;
      }
      cur = seen[static_cast<size_t>(r.next() % seen.size())];
    }
  }
  return checked;
}

/// Asserts that every expected class was seen; names the missing ones.
inline void ExpectAllSeen(const std::set<std::string>& expected, const std::map<std::string, int>& seen,
                          const std::string& what) {
  for (const auto& e : expected)
    EXPECT_GT(seen.count(e) ? seen.at(e) : 0, 0) << what << ": edge class '" << e << "' never drawn in a default run";
}

}  // namespace attnprop::gen::testing
