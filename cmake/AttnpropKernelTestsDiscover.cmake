# Included by the ctest scripts attnprop_add_kernel_tests writes
# (cmake/AttnpropKernelTests.cmake), when ctest runs: adds one test per kernel
# property of one dtype, listed by `attnprop check-kernel LIB --list`, or,
# when the library is not built yet or cannot be listed, one test for the
# whole dtype (which then says why). Leaves the names in _attnprop_tests.
#   attnprop_kernel_tests(EXE LIB PREFIX DTYPE STORE CASES [ENV_VAR=VALUE])
macro(attnprop_kernel_tests exe lib prefix dtype store cases)
  set(_attnprop_tests "")
  set(_attnprop_ids "")
  if(EXISTS "${lib}" AND EXISTS "${exe}")
    set(_attnprop_env "${ARGN}")
    if(_attnprop_env)
      string(REGEX REPLACE "=.*" "" _attnprop_var "${_attnprop_env}")
      string(REGEX REPLACE "^[^=]*=" "" _attnprop_val "${_attnprop_env}")
      set(ENV{${_attnprop_var}} "${_attnprop_val}")
    endif()
    execute_process(COMMAND "${exe}" check-kernel "${lib}" --backend kernel-${dtype} --list
                    OUTPUT_VARIABLE _attnprop_out ERROR_QUIET RESULT_VARIABLE _attnprop_rc TIMEOUT 60)
    if(_attnprop_env)
      unset(ENV{${_attnprop_var}})
    endif()
    if(_attnprop_rc EQUAL 0)
      string(REGEX MATCHALL "[^\n]+" _attnprop_ids "${_attnprop_out}")
    endif()
  endif()
  foreach(_attnprop_p IN LISTS _attnprop_ids)
    string(REGEX REPLACE "/.*" "" _attnprop_id "${_attnprop_p}")
    add_test("${prefix}/${_attnprop_id}/${dtype}" "${exe}" check-kernel "${lib}" --filter "${_attnprop_p}"
             --cases ${cases} --store "${store}" --create-store)
    list(APPEND _attnprop_tests "${prefix}/${_attnprop_id}/${dtype}")
  endforeach()
  if(NOT _attnprop_ids)
    add_test("${prefix}/${dtype}" "${exe}" check-kernel "${lib}" --backend kernel-${dtype} --cases ${cases}
             --store "${store}" --create-store)
    set(_attnprop_tests "${prefix}/${dtype}")
  endif()
endmacro()
