// planck planners: every planner --planner takes (docs/planners.md#planners).

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "harness/planners.h"
#include "tools/commands.h"
#include "tools/options.h"
#include "tools/output.h"

namespace planck::cli {
namespace {

// planners takes no arguments but the output options.
struct PlannersArgs {
  OutputOptions out;
};

void run_planners(const PlannersArgs& args) {
  Report report("planners", args.out.json);
  std::size_t width = 0;
  for (const PlannerEntry& e : harness::offered_planners()) width = std::max(width, e.name.size());
  nlohmann::ordered_json planners = nlohmann::ordered_json::array();
  for (const PlannerEntry& e : harness::offered_planners()) {
    report.text += fmt::format("{:<{}}  {}\n", e.name, width, e.description);
    planners.push_back({{"name", e.name}, {"description", e.description}, {"in_best", e.in_best}});
  }
  report.object["planners"] = std::move(planners);
  report.write();
}

}  // namespace

void add_planners_command(CLI::App& app) {
  CLI::App* cmd = add_command<PlannersArgs>(app, "planners", run_planners, [](CLI::App&, PlannersArgs&) {});
  // `--json` without a file is `--json -`.
  cmd->get_option("--json")->expected(0, 1)->default_str("-");
}

}  // namespace planck::cli
