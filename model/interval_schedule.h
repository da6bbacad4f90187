#pragma once
// An interval problem (model/intervals.h) as the schedule it stands for, so
// that the planners and oracles, which read schedules, read it too.
//
// The schedule has one device, `CSV`, and one int8 buffer per row, named by
// the row's id and declared at its line. Entry t is a kernel `t<t>` taking
// the buffers whose rows begin at t, in row order, then those that end
// there; so the lifetime docs/planners.md#the-reference-planner-tlsf gives a row's buffer is its interval
// exactly, entries lower..upper-1 for [lower, upper), and buffers first
// appear by lower, then in row order.

#include <cstdint>
#include <string_view>

#include "model/intervals.h"
#include "model/plan.h"
#include "model/result.h"
#include "model/schedule.h"

namespace planck {

inline constexpr std::string_view kIntervalDevice = "CSV";

// A schedule has an entry per time step, so a problem's uppers are bounded:
// beyond this many steps its entries alone would take gigabytes.
inline constexpr std::int64_t kMaxIntervalSteps = std::int64_t{1} << 22;

// Each buffer has `unit` bytes per byte of its row's size. An error names
// the row whose id cannot be a word of a plan file, whose upper passes
// kMaxIntervalSteps, or whose bytes would reach 2^62.
Result<Schedule> interval_schedule(const IntervalProblem& p, Bytes unit = 1);

// Interval problems are placed at alignment 1 (docs/formats.md#schedules-sched), while the
// checker judges places and blocks of 256 bytes (docs/formats.md#plans-plan). Taking each
// byte of the problem as a block of kPlaceAlign bytes makes the two rules
// one: a plan places the rows at alignment 1, each inside its arena and none
// sharing a byte with another alive at the same time, exactly when the plan
// with every place and arena size times kPlaceAlign passes the checker on
// interval_schedule(p, kPlaceAlign). So a plan written for the problem at
// alignment 1 and one made with the planners' 256-byte rules are both judged
// by the problem's own rule.
struct IntervalCheck {
  Schedule schedule;
  Plan plan;
};
// An error names a place or arena size that times kPlaceAlign would reach 2^62.
Result<IntervalCheck> interval_check(const IntervalProblem& p, const Plan& plan);

}  // namespace planck
