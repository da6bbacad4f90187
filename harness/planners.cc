#include "harness/planners.h"

#include "harness/optimal_planner.h"

namespace planck::harness {

std::span<const PlannerEntry> offered_planners() {
  static const std::vector<PlannerEntry> kOffered = [] {
    const std::span<const PlannerEntry> table = planner_registry();
    std::vector<PlannerEntry> all(table.begin(), table.end());
    all.push_back(optimal_planner_entry());
    return all;
  }();
  return kOffered;
}

std::vector<std::string> offered_planner_names() {
  std::vector<std::string> out;
  for (const PlannerEntry& e : offered_planners()) out.emplace_back(e.name);
  return out;
}

std::unique_ptr<Planner> make_offered_planner(std::string_view name) {
  for (const PlannerEntry& e : offered_planners()) {
    if (e.name == name) return e.make();
  }
  return nullptr;
}

}  // namespace planck::harness
