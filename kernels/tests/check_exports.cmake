# Fails unless the shared library defines exactly the ABI and extension
# functions in its dynamic symbol table (run: cmake -DLIB=... -P this file).
execute_process(COMMAND nm -D --defined-only ${LIB} OUTPUT_VARIABLE _syms RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "nm failed on ${LIB}")
endif()
string(REGEX MATCHALL "[^ \n]+\n" _lines "${_syms}")
set(_names)
foreach(_l IN LISTS _lines)
  string(STRIP "${_l}" _n)
  list(APPEND _names ${_n})
endforeach()
list(SORT _names)
set(_want attnprop_attention_f32 attnprop_attention_f64 attnprop_attention_bf16 attnprop_attention_f16
    attnprop_kernel_abi_version attnprop_kernel_accumulation
    attnprop_kernel_set_target attnprop_kernel_set_threads attnprop_kernel_target
    attnprop_kernel_target_count attnprop_kernel_target_name attnprop_kernel_target_supported)
list(SORT _want)
if(NOT "${_names}" STREQUAL "${_want}")
  message(FATAL_ERROR "exported: ${_names}\nexpected: ${_want}")
endif()
message(STATUS "exports OK: ${_names}")
