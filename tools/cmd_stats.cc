#include <fmt/format.h>

#include <algorithm>

#include "oracle/check/checker.h"
#include "planner/device_loads.h"
#include "planner/planner.h"
#include "tools/commands.h"
#include "tools/planner_options.h"

namespace planck::cli {
namespace {

struct StatsArgs {
  std::vector<std::string> schedules;
  PlannerOptions planner;
};

struct Row {
  std::string schedule, device, buffers, lower, arena, ratio, check;
};

std::string ratio(Bytes arena, Bytes lower) {
  if (lower == 0) return arena == 0 ? "1.000" : "-";
  return fmt::format("{:.3f}", static_cast<double>(arena) / static_cast<double>(lower));
}

void print_table(const std::vector<Row>& rows) {
  const Row header{"schedule", "device", "planned", "lower bound", "arena", "ratio", "check"};
  std::array<std::size_t, 7> w{};
  auto widen = [&](const Row& r) {
    const std::array<const std::string*, 7> cells{&r.schedule, &r.device, &r.buffers, &r.lower,
                                                  &r.arena, &r.ratio, &r.check};
    for (std::size_t i = 0; i < cells.size(); ++i) w[i] = std::max(w[i], cells[i]->size());
  };
  widen(header);
  for (const Row& r : rows) widen(r);
  auto print_row = [&](const Row& r) {
    fmt::print("{:<{}}  {:<{}}  {:>{}}  {:>{}}  {:>{}}  {:>{}}  {}\n", r.schedule, w[0], r.device,
               w[1], r.buffers, w[2], r.lower, w[3], r.arena, w[4], r.ratio, w[5], r.check);
  };
  print_row(header);
  for (const Row& r : rows) print_row(r);
}

void run_stats(const StatsArgs& args) {
  auto planner = make_chosen_planner(args.planner);
  std::vector<Row> rows;
  std::vector<std::string> errors;
  int error_code = kExitOk;  // the worst of the errors: bad input before a planner's failure
  bool invalid = false;
  for (const std::string& path : args.schedules) {
    Schedule s;
    try {
      s = load_schedule(path);
    } catch (const Exit& e) {
      errors.push_back(e.message);
      error_code = kExitBadInput;
      continue;
    }
    auto loads = device_loads(s);
    auto plan = loads ? planner->plan(s) : Result<Plan>(loads.error());
    if (!plan) {
      const Exit failure = planner_failure(path, plan.error());
      errors.push_back(failure.message);
      error_code = std::max(error_code, failure.code);
      continue;
    }
    const auto violations = oracle::check_plan(s, *plan);
    invalid = invalid || !violations.empty();
    const std::string verdict =
        violations.empty() ? "ok" : fmt::format("INVALID ({})", violations.size());
    if (loads->empty()) rows.push_back({path, "-", "0", "0", "0", "-", verdict});
    for (const DeviceLoad& d : *loads) {
      Bytes arena = 0;
      for (const Arena& a : plan->arenas) {
        if (a.device == d.device) arena = a.size;
      }
      rows.push_back({path, d.device, std::to_string(d.buffers), std::to_string(d.peak),
                      std::to_string(arena), ratio(arena, d.peak), verdict});
    }
  }
  print_table(rows);
  for (const std::string& e : errors) fmt::print(stderr, "{}\n", e);
  if (!errors.empty()) throw Exit{error_code, ""};
  if (invalid) throw Exit{kExitFound, "planck stats: a plan failed the checker (run planck check for details)"};
}

}  // namespace

void add_stats_command(CLI::App& app) {
  auto args = std::make_shared<StatsArgs>();
  CLI::App* cmd = app.add_subcommand(
      "stats",
      "Plan and check each schedule; print per device the planned buffers, the peak of live "
      "bytes (a lower bound on any arena), the arena size and their ratio.");
  cmd->add_option("schedules", args->schedules, "the .sched files")->required();
  add_planner_options(*cmd, args->planner);
  cmd->callback([args] { run_stats(*args); });
}

}  // namespace planck::cli
