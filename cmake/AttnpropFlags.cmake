# Compiler flags shared by every attnprop target.
#
# ATTNPROP_WERROR (ON in the CI presets) turns warnings into errors for the
# project's own targets only; consumers never inherit it.
option(ATTNPROP_WERROR "Treat warnings as errors in attnprop's own targets" OFF)

# Fast-math silently breaks NaN/inf handling and reorders sums: every
# tolerance in this project assumes IEEE semantics, so refuse it outright.
foreach(_var CMAKE_CXX_FLAGS CMAKE_C_FLAGS CMAKE_CXX_FLAGS_RELEASE CMAKE_CXX_FLAGS_DEBUG
             CMAKE_CXX_FLAGS_RELWITHDEBINFO CMAKE_C_FLAGS_RELEASE)
  if("${${_var}}" MATCHES "-ffast-math|-Ofast|-funsafe-math-optimizations|-ffinite-math-only")
    message(FATAL_ERROR
      "${_var} contains '${CMAKE_MATCH_0}'. attnprop's tolerances assume IEEE "
      "arithmetic (NaN, inf, no reassociation); remove that flag.")
  endif()
endforeach()

# One Eigen heap allocator in every build: Eigen picks plain malloc or its
# own aligned one by __SANITIZE_ADDRESS__, so a matrix allocated by an object
# of the Release build and freed by a sanitizer build's code (ci/sanitize.sh
# links the Release build's claim objects) would be freed by the other one.
add_compile_definitions(EIGEN_MALLOC_ALREADY_ALIGNED=0)

# GCC's garbage collector, nearly off: a claims translation unit (Eigen and
# MPFR templates, a unity batch of 16 files) allocates 2.5 to 4 GiB, and GCC
# collects it again and again. Measured alone on Zen 4, GCC 12, unity_0:
# 58.9 s user -> 53.7 s (-9%), peak memory 2.4 -> 2.9 GiB; unity_1 (beside
# another compile) 95 -> 84 s, 3.3 -> 4.2 GiB. Empty it where memory is short.
set(ATTNPROP_GCC_GC_PARAMS "--param=ggc-min-expand=1000;--param=ggc-min-heapsize=4194304" CACHE STRING
    "GCC garbage-collector parameters for attnprop's C++ (fewer collections, more memory)")
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:${ATTNPROP_GCC_GC_PARAMS}>")
endif()

add_library(attnprop_warnings INTERFACE)
target_compile_options(attnprop_warnings INTERFACE
  -Wall -Wextra -Wconversion -Wshadow -Wpedantic
  $<$<BOOL:${ATTNPROP_WERROR}>:-Werror>)

# The reference model and the properties: no FMA contraction, so that the
# error bounds written beside each tolerance describe the code as compiled.
add_library(attnprop_strict_fp INTERFACE)
target_compile_options(attnprop_strict_fp INTERFACE -ffp-contract=off)

# The harness (everything but kernels/) compiles at -O1 in Release builds:
# its claims are Eigen and MPFR templates instantiated per claim and backend,
# most of the build's compile time, and its run time is spent in libmpfr,
# libgmp and the kernel, not in its own code. Measured with GCC 12 on
# properties/profile/kq.cc and lecture4/sec6_equivariance.cc: -O1 compiles
# in 0.78 of -O3's time (-O2: 0.95); `attnprop run` took 94 s against 86 s
# at -O3, with the same report.json. With -ffp-contract=off and no fast-math
# the optimisation level changes no floating-point result. The kernel
# (kernels/, its tests and benchmarks) keeps -O3: its speed is a product.
set(ATTNPROP_HARNESS_OPT "-O1" CACHE STRING "Optimisation flag of the harness (all but kernels/) in Release builds")

# Sanitizers (the asan preset sets ATTNPROP_SANITIZE=ON).
option(ATTNPROP_SANITIZE "Build with AddressSanitizer and UBSan" OFF)
if(ATTNPROP_SANITIZE)
  # float-divide-by-zero is left out on purpose: -inf masking is intended.
  set(_san -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=undefined,float-cast-overflow -fno-omit-frame-pointer)
  add_compile_options(${_san})
  add_link_options(${_san})
endif()
