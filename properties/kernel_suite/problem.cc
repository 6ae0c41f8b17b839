#include "properties/kernel_suite/problem.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>

#include "generators/scalars.h"

namespace attnprop::ksuite {
namespace {

/// The accuracy assumed of the kernel's exp (and of its log, for lse), in
/// units of u. glibc's expf/exp are within 0.51 ulp; vectorised exps are
/// usually within 1-3 ulp. A "crude" exp (worse than this) is a bug.
constexpr double kExpUlps = 4;

size_t ElementSize(DType t) { return t == DType::kF32 ? 4 : 8; }

void Store(DType t, const Exact& e, unsigned char* dst) {
  const double d = e.ToDouble();
  if (t == DType::kF32) {
    const float f = static_cast<float>(d);
    if (static_cast<double>(f) != d && !std::isnan(d))
      throw std::logic_error("kernel suite: input " + e.ToString() + " is not exact in float (generator bug)");
    std::memcpy(dst, &f, 4);
  } else {
    std::memcpy(dst, &d, 8);
  }
}

double Load(DType t, const unsigned char* src) {
  if (t == DType::kF32) {
    float f;
    std::memcpy(&f, src, 4);
    return static_cast<double>(f);
  }
  double d;
  std::memcpy(&d, src, 8);
  return d;
}

std::string Num(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a (%.9g)", x, x);
  return buf;
}

}  // namespace

const char* DTypeName(DType t) { return t == DType::kF32 ? "kernel-f32" : "kernel-f64"; }
double UnitRoundoffOf(DType t) { return t == DType::kF32 ? 0x1p-24 : 0x1p-53; }
double MinNormalOf(DType t) {
  return t == DType::kF32 ? static_cast<double>(std::numeric_limits<float>::min()) : std::numeric_limits<double>::min();
}

Problem Problem::FromCase(const Case& c) {
  Problem p;
  p.batch = c.GetInt("batch");
  p.causal = static_cast<int32_t>(c.GetInt("causal"));
  p.scale = c.GetScalar("scale");
  p.q = c.GetMatrix("Q");
  p.k = c.GetMatrix("K");
  p.v = c.GetMatrix("V");
  p.t_q = p.q.rows / p.batch;
  p.t_k = p.k.rows / p.batch;
  p.d_k = p.q.cols;
  p.d_v = p.v.cols;
  return p;
}

Case Problem::ToCase() const {
  return Case().Int("batch", batch).Int("causal", causal).Scalar("scale", scale).Matrix("Q", q).Matrix("K", k).Matrix(
      "V", v);
}

ExactMatrix Problem::Block(const ExactMatrix& m, int64_t b, int64_t rows) {
  ExactMatrix r(rows, m.cols);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t c = 0; c < m.cols; ++c) r(i, c) = m(b * rows + i, c);
  return r;
}

const char* MutationName(Mutation m) {
  switch (m) {
    case Mutation::kNone: return "none";
    case Mutation::kNullQ: return "q = NULL";
    case Mutation::kNullK: return "k = NULL";
    case Mutation::kNullV: return "v = NULL";
    case Mutation::kNullOut: return "out = NULL";
    case Mutation::kBatch0: return "batch = 0";
    case Mutation::kTq0: return "t_q = 0";
    case Mutation::kTk0: return "t_k = 0";
    case Mutation::kDk0: return "d_k = 0";
    case Mutation::kDv0: return "d_v = 0";
    case Mutation::kNegativeTk: return "t_k = -1";
    case Mutation::kStructSize0: return "struct_size = 0";
    case Mutation::kStructSizeShort: return "struct_size = sizeof(v1 args) - 8";
    case Mutation::kScaleNan: return "scale = NaN";
    case Mutation::kScaleInf: return "scale = +inf";
    case Mutation::kCausal2: return "causal = 2";
    case Mutation::kCausalNegative: return "causal = -1";
    case Mutation::kCount: break;
  }
  return "?";
}

