# Included by ctest when it starts (attnprop_add_claims, AttnpropClaims.cmake):
# one test `<runner>.<id>/<backend>` per property the runner registers
# (`<runner> list --names`). Set by the including file: ATTNPROP_RUNNER,
# ATTNPROP_RUNNER_NAME, _STORE, _CASES, _SEARCH, _LABELS.
if(NOT EXISTS "${ATTNPROP_RUNNER}")
  # Not built yet: one test that fails and says so, rather than none.
  add_test("${ATTNPROP_RUNNER_NAME}.NOT_BUILT" "${ATTNPROP_RUNNER}")
  return()
endif()
execute_process(COMMAND "${ATTNPROP_RUNNER}" list --names OUTPUT_VARIABLE _list ERROR_VARIABLE _err
                RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "${ATTNPROP_RUNNER} list --names failed (${_rc}):\n${_err}")
endif()
string(REPLACE "\n" ";" _names "${_list}")
foreach(_name IN LISTS _names)
  if(_name STREQUAL "")
    continue()
  endif()
  add_test("${ATTNPROP_RUNNER_NAME}.${_name}" "${ATTNPROP_RUNNER}" run --filter "${_name}" --cases
           "${ATTNPROP_RUNNER_CASES}" --search "${ATTNPROP_RUNNER_SEARCH}" --store "${ATTNPROP_RUNNER_STORE}"
           --create-store)
  set_tests_properties("${ATTNPROP_RUNNER_NAME}.${_name}" PROPERTIES LABELS "claims;${ATTNPROP_RUNNER_LABELS}")
endforeach()
