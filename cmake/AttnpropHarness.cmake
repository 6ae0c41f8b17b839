# attnprop::harness: everything but attnprop's own claims, as one static
# library for a user's claim runner (cmake/AttnpropClaims.cmake:
# attnprop_add_claims). It holds the model, the generators, the framework
# (runner, search, shrinker, store, certification), the attention operator
# and attnprop's kernel, the reports and the command line (tools/cli_main.h).
# Not in it: the registry and catalogues (a runner compiles in its own,
# cmake/attnprop_claims_main.cc.in) and the claims (a runner has the user's).
#
# The claim API is properties/framework/claim.h, installed as
# <attnprop/claim.h>; the headers it includes are installed beside it with
# their paths in this tree (include/attnprop/model/..., .../properties/...),
# which is why both include/ and include/attnprop are on the include path.
add_library(attnprop_harness STATIC
  $<TARGET_OBJECTS:attnprop_model> $<TARGET_OBJECTS:attnprop_generators> $<TARGET_OBJECTS:attnprop_framework_objects>
  $<TARGET_OBJECTS:attnprop_operator> $<TARGET_OBJECTS:attnprop_diagnosis> $<TARGET_OBJECTS:attnprop_reports>
  $<TARGET_OBJECTS:attnprop_cli> $<TARGET_OBJECTS:attnprop_kernel_objects>)
set_target_properties(attnprop_harness PROPERTIES LINKER_LANGUAGE CXX EXPORT_NAME harness)
target_include_directories(attnprop_harness INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}> $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/attnprop>)
# The model's code is instantiated in the user's claims: it needs what it
# needs in attnprop (IEEE arithmetic with no FMA contraction, C++20), and the
# same Eigen heap allocator as the harness's objects (cmake/AttnpropFlags.cmake:
# an Eigen matrix allocated by one and freed by the other would crash).
target_compile_options(attnprop_harness INTERFACE -ffp-contract=off -fno-fast-math)
target_compile_definitions(attnprop_harness INTERFACE EIGEN_MALLOC_ALREADY_ALIGNED=0)
target_compile_features(attnprop_harness INTERFACE cxx_std_20)
target_link_libraries(attnprop_harness INTERFACE rapidcheck Eigen3::Eigen Boost::headers attnprop::mpfi PkgConfig::MPFR
                      PkgConfig::GMP PkgConfig::SECCOMP Threads::Threads ${CMAKE_DL_LIBS})
add_library(attnprop::harness ALIAS attnprop_harness)
# <attnprop/claim.h> in the build tree too.
configure_file(${PROJECT_SOURCE_DIR}/properties/framework/claim.h ${PROJECT_BINARY_DIR}/include/attnprop/claim.h COPYONLY)

# The headers a claim includes (claim.h's closure, g++ -MM) and the two a
# runner's main includes.
set(ATTNPROP_CLAIM_HEADERS
  generators/matrices.h generators/regime.h generators/scalars.h generators/shape.h
  model/attention.h model/eigen_products.h model/eigen_scalar.h model/exact.h model/interval.h model/scalar.h
  model/discrete_predicates.h model/softmax.h model/spectral_enclosure.h
  properties/framework/backend.h properties/framework/case.h properties/framework/case_dims.h
  properties/framework/catalog.h properties/framework/certify.h properties/framework/check.h properties/framework/claim.h
  properties/framework/domain.h properties/framework/property.h properties/framework/size_budget.h
  properties/framework/statistics.h properties/framework/program.h tools/cli_main.h)