namespace {
void Mutate(attnprop_attention_args* a, Mutation m) {
  switch (m) {
    case Mutation::kNone: case Mutation::kCount: break;
    case Mutation::kNullQ: a->q = nullptr; break;
    case Mutation::kNullK: a->k = nullptr; break;
    case Mutation::kNullV: a->v = nullptr; break;
    case Mutation::kNullOut: a->out = nullptr; break;
    case Mutation::kBatch0: a->batch = 0; break;
    case Mutation::kTq0: a->t_q = 0; break;
    case Mutation::kTk0: a->t_k = 0; break;
    case Mutation::kDk0: a->d_k = 0; break;
    case Mutation::kDv0: a->d_v = 0; break;
    case Mutation::kNegativeTk: a->t_k = -1; break;
    case Mutation::kStructSize0: a->struct_size = 0; break;
    case Mutation::kStructSizeShort: a->struct_size = sizeof(attnprop_attention_args) - 8; break;
    case Mutation::kScaleNan: a->scale = std::numeric_limits<double>::quiet_NaN(); break;
    case Mutation::kScaleInf: a->scale = std::numeric_limits<double>::infinity(); break;
    case Mutation::kCausal2: a->causal = 2; break;
    case Mutation::kCausalNegative: a->causal = -1; break;
  }
}
}  // namespace

CallResult CallKernel(const KernelContext& ctx, const Problem& p, const CallSpec& spec) {
  const DType t = ctx.dtype;
  const size_t es = ElementSize(t);
  auto make_input = [&](const char* name, const ExactMatrix& m) {
    auto b = std::make_unique<GuardedBuffer>(name, m.data.size() * es, spec.in_place);
    for (size_t i = 0; i < m.data.size(); ++i) Store(t, m.data[i], b->data() + i * es);
    return b;
  };
  const auto qb = make_input("q", p.q), kb = make_input("k", p.k), vb = make_input("v", p.v);
  const std::vector<unsigned char> q0(qb->data(), qb->data() + qb->bytes()), k0(kb->data(), kb->data() + kb->bytes()),
      v0(vb->data(), vb->data() + vb->bytes());
  const size_t out_n = static_cast<size_t>(p.batch * p.t_q * p.d_v), lse_n = static_cast<size_t>(p.batch * p.t_q);
  std::vector<std::unique_ptr<GuardedBuffer>> outs, lses;
  for (int r = 0; r < spec.repeats; ++r) {
    outs.push_back(std::make_unique<GuardedBuffer>("out", out_n * es, spec.out_place));
    std::memset(outs.back()->data(), kOutputFill, out_n * es);
    if (spec.want_lse) {
      lses.push_back(std::make_unique<GuardedBuffer>("lse", lse_n * es, spec.out_place));
      std::memset(lses.back()->data(), kOutputFill, lse_n * es);
    }
  }
  SharedBlock shared(sizeof(int) * static_cast<size_t>(1 + spec.repeats));
  int* rcs = static_cast<int*>(shared.data());
  const KernelEntry entry = t == DType::kF32 ? ctx.library->f32 : ctx.library->f64;
  std::vector<attnprop_attention_args> args(static_cast<size_t>(spec.repeats));
  for (int r = 0; r < spec.repeats; ++r) {
    attnprop_attention_args& a = args[static_cast<size_t>(r)];
    a.struct_size = sizeof(attnprop_attention_args);
    a.batch = p.batch;
    a.t_q = p.t_q;
    a.t_k = p.t_k;
    a.d_k = p.d_k;
    a.d_v = p.d_v;
    a.scale = p.scale.ToDouble();
    a.causal = p.causal;
    a.q = qb->data();
    a.k = kb->data();
    a.v = vb->data();
    a.out = outs[static_cast<size_t>(r)]->data();
    a.lse = spec.want_lse ? lses[static_cast<size_t>(r)]->data() : nullptr;
    Mutate(&a, spec.mutation);
  }
  const ChildOutcome o = RunInChild(
      [&] {
        for (int r = 0; r < spec.repeats; ++r) {
          rcs[1 + r] = entry(&args[static_cast<size_t>(r)]);
          rcs[0] = r + 1;
        }
      },
      ctx.timeout_s);

  CallResult res;
  const int done = rcs[0];
  for (int r = 0; r < done; ++r) res.rc.push_back(rcs[1 + r]);
  if (o.kind != ChildOutcome::Kind::kFinished) {
    res.crash = o.kind == ChildOutcome::Kind::kTimeout
                    ? "timed out after " + std::to_string(ctx.timeout_s) + " s (killed)"
                    : o.Describe();
    if (o.have_fault_address) {
      std::string where;
      std::vector<const GuardedBuffer*> all{qb.get(), kb.get(), vb.get()};
      for (auto& b : outs) all.push_back(b.get());
      for (auto& b : lses) all.push_back(b.get());
      for (const GuardedBuffer* b : all)
        if (b->Describe(o.fault_address, &where)) {
          res.crash += ": " + where;
          break;
        }
    }
    if (spec.repeats > 1) res.crash += " (in call " + std::to_string(done + 1) + " of " + std::to_string(spec.repeats) + ")";
  }
  for (int r = 0; r < spec.repeats; ++r) {
    const GuardedBuffer& ob = *outs[static_cast<size_t>(r)];
    res.out_bytes.emplace_back(ob.data(), ob.data() + ob.bytes());
    std::vector<double> out(out_n);
    for (size_t i = 0; i < out_n; ++i) out[i] = Load(t, ob.data() + i * es);
    res.out.push_back(std::move(out));
    for (size_t i = 0; i < ob.bytes(); ++i) res.outputs_untouched = res.outputs_untouched && ob.data()[i] == kOutputFill;
    if (res.output_slack.empty()) res.output_slack = ob.SlackDamage();
    if (spec.want_lse) {
      const GuardedBuffer& lb = *lses[static_cast<size_t>(r)];
      res.lse_bytes.emplace_back(lb.data(), lb.data() + lb.bytes());
      std::vector<double> lse(lse_n);
      for (size_t i = 0; i < lse_n; ++i) lse[i] = Load(t, lb.data() + i * es);
      res.lse.push_back(std::move(lse));
      for (size_t i = 0; i < lb.bytes(); ++i)
        res.outputs_untouched = res.outputs_untouched && lb.data()[i] == kOutputFill;
      if (res.output_slack.empty()) res.output_slack = lb.SlackDamage();
    }
  }
  for (const GuardedBuffer* b : {qb.get(), kb.get(), vb.get()})
    if (res.input_slack.empty()) res.input_slack = b->SlackDamage();
  auto compare = [&](const GuardedBuffer& b, const std::vector<unsigned char>& before, const ExactMatrix& m) {
    if (!res.inputs_changed.empty()) return;
    for (size_t i = 0; i < before.size(); i += es) {
      if (std::memcmp(before.data() + i, b.data() + i, es) != 0) {
        const size_t e = i / es;
        res.inputs_changed = b.name() + "[" + std::to_string(e / static_cast<size_t>(m.cols)) + "][" +
                             std::to_string(e % static_cast<size_t>(m.cols)) + "] changed from " +
                             Num(Load(t, before.data() + i)) + " to " + Num(Load(t, b.data() + i));
        return;
      }
    }
  };
  compare(*qb, q0, p.q);
  compare(*kb, k0, p.k);
  compare(*vb, v0, p.v);
  return res;
}

