// Eigen's matrix-product kernels (GEMM, GEMV and their packing routines) for
// the model's scalar types, instantiated once, in model/eigen_products.cc,
// instead of in every translation unit that multiplies dynamic matrices.
// They were a quarter of the code a claim file emitted: the claims' objects
// had 12.5 MB of text, 9.5 MB with these declarations (profile/kq.cc: 698 KB,
// 542 KB), and kq.cc and formal/sec1_norm_bound.cc compile in 7% and 13%
// less time (alternated A/B runs, GCC 12). Included by model/eigen_scalar.h,
// after the NumTraits the instantiations need; the parameters are spelled
// with Eigen's own traits, as its products spell them, so they are the
// instantiations a product asks for. Those traits depend on the instruction
// set: a translation unit built with -mavx2 (say) would find its double
// kernels undefined at link time; none of the model's users is (only
// kernels/ has per-target flags, and it does not use Eigen).
#pragma once

#include <Eigen/Core>

#define ATTNPROP_EIGEN_GEBP_TRAITS(S) Eigen::internal::gebp_traits<S, S>
#define ATTNPROP_EIGEN_MAPPER(S, ORDER) Eigen::internal::const_blas_data_mapper<S, Eigen::Index, Eigen::ORDER>

/// EXTERN is `extern` (a declaration: here) or empty (the definition: once).
#define ATTNPROP_EIGEN_PRODUCTS(EXTERN, S)                                                                         \
  EXTERN template struct Eigen::internal::gebp_kernel<                                                              \
      S, S, Eigen::Index, Eigen::internal::blas_data_mapper<S, Eigen::Index, Eigen::ColMajor, Eigen::Unaligned, 1>,  \
      ATTNPROP_EIGEN_GEBP_TRAITS(S)::mr, ATTNPROP_EIGEN_GEBP_TRAITS(S)::nr, false, false>;                           \
  EXTERN template struct Eigen::internal::gemm_pack_lhs<                                                            \
      S, Eigen::Index, ATTNPROP_EIGEN_MAPPER(S, ColMajor), ATTNPROP_EIGEN_GEBP_TRAITS(S)::mr,                       \
      ATTNPROP_EIGEN_GEBP_TRAITS(S)::LhsProgress, ATTNPROP_EIGEN_GEBP_TRAITS(S)::LhsPacket4Packing, Eigen::ColMajor, \
      false, false>;                                                                                                \
  EXTERN template struct Eigen::internal::gemm_pack_lhs<                                                            \
      S, Eigen::Index, ATTNPROP_EIGEN_MAPPER(S, RowMajor), ATTNPROP_EIGEN_GEBP_TRAITS(S)::mr,                       \
      ATTNPROP_EIGEN_GEBP_TRAITS(S)::LhsProgress, ATTNPROP_EIGEN_GEBP_TRAITS(S)::LhsPacket4Packing, Eigen::RowMajor, \
      false, false>;                                                                                                \
  EXTERN template struct Eigen::internal::gemm_pack_rhs<S, Eigen::Index, ATTNPROP_EIGEN_MAPPER(S, ColMajor),        \
                                                        ATTNPROP_EIGEN_GEBP_TRAITS(S)::nr, Eigen::ColMajor, false, \
                                                        false>;                                                     \
  EXTERN template struct Eigen::internal::gemm_pack_rhs<S, Eigen::Index, ATTNPROP_EIGEN_MAPPER(S, RowMajor),        \
                                                        ATTNPROP_EIGEN_GEBP_TRAITS(S)::nr, Eigen::RowMajor, false, \
                                                        false>;                                                     \
  EXTERN template struct Eigen::internal::general_matrix_vector_product<                                            \
      Eigen::Index, S, ATTNPROP_EIGEN_MAPPER(S, ColMajor), Eigen::ColMajor, false, S,                                \
      ATTNPROP_EIGEN_MAPPER(S, RowMajor), false, 0>;                                                                \
  EXTERN template struct Eigen::internal::general_matrix_vector_product<                                            \
      Eigen::Index, S, ATTNPROP_EIGEN_MAPPER(S, RowMajor), Eigen::RowMajor, false, S,                                \
      ATTNPROP_EIGEN_MAPPER(S, ColMajor), false, 0>;                                                                \
  EXTERN template struct Eigen::internal::general_matrix_matrix_product<Eigen::Index, S, Eigen::ColMajor, false, S, \
                                                                        Eigen::ColMajor, false, Eigen::ColMajor, 1>; \
  EXTERN template struct Eigen::internal::general_matrix_matrix_product<Eigen::Index, S, Eigen::ColMajor, false, S, \
                                                                        Eigen::RowMajor, false, Eigen::ColMajor, 1>; \
  EXTERN template struct Eigen::internal::general_matrix_matrix_product<Eigen::Index, S, Eigen::RowMajor, false, S, \
                                                                        Eigen::ColMajor, false, Eigen::ColMajor, 1>; \
  EXTERN template struct Eigen::internal::general_matrix_matrix_product<Eigen::Index, S, Eigen::RowMajor, false, S, \
                                                                        Eigen::RowMajor, false, Eigen::ColMajor, 1>;

ATTNPROP_EIGEN_PRODUCTS(extern, double)
ATTNPROP_EIGEN_PRODUCTS(extern, attnprop::Mpfr)
ATTNPROP_EIGEN_PRODUCTS(extern, attnprop::Rational)
