# Planners written elsewhere (docs/verification.md#judging-your-own-planner), behind the Planner interface:
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

# A planner library for the tests: as is, of ABI version 1, of a version
# still to come, without planck_free, without planck_planner_features, and
# naming a feature there is none of.
set(PLANCK_TEST_PLANNER_LIBS "")
function(external_test_planner name)
  add_library(${name} MODULE ${PLANCK_EXTERNAL_DIR}/external_test_lib.c)
  target_link_libraries(${name} PRIVATE planck_planner_abi)
  target_compile_definitions(${name} PRIVATE ${ARGN})
  set(PLANCK_TEST_PLANNER_LIBS ${PLANCK_TEST_PLANNER_LIBS} ${name} PARENT_SCOPE)
endfunction()
external_test_planner(external_test_planner)
external_test_planner(external_test_planner_v1 PLANCK_TEST_ABI_VERSION=1)
external_test_planner(external_test_planner_v9 PLANCK_TEST_ABI_VERSION=9)
external_test_planner(external_test_planner_no_free PLANCK_TEST_NO_FREE)
external_test_planner(external_test_planner_no_features PLANCK_TEST_NO_FEATURES)
external_test_planner(external_test_planner_bad_features PLANCK_TEST_FEATURES="v1,wings")

planck_test(external_test
  SOURCES ${PLANCK_EXTERNAL_DIR}/external_test.cc ${PROJECT_SOURCE_DIR}/tests/run_command.cc
  LIBS planck_external)
target_compile_definitions(external_test PRIVATE
  PLANCK_TEST_PLANNER_LIB="$<TARGET_FILE:external_test_planner>"
  PLANCK_TEST_PLANNER_LIB_V1="$<TARGET_FILE:external_test_planner_v1>"
  PLANCK_TEST_PLANNER_LIB_V9="$<TARGET_FILE:external_test_planner_v9>"
  PLANCK_TEST_PLANNER_LIB_NO_FREE="$<TARGET_FILE:external_test_planner_no_free>"
  PLANCK_TEST_PLANNER_LIB_NO_FEATURES="$<TARGET_FILE:external_test_planner_no_features>"
  PLANCK_TEST_PLANNER_LIB_BAD_FEATURES="$<TARGET_FILE:external_test_planner_bad_features>")
add_dependencies(external_test ${PLANCK_TEST_PLANNER_LIBS})
