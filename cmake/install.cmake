# What `cmake --install` puts under its prefix, for a planner written
# elsewhere (docs/c-abi.md):
#
#   bin/planck                          the command
#   include/planck/planner.h            the C ABI of a planner library
#   share/planck/corpus/                the schedules planck verify starts from
#   share/cmake/planck/                 find_package(planck): planck::planner_abi,
#                                       planck::planck, planck_add_planner()
#   share/pkgconfig/planck.pc           pkg-config --cflags planck
#
# A planner library links nothing of Planck's: the ABI is the header alone
# (text in, text out), so the package exports it as an INTERFACE target. The
# package files describe no compiled library, so they sit under share/ and
# fit every architecture.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(PLANCK_INSTALL_CMAKEDIR ${CMAKE_INSTALL_DATADIR}/cmake/planck)
set(PLANCK_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/planck)
file(STRINGS ${PROJECT_SOURCE_DIR}/include/planck/planner.h abi_line
  REGEX "^#define PLANCK_PLANNER_ABI_VERSION [0-9]+$")
string(REGEX REPLACE ".* " "" PLANCK_PLANNER_ABI_VERSION "${abi_line}")

# An installed planck verify starts from the installed corpus, found from
# where the command is (a prefix given only at install time moves both).
file(RELATIVE_PATH bin_to_data /prefix/${CMAKE_INSTALL_BINDIR} /prefix/${PLANCK_INSTALL_DATADIR})
target_compile_definitions(planck PRIVATE PLANCK_INSTALLED_DATA="${bin_to_data}")

install(TARGETS planck planck_planner_abi EXPORT planckTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/planck/planner.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/planck)
foreach(dir schedules regressions)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/corpus/${dir}/
    DESTINATION ${PLANCK_INSTALL_DATADIR}/corpus/${dir}
    FILES_MATCHING PATTERN "*.sched")
endforeach()

install(EXPORT planckTargets NAMESPACE planck:: DESTINATION ${PLANCK_INSTALL_CMAKEDIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/planckConfig.cmake.in
  ${PROJECT_BINARY_DIR}/planckConfig.cmake
  INSTALL_DESTINATION ${PLANCK_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_BINDIR)
# find_package(planck 0.1) takes any 0.1.x.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/planckConfigVersion.cmake
  COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES ${PROJECT_BINARY_DIR}/planckConfig.cmake ${PROJECT_BINARY_DIR}/planckConfigVersion.cmake
  DESTINATION ${PLANCK_INSTALL_CMAKEDIR})

file(RELATIVE_PATH PLANCK_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_DATADIR}/pkgconfig /prefix)
configure_file(${CMAKE_CURRENT_LIST_DIR}/planck.pc.in ${PROJECT_BINARY_DIR}/planck.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/planck.pc DESTINATION ${CMAKE_INSTALL_DATADIR}/pkgconfig)

# The installed tree, tried as a planner's author uses it: examples/c/first_fit.c
# built against it by find_package and by pkg-config, then judged by the
# installed planck verify.
foreach(how find_package pkg_config)
  add_test(NAME install_${how}
    COMMAND ${PROJECT_SOURCE_DIR}/tests/install_test.sh ${how} ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}
            ${CMAKE_C_COMPILER} ${CMAKE_GENERATOR} ${CMAKE_INSTALL_BINDIR} ${CMAKE_INSTALL_DATADIR})
  set_tests_properties(install_${how} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()
