// The one instantiation of Eigen's product kernels for the model's scalar
// types (declared extern in model/eigen_products.h). Compiled with the
// model's flags (-ffp-contract=off, no -march): the same code every
// translation unit would have instantiated for itself.
#include "model/eigen_scalar.h"

ATTNPROP_EIGEN_PRODUCTS(, double)
ATTNPROP_EIGEN_PRODUCTS(, attnprop::Mpfr)
ATTNPROP_EIGEN_PRODUCTS(, attnprop::Rational)
