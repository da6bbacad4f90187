// planck stats: each file planned and checked, per device its buffers,
// lower bound, arena and their ratio
// (docs/commands.md#planck-check-and-planck-stats).

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <optional>

#include "oracle/check/checker.h"
#include "planner/planner.h"
#include "tools/commands.h"
#include "tools/options.h"
#include "tools/output.h"
#include "tools/planner_options.h"
#include "tools/progress.h"
#include "tools/quality.h"

namespace planck::cli {
namespace {

using Clock = std::chrono::steady_clock;

struct StatsArgs {
  std::vector<std::string> schedules;
  PlannerOptions planner;
  bool optimum = false;
  double time = 10;
  OutputOptions out;
};

constexpr std::size_t kColumns = 8;
using Row = std::array<std::string, kColumns>;

std::string table_text(const std::vector<Row>& rows, bool optimum) {
  const Row header{"schedule", "device", "planned", "lower bound", "arena", "ratio", "optimum", "check"};
  std::array<std::size_t, kColumns> w{};
  auto widen = [&](const Row& r) {
    for (std::size_t i = 0; i < kColumns; ++i) w[i] = std::max(w[i], r[i].size());
  };
  widen(header);
  for (const Row& r : rows) widen(r);
  std::string out;
  auto add_row = [&](const Row& r) {
    out += fmt::format("{:<{}}  {:<{}}  {:>{}}  {:>{}}  {:>{}}  {:>{}}  ", r[0], w[0], r[1], w[1], r[2], w[2],
                       r[3], w[3], r[4], w[4], r[5], w[5]);
    if (optimum) out += fmt::format("{:>{}}  ", r[6], w[6]);
    out += r[7] + "\n";
  };
  add_row(header);
  for (const Row& r : rows) add_row(r);
  return out;
}

// The oracle's answer for one device, as a cell: "3584" when proven, else
// "3072..3584 unknown".
std::string optimum_cell(const DeviceQuality& q) {
  if (!q.optimum) return "-";
  const oracle::OptimumResult& r = *q.optimum;
  if (r.status == oracle::OptimumStatus::Optimal) return bytes_text(r.upper_bound, q.unit);
  return fmt::format("{}..{} {}", bytes_text(r.lower_bound, q.unit), bytes_text(r.upper_bound, q.unit),
                     oracle::status_name(r.status));
}

void run_stats(StatsArgs& args) {
  const Clock::time_point deadline = deadline_after(Clock::now(), args.time);
  Report report("stats", args.out.json);
  auto planner = make_chosen_planner(args.planner);
  std::vector<Row> rows;
  nlohmann::ordered_json files = nlohmann::ordered_json::array();
  std::vector<std::string> errors;
  int error_code = kExitOk;  // the worst of the errors: bad input before a planner's failure
  bool invalid = false;
  std::optional<Progress> progress(std::in_place, "stats", args.out.progress);
  for (std::size_t n = 0; n < args.schedules.size(); ++n) {
    const std::string& path = args.schedules[n];
    progress->stage(fmt::format("{} of {} files: {}", n + 1, args.schedules.size(), path));
    Schedule s;
    try {
      s = load_schedule(path);
    } catch (const Exit& e) {
      errors.push_back(e.message);
      error_code = kExitBadInput;
      continue;
    }
    auto plan = planner->plan(s);
    if (!plan) {
      const Exit failure = planner_failure(path, plan.error());
      errors.push_back(failure.message);
      error_code = std::max(error_code, failure.code);
      continue;
    }
    const oracle::CheckReport found = oracle::check_plan(s, *plan, oracle::kOverlapsListed);
    const bool valid = violation_count(found) == 0;
    invalid = invalid || !valid;
    const std::string verdict = valid ? "ok" : fmt::format("INVALID ({})", violation_count(found));
    // The files left share the time left.
    std::optional<Clock::time_point> until;
    if (args.optimum) {
      const Clock::time_point now = Clock::now();
      until = now >= deadline ? now : now + (deadline - now) / static_cast<long>(args.schedules.size() - n);
    }
    auto quality = plan_quality(s, *plan, valid, until);
    if (!quality) {
      errors.push_back(path + ": " + quality.error().message());
      error_code = kExitBadInput;
      continue;
    }
    if (quality->empty()) rows.push_back({path, "-", "0", "0", "0", "-", "-", verdict});
    for (const DeviceQuality& d : *quality) {
      rows.push_back({path, d.device, std::to_string(d.buffers), std::to_string(d.lower_bound),
                      std::to_string(d.arena), ratio_text(d.arena, d.lower_bound), optimum_cell(d), verdict});
    }
    nlohmann::ordered_json file{{"schedule", path}};
    add_check_json(file, found);
    file["devices"] = quality_json(*quality, 1);
    files.push_back(std::move(file));
  }
  progress.reset();
  nlohmann::ordered_json error_list = nlohmann::ordered_json::array();
  for (const std::string& e : errors) error_list.push_back(e);
  report.text = table_text(rows, args.optimum);
  report.object = {{"planner", planner_arguments(args.planner)}, {"files", std::move(files)}, {"errors", error_list}};
  report.write();
  // Files that could not be planned are diagnostics: the table has no row for them.
  for (const std::string& e : errors) fmt::print(stderr, "{}\n", e);
  if (!errors.empty()) throw Exit{error_code, ""};
  // The table says which plans are INVALID; where to see why is a hint.
  if (invalid) throw Exit{kExitFound, "planck stats: a plan failed the checker (run planck check for details)"};
}

}  // namespace

void add_stats_command(CLI::App& app) {
  add_command<StatsArgs>(app, "stats", run_stats, [](CLI::App& cmd, StatsArgs& args) {
    cmd.add_option("schedules", args.schedules, "the .sched files")->required();
    add_planner_options(cmd, args.planner);
    add_optimum_options(cmd, args.optimum, args.time,
                        "seconds for the whole run, with --optimum, the files sharing them");
  });
}

}  // namespace planck::cli
