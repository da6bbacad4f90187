/* A planner library for the tests of the shared-library adapter. It answers
 * by the name of the schedule's first kernel:
 *   kernel fail ...     an error with a message
 *   kernel quiet ...    an error without a message
 *   kernel garbage ...  text that is not a plan file
 *   kernel full ...     `over-capacity: no room`, its refusal to pass a capacity
 *   kernel echo ...     an error whose message is the schedule it was given
 *   anything else       the plan of a single buffer `a` of 1024 bytes on CPU
 * Built several ways: as is (the ABI's version, supporting "v1,align,capacity");
 * with PLANCK_TEST_ABI_VERSION set to another version (from version 2 on
 * with planck_planner_features); with PLANCK_TEST_NO_FREE, without
 * planck_free; with PLANCK_TEST_NO_FEATURES, without planck_planner_features;
 * with PLANCK_TEST_FEATURES set, saying it supports that list. */
#include <stdlib.h>
#include <string.h>

#include "planck/planner.h"

#ifndef PLANCK_TEST_ABI_VERSION
#define PLANCK_TEST_ABI_VERSION PLANCK_PLANNER_ABI_VERSION
#endif

int planck_planner_abi_version(void) { return PLANCK_TEST_ABI_VERSION; }

#ifndef PLANCK_TEST_FEATURES
#define PLANCK_TEST_FEATURES "v1,align,capacity"
#endif

#if PLANCK_TEST_ABI_VERSION >= 2 && !defined(PLANCK_TEST_NO_FEATURES)
const char* planck_planner_features(void) { return PLANCK_TEST_FEATURES; }
#endif

static char* copy(const char* text, size_t len) {
  char* p = malloc(len + 1);
  if (p != NULL) {
    memcpy(p, text, len);
    p[len] = '\0';
  }
  return p;
}

int planck_plan(const char* sched, size_t sched_len, char** out, size_t* out_len) {
  static const char plan[] = "plan v1\narena arena0 CPU 1024\nplace a arena0 0\n";
  if (strlen(sched) != sched_len) {
    *out = copy("the schedule is not NUL-terminated", 34);
    return 1;
  }
  if (strstr(sched, "\nkernel fail") != NULL) {
    *out = copy("asked to fail", 13);
    return 1;
  }
  if (strstr(sched, "\nkernel quiet") != NULL) return 2;
  if (strstr(sched, "\nkernel echo") != NULL) {
    *out = copy(sched, sched_len);
    return 1;
  }
  if (strstr(sched, "\nkernel full") != NULL) {
    *out = copy("over-capacity: no room\n", 23);
    *out_len = 23;
    return 0;
  }
  if (strstr(sched, "\nkernel garbage") != NULL) {
    *out = copy("this is no plan\n", 16);
    *out_len = 16;
    return 0;
  }
  *out = copy(plan, sizeof plan - 1);
  *out_len = sizeof plan - 1;
  return 0;
}

#ifndef PLANCK_TEST_NO_FREE
void planck_free(char* p) { free(p); }
#endif
