/*
 * planck/planner.h: the C ABI of a memory planner that Planck loads as a
 * shared library (`planck plan --planner-lib PATH.so`, docs/c-abi.md).
 *
 * A planner library exports the functions below with C linkage. Planck
 * gives it one schedule at a time in .sched text (docs/formats.md) and
 * expects .plan text back; no other type crosses the
 * boundary, so the library may be written in C, C++, Rust or anything else
 * that can export C functions, and built with any compiler.
 *
 * Build one with, e.g.:
 *   cc -shared -fPIC -I PLANCK/include -o my_planner.so my_planner.c
 *
 * The library runs inside the Planck process. That is what makes it fast
 * (a fuzzer can call it millions of times), and it is also why a crash, an
 * abort, an exit() or a C++ exception escaping planck_plan ends Planck
 * itself: Planck cannot survive a fault in code it runs in-process. A
 * planner that may crash is better judged as a command (--planner-cmd),
 * whose failures Planck reports and survives.
 *
 * Versioning: a change to the signatures or the contract below raises
 * PLANCK_PLANNER_ABI_VERSION; Planck loads a library of any version from 1 to
 * its own, and refuses others.
 *   version 1: planck_planner_abi_version, planck_plan, planck_free; the
 *              library is given schedules of model v1 only.
 *   version 2: adds planck_planner_features, which says which features of
 *              the model (v2 included) the library supports; Planck gives it
 *              schedules of those features only. A planner that cannot fit
 *              a device's capacity answers `over-capacity: MESSAGE` instead of
 *              a plan (docs/model-v2.md#planners-written-elsewhere).
 * A library built against version 1 keeps working unchanged.
 */
#ifndef PLANCK_PLANNER_H
#define PLANCK_PLANNER_H

#include <stddef.h>

#define PLANCK_PLANNER_ABI_VERSION 2

#if defined(_WIN32)
#define PLANCK_PLANNER_EXPORT __declspec(dllexport)
#else
#define PLANCK_PLANNER_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The ABI version the library was built against: return
 * PLANCK_PLANNER_ABI_VERSION. Planck calls it once, when it loads the library.
 */
PLANCK_PLANNER_EXPORT int planck_planner_abi_version(void);

/*
 * Plans one schedule.
 *
 *   sched, sched_len  the schedule in canonical .sched text, sched_len bytes;
 *                     sched[sched_len] is a NUL byte, so it is also a C
 *                     string. It stays valid only during the call.
 *   out, out_len      where the library puts its answer: a buffer it
 *                     allocated, and its length in bytes (a NUL at the end
 *                     is allowed and not counted). They hold NULL and 0 on
 *                     entry.
 *
 * Returns 0 with *out holding the plan file text, *out_len bytes; or
 * non-zero with *out holding a NUL-terminated message that says why the
 * library could not plan the schedule, or NULL for no message (Planck
 * reports it as a failure of kind "planner-error"). Text returned with 0
 * that is not a plan file is a failure of kind "planner-output".
 *
 * Planck passes *out back to planck_free when it is done with it, unless
 * *out is NULL. It never calls planck_plan from two threads at once, so the
 * library needs no locking of its own; it may keep state between calls.
 */
PLANCK_PLANNER_EXPORT int planck_plan(const char* sched, size_t sched_len, char** out,
                                      size_t* out_len);

/* Frees a buffer that planck_plan returned in *out. */
PLANCK_PLANNER_EXPORT void planck_free(char* p);

/*
 * Version 2: the features of the model the library supports, as a NUL-
 * terminated list that stays valid while the library is loaded, in the
 * syntax of `planck verify --features`: names separated by commas, among
 * them the groups "v1" (every feature of model v1) and "v2" (every feature),
 * and single features such as "align", "capacity", "inputs", "outputs",
 * "state" and "inplace" (`planck verify --help` lists them all). For
 * example "v2", or "v1,align,capacity". Planck calls it once, when it loads
 * the library, and judges the library on schedules of those features only.
 */
PLANCK_PLANNER_EXPORT const char* planck_planner_features(void);

#ifdef __cplusplus
}
#endif

#endif /* PLANCK_PLANNER_H */
