# Finds attnprop's dependencies, all Debian packages. Nothing is downloaded.
# A missing dependency stops configuration with the package to install.

macro(attnprop_require _found _what _package)
  if(NOT ${_found})
    message(FATAL_ERROR
      "attnprop needs ${_what}, which was not found.\n"
      "On Debian 12: apt-get install ${_package}\n"
      "(ci/install-deps.sh installs every dependency.)")
  endif()
endmacro()

find_package(rapidcheck CONFIG QUIET)
attnprop_require(rapidcheck_FOUND "RapidCheck (rapidcheck, rapidcheck_gtest)" librapidcheck-dev)
if(NOT TARGET rapidcheck_gtest)
  attnprop_require(FALSE "RapidCheck's GoogleTest integration (rapidcheck_gtest)" librapidcheck-dev)
endif()

find_package(GTest CONFIG QUIET)
if(NOT GTest_FOUND)
  find_package(GTest QUIET)
endif()
attnprop_require(GTest_FOUND "GoogleTest" libgtest-dev)

find_package(Eigen3 3.4 CONFIG QUIET)
attnprop_require(Eigen3_FOUND "Eigen 3.4" libeigen3-dev)

find_package(Boost 1.74 QUIET)
attnprop_require(Boost_FOUND "Boost.Multiprecision (headers)" libboost-dev)

find_package(PkgConfig QUIET)
attnprop_require(PKG_CONFIG_FOUND "pkg-config" pkg-config)
pkg_check_modules(MPFR QUIET IMPORTED_TARGET mpfr)
attnprop_require(MPFR_FOUND "MPFR" libmpfr-dev)
pkg_check_modules(GMP QUIET IMPORTED_TARGET gmp)
attnprop_require(GMP_FOUND "GMP" libgmp-dev)
# libseccomp: the system-call filter of kernel call processes
# (properties/operator/confine.cc).
pkg_check_modules(SECCOMP QUIET IMPORTED_TARGET libseccomp)
attnprop_require(SECCOMP_FOUND "libseccomp" libseccomp-dev)

# MPFI (interval arithmetic over MPFR, model/interval.h): Debian ships no
# pkg-config file for it, so it is found by its header and library.
find_path(MPFI_INCLUDE_DIR mpfi.h)
find_library(MPFI_LIBRARY mpfi)
if(MPFI_INCLUDE_DIR AND MPFI_LIBRARY)
  set(MPFI_FOUND TRUE)
endif()
attnprop_require(MPFI_FOUND "MPFI (interval arithmetic)" libmpfi-dev)
if(NOT TARGET attnprop::mpfi)
  add_library(attnprop::mpfi UNKNOWN IMPORTED)
  set_target_properties(attnprop::mpfi PROPERTIES IMPORTED_LOCATION "${MPFI_LIBRARY}"
                                                  INTERFACE_INCLUDE_DIRECTORIES "${MPFI_INCLUDE_DIR}")
endif()

find_package(Threads REQUIRED)

message(STATUS "attnprop deps: RapidCheck ${rapidcheck_VERSION}, GoogleTest ${GTest_VERSION}, "
               "Eigen ${Eigen3_VERSION}, Boost ${Boost_VERSION}, MPFR ${MPFR_VERSION}, GMP ${GMP_VERSION}")
