#pragma once
// One verdict on one planner for one schedule: the planner is run, and its
// plan, if it gives one, is judged by the static checker and then the shadow
// executor. Shared by `planck verify`, `planck minimize`, `planck gate` and
// the fuzz targets, so every one of them calls the same thing a failure
// (docs/verification.md#planck-verify).

#include <optional>
#include <string>
#include <vector>

#include "model/plan.h"
#include "model/resolve.h"
#include "model/result.h"
#include "model/schedule.h"
#include "oracle/check/lifetimes.h"
#include "planner/planner.h"

namespace planck::harness {

struct Verdict {
  // Empty when the plan is valid. Otherwise the failure's kind, which
  // shrinking keeps: the planner's own ("planner-exit", "planner-signal",
  // "planner-timeout", "planner-output", "planner-error"), the first rule the
  // checker found broken ("invalid-overlap", "invalid-not-placed", ...),
  // "clobber" from the shadow executor on a plan the checker let through, or
  // "capacity-refused": the planner refused to pass a device's capacity
  // (kOverCapacity) though the buffers of every device fit it side by side.
  // A refusal where some device's buffers side by side do not fit its
  // capacity is no failure: no plan, and a note.
  std::string kind;
  std::string explanation;   // what went wrong, for a person; several lines
  std::optional<Plan> plan;  // the planner's plan, when it gave one
  std::string note;          // a check that could not run, or a refusal, on a plan not failed

  bool failed() const { return !kind.empty(); }
};

Verdict judge(const Planner& planner, const Schedule& s);

// The same verdict on what a planner already gave for s: judge(planner, s)
// is judge_plan(s, planner.plan(s)). For a caller that plans once and judges
// the result, or judges one plan that several planners gave only once.
Verdict judge_plan(const Schedule& s, Result<Plan> planned);

// The same verdicts for many plans of one schedule, with what they need of
// the schedule (its storage names, the buffers the checker plans) worked out
// once. It refers to the schedule, which must outlive it unchanged.
class ScheduleJudge {
 public:
  explicit ScheduleJudge(const Schedule& s);

  // judge_plan(s, planned).
  Verdict judge(Result<Plan> planned) const;
  // The names plans for the schedule resolve against (model/resolve.h).
  const StorageNames& names() const { return names_; }

 private:
  const Schedule& s_;
  StorageNames names_;
  std::vector<Lifetime> planned_;  // oracle::planned_buffers(s)
};

}  // namespace planck::harness
