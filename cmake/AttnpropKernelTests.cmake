# attnprop_add_kernel_tests(TARGET <shared-library-target> [NAME <name>]
#                           [CASES <n>] [TIMEOUT <seconds>] [STORE <dir>]
#                           [DISPATCH <target>...] [DTYPES <dtype>...] [LABELS <label>...])
#
# Registers attnprop's kernel properties with ctest for a kernel built as a
# shared or module library that implements the kernel ABI
# (<attnprop/attnprop_kernel.h>; kernels/attnprop_kernel.h in attnprop's
# tree): one test per property and dtype,
#   kernel.<name>/<claim id>/f32, kernel.<name>/<claim id>/f64 (with DTYPES: .../bf16, .../f16)
# each running `attnprop check-kernel <library> --filter <claim id>/kernel-<dtype>`
# (the properties are listed by `attnprop check-kernel <library> --list` when
# ctest runs; before the library is built, one test per dtype,
# kernel.<name>/<dtype>, runs them all),
# with the kernel's counterexample store in
#   <STORE>/<name>[-<target>]-<dtype>   (STORE defaults to <current binary dir>/counterexamples)
# a failure is saved there and replayed first by the next run, and the
# failure prints the `attnprop reproduce ... --kernel <library> <store file>`
# line that replays it (absolute paths: it runs from any directory).
# With DISPATCH (attnprop's own kernel: scalar avx2 avx512 auto), the tests of
# each dispatch target, kernel.<name>/<target>/<claim id>/<dtype>, with
# ATTNPROP_KERNEL_TARGET=<target> in the test's environment; a target the CPU
# does not support exits 77 and is reported as skipped, not passed.
# DTYPES: the entry points tested (default f32 f64; bf16 and f16 for a
# kernel with ABI v2's half-precision entry points: a kernel without one
# exits 77, skipped). Labels: kernel, plus LABELS. CASES: random cases per
# property (default 100).
#
# The command run is the executable target attnprop::attnprop: from
# find_package(attnprop CONFIG) (the installed command), or attnprop's own in
# its tree. The function only adds tests: it changes no compile or link
# setting of TARGET or of anything else (attnprop's own flags,
# cmake/AttnpropFlags.cmake, are for attnprop's code alone). Call
# enable_testing() (or include(CTest)) in the top-level CMakeLists.txt.
set(_ATTNPROP_KERNEL_TESTS_DIR ${CMAKE_CURRENT_LIST_DIR})  # beside it: AttnpropKernelTestsDiscover.cmake

function(attnprop_add_kernel_tests)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "TARGET;NAME;CASES;TIMEOUT;STORE" "DISPATCH;DTYPES;LABELS")
  if(NOT ARG_TARGET)
    message(FATAL_ERROR "attnprop_add_kernel_tests: TARGET <shared-library-target> is required")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "attnprop_add_kernel_tests: unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET attnprop::attnprop AND NOT ATTNPROP_IN_TREE)
    message(FATAL_ERROR "attnprop_add_kernel_tests: there is no attnprop::attnprop executable target; "
                        "call find_package(attnprop CONFIG REQUIRED) first")
  endif()
  if(TARGET ${ARG_TARGET})
    get_target_property(_type ${ARG_TARGET} TYPE)
    if(NOT _type MATCHES "^(SHARED|MODULE)_LIBRARY$")
      message(FATAL_ERROR "attnprop_add_kernel_tests: ${ARG_TARGET} is a ${_type}; attnprop check-kernel "
                          "loads the kernel with dlopen, so it must be a SHARED or MODULE library")
    endif()
  endif()
  if(NOT ARG_NAME)
    set(ARG_NAME ${ARG_TARGET})
  endif()
  if(NOT ARG_CASES)
    set(ARG_CASES 100)
  endif()
  if(NOT ARG_STORE)
    set(ARG_STORE ${CMAKE_CURRENT_BINARY_DIR}/counterexamples)
  endif()
  get_filename_component(ARG_STORE "${ARG_STORE}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  if(NOT ARG_DTYPES)
    set(ARG_DTYPES f32 f64)
  endif()
  foreach(_dtype IN LISTS ARG_DTYPES)
    if(NOT _dtype MATCHES "^(f32|f64|bf16|f16)$")
      message(FATAL_ERROR "attnprop_add_kernel_tests: DTYPES ${_dtype} is not f32, f64, bf16 or f16")
    endif()
  endforeach()
  # One test per property and dtype, discovered when ctest runs (as
  # gtest_discover_tests' PRE_TEST mode does): a script that ctest includes
  # asks `attnprop check-kernel <library> --list` for the properties, so the
  # list is the installed attnprop's and the built library's, and `ctest -R
  # <claim id>` or `ctest -j` picks single properties. Before the library
  # is built (or when it cannot be listed) the dtype is one test, which
  # then says why.
  set(_variants "-")
  if(ARG_DISPATCH)
    set(_variants ${ARG_DISPATCH})
  endif()
  set(_script "set(_exe \"$<TARGET_FILE:attnprop::attnprop>\")\nset(_lib \"$<TARGET_FILE:${ARG_TARGET}>\")
include(\"${_ATTNPROP_KERNEL_TESTS_DIR}/AttnpropKernelTestsDiscover.cmake\")\n")
  foreach(_d IN LISTS _variants)
    foreach(_dtype IN LISTS ARG_DTYPES)
      set(_props "LABELS \"kernel;${ARG_LABELS}\" SKIP_RETURN_CODE 77")
      if(ARG_TIMEOUT)
        string(APPEND _props " TIMEOUT ${ARG_TIMEOUT}")
      endif()
      if(_d STREQUAL "-")
        string(APPEND _script "attnprop_kernel_tests(\"\${_exe}\" \"\${_lib}\" kernel.${ARG_NAME} ${_dtype} "
                              "\"${ARG_STORE}/${ARG_NAME}-${_dtype}\" ${ARG_CASES})\n")
      else()
        string(APPEND _script "attnprop_kernel_tests(\"\${_exe}\" \"\${_lib}\" kernel.${ARG_NAME}/${_d} ${_dtype} "
                              "\"${ARG_STORE}/${ARG_NAME}-${_d}-${_dtype}\" ${ARG_CASES} ATTNPROP_KERNEL_TARGET=${_d})\n")
        string(APPEND _props " ENVIRONMENT ATTNPROP_KERNEL_TARGET=${_d}")
      endif()
      string(APPEND _script "foreach(_t IN LISTS _attnprop_tests)\n  set_tests_properties(\"\${_t}\" PROPERTIES ${_props})\nendforeach()\n")
    endforeach()
  endforeach()
  set(_base ${CMAKE_CURRENT_BINARY_DIR}/attnprop_kernel_tests/${ARG_NAME})
  file(GENERATE OUTPUT ${_base}-$<CONFIG>.cmake CONTENT "# Generated by attnprop_add_kernel_tests(TARGET ${ARG_TARGET}).\n${_script}")
  # ctest includes the script of the configuration it tests (-C), or the one there is.
  file(WRITE ${_base}.cmake "set(_f \"${_base}-\${CTEST_CONFIGURATION_TYPE}.cmake\")
if(NOT CTEST_CONFIGURATION_TYPE OR NOT EXISTS \"\${_f}\")
  file(GLOB _f \"${_base}-*.cmake\")
  list(GET _f 0 _f)
endif()
include(\"\${_f}\")
")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${_base}.cmake)
endfunction()
