// planck check: the static checker on a plan, and its arena against the
// lower bound (docs/commands.md#planck-check-and-planck-stats).

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "draw/text.h"
#include "oracle/check/checker.h"
#include "tools/commands.h"
#include "tools/output.h"
#include "tools/options.h"
#include "tools/progress.h"
#include "tools/quality.h"

namespace planck::cli {
namespace {

struct CheckArgs {
  std::string schedule;
  std::string plan;
  bool quadratic = false;
  std::size_t max_overlaps = oracle::kOverlapsListed;
  bool optimum = false;
  double time = 10;
  bool picture = false;
  OutputOptions out;
};

void run_check(const CheckArgs& args) {
  const auto start = std::chrono::steady_clock::now();
  Report report("check", args.out.json);
  std::optional<Progress> progress(std::in_place, "check", args.out.progress);
  progress->stage("reading " + args.schedule + " and " + args.plan);
  const auto& [s, p, scale] = keep_until_exit(load_check_input(args.schedule, args.plan));
  progress->stage("checking");
  const oracle::CheckReport found = args.quadratic
                                        ? oracle::check_plan_quadratic(s, p, args.max_overlaps)
                                        : oracle::check_plan(s, p, args.max_overlaps);
  const bool valid = found.violations.empty() && found.unlisted_overlaps == 0;
  progress->stage(args.optimum ? "the oracle: each device's least arena" : "the lower bound");
  auto quality = plan_quality(s, p, valid,
                              args.optimum ? std::optional(deadline_after(start, args.time)) : std::nullopt);
  if (!quality) throw Exit{kExitBadInput, args.schedule + ": " + quality.error().message()};
  progress.reset();

  for (const oracle::Violation& v : found.violations) report.text += fmt::format("{}: {}\n", args.plan, v.message);
  if (found.unlisted_overlaps > 0) {
    report.text += fmt::format("{}: and {} more overlap{} past the first {} (--max-overlaps)\n", args.plan,
                               found.unlisted_overlaps, found.unlisted_overlaps == 1 ? "" : "s",
                               args.max_overlaps);
  }
  const bool has_figures =
      found.unlisted_overlaps > 0 ||
      std::any_of(found.violations.begin(), found.violations.end(), [](const oracle::Violation& v) {
        return v.rule == oracle::Rule::OutsideArena || v.rule == oracle::Rule::Overlap;
      });
  if (scale != 1 && has_figures) {
    report.text += fmt::format(
        "{}: {} is judged at alignment 1, each of its bytes a block of {}: the byte figures above are "
        "{} times its own\n",
        args.plan, args.schedule, scale, scale);
  }
  if (args.picture && !valid) {
    const draw::Picture picture = draw::make_picture(s, p, found.violations, found.unlisted_overlaps);
    report.text += "\n" + draw::text_picture(picture, {.width = output_width(100), .violating_only = true, .messages = false}) + "\n";
  }
  const std::uint64_t total = violation_count(found);
  if (valid) {
    report.text += fmt::format("{}: valid plan for {}: {} buffer{} in {} arena{}\n", args.plan, args.schedule,
                               p.placements.size(), p.placements.size() == 1 ? "" : "s", p.arenas.size(),
                               p.arenas.size() == 1 ? "" : "s");
  } else {
    report.text += fmt::format("{}: invalid plan for {}: {} violation{}\n", args.plan, args.schedule, total,
                               total == 1 ? "" : "s");
  }
  // An invalid plan's arena says nothing of its quality; the JSON object has it still.
  if (valid) report.text += quality_text(args.plan, *quality, scale);
  report.object = {{"schedule", args.schedule}, {"plan", args.plan}};
  add_check_json(report.object, found);
  report.object["devices"] = quality_json(*quality, scale);
  report.finish(valid ? kExitOk : kExitFound);
}

}  // namespace

void add_check_command(CLI::App& app) {
  add_command<CheckArgs>(app, "check", run_check, [](CLI::App& cmd, CheckArgs& args) {
    add_input_files(cmd, args.schedule, &args.plan, true);
    cmd.add_flag("--quadratic", args.quadratic, "use the plain O(n^2) checker, which finds every overlapping pair");
    cmd.add_option("--max-overlaps", args.max_overlaps,
                   "list at most this many overlaps, then one line counting the rest (a plan with "
                   "every buffer at 0 overlaps in every pair)")
        ->capture_default_str();
    cmd.add_flag("--picture", args.picture,
                 "draw in characters the arenas that have violations, their buffers marked (planck draw --text)");
    add_optimum_options(cmd, args.optimum, args.time, "seconds for the whole run, with --optimum");
  });
}

}  // namespace planck::cli
