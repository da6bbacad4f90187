#include <fmt/format.h>

#include <cstdio>
#include <fstream>

#include "model/text.h"
#include "planner/plan_schedule.h"
#include "tools/commands.h"

namespace planck::cli {
namespace {

struct PlanArgs {
  std::string schedule;
  std::string output;
  std::string planner = "tlsf";
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
  auto s = parse_schedule(*text, args.schedule);
  if (!s) throw Exit{kExitBadInput, s.error().message()};
  auto planner = make_planner(args.planner);
  if (!planner) throw Exit{kExitBadInput, "--planner: no planner named " + args.planner};
  auto options = PlanOptions::from_environment();
  if (!options) throw Exit{kExitBadInput, options.error().message()};

  auto out = plan_schedule({.schedule = *s, .text = *text, .planner = *planner,
                            .options = *options, .rewrite = args.rewrite});
  if (!out) throw Exit{kExitBadInput, args.schedule + ": " + out.error().message()};
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
  cmd->add_option("--planner", args->planner, "the planner to use")
      ->check(CLI::IsMember(planner_names()))
      ->capture_default_str();
  cmd->callback([args] { run_plan(*args); });
}

}  // namespace planck::cli
