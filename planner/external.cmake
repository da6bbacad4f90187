# Planners written elsewhere (SPEC section 9), behind the Planner interface:
# a command, a persistent command, a shared library. The adapters need the
# schedule model and the C header of the planner ABI only.
set(PLANCK_EXTERNAL_DIR ${CMAKE_CURRENT_LIST_DIR})

add_library(planck_external
  ${PLANCK_EXTERNAL_DIR}/external_process.cc
  ${PLANCK_EXTERNAL_DIR}/external_command.cc
  ${PLANCK_EXTERNAL_DIR}/external_library.cc)
target_link_libraries(planck_external
  PUBLIC planck_model
  PRIVATE planck_planner_abi ${CMAKE_DL_LIBS})

# A planner library for the tests: as is, of another ABI version, and
# without planck_free.
add_library(external_test_planner MODULE ${PLANCK_EXTERNAL_DIR}/external_test_lib.c)
add_library(external_test_planner_v2 MODULE ${PLANCK_EXTERNAL_DIR}/external_test_lib.c)
target_compile_definitions(external_test_planner_v2 PRIVATE PLANCK_TEST_ABI_VERSION=2)
add_library(external_test_planner_no_free MODULE ${PLANCK_EXTERNAL_DIR}/external_test_lib.c)
target_compile_definitions(external_test_planner_no_free PRIVATE PLANCK_TEST_NO_FREE)
foreach(lib external_test_planner external_test_planner_v2 external_test_planner_no_free)
  target_link_libraries(${lib} PRIVATE planck_planner_abi)
endforeach()

planck_test(external_test
  SOURCES ${PLANCK_EXTERNAL_DIR}/external_test.cc ${PROJECT_SOURCE_DIR}/tests/run_command.cc
  LIBS planck_external)
target_compile_definitions(external_test PRIVATE
  PLANCK_TEST_PLANNER_LIB="$<TARGET_FILE:external_test_planner>"
  PLANCK_TEST_PLANNER_LIB_V2="$<TARGET_FILE:external_test_planner_v2>"
  PLANCK_TEST_PLANNER_LIB_NO_FREE="$<TARGET_FILE:external_test_planner_no_free>")
add_dependencies(external_test
  external_test_planner external_test_planner_v2 external_test_planner_no_free)
