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

// Rule 8: the text of the schedule with the plan's arenas in place of its
// planned buffers (rewrite.h). A plan that does not fit the schedule is an error.
Result<std::string> rewritten_text(const Schedule& s, const Plan& p);

// Rule 9, no-op: with NO_MEMORY_PLANNER set, or when the plan places
// nothing, the output is the input, unchanged.
bool is_no_op(const PlanOptions& options, const Plan& p);

// Rule 10, debug: at DEBUG 1 or more, "memory reduced from X MB -> Y MB,
// N -> M bufs"; empty below it, when the two byte totals are equal, or when
// nothing is planned. O(storage + placements + arenas).
std::string debug_line(const PlanOptions& options, const Schedule& s, const Plan& p);

}  // namespace planck
