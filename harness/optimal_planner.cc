#include "harness/optimal_planner.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "oracle/optimum/optimum.h"
#include "oracle/optimum/optimum_input.h"
#include "planner/registry.h"

namespace planck::harness {
namespace {

// Each device's places in best's plan, in the oracle's units, by the
// oracle's item order; an item of no bytes takes no room, so it stands at 0.
Result<oracle::Offsets> device_offsets(const Plan& plan,
                                       const std::unordered_map<std::string, std::size_t>& placement_of,
                                       const oracle::DevicePacking& d) {
  oracle::Offsets offsets;
  for (const oracle::PackingItem& item : d.problem.items) {
    auto it = placement_of.find(item.name);
    if (it == placement_of.end()) {
      return Error{"", fmt::format("internal error: best's plan does not place buffer {}", item.name)};
    }
    const Bytes place = plan.placements[it->second].place;
    if (place % d.unit != 0) {
      return Error{"", fmt::format("internal error: best's plan places buffer {} at {}", item.name, place)};
    }
    offsets.push_back(item.size == 0 ? 0 : place / d.unit);
  }
  return offsets;
}

class OptimalPlanner final : public Planner {
 public:
  // Without a budget, it is read from the environment at each plan.
  explicit OptimalPlanner(std::optional<double> seconds) : seconds_(seconds) {}

  std::string_view name() const override { return "optimal"; }

  Result<Plan> plan(const Schedule& s) const override {
    double seconds = 0;
    if (seconds_) {
      seconds = *seconds_;
    } else {
      PLANCK_ASSIGN(seconds, optimal_seconds_from_environment());
    }
    PLANCK_ASSIGN(Plan plan, make_planner("best")->plan(s));
    PLANCK_ASSIGN(const std::vector<oracle::DevicePacking> devices, oracle::schedule_packings(s));
    std::unordered_map<std::string, std::size_t> placement_of;
    for (std::size_t k = 0; k < plan.placements.size(); ++k) placement_of[plan.placements[k].buffer] = k;
    for (const oracle::DevicePacking& d : devices) {
      if (!d.unpaired) PLANCK_TRY(improve(plan, placement_of, d, seconds));
    }
    return plan;
  }

 private:
  // Replaces the device's places and arena with the oracle's when its
  // placement is smaller.
  static Status improve(Plan& plan, const std::unordered_map<std::string, std::size_t>& placement_of,
                        const oracle::DevicePacking& d, double seconds) {
    // The oracle's figure leaves in-place sharing out
    // (docs/model-v2.md#what-the-oracles-say): a plan that shares bytes
    // through an in-place kernel is no placement of its problem, and may be
    // below its optimum.
    if (d.has_inplace) return Ok{};
    PLANCK_ASSIGN(oracle::Offsets start, device_offsets(plan, placement_of, d));
    const std::optional<Bytes> start_arena = oracle::arena_size(d.problem, start);
    oracle::OptimumOptions options;
    options.timeout_seconds = seconds;
    options.incumbent = std::move(start);
    PLANCK_ASSIGN(const oracle::OptimumResult r, oracle::solve_optimum(d.problem, options));
    if (!start_arena || r.upper_bound >= *start_arena) return Ok{};
    const std::optional<Bytes> arena_bytes = checked_mul(r.upper_bound, d.unit);
    if (!arena_bytes) return Error{"", fmt::format("device {}: the arena overflows", d.device)};
    std::string arena_name;
    for (Arena& a : plan.arenas) {
      if (a.device != d.device) continue;
      a.size = *arena_bytes;
      arena_name = a.name;
    }
    for (std::size_t k = 0; k < d.problem.items.size(); ++k) {
      Placement& p = plan.placements[placement_of.at(d.problem.items[k].name)];
      p.arena = arena_name;
      p.place = r.offsets[k] * d.unit;  // at most the arena, which did not overflow
    }
    return Ok{};
  }

  std::optional<double> seconds_;
};

std::unique_ptr<Planner> make_offered_optimal_planner() { return std::make_unique<OptimalPlanner>(std::nullopt); }

}  // namespace

Result<double> optimal_seconds_from_environment() {
  const char* v = std::getenv(kOptimalSecondsVariable);
  if (v == nullptr || *v == '\0') return kDefaultOptimalSeconds;
  errno = 0;
  char* end = nullptr;
  const double seconds = std::strtod(v, &end);
  if (*end != '\0' || errno == ERANGE || !std::isfinite(seconds) || seconds < 0 || seconds > kMaxOptimalSeconds) {
    return Error{"environment", fmt::format("{}={} is not a number of seconds from 0 to {}", kOptimalSecondsVariable,
                                            v, kMaxOptimalSeconds)};
  }
  return seconds;
}

std::unique_ptr<Planner> make_optimal_planner(double seconds_per_device) {
  return std::make_unique<OptimalPlanner>(seconds_per_device);
}

const PlannerEntry& optimal_planner_entry() {
  static constexpr PlannerEntry kEntry{
      "optimal",
      "the oracle's search from best's plan, per device for PLANCK_OPTIMAL_SECONDS (default 1): never larger "
      "than best, the optimum where proven in time",
      false, make_offered_optimal_planner};
  return kEntry;
}

}  // namespace planck::harness
