#include "properties/kernel_suite/problem_gen.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "generators/scalars.h"

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

}  // namespace attnprop::ksuite
