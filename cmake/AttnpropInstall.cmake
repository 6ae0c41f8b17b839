# Installing attnprop, and using it from another CMake project.
#
#   cmake --install build/release --prefix /opt/attnprop
#   (cd build/release && cpack -G DEB)        -> attnprop_<version>_<arch>.deb (prefix /usr)
#
# installs, under the GNUInstallDirs paths of the prefix:
#   bin/attnprop                         the command; at run time it needs no other file
#   include/attnprop/attnprop_kernel.h   the kernel ABI (C11 and C++), and attnprop_kernel_ext.h
#   lib/libattnprop_kernel.a, .so        attnprop's SIMD kernel (static, shared)
#   lib/libattnprop_harness.a            the claim harness (attnprop::harness, for attnprop_add_claims)
#   include/attnprop/claim.h             the claim API, and the headers it includes (model/, generators/,
#                                        properties/framework/) under include/attnprop/
#   lib/cmake/attnprop/                  attnpropConfig.cmake, attnpropConfigVersion.cmake,
#                                        attnpropTargets*.cmake, AttnpropKernelTests.cmake,
#                                        AttnpropClaims.cmake (attnprop_add_claims) and its two helpers
#   lib/pkgconfig/                       attnprop-kernel-abi.pc (the header), attnprop-kernel.pc (the library)
#   share/attnprop/counterexamples/      the counterexample store: an installed attnprop's default store
#                                        (replayed, never written: see DefaultSaveDir in store.h)
#   share/doc/attnprop/                  README.md, docs/, adding-a-claim.md, examples/user_kernel/ and user_claim/
#
# find_package(attnprop CONFIG) gives the imported targets attnprop::attnprop
# (the executable), attnprop::kernel_abi (header-only: include
# <attnprop/attnprop_kernel.h>), attnprop::kernel (shared) and
# attnprop::kernel_static, attnprop::harness (the claim harness: a static
# library whose users need RapidCheck, Eigen, Boost, MPFR, GMP and MPFI's
# development packages), the variable attnprop_KERNEL_ABI_VERSION and the
# functions attnprop_add_kernel_tests (cmake/AttnpropKernelTests.cmake) and
# attnprop_add_claims (cmake/AttnpropClaims.cmake). None
# of attnprop's own compiler policy (cmake/AttnpropFlags.cmake) is exported:
# the targets carry include directories and link dependencies only (and
# attnprop::harness -ffp-contract=off and C++20, which the model code needs
# wherever it is compiled: the user's claims instantiate it). The
# version check is semantic versioning's: the same major version, and at
# least the version asked for. The same aliases exist in this tree.
include(CMakePackageConfigHelpers)

set(ATTNPROP_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/attnprop CACHE STRING
    "Where attnpropConfig.cmake is installed (relative to the prefix)")
set(ATTNPROP_INSTALL_PKGCONFIGDIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig CACHE STRING
    "Where attnprop's pkg-config files are installed (relative to the prefix)")

add_executable(attnprop::attnprop ALIAS attnprop)

# The installed command finds its store from its own location (a relocated
# or unpacked install included): the store's path relative to bin/.
file(RELATIVE_PATH _attnprop_store_from_bin ${CMAKE_INSTALL_FULL_BINDIR}
     ${CMAKE_INSTALL_FULL_DATADIR}/attnprop/counterexamples)
set_property(SOURCE ${PROJECT_SOURCE_DIR}/properties/framework/store.cc DIRECTORY ${PROJECT_SOURCE_DIR}/properties
             APPEND PROPERTY COMPILE_DEFINITIONS "ATTNPROP_INSTALLED_STORE=\"${_attnprop_store_from_bin}\"")

install(TARGETS attnprop attnprop_kernel_abi attnprop_kernel attnprop_kernel_shared attnprop_harness
        EXPORT attnpropTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${PROJECT_SOURCE_DIR}/kernels/attnprop_kernel.h ${PROJECT_SOURCE_DIR}/kernels/attnprop_kernel_ext.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/attnprop)
# The claim API (cmake/AttnpropHarness.cmake): <attnprop/claim.h>, and the
# headers it includes under their paths in this tree.
install(FILES ${PROJECT_SOURCE_DIR}/properties/framework/claim.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/attnprop)
foreach(_h IN LISTS ATTNPROP_CLAIM_HEADERS)
  get_filename_component(_dir ${_h} DIRECTORY)
  install(FILES ${PROJECT_SOURCE_DIR}/${_h} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/attnprop/${_dir})
