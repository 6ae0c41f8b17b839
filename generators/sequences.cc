#include "generators/sequences.h"

#include <cmath>

namespace attnprop::gen {

using Q = attnprop::Rational;

rc::Gen<AttentionProblem> AttentionProblems(AttentionShape shape) {
  // Axes: 0 batch, 1 t_q, 2 t_k, 3 d_k, 4 d_v; arrays Q, K, V of rank 3.
  DimsOk ok;
  if (shape.distinct) ok = [](const std::vector<int64_t>& d) { return d[1] != d[2] && d[3] != d[4]; };
  return Shaped<AttentionProblem>(
      {{shape.batch}, {shape.t}, {shape.t}, {shape.d}, {shape.d}},
      {{{0, 1, 3}, shape.entry}, {{0, 2, 3}, shape.entry}, {{0, 2, 4}, shape.entry}},
      [](const Params& p) {
        AttentionProblem a;
        a.batch = p.dims[0], a.t_q = p.dims[1], a.t_k = p.dims[2], a.d_k = p.dims[3], a.d_v = p.dims[4];
        for (int64_t b = 0; b < a.batch; ++b) {
          a.q.push_back(p.Slice(0, b));
          a.k.push_back(p.Slice(1, b));
          a.v.push_back(p.Slice(2, b));
        }
        a.scale = Exact(1.0 / std::sqrt(static_cast<double>(a.d_k)));
        return a;
      },
      ok);
}

rc::Gen<ExactMatrix> SoftmaxScores(DimRange rows, DimRange cols, double spread) {
  // Arrays: row kind (rows), base values in [-1, 1] (rows x cols), and the
  // dominant position key (rows x cols; the argmax is dominant).
  rc::Gen<Exact> kind = rc::gen::map(rc::gen::inRange<int>(0, kScoreRowKinds), [](int k) { return Exact(k); });
  return Shaped<ExactMatrix>(
      {{rows}, {cols}}, {{{0}, kind}, {{0, 1}, Uniform(-1, 1)}},
      [spread](const Params& p) {
        const int64_t r = p.dims[0], c = p.dims[1];
        Mat<double> s(r, c);
        for (int64_t i = 0; i < r; ++i) {
          auto base = [&](int64_t j) { return p.arrays[1][static_cast<size_t>(i * c + j)].ToDouble(); };
          const auto k = static_cast<ScoreRow>(static_cast<int>(p.arrays[0][static_cast<size_t>(i)].ToDouble()));
          // The row's reference level: a multiple of spread/4, so a tie sits
          // anywhere in the range.
          const double level = std::round(base(0) * 4) * spread / 4;
          int64_t arg = 0;
          for (int64_t j = 1; j < c; ++j)
            if (base(j) > base(arg)) arg = j;
          for (int64_t j = 0; j < c; ++j) {
            double v = 0;
            switch (k) {
              case ScoreRow::kSpread:
                v = base(j) * spread;  // |v| <= spread: one rounding at most
                break;
              case ScoreRow::kTies:
                // Integers in [-2, 2] plus level; entry 1 copies entry 0's
                // maximum so that the top value is tied.
                v = level + std::round(base(j) * 2);
                break;
              case ScoreRow::kNearTies:
                v = (j % 2 == 0) ? level : std::nextafter(level, HUGE_VAL);
                break;
              case ScoreRow::kAllEqual:
                v = level;
                break;
              case ScoreRow::kDominant:
                v = j == arg ? level + spread : level;
                break;
            }
            s(i, j) = v;
          }
          if (k == ScoreRow::kTies && c >= 2) s(i, 0) = s(i, 1) = s.row(i).maxCoeff();
        }
        return ExactMatrix::FromDoubles(s);
      });
}

std::vector<ScoreRow> ClassifyScoreRow(const std::vector<double>& row, double spread) {
  std::vector<ScoreRow> out;
  if (row.empty()) return out;
  double hi = row[0], lo = row[0];
  for (double v : row) hi = std::max(hi, v), lo = std::min(lo, v);
  int at_max = 0;
  for (double v : row) at_max += v == hi;
  if (hi - lo >= spread / 2) out.push_back(ScoreRow::kSpread);
  if (row.size() >= 2 && at_max >= 2 && lo != hi) out.push_back(ScoreRow::kTies);
  if (lo != hi && std::nextafter(lo, HUGE_VAL) == hi) out.push_back(ScoreRow::kNearTies);
  if (lo == hi) out.push_back(ScoreRow::kAllEqual);
  if (row.size() >= 2 && at_max == 1 && hi - lo >= spread / 2) {
    // Dominant: every other entry is far below the maximum.
    bool all_far = true;
    for (double v : row)
      if (v != hi && hi - v < spread / 2) all_far = false;
    if (all_far) out.push_back(ScoreRow::kDominant);
  }
  return out;
}

rc::Gen<TokenSequence> TokenSequences(DimRange t, DimRange half_d, rc::Gen<Exact> entry) {
  // Axes: 0 tokens, 1 d/2, 2 the pair (2i, 2i+1).
  return Shaped<TokenSequence>(
      {{t}, {half_d}, {{2, 2, 2}}}, {{{0, 1, 2}, entry}, {{0, 1, 2}, entry}}, [](const Params& p) {
        const int64_t n = p.dims[0], h = p.dims[1], d = 2 * h;
        TokenSequence s;
        s.embeddings = ExactMatrix(n, d);
        s.embeddings.data = p.arrays[0];
        s.learned = ExactMatrix(n, d);
        s.learned.data = p.arrays[1];
        s.sinusoidal = ExactMatrix(n, d);
        s.rope_angles = ExactMatrix(n, h);
        for (int64_t i = 0; i < h; ++i) {
          const double w = std::pow(10000.0, -2.0 * static_cast<double>(i) / static_cast<double>(d));
          for (int64_t pos = 0; pos < n; ++pos) {
            const double angle = static_cast<double>(pos) * w;
            s.sinusoidal(pos, 2 * i) = Exact(std::sin(angle));
            s.sinusoidal(pos, 2 * i + 1) = Exact(std::cos(angle));
            s.rope_angles(pos, i) = Exact(angle);
          }
        }
        return s;
      });
}

rc::Gen<WeightSet> WeightSets(DimRange layers, DimRange heads, DimRange d_model, DimRange d_k, DimRange d_v,
                              Exact eta) {
  const Q eta_q = eta.ToRational();
  rc::Gen<Exact> unit = SimpleDyadic(1, 8);
  // Axes: 0 layers, 1 heads, 2 d_model, 3 d_k, 4 d_v.
  return Shaped<WeightSet>(
      {{layers}, {heads}, {d_model}, {d_k}, {d_v}},
      {{{0, 1, 2, 3}, unit}, {{0, 1, 2, 3}, unit}, {{0, 1, 2, 4}, unit}}, [eta, eta_q](const Params& p) {
        WeightSet w;
        w.layers = p.dims[0], w.heads = p.dims[1], w.d_model = p.dims[2], w.d_k = p.dims[3], w.d_v = p.dims[4];
        w.eta = eta;
        // eta * x rounded to nearest: |x| <= 1 keeps |fl(eta x)| <= eta when
        // eta is a double (rounding is monotone); exact for rational eta.
        auto scaled = [&](size_t array, int64_t index, int64_t cols) {
          ExactMatrix m(w.d_model, cols);
          const size_t begin = static_cast<size_t>(index * w.d_model * cols);
          for (size_t e = 0; e < m.data.size(); ++e) {
            const Q v = p.arrays[array][begin + e].ToRational() * eta_q;
            m.data[e] = eta.IsDouble() ? Exact(RoundToDouble(v)) : Exact(v);
          }
          return m;
        };
        for (int64_t i = 0; i < w.layers * w.heads; ++i) {
          w.w_q.push_back(scaled(0, i, w.d_k));
          w.w_k.push_back(scaled(1, i, w.d_k));
          w.w_v.push_back(scaled(2, i, w.d_v));
        }
        return w;
      });
}

namespace {

// V = Q D with Q = Cayley(A), D = diag(d), d from the unit array scaled by
// c with the largest |d_i| set to +-c.
Mat<Q> NormedFrom(const Params& p, size_t a_array, size_t d_array, const Q& c) {
  const int64_t n = p.dims[0];
  Mat<Q> a = Mat<Q>::Zero(n, n);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i + 1; j < n; ++j) {
      a(i, j) = p.arrays[a_array][static_cast<size_t>(i * n + j)].ToRational();
      a(j, i) = -a(i, j);
    }
  const Mat<Q> q = Cayley(a);
  Vec<Q> d(n);
  int64_t arg = 0;
  for (int64_t i = 0; i < n; ++i) {
    d[i] = p.arrays[d_array][static_cast<size_t>(i)].ToRational();
    if (abs(d[i]) > abs(d[arg])) arg = i;
  }
  for (int64_t i = 0; i < n; ++i) d[i] *= c;
  d[arg] = d[arg] < 0 ? Q(-c) : c;
  return q * d.asDiagonal();
}

}  // namespace

