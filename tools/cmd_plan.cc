#include <fmt/format.h>

#include <cstdio>
#include <fstream>

#include "model/file.h"
#include "model/problem.h"
#include "model/text.h"
#include "planner/plan_schedule.h"
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
  auto text = read_file(args.schedule);
  if (!text) throw Exit{kExitBadInput, text.error().message()};
  auto problem = parse_problem(*text, source_name(args.schedule));
  if (!problem) throw Exit{kExitBadInput, problem.error().message()};
  auto s = problem_schedule(std::move(problem).value());
  if (!s) throw Exit{kExitBadInput, s.error().message()};
  auto planner = make_chosen_planner(args.planner);
  auto options = PlanOptions::from_environment();
  if (!options) throw Exit{kExitBadInput, options.error().message()};

  auto out = plan_schedule({.schedule = *s, .text = *text, .planner = *planner,
                            .options = *options, .rewrite = args.rewrite});
  if (!out) throw planner_failure(args.schedule, out.error());
  if (!out->debug_line.empty()) std::printf("%s\n", out->debug_line.c_str());
  write_output(args.output, args.rewrite ? out->rewritten : print_plan(out->plan));
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
