#pragma once
// One interface for every planner, chosen by name; the reference planner is
// "tlsf". The names and what each planner is are in the registry (registry.h).

#include <memory>
#include <string>
#include <string_view>
#include <vector>

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
};

// The planner called name, or nullptr when there is none.
std::unique_ptr<Planner> make_planner(std::string_view name);
// Every planner's name, in the registry's order.
std::vector<std::string> planner_names();

}  // namespace planck
