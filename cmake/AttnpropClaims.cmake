# attnprop_add_claims(NAME <runner> SOURCES <file.cc>... [REGISTRY <file.tsv>]
#                     [STORE <dir>] [CASES <n>] [SEARCH <n>] [LABELS <label>...])
#
# Builds <runner>, an executable with your claims (and only them) and
# attnprop's whole command line (`<runner> list`, `run`, `audit --out DIR`,
# `reproduce`), and adds one ctest test per claim and backend:
#   <runner>.<id>/<backend>       e.g. softmax_claims.softmax.lipschitz_half/double
# Each test runs `<runner> run --filter <id>/<backend> --search <SEARCH>`:
# stored cases first, then CASES random cases (default 100), then a targeted
# search of SEARCH candidates (default 300). A failure prints the shrunk
# counterexample, its certificate and the `<runner> reproduce ...` line that
# replays it; it is saved in STORE (default <current binary dir>/counterexamples;
# point it at a directory of your source tree to keep pinned cases) and
# replayed first by every later run.
# SOURCES declare claims with <attnprop/claim.h> (docs/adding-a-claim.md).
# REGISTRY: a TSV of `id kind expect labels why` rows (attnprop's
# properties/registry.tsv format; kind `new`): a claim registered `refuted`
# is expected to be refuted (a known-false statement). A claim without a row
# is expected to hold. The test list is read from the runner when ctest
# starts (`<runner> list --names`), so it follows the code.
# Call enable_testing() (or include(CTest)) in the top-level CMakeLists.txt.
set(_attnprop_claims_dir "${CMAKE_CURRENT_LIST_DIR}")

function(attnprop_add_claims)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "NAME;REGISTRY;STORE;CASES;SEARCH" "SOURCES;LABELS")
  if(NOT ARG_NAME)
    message(FATAL_ERROR "attnprop_add_claims: NAME <runner> is required")
  endif()
  if(NOT ARG_NAME MATCHES "^[A-Za-z0-9_.-]+$")
    message(FATAL_ERROR "attnprop_add_claims: NAME '${ARG_NAME}' must be letters, digits, _ . or -")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "attnprop_add_claims: SOURCES <file.cc>... (the claims) are required")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "attnprop_add_claims: unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET attnprop::harness)
    message(FATAL_ERROR "attnprop_add_claims: there is no attnprop::harness target; call "
                        "find_package(attnprop CONFIG REQUIRED) first")
  endif()
  if(DEFINED attnprop_HARNESS_MISSING AND attnprop_HARNESS_MISSING)
    message(FATAL_ERROR "attnprop_add_claims: attnprop's claim harness needs ${attnprop_HARNESS_MISSING} "
                        "(on Debian 12: apt-get install librapidcheck-dev libeigen3-dev libboost-dev "
                        "libmpfr-dev libgmp-dev libmpfi-dev libseccomp-dev pkg-config)")
  endif()
  foreach(_n IN ITEMS CASES SEARCH)
    if(DEFINED ARG_${_n} AND NOT ARG_${_n} MATCHES "^[0-9]+$")
      message(FATAL_ERROR "attnprop_add_claims: ${_n} '${ARG_${_n}}' is not a count")
    endif()
  endforeach()
  if(NOT DEFINED ARG_CASES)
    set(ARG_CASES 100)
  endif()
  if(NOT DEFINED ARG_SEARCH)
    set(ARG_SEARCH 300)
  endif()
  if(NOT ARG_STORE)
    set(ARG_STORE ${CMAKE_CURRENT_BINARY_DIR}/counterexamples)
  endif()
  get_filename_component(ARG_STORE "${ARG_STORE}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")

  # The runner's main: its registry compiled in (the assembler's .incbin, as
  # attnprop's own, properties/framework/embedded_tsv.cc), its store, and the
  # command its replay lines name (its absolute path).
  set(_main ${CMAKE_CURRENT_BINARY_DIR}/${ARG_NAME}_main.cc)
  if(ARG_REGISTRY)
    get_filename_component(ARG_REGISTRY "${ARG_REGISTRY}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${ARG_REGISTRY}")
      message(FATAL_ERROR "attnprop_add_claims: REGISTRY ${ARG_REGISTRY} does not exist")
    endif()
    if(ARG_REGISTRY MATCHES "[\"\\\\]")
      message(FATAL_ERROR "attnprop_add_claims: REGISTRY's path must not contain \" or \\")
    endif()
    set(ARG_REGISTRY_TEXT "${ARG_REGISTRY}")
    set(ATTNPROP_REGISTRY_EMBED "__asm__(\".pushsection .rodata\\n\"
        \".global attnprop_user_registry_tsv\\n\"
        \".type attnprop_user_registry_tsv, @object\\n\"
        \"attnprop_user_registry_tsv:\\n\"
        \".incbin \\\"${ARG_REGISTRY}\\\"\\n\"
        \".byte 0\\n\"
        \".popsection\\n\");
extern \"C\" const char attnprop_user_registry_tsv[];")
    set(ATTNPROP_REGISTRY_SYMBOL attnprop_user_registry_tsv)
    set_source_files_properties(${_main} PROPERTIES OBJECT_DEPENDS "${ARG_REGISTRY}")
  else()
    set(ARG_REGISTRY_TEXT "none: every claim is expected to hold")
    set(ATTNPROP_REGISTRY_EMBED "")
    set(ATTNPROP_REGISTRY_SYMBOL "\"\"")
  endif()
  set(ATTNPROP_RUNNER_COMMAND "${CMAKE_CURRENT_BINARY_DIR}/${ARG_NAME}")
  configure_file(${_attnprop_claims_dir}/attnprop_claims_main.cc.in ${_main} @ONLY)

  add_executable(${ARG_NAME} ${ARG_SOURCES} ${_main})
  target_link_libraries(${ARG_NAME} PRIVATE attnprop::harness)
  # The claims register themselves in static initialisers: nothing may be
  # dropped, and the runner lands where its replay lines say it is.
  set_target_properties(${ARG_NAME} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})

  # One test per claim and backend, read from the runner when ctest starts.
  set(_tests ${CMAKE_CURRENT_BINARY_DIR}/${ARG_NAME}_tests.cmake)
  file(GENERATE OUTPUT ${_tests} CONTENT
       "set(ATTNPROP_RUNNER \"$<TARGET_FILE:${ARG_NAME}>\")
set(ATTNPROP_RUNNER_NAME \"${ARG_NAME}\")
set(ATTNPROP_RUNNER_STORE \"${ARG_STORE}\")
set(ATTNPROP_RUNNER_CASES \"${ARG_CASES}\")
set(ATTNPROP_RUNNER_SEARCH \"${ARG_SEARCH}\")
set(ATTNPROP_RUNNER_LABELS \"${ARG_LABELS}\")
include(\"${_attnprop_claims_dir}/AttnpropClaimTests.cmake\")
")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${_tests})
endfunction()
