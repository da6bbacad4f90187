#pragma once
// The `optimal` planner (docs/planners.md#the-other-planners): best's plan,
// then per device the optimum oracle's search (oracle/optimum/optimum.h)
// started from it, under a time budget per device. A device takes the
// oracle's placement only when it is smaller than best's, so the plan is
// never larger than best's, and it is at the optimum wherever the oracle
// proves one in time. It is built on both planner/ and oracle/, which know
// nothing of each other, so it is not in planner/'s table:
// harness/planners.h lists it after that table.

#include <memory>

#include "model/result.h"
#include "planner/planner.h"
#include "planner/registry.h"

namespace planck::harness {

// The seconds each device gets by default, and the environment variable that
// changes them (a number from 0 to kMaxOptimalSeconds; 0: best's plan).
inline constexpr double kDefaultOptimalSeconds = 1;
inline constexpr double kMaxOptimalSeconds = 86400;
inline constexpr const char* kOptimalSecondsVariable = "PLANCK_OPTIMAL_SECONDS";

// PLANCK_OPTIMAL_SECONDS, or the default when it is unset or empty; a value
// that is no such number is an error naming it.
Result<double> optimal_seconds_from_environment();

// The planner with a budget of `seconds_per_device`.
std::unique_ptr<Planner> make_optimal_planner(double seconds_per_device);

// Its entry in the list of offered planners (harness/planners.h): the
// planner made by it reads its budget from the environment each time it
// plans.
const PlannerEntry& optimal_planner_entry();

}  // namespace planck::harness
