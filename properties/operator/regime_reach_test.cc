// What check-kernel's random cases reach (issue 34): the regimes' 100 cases
// per property and storage type, at the default seed, cover every
// argument's range as the header promises: the top octave of each long
// dimension (t_k to 4,096, d_k and d_v to 512, t_q to 1,024), batch above
// 1, every scale kind (negative, both zeros, subnormal, huge of both signs),
// scores from subnormal to past exp's range, causal with t_q <, = and >
// t_k, lse passed and not. A generator change
// that loses one of them fails here, naming it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <utility>

#include "properties/framework/rc_bridge.h"
#include "properties/operator/problem.h"
#include "properties/operator/problem_gen.h"
#include "properties/operator/regime_gen.h"

namespace attnprop::ksuite {
namespace {

constexpr uint64_t kDefaultSeed = 20261129;  // check-kernel's default seed
constexpr int kCases = 100;                  // check-kernel's default cases per property

struct Reach {
  int64_t batch = 0, t_q = 0, t_k = 0, d_k = 0, d_v = 0;
  std::set<std::string> seen;  // scale kinds, length relations, causal, lse
};

std::string ScaleKind(double s) {
  if (s == 0) return std::signbit(s) ? "scale -0" : "scale 0";
  const std::string sign = s < 0 ? "-" : "+";
  if (std::fabs(s) < 0x1p-1022) return "scale " + sign + "subnormal (double)";
  if (std::fabs(s) < 0x1p-126) return "scale " + sign + "subnormal (float)";
  if (std::fabs(s) >= 0x1p30) return "scale " + sign + "huge";
  return "scale " + sign + "normal";
}

Reach ReachOf(DType t, Regime r) {
  Reach out;
  for (const Case& c : SampleCases(RegimeGen({t, false}, r), kDefaultSeed, kCases)) {
    const Problem p = Problem::FromCase(c);
    out.batch = std::max(out.batch, p.batch);
    out.t_q = std::max(out.t_q, p.t_q);
    out.t_k = std::max(out.t_k, p.t_k);
    out.d_k = std::max(out.d_k, p.d_k);
    out.d_v = std::max(out.d_v, p.d_v);
    out.seen.insert(ScaleKind(c.Get<double>("scale")));
    out.seen.insert(p.t_q < p.t_k ? "t_q < t_k" : p.t_q == p.t_k ? "t_q = t_k" : "t_q > t_k");
    out.seen.insert(p.causal ? "causal" : "not causal");
    out.seen.insert(c.GetInt("lse") ? "lse" : "no lse");
  }
  return out;
}

class RegimeReach : public ::testing::TestWithParam<DType> {};

TEST_P(RegimeReach, EachRegimeReachesTheTopOctaveOfItsLongDimension) {
  const DType t = GetParam();
  const Reach kv = ReachOf(t, Regime::kLongKv);
  EXPECT_GE(kv.t_k, 2048) << "long KV: t_k up to 4,096";
  EXPECT_GE(kv.batch, 2);
  const Reach wide = ReachOf(t, Regime::kWideHeads);
  EXPECT_GE(wide.d_k, 256) << "wide heads: d_k up to 512";
  EXPECT_GE(wide.d_v, 256) << "wide heads: d_v up to 512";
  const Reach queries = ReachOf(t, Regime::kLongQueries);
  EXPECT_GE(queries.t_q, 512) << "long query blocks: t_q up to 1,024";
  EXPECT_GE(queries.batch, 2);
}

TEST_P(RegimeReach, TheScalarRegimeDrawsEveryScaleKindAndLengthRelation) {
  const Reach s = ReachOf(GetParam(), Regime::kScalars);
  for (const char* want : {"scale +normal", "scale -normal", "scale 0", "scale -0", "scale +subnormal (float)",
                           "scale +subnormal (double)", "scale +huge", "scale -huge", "t_q < t_k", "t_q = t_k", "t_q > t_k",
                           "causal", "not causal", "lse", "no lse"})
    EXPECT_TRUE(s.seen.count(want)) << want << " never drawn in " << kCases << " cases";
}

/// The smallest and largest |scale| max|q| max|k| (a case's score scale)
/// over the cases `gen` draws, zeros left out.
std::pair<double, double> ScoreScales(const rc::Gen<Case>& gen) {
  double lo = HUGE_VAL, hi = 0;
  for (const Case& c : SampleCases(gen, kDefaultSeed, kCases)) {
    const Problem p = Problem::FromCase(c);
    const double s = std::fabs(c.Get<double>("scale")) * p.q.As<double>().cwiseAbs().maxCoeff() *
                     p.k.As<double>().cwiseAbs().maxCoeff();
    if (s > 0) lo = std::min(lo, s), hi = std::max(hi, s);
  }
  return {lo, hi};
}

// Scores from subnormal (a kernel that flushes or divides by them) to far
// beyond exp's range (a kernel that skips the max): subnormal through the
// scalar regime's scales, large through the contract's problems (entries
// to 64, problem_gen.h); the scalar regime's huge scales come with entries
// scaled down, so its scores stay moderate.
TEST_P(RegimeReach, ScoresRangeFromSubnormalToBeyondExp) {
  const DType t = GetParam();
  EXPECT_LT(ScoreScales(RegimeGen({t, false}, Regime::kScalars)).first, 0x1p-126) << "no subnormal scores";
  EXPECT_GT(ScoreScales(ProblemGen({t, false}, ShapeSpec{})).second, 0x1p10)
      << "no scores beyond exp's range (about 710)";
}

INSTANTIATE_TEST_SUITE_P(Dtypes, RegimeReach, ::testing::Values(DType::kF32, DType::kF64),
                         [](const auto& p) { return p.param == DType::kF32 ? "f32" : "f64"; });

}  // namespace
}  // namespace attnprop::ksuite
