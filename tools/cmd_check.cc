#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "oracle/check/checker.h"
#include "tools/commands.h"

namespace planck::cli {
namespace {

struct CheckArgs {
  std::string schedule;
  std::string plan;
  bool quadratic = false;
  std::size_t max_overlaps = oracle::kOverlapsListed;
};

void run_check(const CheckArgs& args) {
  const auto [s, p, scale] = load_check_input(args.schedule, args.plan);
  const oracle::CheckReport found = args.quadratic
                                        ? oracle::check_plan_quadratic(s, p, args.max_overlaps)
                                        : oracle::check_plan(s, p, args.max_overlaps);
  if (found.violations.empty() && found.unlisted_overlaps == 0) {
    fmt::print("{}: valid plan for {}: {} buffer{} in {} arena{}\n", args.plan, args.schedule,
               p.placements.size(), p.placements.size() == 1 ? "" : "s", p.arenas.size(),
               p.arenas.size() == 1 ? "" : "s");
    return;
  }
  for (const oracle::Violation& v : found.violations) {
    fmt::print("{}: {}\n", args.plan, v.message);
  }
  if (found.unlisted_overlaps > 0) {
    fmt::print("{}: and {} more overlap{} past the first {} (--max-overlaps)\n", args.plan,
               found.unlisted_overlaps, found.unlisted_overlaps == 1 ? "" : "s", args.max_overlaps);
  }
  const bool has_figures =
      found.unlisted_overlaps > 0 ||
      std::any_of(found.violations.begin(), found.violations.end(), [](const oracle::Violation& v) {
        return v.rule == oracle::Rule::OutsideArena || v.rule == oracle::Rule::Overlap;
      });
  if (scale != 1 && has_figures) {
    fmt::print("{}: {} is judged at alignment 1, each of its bytes a block of {}: the byte figures above are "
               "{} times its own\n",
               args.plan, args.schedule, scale, scale);
  }
  const std::uint64_t total = found.violations.size() + found.unlisted_overlaps;
  throw Exit{kExitFound, fmt::format("{}: invalid plan for {}: {} violation{}", args.plan,
                                     args.schedule, total, total == 1 ? "" : "s")};
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
                "use the plain O(n^2) checker, which finds every overlapping pair");
  cmd->add_option("--max-overlaps", args->max_overlaps,
                  "list at most this many overlaps, then one line counting the rest (a plan with "
                  "every buffer at 0 overlaps in every pair)")
      ->capture_default_str();
  cmd->callback([args] { run_check(*args); });
}

}  // namespace planck::cli
