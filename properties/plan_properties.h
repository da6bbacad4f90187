#pragma once
// Statements about a planner's plan of a schedule. Each runs inside a
// RapidCheck case and fails it, with a message that names the buffers,
// entries and bytes involved, when the statement does not hold. They take the
// planner as a parameter so that the same statements run on this project's
// planners (which must pass) and on the broken planners (which must not).
//
// Lifetimes, where a statement needs them, come from the plain model of
// properties/tlsf_plain.h, never from planner/.

#include <rapidcheck.h>

#include "planner/planner.h"
#include "model/schedule.h"
#include "properties/property_runner.h"
#include "properties/show.h"

namespace planck::props {

using PlanStatement = void (*)(const Planner& planner, const Schedule& s);

// The static checker (oracle/check/checker.h) finds nothing wrong with the plan.
void plan_passes_checker(const Planner& planner, const Schedule& s);

// The shadow executor (oracle/check/shadow.h), running every loop body twice,
// finds no buffer whose bytes another took while it was still to be used.
void plan_passes_shadow_executor(const Planner& planner, const Schedule& s);

// Every planned buffer is placed in the one arena of its device, inside it,
// and no two buffers of a device alive at a common entry share a byte of
// [place + phase, place + phase + bytes).
void live_buffers_share_no_bytes(const Planner& planner, const Schedule& s);

// Every place is a multiple of 256, and in the rewritten schedule every
// reference to a planned buffer views its arena from place + phase.
void places_aligned_and_buffers_start_at_place_plus_phase(const Planner& planner, const Schedule& s);

// Every planned buffer a loop takes (through its calls, nested loops and its
// flag) shares no byte with any buffer alive at the loop's entry: it lives
// through the whole loop, not from one call to another.
void loop_buffers_live_through_the_loop(const Planner& planner, const Schedule& s);

// The rewrite keeps every declaration but the planned buffers' (held, disk,
// alloc, param and unused storage untouched, in order), adds one arena per
// device, and changes no entry but the references to planned buffers; the
// result is a valid schedule.
void rewrite_changes_only_planned_buffers(const Planner& planner, const Schedule& s);

// Planning twice gives the same plan, and so does planning the schedule read
// back from its text; the plan reads back from its own text unchanged.
void planning_is_deterministic_and_survives_text(const Planner& planner, const Schedule& s);

// Per device: the peak of live rounded bytes <= arena <= the sum over its
// buffers of max(256, rounded size).
void arena_between_peak_and_total(const Planner& planner, const Schedule& s);

// Per device, the least arena Z3 proves (by the optimum oracle, in 256-byte
// units) is at most the planner's arena. For small schedules.
void optimum_at_most_arena(const Planner& planner, const Schedule& s);

// The plan is byte for byte the plain model's (properties/tlsf_plain.h).
// For the reference planner.
void agrees_with_plain_model(const Planner& planner, const Schedule& s);

// The plan is byte for byte the plain O(n^2) twin's (planner/plain_planners.h),
// or both fail with the same message. For greedy and bysize.
void agrees_with_plain_twin(const Planner& planner, const Schedule& s);

// Metamorphic: renaming every storage gives the same plan, modulo the names.
void renaming_storage_keeps_the_plan(const Planner& planner, const Schedule& s);
// Metamorphic: the declarations in another order give the same plan.
void reordering_declarations_keeps_the_plan(const Planner& planner, const Schedule& s);
// Metamorphic: added held, disk, alloc or param storage (taken by some calls)
// and unused storage give the same plan.
void adding_unplanned_storage_keeps_the_plan(const Planner& planner, const Schedule& s);

// The checker rejects the plan once one buffer is moved onto a buffer of its
// device that is alive with it.
void checker_rejects_a_buffer_moved_onto_a_live_neighbour(const Planner& planner, const Schedule& s);

// A schedule whose live buffers cannot fit 2^64 bytes is an error that names
// a buffer, never a plan. For overflowing_schedules().
void overflow_is_an_error(const Planner& planner, const Schedule& s);

// Model v2 (docs/model-v2.md). Every statement takes a planner's refusal to
// pass a device's capacity as passing where the device's planned buffers,
// side by side in blocks of max(256, align), do not fit it, and as failing
// where they do.

// Every place on a device, and every arena's size, is a multiple of the
// device's align.
void places_respect_the_device_align(const Planner& planner, const Schedule& s);

// A device's arenas add up to at most its capacity.
void capacity_holds(const Planner& planner, const Schedule& s);

// Two planned buffers in one arena alive together (their lifetimes stretched
// by input, output and state) share a byte only where a top-level kernel's
// `inplace=` lets them (oracle/check/inplace.h); buffers in different arenas
// of a device never conflict, and each is inside its arena.
void bytes_shared_only_in_place(const Planner& planner, const Schedule& s);

// Model v3: no two planned buffers that conflict (docs/model-v3.md: neither
// one's every use before the other's, over streams, events and the
// positions of local buffers in their loops) share a byte of one arena
// unless an in-place grant lets them, as the checker's plain twin, which
// compares every pair with happens-before as reachability, judges it.
void conflicting_buffers_share_no_bytes(const Planner& planner, const Schedule& s);

// Model v3: a plan valid with streams stays valid when every entry runs on
// one stream in file order (its events gone): file order orders every pair
// of uses that streams and events order, and more.
void a_plan_stays_valid_on_one_stream(const Planner& planner, const Schedule& s);

// Model v3: a plan valid with streams stays valid when a `wait` of a new
// event, recorded on the stream of one entry right after it, is put before
// a later entry on another stream: a wait only orders more.
void a_plan_stays_valid_with_one_more_wait(const Planner& planner, const Schedule& s);

// A planned input (state) shares no byte with a buffer of its arena alive
// before its first use, an output (state) none with one alive after its
// last use.
void planned_inputs_outputs_and_state_live_through_the_run(const Planner& planner, const Schedule& s);

// Metamorphic, for tlsf and tinygrad, on a schedule of model v1: device
// lines of align at most 256, with or without a capacity at least the
// device's arenas, leave the plan as it is (docs/model-v2.md: blocks stay of
// 256 bytes).
void device_lines_that_change_no_block_keep_the_plan(const Planner& planner, const Schedule& s);

// A property: pick a schedule from `schedules`, then check `statement`.
Property planner_property(const Planner& planner, const rc::Gen<Schedule>& schedules, PlanStatement statement);

}  // namespace planck::props