endforeach()
install(EXPORT attnpropTargets NAMESPACE attnprop:: DESTINATION ${ATTNPROP_INSTALL_CMAKEDIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/attnpropConfig.cmake.in
  ${PROJECT_BINARY_DIR}/attnpropConfig.cmake INSTALL_DESTINATION ${ATTNPROP_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/attnpropConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/attnpropConfig.cmake ${PROJECT_BINARY_DIR}/attnpropConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/AttnpropKernelTests.cmake
              ${PROJECT_SOURCE_DIR}/cmake/AttnpropKernelTestsDiscover.cmake ${PROJECT_SOURCE_DIR}/cmake/AttnpropClaims.cmake
              ${PROJECT_SOURCE_DIR}/cmake/AttnpropClaimTests.cmake ${PROJECT_SOURCE_DIR}/cmake/attnprop_claims_main.cc.in
        DESTINATION ${ATTNPROP_INSTALL_CMAKEDIR})

# pkg-config: the prefix is found from the .pc file's own place (pcfiledir),
# so an unpacked or relocated install works too.
if(IS_ABSOLUTE "${ATTNPROP_INSTALL_PKGCONFIGDIR}")
  set(ATTNPROP_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH _attnprop_pc_up /prefix/${ATTNPROP_INSTALL_PKGCONFIGDIR} /prefix)
  string(REGEX REPLACE "/$" "" _attnprop_pc_up "${_attnprop_pc_up}")
  set(ATTNPROP_PC_PREFIX "\${pcfiledir}/${_attnprop_pc_up}")
endif()
foreach(_pc attnprop-kernel-abi attnprop-kernel)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/${_pc}.pc.in ${PROJECT_BINARY_DIR}/${_pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/${_pc}.pc DESTINATION ${ATTNPROP_INSTALL_PKGCONFIGDIR})
endforeach()

install(DIRECTORY ${PROJECT_SOURCE_DIR}/properties/counterexamples/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/attnprop/counterexamples)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The pages README.md links to, beside it as in the source tree.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs FILES_MATCHING PATTERN "*.md")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/user_kernel ${PROJECT_SOURCE_DIR}/examples/user_claim
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples PATTERN "build*" EXCLUDE)
install(FILES ${PROJECT_SOURCE_DIR}/docs/adding-a-claim.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The Debian package: the same files under /usr. Its run-time dependencies
# are computed by dpkg-shlibdeps (package dpkg-dev, installed by
# ci/install-deps.sh); without it, Debian 12's package names are written in.
if(PROJECT_IS_TOP_LEVEL)
  set(CPACK_GENERATOR DEB)
  set(CPACK_PACKAGE_NAME attnprop)
  set(CPACK_PACKAGE_VENDOR attnprop)
  set(CPACK_PACKAGE_CONTACT "attnprop developers")
  set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
  set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "property-based tests of attention: the attnprop command and kernel ABI")
  set(CPACK_PACKAGE_DESCRIPTION
      "attnprop checks claims about attention and attention kernels with property-based tests, against a multiprecision reference. This package has the attnprop command (attnprop check-kernel libmine.so), the kernel ABI header, attnprop's SIMD kernel library, the claim harness and its header <attnprop/claim.h> (a user's own claims, attnprop_add_claims), and the CMake package (find_package(attnprop), attnprop_add_kernel_tests, attnprop_add_claims) and pkg-config files.")
  set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
  set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # attnprop_<version>_<arch>.deb
  set(CPACK_DEBIAN_PACKAGE_SECTION devel)
  # attnprop_add_claims compiles the user's claims against these headers.
  set(CPACK_DEBIAN_PACKAGE_SUGGESTS "cmake (>= 3.25), pkg-config, librapidcheck-dev, libeigen3-dev, libboost-dev, libmpfr-dev, libgmp-dev, libmpfi-dev, libseccomp-dev")
  set(CPACK_STRIP_FILES ON)
  find_program(ATTNPROP_DPKG_SHLIBDEPS dpkg-shlibdeps)
  if(ATTNPROP_DPKG_SHLIBDEPS)
    set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
  else()
    set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6 (>= 2.34), libgcc-s1 (>= 3.3.1), libstdc++6 (>= 12), libgmp10 (>= 2:6.2.1), libmpfr6 (>= 4.1.0), libseccomp2 (>= 2.5)")
  endif()
  include(CPack)
endif()
