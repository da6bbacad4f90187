#include <fmt/format.h>

#include <algorithm>

#include "oracle/checker.h"
#include "tools/commands.h"

namespace planck::cli {
namespace {

struct CheckArgs {
  std::string schedule;
  std::string plan;
  bool quadratic = false;
};

void run_check(const CheckArgs& args) {
  const auto [s, p, scale] = load_check_input(args.schedule, args.plan);
  const std::vector<oracle::Violation> found =
      args.quadratic ? oracle::check_plan_quadratic(s, p) : oracle::check_plan(s, p);
  if (found.empty()) {
    fmt::print("{}: valid plan for {}: {} buffer{} in {} arena{}\n", args.plan, args.schedule,
               p.placements.size(), p.placements.size() == 1 ? "" : "s", p.arenas.size(),
               p.arenas.size() == 1 ? "" : "s");
    return;
  }
  for (const oracle::Violation& v : found) {
    fmt::print("{}: {}\n", args.plan, v.message);
  }
  const bool has_figures = std::any_of(found.begin(), found.end(), [](const oracle::Violation& v) {
    return v.rule == oracle::Rule::OutsideArena || v.rule == oracle::Rule::Overlap;
  });
  if (scale != 1 && has_figures) {
    fmt::print("{}: {} is judged at alignment 1, each of its bytes a block of {}: the byte figures above are "
               "{} times its own\n",
               args.plan, args.schedule, scale, scale);
  }
  throw Exit{kExitFound, fmt::format("{}: invalid plan for {}: {} violation{}", args.plan,
                                     args.schedule, found.size(), found.size() == 1 ? "" : "s")};
}

}  // namespace

void add_check_command(CLI::App& app) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* cmd = app.add_subcommand(
      "check",
      "Check a plan file against a schedule, from any planner. Exit 0: valid; 1: each "
      "violation explained; 2: bad input.");
  cmd->add_option("schedule", args->schedule, "the .sched file, or a .csv interval problem")->required();
  cmd->add_option("plan", args->plan, "the .plan file")->required();
  cmd->add_flag("--quadratic", args->quadratic,
                "use the plain O(n^2) checker, which lists every overlapping pair");
  cmd->callback([args] { run_check(*args); });
}

}  // namespace planck::cli