rc::Gen<NormedMap> ValueMapWithNorm(DimRange n, Exact c, Arith arith) {
  const Q cq = abs(c.ToRational());
  return Shaped<NormedMap>({{n}}, {{{0, 0}, SimpleDyadic(1, 1)}, {{0}, SimpleDyadic(1, 4)}},
                           [cq, arith](const Params& p) {
                             return NormedMap{FromRationals(NormedFrom(p, 0, 1, cq), arith), Exact(cq)};
                           });
}

rc::Gen<LipschitzMap> LipschitzMaps(DimRange n, Exact lipschitz, Arith arith) {
  const Q lq = abs(lipschitz.ToRational());
  rc::Gen<Exact> kind = rc::gen::map(rc::gen::inRange<int>(0, 2), [](int k) { return Exact(k); });
  return Shaped<LipschitzMap>(
      {{n}}, {{{0, 0}, SimpleDyadic(1, 1)}, {{0}, SimpleDyadic(1, 4)}, {{}, kind}}, [lq, arith, lipschitz](const Params& p) {
        LipschitzMap m;
        m.kind = p.arrays[2][0].ToDouble() == 0 ? LipschitzMap::kLinear : LipschitzMap::kScaledTanh;
        m.lipschitz = Exact(lq);
        if (m.kind == LipschitzMap::kLinear) {
          m.w = FromRationals(NormedFrom(p, 0, 1, lq), arith);
          m.a = Exact(1.0);
        } else {
          m.w = FromRationals(NormedFrom(p, 0, 1, Q(1)), arith);
          m.a = Finish(lq, arith);
        }
        (void)lipschitz;
        return m;
      });
}

}  // namespace attnprop::gen
