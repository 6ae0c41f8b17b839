# Validates JUnit files against reports/junit.xsd with xmllint (libxml2-utils),
# and checks that a malformed one is rejected (the check can fail). Runs
# attnprop once to validate a real file: a claim that holds, a claim false as
# stated (xfail), a kernel backend.
#   cmake -DXMLLINT=... -DXSD=... -DEXE=attnprop -DOUT=dir -DGOOD=a.xml^^b.xml -DBAD=c.xml -P junit_xsd_test.cmake
if(NOT XMLLINT)
  message("xmllint not found (Debian: libxml2-utils, installed by ci/install-deps.sh): skipped")
  return()  # SKIP_REGULAR_EXPRESSION below
endif()
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND ${EXE} run --filter attend2.additivity/double --filter collapse.lemmaD.4/double
                        --filter abi.lse_values/kernel-f32@scalar --cases 5 --no-save -q --junit ${OUT}/run.xml
                RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "attnprop run --junit exited ${_rc}")
endif()
string(REPLACE "^^" ";" _good "${GOOD}")
list(APPEND _good ${OUT}/run.xml)
foreach(_f IN LISTS _good)
  execute_process(COMMAND ${XMLLINT} --noout --schema ${XSD} ${_f} RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${_f} does not validate against ${XSD}:\n${_err}")
  endif()
  message(STATUS "valid: ${_f}")
endforeach()
file(READ ${OUT}/run.xml _run)
if(NOT _run MATCHES "<skipped type=\"xfail\" message=\"refuted as stated: ")
  message(FATAL_ERROR "the claim false as stated is not an xfail <skipped> in ${OUT}/run.xml")
endif()
execute_process(COMMAND ${XMLLINT} --noout --schema ${XSD} ${BAD} RESULT_VARIABLE _rc ERROR_VARIABLE _err)
if(_rc EQUAL 0)
  message(FATAL_ERROR "${BAD} validates against ${XSD}, but must not: the schema checks nothing")
endif()
message(STATUS "rejected as it must be: ${BAD}")