void RequireSuccess(const CallResult& r, const std::string& what) {
  if (!r.crash.empty()) RC_FAIL(what + ": the kernel " + r.crash);
  for (size_t i = 0; i < r.rc.size(); ++i)
    if (r.rc[i] != 0) RC_FAIL(what + ": the kernel returned " + std::to_string(r.rc[i]) + " on valid arguments");
}

std::vector<AttentionResult<Mpfr>> Reference(const Problem& p) {
  std::vector<AttentionResult<Mpfr>> r;
  const Mpfr scale = p.scale.As<Mpfr>();
  for (int64_t b = 0; b < p.batch; ++b)
    r.push_back(Attention<Mpfr>(Problem::Block(p.q, b, p.t_q).As<Mpfr>(), Problem::Block(p.k, b, p.t_k).As<Mpfr>(),
                                Problem::Block(p.v, b, p.t_k).As<Mpfr>(), scale,
                                p.causal ? Mask::Causal() : Mask::None()));
  return r;
}

// The error analysis (u = unit roundoff of the dtype, gamma_n = nu/(1-nu)).
//  Scores: s^_ij = fl(c <q_i,k_j>) with the scale itself rounded to the
//    dtype: |s^ - s| <= gamma_{d_k+2} |c| sum_l |q_il k_jl| =: E (any
//    summation order, with or without FMA).
//  Exponents: s^_j - m^ (m = row max) rounds with error <= u |s_j - m|
//    <= 2u smax; an online softmax's rescale exponents telescope to the same
//    range (<= 2u smax in all); a base-2 formulation (scores times log2 e,
//    then exp2) adds one rounding of each exponent (<= 2u smax); lse = m +
//    ln Z rounds by u (smax + ln t_k), and ln (within kExpUlps) by
//    kExpUlps u ln t_k. delta = E + u (8 smax + (kExpUlps + 1)(ln t_k + 1)),
//    with smax <= |c| max_j sum_l |q_il k_jl|.
//  Weights: softmax(s + e)_j / softmax(s)_j = exp(e_j - (lse(s+e) - lse(s)))
//    lies within exp(+-2 max|e|), so score and exponent errors give a factor
//    exp(2 delta). Each term then carries its own exp (kExpUlps u), a chain
//    of at most t_k rescale factors ((kExpUlps + 1) u each), the product with
//    v (u); numerator and denominator sums of t_k terms (gamma_{t_k}), the
//    division (u): n = (kExpUlps + 2) t_k + kExpUlps + 4 roundings bound the
//    relative error of numerator and denominator, each (1 + gamma_n).
//    rho = exp(2 delta) (1 + gamma_n)^2 - 1 bounds each weight relative to
//    the exact weight, hence |out^ - out*| <= rho sum_j a_j |v_j|.
//  Underflow: a weight below lambda (smallest normal) may come out as 0 or
//    subnormal: absolute error <= 2 lambda per weight, 2 t_k lambda max|v|.
//  lse: |lse^ - lse| <= delta + |ln(1 + gamma_n)| + ... <= delta + 2 gamma_n.
RowBound BoundForRow(const Problem& p, DType t, int64_t b, int64_t i) {
  const double u = UnitRoundoffOf(t);
  const double c = std::fabs(p.scale.ToDouble());
  double mag = 0;
  for (int64_t j = 0; j < p.t_k; ++j) {
    if (!p.Visible(i, j)) continue;
    double m = 0;
    for (int64_t l = 0; l < p.d_k; ++l)
      m += std::fabs(p.q(b * p.t_q + i, l).ToDouble() * p.k(b * p.t_k + j, l).ToDouble());
    mag = std::max(mag, m);
  }
  // Computed in double: its own rounding (~1e-16 relative) is far below any of these terms.
  mag *= 1 + 1e-12;
  const double tk = static_cast<double>(p.t_k);
  RowBound r;
  const double smax = c * mag;
  r.delta = Gamma(static_cast<double>(p.d_k + 2), u) * smax + u * (8 * smax + (kExpUlps + 1) * (std::log(tk) + 1));
  const double g = Gamma((kExpUlps + 2) * tk + kExpUlps + 4, u);
  r.rho = std::exp(2 * r.delta) * (1 + g) * (1 + g) - 1;
  r.lse = r.delta + 2 * g;
  r.underflow = 2 * tk * MinNormalOf(t);
  return r;
}

