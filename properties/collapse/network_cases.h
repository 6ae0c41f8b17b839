// Networks of "Only Large Weights (And Not Skip Connections) Can Prevent the
// Perils of Rank Collapse" (004_fc07a226cef95160.txt) as test cases: L
// layers of H heads, X_{l+1} = X_l + sum_h softm_h(X_l) X_l Wv_h (beta = 1,
// Definitions 3.7, A.1), the heads stored as W<l>_<h>{q,k,v}. Shared by the
// layer claims (network_layers.cc), the Appendix C chain (appendix_c_chain.cc)
// and Theorem 5.3 (thm5_3_layer_collapse.cc).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "properties/collapse/collapse_cases.h"
#include "properties/framework/check.h"
#include "properties/framework/domain.h"
#include "properties/framework/size_budget.h"

namespace attnprop::collapse {

inline std::string HeadName(int64_t l, int64_t h) { return "W" + std::to_string(l) + "_" + std::to_string(h); }

/// A network's axes and fields: X (n x d), the counts H and L, eta, then
/// the heads W<l>_<h>{q,k,v} (d x d, a Group over layers x heads).
constexpr Axis kTokens{"n"}, kWidth{"d"}, kHeadAxis{"H"}, kLayerAxis{"L"}, kEtaAxis{"1"};
constexpr MatrixField kX{"X"};
constexpr IntField kH{"H"}, kL{"L"};
constexpr ScalarField kEta{"eta"};

/// The drawn parameters of a network domain (Domain::Param indices) and how
/// its default fields are built from them.
///
/// Drawn on shrinkable axes n, d, heads and layers: X (n x d, up to 2) and
/// the stacks of Wq, Wk (layers x heads x d x d) in every regime -- tiny
/// query/key weights beside value weights at eta -- and the value weights
/// eta r, r in [-1,1] with half the entries +-1 (or 0). Dropping a head or
/// a layer drops its three matrices. With bounded_qk (the claims that bound
/// every weight by eta: Definition A.2, Theorem 5.3), Wq and Wk are eta w
/// with w a regime matrix of entries in [-1,1] (a structure's dominant entry
/// clamped to +-1), so they reach every scale up to eta, and the value
/// weights are, in half the cases, eta w with w such a regime matrix
/// (all-equal, rank-one, ... value weights: where the max-norm bounds lose
/// their factor d); otherwise Wq, Wk are regime matrices up to 2^2. eta at
/// scales 2^-20..2^max_eta_scale (0 is read as 1).
struct NetworkParams {
  int x = 0, wq = 0, wk = 0, r = 0, eta = 0, wv = -1, wv_from_regime = -1;
  bool zero_values = false, bounded_qk = false;

  /// Axis ranges; admitted extents: n, d <= 16, H <= 8, L in [min_layers,
  /// max_admitted_layers] (the computability domain, NetworkFields).
  struct Dims {
    int64_t max_n, max_d, max_heads, max_layers, min_layers = 1, max_admitted_layers = 8;
  };

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

  /// The drawn eta (0 read as 1).
  Exact Eta(const Domain::Drawn& in) const {
    const Exact e = in.Param(eta)(0, 0);
    return e.ToDouble() == 0 ? Exact(1.0) : e;
  }

