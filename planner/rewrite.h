#pragma once
// Rule 8 of docs/planners.md#the-reference-planner-tlsf: the schedule with its planned buffers replaced
// by views of their arenas.

#include "model/plan.h"
#include "model/resolve.h"
#include "model/result.h"
#include "model/schedule.h"

namespace planck {

// Each arena of the plan becomes `buffer NAME DEVICE int8 SIZE`; every
// reference to a placed buffer becomes
// bitcast(shrink(arena, place + phase, bytes), dtype) and its declaration
// goes away. Nothing else changes. An empty plan gives the schedule back.
// A plan that does not resolve (model/resolve.h), an arena named like storage
// included, is an error at its place in the plan; so is a buffer placed past
// the end of its arena.
Result<Schedule> rewrite(const Schedule& s, const Plan& p);
// The same with r = resolve(s, p), for a caller that has it already.
Result<Schedule> rewrite(const Schedule& s, const Plan& p, const Resolution& r);

}  // namespace planck
