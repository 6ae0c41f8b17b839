# attnprop_add_kernel_tests(TARGET <shared-library-target> [NAME <name>]
#                           [CASES <n>] [TIMEOUT <seconds>] [STORE <dir>]
#                           [DISPATCH <target>...] [DTYPES <dtype>...] [LABELS <label>...])
#
# Registers attnprop's kernel properties with ctest for a kernel built as a
# shared or module library that implements the kernel ABI
# (<attnprop/attnprop_kernel.h>; kernels/attnprop_kernel.h in attnprop's
# tree): one test per dtype,
#   kernel.<name>/f32, kernel.<name>/f64 (with DTYPES: .../bf16, .../f16)
# each running `attnprop check-kernel <library> --backend kernel-<dtype>`,
# with the kernel's counterexample store in
#   <STORE>/<name>[-<target>]-<dtype>   (STORE defaults to <current binary dir>/counterexamples)
# a failure is saved there and replayed first by the next run, and the
# failure prints the `attnprop reproduce ... --kernel <library> <store file>`
# line that replays it (absolute paths: it runs from any directory).
# With DISPATCH (attnprop's own kernel: scalar avx2 avx512 auto), one test per
# dispatch target and dtype, kernel.<name>/<target>/<dtype>, with
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
  set(_variants "-")
  if(ARG_DISPATCH)
    set(_variants ${ARG_DISPATCH})
  endif()
  foreach(_d IN LISTS _variants)
    foreach(_dtype IN LISTS ARG_DTYPES)
      if(_d STREQUAL "-")
        set(_test kernel.${ARG_NAME}/${_dtype})
        set(_save ${ARG_STORE}/${ARG_NAME}-${_dtype})
      else()
        set(_test kernel.${ARG_NAME}/${_d}/${_dtype})
        set(_save ${ARG_STORE}/${ARG_NAME}-${_d}-${_dtype})
      endif()
      add_test(NAME ${_test}
               COMMAND $<TARGET_FILE:attnprop::attnprop> check-kernel $<TARGET_FILE:${ARG_TARGET}>
                       --cases ${ARG_CASES} --backend kernel-${_dtype} --store ${_save} --create-store)
      set_tests_properties(${_test} PROPERTIES LABELS "kernel;${ARG_LABELS}" SKIP_RETURN_CODE 77)
      if(ARG_TIMEOUT)
        set_tests_properties(${_test} PROPERTIES TIMEOUT ${ARG_TIMEOUT})
      endif()
      if(NOT _d STREQUAL "-")
        set_tests_properties(${_test} PROPERTIES ENVIRONMENT "ATTNPROP_KERNEL_TARGET=${_d}")
      endif()
    endforeach()
  endforeach()
endfunction()
