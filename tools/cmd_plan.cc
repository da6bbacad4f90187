// planck plan: a schedule's plan, or with --rewrite the planned schedule
// (docs/commands.md#planck-plan).

#include <fmt/format.h>

#include <chrono>
#include <optional>
#include <utility>

#include "model/file.h"
#include "model/problem.h"
#include "planner/plan_schedule.h"
#include "tools/commands.h"
#include "tools/options.h"
#include "tools/output.h"
#include "tools/planner_options.h"
#include "tools/progress.h"

namespace planck::cli {
namespace {

struct PlanArgs {
  std::string schedule;
  std::string output;
  PlannerOptions planner;
  bool rewrite = false;
  OutputOptions out;
  bool timings = false;
};

// The seconds each stage of the command took, for --timings.
class StageClock {
 public:
  // The seconds since the last call (or since the clock was made).
  double lap() {
    const auto now = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    return seconds;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

// The --json object: the plan's arenas, and how many buffers it placed.
nlohmann::ordered_json plan_json(const PlanArgs& args, const Plan& plan) {
  nlohmann::ordered_json arenas = nlohmann::ordered_json::array();
  for (const Arena& a : plan.arenas) arenas.push_back({{"name", a.name}, {"device", a.device}, {"size", a.size}});
  return {{"schedule", args.schedule},
          {"planner", planner_arguments(args.planner)},
          {"output", args.output.empty() ? "-" : args.output},
          {"placements", plan.placements.size()},
          {"arenas", std::move(arenas)}};
}

void run_plan(PlanArgs& args) {
  check_json_beside_output("plan", args.out.json, args.output, args.rewrite ? "the schedule" : "the plan");
  Report report("plan", args.out.json);
  std::optional<Progress> progress(std::in_place, "plan", args.out.progress);
  progress->stage("reading " + args.schedule);
  StageClock clock;
  auto text = read_file(args.schedule);
  if (!text) throw Exit{kExitBadInput, text.error().message()};
  const double read_seconds = clock.lap();
  progress->stage("parsing " + args.schedule);
  auto problem = parse_problem(text->view(), source_name(args.schedule));
  if (!problem) throw Exit{kExitBadInput, problem.error().message()};
  auto s = problem_schedule(std::move(problem).value());
  if (!s) throw Exit{kExitBadInput, s.error().message()};
  // Only the rewrite of a schedule left as it is (rule 9) needs the text again.
  if (!args.rewrite) *text = FileText();
  const double parse_seconds = clock.lap();

  progress->stage("planning");
  auto planner = make_chosen_planner(args.planner);
  auto options = PlanOptions::from_environment();
  if (!options) throw Exit{kExitBadInput, options.error().message()};
  auto out = plan_schedule({.schedule = *s, .text = text->view(), .planner = *planner,
                            .options = *options, .rewrite = args.rewrite});
  if (!out) throw planner_failure(args.schedule, out.error());
  const double plan_seconds = clock.lap();

  progress->stage("writing");
  const std::string result = args.rewrite ? std::move(out->rewritten) : print_plan(out->plan);
  progress.reset();
  if (!report.json_on_stdout() && !out->debug_line.empty()) print_out(out->debug_line + "\n");
  write_output(args.output, result);
  report.object = plan_json(args, out->plan);
  report.write();
  if (args.timings) {
    fmt::print(stderr, "timings: read {:.3f} s, parse {:.3f} s, plan {:.3f} s, write {:.3f} s\n", read_seconds,
               parse_seconds, plan_seconds, clock.lap());
  }
  keep_until_exit(std::move(s).value());
  keep_until_exit(std::move(out).value());
}

}  // namespace

void add_plan_command(CLI::App& app) {
  add_command<PlanArgs>(app, "plan", run_plan, [](CLI::App& cmd, PlanArgs& args) {
    add_input_files(cmd, args.schedule, nullptr, false);
    cmd.add_option("-o,--output", args.output, "write to this file instead of standard output");
    cmd.add_flag("--rewrite", args.rewrite, "print the rewritten schedule instead of the plan");
    add_planner_options(cmd, args.planner);
    cmd.add_flag("--timings", args.timings,
                 "print on standard error, as one line, the seconds taken to read the file, parse it, "
                 "plan (and rewrite) and write the result");
  });
}

}  // namespace planck::cli
