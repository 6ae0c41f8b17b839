#include "properties/operator/problem_gen.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "generators/scalars.h"
#include "properties/operator/half_format.h"
#include "properties/framework/hypotheses_checks.h"

namespace attnprop::ksuite {

rc::Gen<Exact> EntryGen(DType t, int64_t magnitude) { return gen::Dyadic(magnitude, t == DType::kF32 ? 4 : 30); }

rc::Gen<Case> ProblemGen(InputKind in, ShapeSpec s) {
  if (in.costly) {  // MPFR costs ~10^3 x double per operation (NOTES.md)
    s.max_t = std::min<int64_t>(s.max_t, 12);
    s.max_d = std::min<int64_t>(s.max_d, 6);
  }
  const DType t = in.dtype;
  using Dims = std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int, bool>;
  const rc::Gen<int64_t> causal_gen = s.causal == ShapeSpec::Causal::kNo    ? rc::gen::just<int64_t>(0)
                                      : s.causal == ShapeSpec::Causal::kYes ? rc::gen::just<int64_t>(1)
                                                                            : rc::gen::element<int64_t>(0, 1);
  // Lengths and widths grow with RapidCheck's size (0..100 over a run): the
  // first cases are small, the last reach max_t / max_d (vector tails,
  // several key blocks), so a run costs about half its largest case each.
  auto dim = [](int64_t hi) {
    return rc::gen::withSize([hi](int size) { return gen::Dim(1, std::max<int64_t>(1, hi * std::min(size, 100) / 100)); });
  };
  return rc::gen::mapcat(
      rc::gen::tuple(gen::Dim(s.min_batch_2 ? 2 : 1, std::max<int64_t>(s.max_batch, s.min_batch_2 ? 2 : 1)),
                     dim(s.max_t), dim(s.max_t), dim(s.max_d), dim(s.max_d), causal_gen,
                     rc::gen::element<int64_t>(1, 4, 16, 64), rc::gen::inRange(0, 3), rc::gen::arbitrary<bool>()),
      [t, s](const Dims& d) {
        auto [batch, ta, tb, dk, dv, causal, magnitude, scale_kind, flip] = d;
        int64_t t_q = ta, t_k = tb;
        switch (s.lengths) {
          case ShapeSpec::Lengths::kAny: break;
          case ShapeSpec::Lengths::kEqual: t_k = t_q; break;
          case ShapeSpec::Lengths::kQueriesFewer: t_k = ta + tb; break;
          case ShapeSpec::Lengths::kQueriesMore: t_q = ta + tb, t_k = ta; break;
          case ShapeSpec::Lengths::kUnequal:
            if (flip) t_q = ta + tb, t_k = ta; else t_k = ta + tb;
            break;
        }
        if (t_k < s.min_t_k) {  // grow both lengths, keeping their relation (equal, fewer, more)
          const int64_t add = s.min_t_k - t_k;
          t_k += add;
          t_q += add;
        }
        if (s.dk_ne_dv && dv == dk) dv = dk + 1;
        if (s.identity_v) dv = t_k + std::min<int64_t>(dv - 1, 2);
        const double scale = scale_kind == 0 ? 1.0 : scale_kind == 1 ? 1 / std::sqrt(static_cast<double>(dk)) : 0.125;
        const bool wide = t == DType::kF64 && s.wide_f64_inputs;
        const rc::Gen<Exact> entry = wide ? gen::Dyadic(magnitude, 30) : gen::Dyadic(magnitude, 4);
        rc::Gen<ExactMatrix> vgen = gen::Matrix(batch * t_k, dv, entry);
        if (s.identity_v) {
          ExactMatrix id(batch * t_k, dv);
          for (int64_t b = 0; b < batch; ++b)
            for (int64_t j = 0; j < t_k; ++j) id(b * t_k + j, j) = 1.0;
          vgen = rc::gen::just(id);
        }
        return rc::gen::apply(
            [=](ExactMatrix q, ExactMatrix k, ExactMatrix v) {
              return Case()
                  .Int("batch", batch)
                  .Int("causal", causal)
                  .Scalar("scale", scale)
                  .Matrix("Q", std::move(q))
                  .Matrix("K", std::move(k))
                  .Matrix("V", std::move(v));
            },
            gen::Matrix(batch * t_q, dk, entry), gen::Matrix(batch * t_k, dk, entry), vgen);
      });
}

bool EntriesFit(DType t, const ExactMatrix& m) {
  if (IsHalf(t)) {
    const HalfFormat& f = t == DType::kBF16 ? kBF16 : kF16;
    if (!hyp::AllExactDouble(m)) return false;
    for (const Exact& e : m.data)
      if (!IsHalfValue(f, e.ToDouble())) return false;
    return true;
  }
  return t == DType::kF32 ? hyp::AllExactFloat(m) : hyp::AllExactDouble(m);
}

bool ProblemHolds(DType t, const ShapeSpec& s, const Case& c) {
  const int64_t batch = c.GetInt("batch"), causal = c.GetInt("causal");
  const Exact& scale = c.GetScalar("scale");
  const ExactMatrix &q = c.GetMatrix("Q"), &k = c.GetMatrix("K"), &v = c.GetMatrix("V");
  if (batch < (s.min_batch_2 ? 2 : 1)) return false;
  if (causal != 0 && causal != 1) return false;
  if (s.causal == ShapeSpec::Causal::kNo && causal != 0) return false;
  if (s.causal == ShapeSpec::Causal::kYes && causal != 1) return false;
  if (q.rows % batch != 0 || k.rows % batch != 0 || v.rows != k.rows) return false;
  const int64_t t_q = q.rows / batch, t_k = k.rows / batch, d_k = q.cols, d_v = v.cols;
  if (t_q < 1 || t_k < std::max<int64_t>(1, s.min_t_k) || d_k < 1 || k.cols != d_k || d_v < 1) return false;
  switch (s.lengths) {
    case ShapeSpec::Lengths::kAny: break;
    case ShapeSpec::Lengths::kEqual: if (t_q != t_k) return false; break;
    case ShapeSpec::Lengths::kQueriesFewer: if (t_q >= t_k) return false; break;
    case ShapeSpec::Lengths::kQueriesMore: if (t_q <= t_k) return false; break;
    case ShapeSpec::Lengths::kUnequal: if (t_q == t_k) return false; break;
  }
  if (s.dk_ne_dv && d_k == d_v) return false;
  if (!hyp::Finite(scale) || !(s.any_scale || scale.ToDouble() > 0)) return false;
  if (!EntriesFit(t, q) || !EntriesFit(t, k) || !EntriesFit(t, v)) return false;
  // Half-precision storage is computed in (at least) f32 by the kernels
  // this checks: f32's domain (f16 entries are all below 2^16 anyway).
  const bool f32_domain = t != DType::kF64;
  const double qk_max = f32_domain ? 0x1p30 : 0x1p250, v_max = f32_domain ? 0x1p100 : 0x1p1000;
  if (!hyp::AllWithin(q, qk_max) || !hyp::AllWithin(k, qk_max) || !hyp::AllWithin(v, v_max)) return false;
  // |scale <q_i, k_j>| <= 2^20: the accuracy model's bounds (accuracy.h)
  // exponentiate score errors and become NaN far beyond (the generator's
  // scores stay below 2^17: scale <= 1, entries <= 64 (+16 for a shift),
  // d_k <= 20).
  if (!hyp::ScoresWithin(q, k, scale.ToDouble(), 0x1p20)) return false;
  if (s.identity_v) {
    if (d_v < t_k) return false;
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t j = 0; j < t_k; ++j)
        for (int64_t l = 0; l < d_v; ++l)
          if (v(b * t_k + j, l).ToDouble() != (l == j ? 1.0 : 0.0)) return false;
  }
  return true;
}

}  // namespace attnprop::ksuite
