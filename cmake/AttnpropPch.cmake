# Precompiled headers for the harness's libraries and tests.
#
# Most of a harness file's compile time is parsing the same third-party
# headers (Eigen, Boost.Multiprecision over MPFR and GMP, RapidCheck,
# nlohmann/json, GoogleTest): measured with GCC 12 -ftime-report, parsing is
# 56-92% of generators/matrices.cc, framework/runner.cc, framework/search_test.cc,
# operator/call.cc, reports/report_test.cc and tools/cli_main.cc (7-10 s
# each). Each list below is compiled once, by the first target that asks for
# it, and reused (REUSE_FROM) by every later one: GCC accepts a precompiled
# header only when the flags that matter to it agree, which holds for all
# these targets (same -O, no -fPIC, same sanitizer flags in one build), and
# -Winvalid-pch (added by CMake) with -Werror turns any mismatch into an
# error rather than a silent slow path. Only third-party and standard
# headers: editing a project header rebuilds no precompiled header.
#
#   attnprop_precompile(<target> [GTEST])
# GTEST: the target is a GoogleTest executable: its list adds gtest.h, and
# all such targets share GTest::gtest's GTEST_HAS_PTHREAD=1 with the one that
# compiles it.
# The claims (properties/CMakeLists.txt) keep their own precompiled header,
# which also holds the claim headers every claim file includes.
set(ATTNPROP_PCH_LIBRARY
  <algorithm> <cmath> <cstdint> <functional> <map> <optional> <sstream> <string> <vector>
  <Eigen/Dense> <boost/multiprecision/gmp.hpp> <boost/multiprecision/mpfr.hpp> <rapidcheck.h>
  <nlohmann/json.hpp>)
set(ATTNPROP_PCH_GTEST ${ATTNPROP_PCH_LIBRARY} <gtest/gtest.h>)
option(ATTNPROP_PCH "Precompile the third-party headers of the harness's targets (cmake/AttnpropPch.cmake)" ON)

function(attnprop_precompile target)
  cmake_parse_arguments(P "GTEST" "" "" ${ARGN})
  if(NOT ATTNPROP_PCH)
    return()
  endif()
  set(_kind LIBRARY)
  if(P_GTEST)
    set(_kind GTEST)
  endif()
  get_property(_donor GLOBAL PROPERTY ATTNPROP_PCH_DONOR_${_kind})
  if(_donor)
    target_precompile_headers(${target} REUSE_FROM ${_donor})
  else()
    target_precompile_headers(${target} PRIVATE ${ATTNPROP_PCH_${_kind}})
    set_property(GLOBAL PROPERTY ATTNPROP_PCH_DONOR_${_kind} ${target})
  endif()
endfunction()
