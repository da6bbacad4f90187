#include <fmt/format.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "oracle/check/shadow.h"
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
  const Result<oracle::ShadowRun> run = oracle::run_shadow(s, p, args.options);
  if (!run) throw Exit{kExitBadInput, run.error().message()};
  auto where = [&](const oracle::UseSite& at) {
    return at.line > 0 ? fmt::format("{}:{}", args.schedule, at.line) : args.schedule;
  };
  if (const std::optional<oracle::OutsideArena>& o = run->outside) {
    fmt::print("{}: {}\n", where(o->at), o->message());
    throw Exit{kExitFound, fmt::format("{}: the plan puts {} past the end of {} in {}", args.plan,
                                       o->buffer, o->arena, args.schedule)};
  }
  if (const std::optional<oracle::Clobber>& c = run->clobber) {
    fmt::print("{}: {}\n", where(c->after), c->message());
    throw Exit{kExitFound,
               fmt::format("{}: the plan clobbers {} in {}", args.plan, c->victim, args.schedule)};
  }
  fmt::print("{}: no clobber running {}: {} calls, each loop body {} times\n", args.plan,
             args.schedule, run->calls, args.options.iterations);
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* cmd = app.add_subcommand(
      "run",
      "Run a schedule with a plan over shadow memory and report the first fault: a clobber (which "
      "buffer took which bytes, where, between which two uses of the buffer that lost them) or a "
      "buffer whose bytes reach past its arena. Exit 0: no fault; 1: a fault; 2: bad input.");
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
