#pragma once
// One interface for every planner; the reference planner is "tlsf".

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
std::vector<std::string> planner_names();

// Per device, in order of first appearance: its planned buffers and the
// peak over entries of the rounded bytes alive at once, a lower bound on
// any plan's arena for it.
struct DeviceLoad {
  std::string device;
  std::size_t buffers = 0;
  Bytes peak = 0;
};
Result<std::vector<DeviceLoad>> device_loads(const Schedule& s);

// Rule 8: names for `count` new arenas, "arenaK" with K the smallest numbers
// that no storage of the schedule is named by, in order.
std::vector<std::string> arena_names(const Schedule& s, std::size_t count);

// Rule 10: "memory reduced from X MB -> Y MB, N -> M bufs", or empty when the
// two byte totals are equal or nothing is planned.
std::string debug_line(const Schedule& s, const Plan& p);

}  // namespace planck
