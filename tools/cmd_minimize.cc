// planck minimize: a schedule on which a planner fails made small, while it
// fails the same way (docs/verification.md#planck-minimize).

#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "gen/schedule_parts.h"
#include "harness/verify.h"
#include "model/schedule_printer.h"
#include "tools/cases.h"
#include "tools/commands.h"
#include "tools/options.h"
#include "tools/output.h"
#include "tools/planner_options.h"
#include "tools/progress.h"

namespace planck::cli {
namespace {

struct MinimizeArgs {
  PlannerOptions planner;
  std::string schedule;
  std::string output;
  double time = 60;
  OutputOptions out;
};

void run_minimize(MinimizeArgs& args) {
  check_output_folder(args.output);
  check_output_folder(args.out.json);
  Report report("minimize", args.out.json);
  const std::unique_ptr<Planner> planner = make_chosen_planner(args.planner);
  const std::string planner_args = planner_arguments(args.planner);
  Schedule s = load_schedule(args.schedule);
  check_supported(args.planner, s, args.schedule);
  report.object = {{"planner", planner_args},
                   {"schedule", args.schedule},
                   {"output", args.output.empty() ? "-" : args.output}};
  std::optional<Progress> progress(std::in_place, "minimize", args.out.progress);
  progress->stage("judging " + args.schedule);
  harness::Verdict first = harness::judge(*planner, s);
  if (!first.failed()) {
    progress.reset();
    report.object["result"] = "pass";
    report.text = fmt::format("minimize: {} does not fail on {}: nothing to minimize\n", planner_args, args.schedule);
    report.finish(kExitOk);
    return;
  }
  const std::size_t before = gen::count_entries(s);
  progress->stage(fmt::format("shrinking {} entries that fail with {}", before, first.kind));
  const harness::Failure f = harness::shrink_failure(*planner, args.schedule, std::move(s), std::move(first),
                                                     seconds_duration(args.time));
  progress.reset();
  const std::string what = "minimize: " + harness::failure_summary(f, planner_args);
  const std::string minimized = commented(what) + print_schedule(f.minimized);
  if (args.output.empty() || args.output == "-") {
    report.text = minimized;
  } else {
    write_output(args.output, minimized);
    report.text = what + "written: " + args.output;
    // The plan and its picture beside the schedule, FILE's name with .plan
    // and .svg, unless one of them is FILE itself.
    const std::string base = std::filesystem::path(args.output).replace_extension().string();
    if (f.verdict.plan && base + ".plan" != args.output && base + ".svg" != args.output) {
      const auto [plan, picture] = write_plan_and_picture(base, f.minimized, *f.verdict.plan);
      report.text += ", " + plan + ", " + picture;
      report.object["plan"] = plan;
      report.object["picture"] = picture;
    }
    report.text += "\n";
  }
  report.object["result"] = "fail";
  report.object["kind"] = f.verdict.kind;
  report.object["entries_before"] = before;
  report.object["entries_after"] = gen::count_entries(f.minimized);
  report.object["minimal"] = f.minimal;
  report.object["minimized"] = print_schedule(f.minimized);
  report.object["verdict"] = verdict_json(f.verdict);
  report.finish(kExitFound);
}

}  // namespace

void add_minimize_command(CLI::App& app) {
  add_command<MinimizeArgs>(app, "minimize", run_minimize, [](CLI::App& cmd, MinimizeArgs& args) {
    cmd.add_option("schedule", args.schedule, "the failing .sched file")->required();
    add_planner_options(cmd, args.planner, PlannerClaims::Yes);
    cmd.add_option("-o,--output", args.output,
                   "write the minimized schedule to this file instead of standard output, and the "
                   "planner's plan and its picture (planck draw) beside it: FILE's name "
                   "with .plan and .svg");
    add_time_option(cmd, args.time, "seconds for shrinking, at most");
  });
}

}  // namespace planck::cli
