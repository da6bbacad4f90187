#pragma once
// The library's entry point: a schedule planned by any planner, with the
// output rules of docs/planners.md#the-reference-planner-tlsf applied (8 rewrite, 9 no-op, 10 debug), so
// that every caller gets the same output as `planck plan`.

#include <string>
#include <string_view>

#include "model/plan.h"
#include "model/result.h"
#include "model/schedule.h"
#include "planner/options.h"
#include "planner/planner.h"

namespace planck {

struct PlanRequest {
  const Schedule& schedule;
  // The .sched text the schedule was parsed from: with NO_MEMORY_PLANNER, or
  // when nothing is planned, the rewrite is this text, byte for byte (rule 9).
  std::string_view text;
  const Planner& planner;
  PlanOptions options;
  bool rewrite = false;  // make the rewritten schedule's text too
};

struct PlanOutcome {
  Plan plan;               // empty when nothing is planned
  std::string debug_line;  // rule 10's line, or empty
  std::string rewritten;   // with rewrite: the output schedule's text
};

// The planner's error, or the rewrite's when the plan does not fit the schedule.
Result<PlanOutcome> plan_schedule(const PlanRequest& request);

}  // namespace planck
