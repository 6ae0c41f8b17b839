// Lecture 4, exercises (003_dd971a1151775776.txt).
//
// lecture4.ex12.causal_composition (Ex. 12)
//   Statement: a composition of two causal sequence maps is causal (output
//   row i depends only on input rows <= i).
//   Maps sampled: F = causal head (X W_Q1, X W_K1, X W_V1) and G = causal
//   head (Y W_Q2, Y W_K2, Y W_V2) followed by a causal prefix mean; the
//   composite G o F is checked: moving input row j by H leaves rows i < j of
//   G(F(X)) bitwise unchanged (each map reads only rows <= i, so the same
//   operations run on the same values). Each factor is also checked to be
//   causal on the same perturbation, so the hypothesis holds on every case.
#include <cmath>

#include "generators/scalars.h"
#include "generators/shape.h"
#include "model/attention.h"
#include "properties/framework/hypotheses_checks.h"
#include "properties/framework/property.h"

namespace attnprop {
namespace {

template <class S>
constexpr int64_t kMaxLen = SizeBudget<S>::Pick(10, 5);
template <class S>
constexpr int64_t kMaxWidth = SizeBudget<S>::Pick(4, 3);

struct CausalComposition {
  static constexpr const char* kId = "lecture4.ex12.causal_composition";

  static inline const Tolerance kEarlierRows{"|(G o F)(X + e_j H)_i - (G o F)(X)_i|, i < j", "0",
                                             "bitwise: row i reads only rows <= i"};
  static std::vector<Tolerance> Tolerances() { return {kEarlierRows}; }

  template <class S>
  static rc::Gen<Case> Hypotheses() {
    const gen::DimRange len{2, kMaxLen<S>, kMaxLen<S>}, width{1, kMaxWidth<S>, kMaxWidth<S>}, one{1, 1, 1};
    std::vector<gen::ParamArray> arrays = {{{0, 1}, gen::Dyadic(2, 4)}};
    for (int m = 0; m < 6; ++m) arrays.push_back({{1, 1}, gen::Dyadic(2, 3)});
    arrays.push_back({{2, 1}, gen::Dyadic(2, 4)});
    arrays.push_back({{}, gen::Dyadic(64, 0)});
    return gen::Shaped<Case>({{len}, {width}, {one}}, arrays, [](const gen::Params& p) {
      const int64_t t = p.dims[0];
      Case c;
      c.Matrix("X", p.Matrix(0));
      const char* names[] = {"W_Q1", "W_K1", "W_V1", "W_Q2", "W_K2", "W_V2"};
      for (size_t m = 0; m < 6; ++m) c.Matrix(names[m], p.Matrix(1 + m));
      c.Matrix("H", p.Matrix(7));
      c.Int("j", 1 + static_cast<int64_t>(std::abs(p.arrays[8][0].ToDouble())) % (t - 1));
      return c;
    });
  }

  // X is T x d (T >= 2), the six W's d x d, H 1 x d, 1 <= j < T. Domain:
  // every entry finite with |entry| <= 2^16, so every score of both heads
  // stays far below the double and MPFR overflow threshold (the bitwise
  // conclusion compares rows with ==, which a NaN or inf would break for
  // reasons outside the claim); the generator draws |entry| <= 2.
  static bool HypothesesHold(const Case& c) {
    const ExactMatrix& x = c.GetMatrix("X");
    const int64_t t = x.rows, d = x.cols;
    if (t < 2 || d < 1 || !hyp::AllWithin(x, 0x1p16)) return false;
    for (const char* name : {"W_Q1", "W_K1", "W_V1", "W_Q2", "W_K2", "W_V2"}) {
      const ExactMatrix& w = c.GetMatrix(name);
      if (!hyp::Shape(w, d, d) || !hyp::AllWithin(w, 0x1p16)) return false;
    }
    const ExactMatrix& h = c.GetMatrix("H");
    const int64_t j = c.GetInt("j");
    return hyp::Shape(h, 1, d) && hyp::AllWithin(h, 0x1p16) && j >= 1 && j < t;
  }

  template <class S>
  static Mat<S> Head(const Mat<S>& x, const Case& c, const std::string& k) {
    return Attention<S>(Mat<S>(x * c.GetMat<S>("W_Q" + k)), Mat<S>(x * c.GetMat<S>("W_K" + k)),
                        Mat<S>(x * c.GetMat<S>("W_V" + k)), S(1), Mask::Causal())
        .out;
  }

  template <class S>
  static Mat<S> PrefixMean(const Mat<S>& y) {
    Mat<S> r = Mat<S>::Zero(y.rows(), y.cols());
    Vec<S> acc = Vec<S>::Zero(y.cols());
    for (Eigen::Index i = 0; i < y.rows(); ++i) {
      acc += y.row(i).transpose();
      r.row(i) = (acc / S(double(i + 1))).transpose();
    }
    return r;
  }

  template <class S>
  static void Conclusion(const Case& c) {
    const Mat<S> x = c.GetMat<S>("X"), h = c.GetMat<S>("H");
    const Eigen::Index j = c.GetInt("j");
    Mat<S> moved = x;
    moved.row(j) += h.row(0);
    const Mat<S> f0 = Head<S>(x, c, "1"), f1 = Head<S>(moved, c, "1");
    const Mat<S> g0 = PrefixMean<S>(Head<S>(f0, c, "2")), g1 = PrefixMean<S>(Head<S>(f1, c, "2"));
    for (Eigen::Index i = 0; i < j; ++i) {
      ExpectThat(f0.row(i) == f1.row(i), "factor F is not causal on this case");
      ExpectWithin(kEarlierRows, ToDouble(S((g1.row(i) - g0.row(i)).cwiseAbs().maxCoeff())), 0.0);
    }
  }
};

ATTNPROP_REGISTER(CausalComposition, double, Mpfr);

}  // namespace
}  // namespace attnprop