Tolerance OutTolerance() {
  return {"|out - out*|", "rho_i sum_j a*_ij |v_jc| + 2 t_k lambda max_j |v_jc|",
          "rho_i = exp(2 delta_i)(1+gamma_n)^2 - 1, delta_i = gamma_{d_k+2} smax_i + u(8 smax_i + 5(ln t_k + 1)), "
          "smax_i = |c| max_j sum_l |q_il k_jl|, n = 6 t_k + 8 (exp within 4 ulp, <= t_k rescales, two sums, "
          "division); softmax moves each weight by at most exp(2 max score error); lambda = smallest normal "
          "(flushed weights); see problem.cc"};
}

Tolerance LseTolerance() {
  return {"|lse - lse*|", "delta_i + 2 gamma_n",
          "lse moves by at most max score error under score perturbations (1-Lipschitz in the max norm), plus "
          "rounding of m + ln Z (in delta_i) and ln of the computed sum Z (relative error gamma_n)"};
}

Tolerance WeightSumTolerance() {
  return {"|sum_j A_ij - 1|", "rho_i + 2 t_k lambda",
          "each computed weight (read as out with V = I) is within rho_i of its exact value relative, and the "
          "exact weights sum to 1; flushed weights add <= 2 lambda each"};
}

void ExpectOutputsNearReference(const Problem& p, DType t, const std::vector<AttentionResult<Mpfr>>& ref,
                                const std::vector<double>& out, const std::vector<double>* lse,
                                const std::string& what) {
  double worst_ratio = -1, worst_obs = 0, worst_bound = 0;
  double worst_lse_ratio = -1, worst_lse_obs = 0, worst_lse_bound = 0;
  for (int64_t b = 0; b < p.batch; ++b) {
    const auto& r = ref[static_cast<size_t>(b)];
    for (int64_t i = 0; i < p.t_q; ++i) {
      const RowBound rb = BoundForRow(p, t, b, i);
      const size_t row = static_cast<size_t>(b * p.t_q + i);
      for (int64_t c = 0; c < p.d_v; ++c) {
        double wsum = 0, vmax = 0;
        for (int64_t j = 0; j < p.t_k; ++j) {
          if (!p.Visible(i, j)) continue;
          const double vj = std::fabs(p.v(b * p.t_k + j, c).ToDouble());
          wsum += ToDouble(r.weights(i, j)) * vj;
          vmax = std::max(vmax, vj);
        }
        const double bound = rb.rho * wsum * (1 + 1e-12) + rb.underflow * vmax;
        const double got = out[row * static_cast<size_t>(p.d_v) + static_cast<size_t>(c)];
        const double err = std::isfinite(got) ? ToDouble(Mpfr(abs(Mpfr(got) - r.out(i, c)))) : HUGE_VAL;
        const double ratio = err == 0 ? 0 : (bound > 0 ? err / bound : HUGE_VAL);
        if (!(err <= bound)) {
          char buf[512];
          std::snprintf(buf, sizeof buf,
                        "%s: out[b=%lld][i=%lld][c=%lld] = %s, exact %.17g: |error| %.3e > bound %.3e "
                        "(rho_i %.3e, sum_j a_ij|v_jc| %.3e)",
                        what.c_str(), static_cast<long long>(b), static_cast<long long>(i),
                        static_cast<long long>(c), Num(got).c_str(), ToDouble(r.out(i, c)), err, bound, rb.rho, wsum);
          RC_FAIL(std::string(buf));
        }
        if (ratio > worst_ratio) worst_ratio = ratio, worst_obs = err, worst_bound = bound;
      }
      if (lse) {
        const double got = (*lse)[row];
        const Mpfr& exact = r.lse[i];
        if (isinf(exact)) {
          if (!(std::isinf(got) && got < 0))
            RC_FAIL(what + ": lse[b=" + std::to_string(b) + "][i=" + std::to_string(i) + "] = " + Num(got) +
                    " for a row with no visible key (must be -inf)");
          continue;
        }
        const double err = std::isfinite(got) ? ToDouble(Mpfr(abs(Mpfr(got) - exact))) : HUGE_VAL;
        if (!(err <= rb.lse)) {
          char buf[512];
          std::snprintf(buf, sizeof buf, "%s: lse[b=%lld][i=%lld] = %s, exact %.17g: |error| %.3e > bound %.3e",
                        what.c_str(), static_cast<long long>(b), static_cast<long long>(i), Num(got).c_str(),
                        ToDouble(exact), err, rb.lse);
          RC_FAIL(std::string(buf));
        }
        const double ratio = err / rb.lse;
        if (ratio > worst_lse_ratio) worst_lse_ratio = ratio, worst_lse_obs = err, worst_lse_bound = rb.lse;
      }
    }
  }
  if (worst_ratio >= 0) ExpectWithin(OutTolerance().metric, worst_obs, worst_bound);
  if (worst_lse_ratio >= 0) ExpectWithin(LseTolerance().metric, worst_lse_obs, worst_lse_bound);
}

rc::Gen<Exact> EntryGen(DType t, int64_t magnitude) {
  return gen::Dyadic(magnitude, t == DType::kF32 ? 4 : 30);
}

rc::Gen<Case> ProblemGen(DType t, const ShapeSpec& s) {
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
