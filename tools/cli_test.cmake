# Runs the attnprop command for a ctest test and checks its exit status and
# output (status and message both: PASS_REGULAR_EXPRESSION alone ignores the
# status). Arguments are joined with "^^".
#   cmake -DEXE=... -DARGS=a^^b -DEXIT=2 -DMATCH=regex [-DNOMATCH=regex] [-DFILES=f^^g] [-DSETUP=a^^b]
#         [-DLIMIT_FSIZE=blocks] -P cli_test.cmake
# NOMATCH: a regex the output must not match. FILES: files the command must
# have written (checked after it ran). SETUP: an attnprop command run first
# (its status ignored), e.g. to write the report --rerun-failed reads.
# LIMIT_FSIZE: run under `ulimit -f` (a write past it fails).
#   cmake -DEXE=... -DARGS=... -DMODE=determinism -DOUT=dir -P cli_test.cmake
string(REPLACE "^^" ";" _args "${ARGS}")

if(MODE STREQUAL "determinism")
  # Two runs with the same seed: the four report files are byte-identical
  # once the timestamp and the timings are normalised.
  foreach(_run a b)
    file(REMOVE_RECURSE ${OUT}/${_run})
    execute_process(COMMAND ${EXE} ${_args} --out ${OUT}/${_run} RESULT_VARIABLE _rc OUTPUT_QUIET)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "attnprop ${ARGS} --out ${OUT}/${_run} exited ${_rc}")
    endif()
  endforeach()
  foreach(_f report.json report.md report.html junit.xml)
    foreach(_run a b)
      file(READ ${OUT}/${_run}/${_f} _t)
      string(REGEX REPLACE "[0-9]+-[0-9]+-[0-9]+T[0-9]+:[0-9]+:[0-9]+Z" "TIMESTAMP" _t "${_t}")
      string(REGEX REPLACE "\"seconds\": [^,\n]*" "\"seconds\": S" _t "${_t}")
      string(REGEX REPLACE "\\| [0-9]+\\.[0-9]+ \\|\n" "| S |\n" _t "${_t}")
      string(REGEX REPLACE "<td class=\"n t\">[0-9]+\\.[0-9]+</td>" "<td>S</td>" _t "${_t}")
      string(REGEX REPLACE "time=\"[0-9.]+\"" "time=\"S\"" _t "${_t}")
      set(_text_${_run} "${_t}")
    endforeach()
    if(NOT _text_a STREQUAL _text_b)
      message(FATAL_ERROR "${_f} differs between two runs with the same seed: diff ${OUT}/a/${_f} ${OUT}/b/${_f}")
    endif()
    string(LENGTH "${_text_a}" _len)
    message(STATUS "${_f}: identical (${_len} bytes after normalising times)")
  endforeach()
  return()
endif()

if(DEFINED SETUP)
  string(REPLACE "^^" ";" _setup "${SETUP}")
  execute_process(COMMAND ${EXE} ${_setup} OUTPUT_QUIET ERROR_QUIET)
endif()
if(DEFINED LIMIT_FSIZE)
  execute_process(COMMAND sh -c "ulimit -f ${LIMIT_FSIZE} && exec \"$0\" \"$@\"" ${EXE} ${_args}
                  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
else()
  execute_process(COMMAND ${EXE} ${_args} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
endif()
message("${_out}${_err}")
if(NOT "${_rc}" STREQUAL "${EXIT}")
  message(FATAL_ERROR "attnprop ${ARGS}: exit status ${_rc}, expected ${EXIT}")
endif()
if(DEFINED MATCH AND NOT "${_out}${_err}" MATCHES "${MATCH}")
  message(FATAL_ERROR "attnprop ${ARGS}: output does not match '${MATCH}'")
endif()
if(DEFINED NOMATCH AND "${_out}${_err}" MATCHES "${NOMATCH}")
  message(FATAL_ERROR "attnprop ${ARGS}: output matches '${NOMATCH}', which it must not")
endif()
if(DEFINED FILES)
  string(REPLACE "^^" ";" _files "${FILES}")
  foreach(_f IN LISTS _files)
    if(NOT EXISTS "${_f}")
      message(FATAL_ERROR "attnprop ${ARGS}: did not write ${_f}")
    endif()
  endforeach()
endif()