  /// Head `index` = {l, h}'s weight p ('q', 'k' or 'v') as drawn, for the
  /// drawn eta.
  ExactMatrix Weight(const Domain::Drawn& in, const std::vector<int64_t>& index, char p) const {
    const Rational e = Eta(in).ToRational();
    if (p == 'q' || p == 'k') {
      ExactMatrix w = in.Param(p == 'q' ? wq : wk, index);
      return bounded_qk ? Scaled(w, e) : w;
    }
    if (bounded_qk && in.ScalarParam(wv_from_regime).ToDouble() != 0) return Scaled(in.Param(wv, index), e);
    ExactMatrix v = in.Param(r, index);
    for (Exact& entry : v.data) entry = zero_values ? Exact(0.0) : Exact(gen::RoundToDouble(e * entry.ToRational()));
    return v;
  }
};

/// Declares the network's axes and parameters on d, in the order the cases
/// have always been drawn in (a claim adds its own parameters after, then
/// NetworkFields).
template <class S>
NetworkParams NetworkAxesAndParams(Domain& d, NetworkParams::Dims dims, bool zero_values, bool bounded_qk,
                                   int max_eta_scale) {
  NetworkParams p;
  p.zero_values = zero_values;
  p.bounded_qk = bounded_qk;
  d.Dim(kTokens, {1, dims.max_n, dims.max_n}, 16).Dim(kWidth, {1, dims.max_d, dims.max_d}, 16);
  d.Dim(kHeadAxis, {1, dims.max_heads, dims.max_heads}, 8);
  d.Dim(kLayerAxis, {dims.min_layers, dims.max_layers, dims.max_layers}, dims.max_admitted_layers);
  gen::Regime xr = gen::RegimeFor<S>(gen::Regime{}), wr = xr;
  xr.max_abs = 2, xr.max_scale = 2;
  wr.max_scale = bounded_qk ? 0 : 2;
  p.x = d.Param(kTokens, kWidth, xr);
  p.wq = d.Param({kLayerAxis, kHeadAxis}, kWidth, kWidth, wr);
  p.wk = d.Param({kLayerAxis, kHeadAxis}, kWidth, kWidth, wr);
  p.r = d.Param({kLayerAxis, kHeadAxis}, kWidth, kWidth, NetworkParams::SignOrDyadic());
  if (bounded_qk) {
    p.wv = d.Param({kLayerAxis, kHeadAxis}, kWidth, kWidth, wr);
    p.wv_from_regime = d.ScalarParam(rc::gen::element(Exact(0.0), Exact(1.0)));
  }
  gen::Regime er;
  er.max_scale = max_eta_scale, er.nonnegative = true, er.structured = false;
  d.Dim(kEtaAxis, {1, 1, 1}, 1);
  p.eta = d.Param(kEtaAxis, kEtaAxis, er);
  return p;
}

/// NetworkAxesAndParams for the layer claims: n up to 6 (zero values) or 5,
/// d up to 4, H up to 3 (MPFR: 4, 3), eta up to 2^3.
template <class S>
NetworkParams NetworkAxesAndParams(Domain& d, int64_t max_layers, bool zero_values, int64_t max_admitted_layers = 8) {
  return NetworkAxesAndParams<S>(
      d, {SizeBudget<S>::Pick(zero_values ? 6 : 5, 4), SizeBudget<S>::Pick(4, 3), 3, max_layers, 1, max_admitted_layers},
      zero_values, false, 3);
}

/// Builders that replace a network field's default (empty: as drawn).
struct NetworkBuilders {
  std::function<ExactMatrix(const Domain::Drawn&)> x;
  std::function<Exact(const Domain::Drawn&)> eta;
  std::function<ExactMatrix(const Domain::Drawn&, const std::vector<int64_t>&, char)> weight;
  /// Where eta may lie (a claim may narrow it: eta > 0, say).
  Admit eta_admit = Admit::Within(0x1p8);
};

/// Declares the fields X, H, L, eta and the heads W<l>_<h>{q,k,v}, with
/// the document's hypothesis every ||Wv|| <= eta (Wv = 0 when zero_values).
/// Domain where the layers are computable in double: n, d <= 16, H, L <= 8
/// (the axes' admitted extents), entries of X and every weight, and eta,
/// finite with |.| <= 2^8: each layer grows ||X|| by <= 1 + H d 2^8 <=
/// 2^15, so ||X_L|| <= 2^128 and the scores <= 2^284 stay finite (softmax
/// subtracts the row maximum).
inline void NetworkFields(Domain& d, const NetworkParams& p, NetworkBuilders b = {}) {
  const Admit entries = Admit::Within(0x1p8);
  if (!b.x) b.x = [p](const Domain::Drawn& in) { return in.Param(p.x); };
  if (!b.eta) b.eta = [p](const Domain::Drawn& in) { return p.Eta(in); };
  if (!b.weight)
    b.weight = [p](const Domain::Drawn& in, const std::vector<int64_t>& i, char w) { return p.Weight(in, i, w); };
  const auto weight = b.weight;
  d.Built(kX, kTokens, kWidth, b.x, entries);
  d.Int(kH, kHeadAxis).Int(kL, kLayerAxis);
  d.Built(kEta, b.eta, b.eta_admit);
  std::vector<Domain::Member> members;
  for (const char w : {'q', 'k', 'v'})
    members.push_back({w == 'q' ? "q" : w == 'k' ? "k" : "v", kWidth, kWidth,
                       [weight, w](const Domain::Drawn& in, const std::vector<int64_t>& i) { return weight(in, i, w); },
                       w == 'v' && p.zero_values ? Admit::Within(0) : entries});
  d.Group({kLayerAxis, kHeadAxis}, [](const std::vector<int64_t>& i) { return HeadName(i[0], i[1]); },
          std::move(members));
  if (!p.zero_values)
    d.Assume("||Wv_{l,h}||_inf <= eta for every head", [](const Values& v) {
      const Rational e = v[kEta].ToRational();
      for (int64_t l = 0; l < v[kL]; ++l)
        for (int64_t h = 0; h < v[kH]; ++h)
          if (MaxNorm<Rational>(v.value().GetMatrix(HeadName(l, h) + "v").As<Rational>()) > e) return false;
      return true;
    });
}

/// The bound of Definition A.2 and Theorem 5.3 on the other weights: every
/// ||Wq||, ||Wk|| within eta too.
inline void AssumeQueryKeyWithinEta(Domain& d) {
  d.Assume("||Wq_{l,h}||_inf, ||Wk_{l,h}||_inf <= eta for every head", [](const Values& v) {
    const Rational e = v[kEta].ToRational();
    for (int64_t l = 0; l < v[kL]; ++l)
      for (int64_t h = 0; h < v[kH]; ++h)
        for (const char* w : {"q", "k"})
          if (MaxNorm<Rational>(v.value().GetMatrix(HeadName(l, h) + w).As<Rational>()) > e) return false;
    return true;
  });
}

/// The layer claims' network: the parameters, then the fields, as drawn.
template <class S>
Domain NetworkDomain(int64_t max_layers, bool zero_values) {
  Domain d;
  NetworkFields(d, NetworkAxesAndParams<S>(d, max_layers, zero_values));
  return d;
}

template <class S>
std::vector<Head<S>> LayerHeads(const Case& c, int64_t l) {
  std::vector<Head<S>> heads;
  for (int64_t h = 0; h < c.GetInt("H"); ++h) heads.push_back(GetHead<S>(c, HeadName(l, h)));
  return heads;
}

/// X_l for l = 0..upto (X_0 = X).
template <class S>
struct Forward {
  std::vector<Mat<S>> xs;
};

template <class S>
Forward<S> RunNetwork(const Case& c, int64_t upto) {
  Forward<S> f;
  f.xs.push_back(c.GetMat<S>("X"));
  for (int64_t l = 0; l < upto; ++l) f.xs.push_back(Layer<S>(f.xs.back(), LayerHeads<S>(c, l)));
  return f;
}

}  // namespace attnprop::collapse
