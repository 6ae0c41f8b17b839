// What check-kernel's random cases reach (issue 34): the regimes' 100 cases
// per property and storage type, at the default seed, cover every
// argument's range as the header promises: the top octave of each long
// dimension (t_k to 4,096, d_k and d_v to 512, t_q to 1,024), batch above
// 1, every scale kind (negative, both zeros, subnormal, huge of both signs),
// scores from subnormal to past exp's range, entries in the storage type's
// subnormals (V alone, and Q, K and V), causal with t_q <, = and > t_k, lse
// passed and not; and the targeted search's moves reach subnormal entries
// from an ordinary case. A generator change that loses one of them fails
// here, naming it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <utility>

#include "properties/framework/case_dims.h"
#include "properties/framework/case_edit.h"
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
  std::set<std::string> seen;  // scale kinds, length relations, causal, lse, subnormal entries
};

/// Whether some entry of m is a nonzero subnormal of t.
bool HasSubnormal(DType t, const ExactMatrix& m) {
  const double min_normal = t == DType::kF32 ? 0x1p-126 : 0x1p-1022;
  for (const Exact& e : m.data)
    if (const double x = std::fabs(e.ToDouble()); x != 0 && x < min_normal) return true;
  return false;
}

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
    if (HasSubnormal(t, p.v)) out.seen.insert("subnormal V");
    if (HasSubnormal(t, p.q) && HasSubnormal(t, p.k)) out.seen.insert("subnormal Q and K");
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
                           "causal", "not causal", "lse", "no lse", "subnormal V", "subnormal Q and K"})
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

// The targeted search starts from the random cases and moves them
// (case_edit.h, Mutate): from an ordinary case, some of 1,000 single moves
// put an entry of V (and of Q) in the storage type's subnormals, and the
// case is still an input of the regime properties.
TEST_P(RegimeReach, TheSearchsMovesReachSubnormalEntries) {
  const DType t = GetParam();
  const Case start = SeededProblem(t, 1, 3, 4, 5, 6, 0, 0.5, 1, 7);
  ASSERT_TRUE(RegimeHolds({t, false}, start));
  const CaseDims dims(start);
  std::set<std::string> seen;
  for (uint64_t seed = 1; seed <= 1000; ++seed) {
    EditRng rng(seed);
    const Case moved = Mutate(start, rng, dims);
    if (!RegimeHolds({t, false}, moved)) continue;
    for (const char* m : {"Q", "K", "V"})
      if (HasSubnormal(t, moved.GetMatrix(m))) seen.insert(m);
  }
  for (const char* want : {"Q", "K", "V"}) EXPECT_TRUE(seen.count(want)) << "no move made " << want << " subnormal";
}

INSTANTIATE_TEST_SUITE_P(Dtypes, RegimeReach, ::testing::Values(DType::kF32, DType::kF64),
                         [](const auto& p) { return p.param == DType::kF32 ? "f32" : "f64"; });

}  // namespace
}  // namespace attnprop::ksuite
