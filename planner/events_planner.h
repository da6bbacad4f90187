#pragma once
// docs/planners.md#the-reference-planner-tlsf's rules 4 to 7 over rule 6's events sorted in full, with
// the units of model v2 (docs/model-v2.md#devices): the reference planner's plan for a
// schedule its fast path does not take (a `device` line, or a planned input
// or state, whose lifetime starts before its first use), and with copy
// lanes, tinygrad's. Internal to planner/.

#include <vector>

#include "model/plan.h"
#include "model/result.h"
#include "model/schedule.h"
#include "planner/rules.h"

namespace planck {

// `lives` is planned_lifetimes(s). With copy_lanes, tinygrad's rule: a
// planned buffer some copy takes is in its device's copy lane, which has
// an allocator and an arena of its own and closes each buffer late.
Result<Plan> plan_by_events(const Schedule& s, const std::vector<Lifetime>& lives, bool copy_lanes);

}  // namespace planck
