// Networks of "Only Large Weights (And Not Skip Connections) Can Prevent the
// Perils of Rank Collapse" (004_fc07a226cef95160.txt) as test cases: L
// layers of H heads, X_{l+1} = X_l + sum_h softm_h(X_l) X_l Wv_h (beta = 1,
// Definitions 3.7, A.1), the heads stored as W<l>_<h>{q,k,v}. Shared by the
// layer claims (network_layers.cc), the Appendix C chain (appendix_c_chain.cc)
// and Theorem 5.3 (thm5_3_layer_collapse.cc).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "properties/collapse/collapse_cases.h"
#include "properties/framework/check.h"
#include "properties/framework/size_budget.h"

namespace attnprop::collapse {

inline std::string HeadName(int64_t l, int64_t h) { return "W" + std::to_string(l) + "_" + std::to_string(h); }

/// A network on shrinkable axes n, d, heads and layers (gen::Layout): X
/// (n x d, up to 2) and the stacks of Wq, Wk (layers x heads x d x d) in
/// every regime -- tiny query/key weights beside value weights at eta --
/// and the value weights eta r, r in [-1,1] with half the entries +-1 (or
/// 0). Dropping a head or a layer drops its three matrices. With
/// bounded_qk (the claims that bound every weight by eta: Definition A.2,
/// Theorem 5.3), Wq and Wk are eta w with w a regime matrix of entries in
/// [-1,1] (a structure's dominant entry clamped to +-1), so they reach every
/// scale up to eta, and the value weights are, in half the cases, eta w
/// with w such a regime matrix (all-equal, rank-one, ... value weights:
/// where the max-norm bounds lose their factor d); otherwise Wq, Wk are
/// regime matrices up to 2^2.
struct NetworkLayout {
  gen::Layout layout;
  int n = 0, d = 0, heads = 0, layers = 0, x = 0, wq = 0, wk = 0, r = 0, eta = 0, wv = -1, wv_from_regime = -1;
  bool zero_values = false, bounded_qk = false;

  struct Dims {
    int64_t max_n, max_d, max_heads, max_layers, min_layers = 1;
  };

  template <class S>
  static NetworkLayout Make(int64_t max_layers, bool zero_values) {
    return Make<S>({SizeBudget<S>::Pick(zero_values ? 6 : 5, 4), SizeBudget<S>::Pick(4, 3), 3, max_layers},
                   zero_values, false, 3);
  }

  /// eta at scales 2^-20..2^max_eta_scale (0 is read as 1).
  template <class S>
  static NetworkLayout Make(Dims dims, bool zero_values, bool bounded_qk, int max_eta_scale) {
    NetworkLayout l;
    l.zero_values = zero_values;
    l.bounded_qk = bounded_qk;
    l.n = l.layout.Axis({1, dims.max_n, dims.max_n});
    l.d = l.layout.Axis({1, dims.max_d, dims.max_d});
    l.heads = l.layout.Axis({1, dims.max_heads, dims.max_heads});
    l.layers = l.layout.Axis({dims.min_layers, dims.max_layers, dims.max_layers});
    gen::Regime xr = gen::RegimeFor<S>(gen::Regime{}), wr = xr;
    xr.max_abs = 2, xr.max_scale = 2;
    wr.max_scale = bounded_qk ? 0 : 2;
    l.x = l.layout.Matrix(l.n, l.d, xr);
    l.wq = l.layout.Stack({l.layers, l.heads}, l.d, l.d, wr);
    l.wk = l.layout.Stack({l.layers, l.heads}, l.d, l.d, wr);
    l.r = l.layout.RawStack({l.layers, l.heads}, l.d, l.d, SignOrDyadic());
    if (bounded_qk) {
      l.wv = l.layout.Stack({l.layers, l.heads}, l.d, l.d, wr);
      l.wv_from_regime = l.layout.Scalar(rc::gen::element(Exact(0.0), Exact(1.0)));
    }
    gen::Regime er;
    er.max_scale = max_eta_scale, er.nonnegative = true, er.structured = false;
    const int one = l.layout.Axis({1, 1, 1});
    l.eta = l.layout.Matrix(one, one, er);
    return l;
  }

