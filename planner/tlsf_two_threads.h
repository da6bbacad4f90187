#pragma once
// The reference planner (docs/planners.md#the-reference-planner-tlsf) on two threads, for a large schedule: while this
// thread walks the entries (rule 3) and runs the allocators (rule 6), a
// second one takes rules 4 and 5 for the lifetimes made so far, then rule
// 5's capacity, then the plan (rule 7) of the buffers placed so far. The
// plan is the one the planner makes on one thread (tlsf_planner.cc), byte
// for byte.

#include <optional>

#include "model/plan.h"
#include "model/result.h"
#include "model/schedule.h"

namespace planck {

// Whether the reference planner plans `s` on two threads: from 32,768
// storage records and a quarter as many entries, where the second thread
// gains more than it costs to start, and below 2^31 storage records, which
// its 32-bit counts hold.
bool takes_two_threads(const Schedule& s);

// The reference planner's plan of `s`, or its error, made on two threads;
// nullopt when no second thread is to be had.
std::optional<Result<Plan>> plan_on_two_threads(const Schedule& s);

}  // namespace planck
