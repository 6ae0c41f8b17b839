# Compiler flags shared by every attnprop target.
#
# ATTNPROP_WERROR (ON in the CI presets) turns warnings into errors for the
# project's own targets only; consumers never inherit it.
option(ATTNPROP_WERROR "Treat warnings as errors in attnprop's own targets" OFF)

# Fast-math silently breaks NaN/inf handling and reorders sums: every
# tolerance in this project assumes IEEE semantics, so refuse it outright.
foreach(_var CMAKE_CXX_FLAGS CMAKE_C_FLAGS CMAKE_CXX_FLAGS_RELEASE CMAKE_CXX_FLAGS_DEBUG
             CMAKE_CXX_FLAGS_RELWITHDEBINFO CMAKE_C_FLAGS_RELEASE)
  if("${${_var}}" MATCHES "-ffast-math|-Ofast|-funsafe-math-optimizations|-ffinite-math-only")
    message(FATAL_ERROR
      "${_var} contains '${CMAKE_MATCH_0}'. attnprop's tolerances assume IEEE "
      "arithmetic (NaN, inf, no reassociation); remove that flag.")
  endif()
endforeach()

add_library(attnprop_warnings INTERFACE)
target_compile_options(attnprop_warnings INTERFACE
  -Wall -Wextra -Wconversion -Wshadow -Wpedantic
  $<$<BOOL:${ATTNPROP_WERROR}>:-Werror>)

# The reference model and the properties: no FMA contraction, so that the
# error bounds written beside each tolerance describe the code as compiled.
add_library(attnprop_strict_fp INTERFACE)
target_compile_options(attnprop_strict_fp INTERFACE -ffp-contract=off)

# Sanitizers (the asan preset sets ATTNPROP_SANITIZE=ON).
option(ATTNPROP_SANITIZE "Build with AddressSanitizer and UBSan" OFF)
if(ATTNPROP_SANITIZE)
  # float-divide-by-zero is left out on purpose: -inf masking is intended.
  set(_san -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=undefined,float-cast-overflow -fno-omit-frame-pointer)
  add_compile_options(${_san})
  add_link_options(${_san})
endif()
