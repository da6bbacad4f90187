#include "planner/plan_schedule.h"

#include "planner/rules.h"

namespace planck {

Result<PlanOutcome> plan_schedule(const PlanRequest& request) {
  PlanOutcome out;
  // Rule 9: under NO_MEMORY_PLANNER the planner is not run at all.
  if (!request.options.no_memory_planner) {
    PLANCK_ASSIGN(out.plan, request.planner.plan(request.schedule));
  }
  out.debug_line = debug_line(request.options, request.schedule, out.plan);
  if (!request.rewrite) return out;
  if (is_no_op(request.options, out.plan)) {
    out.rewritten = std::string(request.text);
  } else {
    PLANCK_ASSIGN(out.rewritten, rewritten_text(request.schedule, out.plan));
  }
  return out;
}

}  // namespace planck
