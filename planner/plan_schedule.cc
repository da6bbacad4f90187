#include "planner/plan_schedule.h"

#include <fmt/format.h>

#include <optional>

#include "model/live_bytes.h"
#include "model/resolve.h"
#include "model/schedule_printer.h"
#include "planner/rewrite.h"

namespace planck {

// Rule 8: rewrite, the schedule.
Result<std::string> rewritten_text(const Schedule& s, const Plan& p) {
  PLANCK_ASSIGN(const Schedule out, rewrite(s, p));
  return print_schedule(out);
}

// Rule 9: no-op.
bool is_no_op(const PlanOptions& options, const Plan& p) {
  return options.no_memory_planner || p.placements.empty();
}

// Rule 10: debug line.
std::string debug_line(const PlanOptions& options, const Schedule& s, const Plan& p) {
  if (options.debug < 1 || p.placements.empty()) return "";
  // The sum of rounded sizes, as the planners take them, of the storage the
  // placements name (the first of each name, looked up in one index); a sum
  // that overflows would have failed planning first, so saturating loses
  // nothing.
  const StorageNames names(s);
  Bytes before = 0;
  for (const Placement& pl : p.placements) {
    const std::optional<StorageId> id = names.find(pl.buffer);
    if (!id) continue;
    auto r = rounded_size(s.storage[*id]);
    before = r ? checked_add(before, *r).value_or(UINT64_MAX) : UINT64_MAX;
  }
  const Bytes after = arena_total(p).value_or(UINT64_MAX);
  if (before == after) return "";
  return fmt::format("memory reduced from {:.2f} MB -> {:.2f} MB, {} -> {} bufs",
                     static_cast<double>(before) / 1e6, static_cast<double>(after) / 1e6,
                     p.placements.size(), p.arenas.size());
}


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
