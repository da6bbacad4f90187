// planck run: the shadow executor on a planned schedule
// (docs/commands.md#planck-run).

#include <fmt/format.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "oracle/check/shadow.h"
#include "tools/commands.h"
#include "tools/options.h"
#include "tools/output.h"
#include "tools/progress.h"

namespace planck::cli {
namespace {

struct RunArgs {
  std::string schedule;
  std::string plan;
  oracle::ShadowOptions options;
  OutputOptions out;
};

void run_run(const RunArgs& args) {
  Report report("run", args.out.json);
  const Schedule s = load_schedule(args.schedule);
  const Plan p = load_plan(args.plan);
  const Result<oracle::ShadowRun> run = [&] {
    Progress progress("run", args.out.progress);
    progress.stage(fmt::format("running {} with each loop body {} times", args.schedule,
                               args.options.iterations));
    return oracle::run_shadow(s, p, args.options);
  }();
  if (!run) throw Exit{kExitBadInput, run.error().message()};
  auto where = [&](const oracle::UseSite& at) {
    return at.line > 0 ? fmt::format("{}:{}", args.schedule, at.line) : args.schedule;
  };
  report.object = {{"schedule", args.schedule},
                   {"plan", args.plan},
                   {"iterations", args.options.iterations},
                   {"calls", run->calls}};
  if (const std::optional<oracle::OutsideArena>& o = run->outside) {
    report.text = fmt::format("{}: {}\n{}: the plan puts {} past the end of {} in {}\n", where(o->at),
                              o->message(), args.plan, o->buffer, o->arena, args.schedule);
    report.object["result"] = "outside-arena";
    report.object["fault"] = {{"buffer", o->buffer}, {"arena", o->arena}, {"arena_size", o->arena_size},
                              {"begin", o->begin}, {"end", o->end}, {"line", o->at.line},
                              {"message", o->message()}};
  } else if (const std::optional<oracle::Clobber>& c = run->clobber) {
    report.text = fmt::format("{}: {}\n{}: the plan clobbers {} in {}\n", where(c->after), c->message(),
                              args.plan, c->victim, args.schedule);
    report.object["result"] = "clobber";
    report.object["fault"] = {{"buffer", c->victim}, {"taker", c->taker}, {"arena", c->arena},
                              {"begin", c->begin}, {"end", c->end}, {"line", c->after.line},
                              {"message", c->message()}};
  } else {
    report.text = fmt::format("{}: no clobber running {}: {} calls, each loop body {} times\n", args.plan,
                              args.schedule, run->calls, args.options.iterations);
    report.object["result"] = "ok";
  }
  report.finish(run->outside || run->clobber ? kExitFound : kExitOk);
}

}  // namespace

void add_run_command(CLI::App& app) {
  add_command<RunArgs>(app, "run", run_run, [](CLI::App& cmd, RunArgs& args) {
    add_input_files(cmd, args.schedule, &args.plan, false);
    cmd.add_option("--iterations", args.options.iterations,
                   "how many times each loop body runs (at least 2: a buffer that lives around a "
                   "loop can lose its bytes to one used later in the body, seen only on the next pass)")
        ->check(CLI::Range(std::uint64_t{2}, std::numeric_limits<std::uint64_t>::max()))
        ->capture_default_str();
    cmd.add_option("--max-calls", args.options.max_calls,
                   "refuse a schedule whose loops would make more calls than this")
        ->capture_default_str();
  });
}

}  // namespace planck::cli