  static rc::Gen<Exact> SignOrDyadic() {
    return rc::gen::oneOf(rc::gen::element(Exact(-1.0), Exact(1.0)), gen::Dyadic(1, 10));
  }

  /// eta w rounded to double, w clamped to [-1, 1] (|result| <= eta:
  /// rounding is monotone and eta is a double).
  static ExactMatrix Scaled(ExactMatrix w, const Rational& eta) {
    for (Exact& e : w.data) {
      Rational v = e.ToRational();
      if (v > 1) v = 1;
      if (v < -1) v = -1;
      e = Exact(gen::RoundToDouble(eta * v));
    }
    return w;
  }

  Case Base(const gen::Layout::Drawn& dr) const {
    Exact e = dr.Matrix(eta)(0, 0);
    if (e.ToDouble() == 0) e = Exact(1.0);
    Case c;
    c.Matrix("X", dr.Matrix(x)).Int("H", dr.Dim(heads)).Int("L", dr.Dim(layers)).Scalar("eta", e);
    for (int64_t l = 0; l < dr.Dim(layers); ++l)
      for (int64_t h = 0; h < dr.Dim(heads); ++h) {
        const std::string name = HeadName(l, h);
        if (bounded_qk) {
          c.Matrix(name + "q", Scaled(dr.Matrix(wq, {l, h}), e.ToRational()));
          c.Matrix(name + "k", Scaled(dr.Matrix(wk, {l, h}), e.ToRational()));
        } else {
          c.Matrix(name + "q", dr.Matrix(wq, {l, h}));
          c.Matrix(name + "k", dr.Matrix(wk, {l, h}));
        }
        ExactMatrix v = dr.Matrix(r, {l, h});
        for (Exact& entry : v.data)
          entry = zero_values ? Exact(0.0) : Exact(gen::RoundToDouble(e.ToRational() * entry.ToRational()));
        if (bounded_qk && dr.Scalar(wv_from_regime).ToDouble() != 0) v = Scaled(dr.Matrix(wv, {l, h}), e.ToRational());
        c.Matrix(name + "v", v);
      }
    return c;
  }
};

template <class S>
rc::Gen<Case> NetworkCase(int64_t max_layers, bool zero_values) {
  const NetworkLayout l = NetworkLayout::Make<S>(max_layers, zero_values);
  return l.layout.Build<Case>([l](const gen::Layout::Drawn& d) { return l.Base(d); });
}

template <class S>
std::vector<Head<S>> LayerHeads(const Case& c, int64_t l) {
  std::vector<Head<S>> heads;
  for (int64_t h = 0; h < c.GetInt("H"); ++h) heads.push_back(GetHead<S>(c, HeadName(l, h)));
  return heads;
}

/// Shapes match and every ||Wv|| <= eta (and Wv = 0 when zero_values): the
/// document's. Structure: X n x d, exactly the L x H heads W<l>_<h>{q,k,v}
/// the ints name (plus `extra` other fields named W<digit>...), each d x d.
/// Domain where the layers are computable in double: n, d <= 16, H, L <= 8,
/// entries of X and every weight, and eta, finite with |.| <= 2^8: each
/// layer grows ||X|| by <= 1 + H d 2^8 <= 2^15, so ||X_L|| <= 2^128, the
/// scores <= 2^284 and the budgets stay finite (softmax subtracts the row
/// maximum).
inline bool NetworkHypothesesHold(const Case& c, bool zero_values) {
  const ExactMatrix& x = c.GetMatrix("X");
  const int64_t d = x.cols, heads = c.GetInt("H"), layers = c.GetInt("L");
  if (x.rows < 1 || d < 1 || x.rows > 16 || d > 16 || heads < 1 || layers < 1 || heads > 8 || layers > 8)
    return false;
  if (!EntriesWithin(x, 0x1p8) || !ScalarWithin(c.GetScalar("eta"), 0x1p8)) return false;
  int64_t head_fields = 0;
  for (const auto& field : c.fields()) {
    const std::string& name = field.first;
    if (name.size() > 1 && name[0] == 'W' && name[1] >= '0' && name[1] <= '9') ++head_fields;
  }
  if (head_fields != 3 * heads * layers) return false;
  for (int64_t l = 0; l < layers; ++l)
    for (int64_t h = 0; h < heads; ++h)
      for (const char* p : {"q", "k", "v"})
        if (!EntriesWithin(c.GetMatrix(HeadName(l, h) + p), 0x1p8)) return false;
  const Rational eta = c.Get<Rational>("eta");
  for (int64_t l = 0; l < c.GetInt("L"); ++l)
    for (const Head<Rational>& h : LayerHeads<Rational>(c, l)) {
      for (const Mat<Rational>* w : {&h.wq, &h.wk, &h.wv})
        if (w->rows() != d || w->cols() != d) return false;
      if (zero_values ? !h.wv.isZero() : MaxNorm<Rational>(h.wv) > eta) return false;
    }
  return true;
}

/// NetworkHypothesesHold and every weight of every layer (Wq, Wk too) within
/// eta: the bound of Definition A.2 and Theorem 5.3.
inline bool BoundedNetworkHypothesesHold(const Case& c) {
  if (!NetworkHypothesesHold(c, false)) return false;
  const Rational eta = c.Get<Rational>("eta");
  for (int64_t l = 0; l < c.GetInt("L"); ++l)
    for (const Head<Rational>& h : LayerHeads<Rational>(c, l))
      if (MaxNorm<Rational>(h.wq) > eta || MaxNorm<Rational>(h.wk) > eta) return false;
  return true;
}

/// Rounding budget for one computed layer output entry: the scores
/// X Wq Wk^T X^T carry gamma_{2d+2}|.|, each softmax entry errs <= (2 s + n
/// + 3)u with s = max |score|; P X Wv sums n d products (gamma_{n+d}), the
/// skip and head sums H+1 more.
template <class S>
double LayerBudget(const Mat<S>& x, const std::vector<Head<S>>& heads) {
  const double u = ScalarTraits<S>::UnitRoundoff();
  const double n = double(x.rows()), d = double(x.cols()), nx = ToDouble(MaxNorm<S>(x));
  double total = nx;
  for (const Head<S>& h : heads) {
    const double s = ToDouble(MaxNorm<S>(Mat<S>(x * h.wq * h.wk.transpose() * x.transpose())));
    total += (1 + 2 * s) * n * d * nx * ToDouble(MaxNorm<S>(h.wv)) * (1 + n);
  }
  return Gamma(2 * n + 2 * d + double(heads.size()) + 8, u) * total;
}

/// X_l for l = 0..upto (X_0 = X), and the accumulated budget of each: the
/// budget of layer l's input amplified by the layer's Lipschitz constant in
/// the max norm, plus the layer's own. An input error delta moves the scores
/// by <= 2 t delta (t = d^2 ||Wq Wk^T|| ||X||), each softmax entry by <= 4 t
/// delta, so P X Wv by <= d ||Wv|| (1 + 4 n t ||X||) delta: the constant is
/// 1 + sum_h d ||Wv_h|| (1 + 4 n t_h ||X||).
template <class S>
struct Forward {
  std::vector<Mat<S>> xs;
  std::vector<double> budgets;
};

template <class S>
Forward<S> RunNetwork(const Case& c, int64_t upto) {
  Forward<S> f;
  f.xs.push_back(c.GetMat<S>("X"));
  f.budgets.push_back(0);
  for (int64_t l = 0; l < upto; ++l) {
    const std::vector<Head<S>> heads = LayerHeads<S>(c, l);
    const Mat<S>& x = f.xs.back();
    double growth = 1;
    for (const Head<S>& h : heads) {
      const double d = double(x.cols()), nx = ToDouble(MaxNorm<S>(x));
      const double t = d * d * ToDouble(MaxNorm<S>(Mat<S>(h.wq * h.wk.transpose()))) * nx;
      growth += d * ToDouble(MaxNorm<S>(h.wv)) * (1 + 4 * double(x.rows()) * t * nx);
    }
    f.budgets.push_back(f.budgets.back() * growth + LayerBudget<S>(x, heads));
    f.xs.push_back(Layer<S>(x, heads));
  }
  return f;
}

}  // namespace attnprop::collapse
