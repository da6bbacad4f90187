#pragma once
// One interface for every planner, chosen by name; the reference planner is
// "tlsf". The names and what each planner is are in the registry (registry.h).

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/features.h"
#include "model/plan.h"
#include "model/result.h"
#include "model/schedule.h"

namespace planck {

class Planner {
 public:
  virtual ~Planner() = default;
  virtual std::string_view name() const = 0;
  // A plan for every planned buffer of the schedule; empty when nothing is planned.
  virtual Result<Plan> plan(const Schedule& s) const = 0;
  // The same plan, or an error of kind "planner-timeout" when `until` passes
  // before it is done, for callers with a time limit of their own (the
  // optimum oracle's heuristic start). Planners that cannot stop midway
  // finish, as this default does; greedy and bysize stop between buffers.
  virtual Result<Plan> plan_until(const Schedule& s, std::chrono::steady_clock::time_point until) const {
    (void)until;
    return plan(s);
  }
  // The features of the model the planner says it supports, when it says:
  // a planner library does (model v1 from ABI version 1, what
  // planck_planner_features() lists from version 2), and tlsf and tinygrad,
  // which plan one stream. None from this project's other planners, which
  // support every feature, and from commands, which are taken at the word of
  // `--features`.
  virtual std::optional<Features> claimed_features() const { return std::nullopt; }
};

// A planner made of a name, a function that
// plans until a time (plan() plans with no time limit) and the features it
// claims, if it claims any: how this project's planners are made.
using PlanUntil = std::function<Result<Plan>(const Schedule& s, std::chrono::steady_clock::time_point until)>;
std::unique_ptr<Planner> planner_of(std::string_view name, PlanUntil plan,
                                    std::optional<Features> claimed = std::nullopt);

// The planner called name, or nullptr when there is none.
std::unique_ptr<Planner> make_planner(std::string_view name);
// Every planner's name, in the registry's order.
std::vector<std::string> planner_names();

}  // namespace planck
