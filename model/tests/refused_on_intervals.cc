// Compiled by refused_on_intervals.sh: with REFUSED, Eigen's iterative
// eigen-solver on Interval must not compile (eigen_scalar.h); without it, the
// same code on Mpfr must (the control: the failure is the refusal's, not a
// broken include).
#include "model/eigen_scalar.h"

int main() {
#ifdef REFUSED
  using S = attnprop::Interval;
#else
  using S = attnprop::Mpfr;
#endif
  attnprop::Mat<S> a = attnprop::Mat<S>::Identity(2, 2);
  Eigen::SelfAdjointEigenSolver<attnprop::Mat<S>> solver(a);
  return solver.info() == Eigen::Success ? 0 : 1;
}
