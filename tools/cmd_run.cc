#include <fmt/format.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>

#include "oracle/shadow.h"
#include "tools/commands.h"

namespace planck::cli {
namespace {

struct RunArgs {
  std::string schedule;
  std::string plan;
  oracle::ShadowOptions options;
};

void run_run(const RunArgs& args) {
  const Schedule s = load_schedule(args.schedule);
  const Plan p = load_plan(args.plan);
  Result<oracle::ShadowRun> run = oracle::run_shadow(s, p, args.options);
  if (!run) throw Exit{kExitBadInput, run.error().message()};
  if (!run->clobber) {
    fmt::print("{}: no clobber running {}: {} calls, each loop body {} times\n", args.plan,
               args.schedule, run->calls, args.options.iterations);
    return;
  }
  const oracle::Clobber& c = *run->clobber;
  const std::string where =
      c.after.line > 0 ? fmt::format("{}:{}", args.schedule, c.after.line) : args.schedule;
  fmt::print("{}: {}\n", where, c.message());
  throw Exit{kExitFound, fmt::format("{}: the plan clobbers {} in {}", args.plan, c.victim, args.schedule)};
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* cmd = app.add_subcommand(
      "run",
      "Run a schedule with a plan over shadow memory and report the first clobber: which buffer "
      "took which bytes, where, between which two uses of the buffer that lost them. Exit 0: no "
      "clobber; 1: a clobber; 2: bad input.");
  cmd->add_option("schedule", args->schedule, "the .sched file")->required();
  cmd->add_option("plan", args->plan, "the .plan file")->required();
  cmd->add_option("--iterations", args->options.iterations,
                  "how many times each loop body runs (at least 2: a buffer that lives around a "
                  "loop can lose its bytes to one used later in the body, seen only on the next pass)")
      ->check(CLI::Range(std::uint64_t{2}, std::numeric_limits<std::uint64_t>::max()))
      ->capture_default_str();
  cmd->add_option("--max-calls", args->options.max_calls,
                  "refuse a schedule whose loops would make more calls than this")
      ->capture_default_str();
  cmd->callback([args] { run_run(*args); });
}

}  // namespace planck::cli
