#include <fmt/format.h>

#include <cstdio>
#include <fstream>

#include "planner/planner.h"
#include "planner/rewrite.h"
#include "model/text.h"
#include "tools/commands.h"
#include "tools/planner_options.h"

namespace planck::cli {
namespace {

struct PlanArgs {
  std::string schedule;
  std::string output;
  PlannerOptions planner;
  bool rewrite = false;
};

void write_output(const std::string& path, const std::string& text) {
  if (path.empty() || path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return;
  }
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw Exit{kExitBadInput, path + ": cannot write"};
}

void run_plan(const PlanArgs& args) {
  const Schedule s = load_schedule(args.schedule);
  auto planner = make_chosen_planner(args.planner);

  // Rule 9: with NO_MEMORY_PLANNER set, nothing is planned and the schedule is left as it is.
  Plan plan;
  if (env_level("NO_MEMORY_PLANNER") < 1) {
    auto planned = planner->plan(s);
    if (!planned) throw planner_failure(args.schedule, planned.error());
    plan = std::move(planned).value();
  }
  if (env_level("DEBUG") >= 1) {
    std::string line = debug_line(s, plan);
    if (!line.empty()) std::printf("%s\n", line.c_str());
  }
  if (!args.rewrite) {
    write_output(args.output, print_plan(plan));
    return;
  }
  auto rewritten = rewrite(s, plan);
  if (!rewritten) throw Exit{kExitBadInput, args.schedule + ": " + rewritten.error().message()};
  write_output(args.output, print_schedule(*rewritten));
}

}  // namespace

void add_plan_command(CLI::App& app) {
  auto args = std::make_shared<PlanArgs>();
  CLI::App* cmd = app.add_subcommand(
      "plan",
      "Plan a schedule's buffers into arenas and print the plan file (or, with --rewrite, the "
      "planned schedule). NO_MEMORY_PLANNER=1 leaves the schedule unplanned; DEBUG=1 prints the "
      "memory saved on standard output first.");
  cmd->add_option("schedule", args->schedule, "the .sched file")->required();
  cmd->add_option("-o,--output", args->output, "write to this file instead of standard output");
  cmd->add_flag("--rewrite", args->rewrite, "print the rewritten schedule instead of the plan");
  add_planner_options(*cmd, args->planner);
  cmd->callback([args] { run_plan(*args); });
}

}  // namespace planck::cli
