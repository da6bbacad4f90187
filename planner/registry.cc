#include "planner/registry.h"

#include <array>

#include "planner/factories.h"

namespace planck {
namespace {

constexpr std::array<PlannerEntry, 6> kPlanners = {{
    {"tlsf", "the reference planner: TLSF over events in order of time (docs/planners.md)", true,
     make_tlsf_planner},
    {"tinygrad", "tinygrad's current rule: tlsf with a copy lane and a compute lane per device, copies held late",
     false, make_tinygrad_planner},
    {"greedy", "ExecuTorch's shared-object greedy, largest first, objects end to end", true,
     make_greedy_planner},
    {"bysize", "greedy by size for offsets: largest first, each in the lowest gap that fits", true,
     make_bysize_planner},
    {"naive", "every buffer its own bytes, end to end: the upper bound", true, make_naive_planner},
    {"best", "runs every other planner and keeps the plan with the fewest arena bytes", false,
     make_best_planner},
}};

}  // namespace

std::span<const PlannerEntry> planner_registry() { return kPlanners; }

std::vector<std::string> best_candidates() {
  std::vector<std::string> out;
  for (const PlannerEntry& e : kPlanners) {
    if (e.in_best) out.emplace_back(e.name);
  }
  return out;
}

std::unique_ptr<Planner> make_planner(std::string_view name) {
  for (const PlannerEntry& e : kPlanners) {
    if (e.name == name) return e.make();
  }
  return nullptr;
}

std::vector<std::string> planner_names() {
  std::vector<std::string> out;
  for (const PlannerEntry& e : kPlanners) out.emplace_back(e.name);
  return out;
}

}  // namespace planck
