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

void run_planners(const OutputOptions& out) {
  Report report("planners", out.json);
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
  auto out = std::make_shared<OutputOptions>();
  CLI::App* cmd = app.add_subcommand(
      "planners",
      "List the planners --planner takes: one name and its description a line; in JSON, `planners`, each "
      "{name, description, in_best} (in_best: best runs it).");
  add_output_options(*cmd, *out);
  // `--json` without a file is `--json -`.
  cmd->get_option("--json")->expected(0, 1)->default_str("-");
  cmd->callback([out] { run_planners(*out); });
}

}  // namespace planck::cli
