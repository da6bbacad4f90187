#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>

#include "planner/registry.h"
#include "tools/commands.h"

namespace planck::cli {
namespace {

void run_planners(bool json) {
  if (json) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const PlannerEntry& e : planner_registry()) {
      out.push_back({{"name", e.name}, {"description", e.description}, {"in_best", e.in_best}});
    }
    fmt::print("{}\n", out.dump(2));
    return;
  }
  std::size_t width = 0;
  for (const PlannerEntry& e : planner_registry()) width = std::max(width, e.name.size());
  for (const PlannerEntry& e : planner_registry()) fmt::print("{:<{}}  {}\n", e.name, width, e.description);
}

}  // namespace

void add_planners_command(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand(
      "planners", "List the planners --planner takes: one name and its description a line.");
  cmd->add_flag("--json", *json,
                "print a JSON array of {name, description, in_best}; in_best: best runs it");
  cmd->callback([json] { run_planners(*json); });
}

}  // namespace planck::cli
