# ctest claims.catalog_in_sync: properties/claims.tsv must equal the shared
# catalogue ../shared/claims/claims.tsv when that checkout is present
# (exit 77 = skipped when it is not).
if(NOT EXISTS "${SHARED}")
  message("shared catalogue ${SHARED} not present: skipped")
  cmake_language(EXIT 77)
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${COPY}" "${SHARED}" RESULT_VARIABLE differ)
if(differ)
  message(FATAL_ERROR "properties/claims.tsv differs from ${SHARED}: copy it again (ids are the contract)")
endif()
message("properties/claims.tsv is identical to ${SHARED}")
