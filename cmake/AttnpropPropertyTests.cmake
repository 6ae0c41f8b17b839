# Included by ctest when it starts (the properties directory's
# TEST_INCLUDE_FILES, as gtest_discover_tests' PRE_TEST mode does): adds one
# test `<id>/<backend>` per property that the property binary registers
# (attnprop_properties --ctest-list), with its labels. The claims, their
# backends and the kernel's dispatch targets are said once, in code;
# registry.tsv is compiled in and joined by the binary, never parsed here.
# Set by the including file: ATTNPROP_PROPERTIES_EXE, ATTNPROP_STORE_OUT,
# ATTNPROP_PROPERTY_TEST_CASES (empty: the harness's default count).
if(NOT EXISTS "${ATTNPROP_PROPERTIES_EXE}")
  # Not built yet: one test that fails and says so, rather than none.
  add_test(properties.NOT_BUILT "${ATTNPROP_PROPERTIES_EXE}")
  return()
endif()
execute_process(COMMAND "${ATTNPROP_PROPERTIES_EXE}" --ctest-list OUTPUT_VARIABLE _list ERROR_VARIABLE _err
                RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "${ATTNPROP_PROPERTIES_EXE} --ctest-list failed (${_rc}):\n${_err}")
endif()
string(REPLACE "\n" ";" _lines "${_list}")
foreach(_line IN LISTS _lines)
  if(_line STREQUAL "")
    continue()
  endif()
  string(REPLACE "\t" ";" _f "${_line}")
  list(GET _f 0 _name)
  list(GET _f 1 _labels)
  list(GET _f 2 _kernel)
  string(REPLACE "," ";" _labels "${_labels}")
  # The store is replayed from the source tree; new counterexamples go to
  # the build tree (the failure message also prints the entry to paste).
  add_test("${_name}" "${ATTNPROP_PROPERTIES_EXE}" "--property=${_name}" "--store-out=${ATTNPROP_STORE_OUT}")
  set_tests_properties("${_name}" PROPERTIES LABELS "${_labels}")
  if(ATTNPROP_PROPERTY_TEST_CASES)
    set_tests_properties("${_name}" PROPERTIES ENVIRONMENT "RC_PARAMS=max_success=${ATTNPROP_PROPERTY_TEST_CASES}")
  endif()
  if(_kernel)
    # A dispatch target this CPU lacks is reported as skipped, not passed.
    set_tests_properties("${_name}" PROPERTIES SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]")
  endif()
endforeach()
