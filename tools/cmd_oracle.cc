// planck oracle: the optimum oracle's bounds, the least arena, or whether a
// capacity fits (docs/commands.md#planck-oracle).

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "model/intervals.h"
#include "oracle/optimum/optimum.h"
#include "oracle/optimum/optimum_input.h"
#include "planner/registry.h"
#include "tools/commands.h"
#include "tools/options.h"
#include "tools/output.h"
#include "tools/progress.h"
#include "tools/quality.h"

namespace planck::cli {
namespace {

using Clock = std::chrono::steady_clock;

struct OracleArgs {
  std::string file;
  std::optional<Bytes> capacity;
  double time = 10;
  std::string plan;
  OutputOptions out;
};

double seconds_left(Clock::time_point deadline) {
  const double left = std::chrono::duration<double>(deadline - Clock::now()).count();
  return left > 0 ? left : 0;
}

// One device's answer, for people and in the JSON object; `unit` turns the
// problem's units into bytes.
void add_answer(Report& report, const std::string& device, std::size_t buffers, const oracle::OptimumResult& r,
                Bytes unit) {
  report.text += fmt::format("device {}: {} buffer{}, {} part{}\n", device, buffers, buffers == 1 ? "" : "s",
                             r.parts, r.parts == 1 ? "" : "s");
  report.text += fmt::format("  peak: {}\n", bytes_text(r.peak, unit));
  report.text += fmt::format("  lower bound: {} ({})\n", bytes_text(r.lower_bound, unit), r.lower_bound_by);
  report.text += fmt::format("  upper bound: {} ({})\n", bytes_text(r.upper_bound, unit), r.upper_bound_by);
  report.text += fmt::format("  status: {}\n", oracle::status_name(r.status));
  report.text += fmt::format("  time: {:.3f} s\n", r.seconds);
  report.object["devices"].push_back({{"device", device},
                                      {"buffers", buffers},
                                      {"parts", r.parts},
                                      {"peak", bytes_json(r.peak, unit)},
                                      {"lower_bound", bytes_json(r.lower_bound, unit)},
                                      {"lower_bound_by", r.lower_bound_by},
                                      {"upper_bound", bytes_json(r.upper_bound, unit)},
                                      {"upper_bound_by", r.upper_bound_by},
                                      {"status", oracle::status_name(r.status)},
                                      {"seconds", r.seconds}});
}

// What a `device` line and in-place kernels make of a device's answer: its
// unit, its capacity, and that the figure leaves in-place sharing out
// (docs/model-v2.md#what-the-oracles-say).
void add_device_model(Report& report, const oracle::DevicePacking& d) {
  auto& device = report.object["devices"].back();
  device["unit"] = d.unit;
  if (d.unit != kPlaceAlign) report.text += fmt::format("  unit: {} bytes (the device's align)\n", d.unit);
  if (d.capacity) {
    device["capacity"] = *d.capacity;
    report.text += fmt::format("  capacity: {} bytes (the device's)\n", *d.capacity);
  }
  if (d.has_inplace) {
    device["inplace_excluded"] = true;
    report.text += "  in-place sharing: left out; the bounds are for buffers alive together sharing no bytes\n";
  }
}

// The answer to --capacity over every device: infeasible when one is proven
// not to fit, unknown when one is not settled, else feasible.
void add_feasibility(Report& report, const std::string& capacity) {
  std::string answer = "feasible";
  for (const auto& device : report.object["devices"]) {
    const std::string status = device.value("status", "");
    if (status == "infeasible") {
      answer = status;
      break;
    }
    if (status == "unknown") answer = status;
  }
  report.text += fmt::format("capacity {}: {}\n", capacity, answer);
  report.object["feasibility"] = answer;
}

// A plan file holds arenas of at most kMaxBytes; a larger upper bound has no plan.
void check_plan_fits(const OracleArgs& args, const std::string& device, Bytes upper, Bytes unit) {
  if (!unit_bytes(upper, unit)) {
    throw Exit{kExitBadInput, fmt::format("{}: device {}: no plan written: the arena found is {} bytes, past "
                                          "the most a plan file holds",
                                          args.file, device, bytes_text(upper, unit))};
  }
}

// `device_capacity`: the capacity a schedule's `device` line gives, if any;
// the smaller of it and --capacity is decided.
oracle::OptimumOptions options_for(const OracleArgs& args, Clock::time_point deadline, Bytes unit,
                                   std::optional<Bytes> device_capacity = std::nullopt) {
  oracle::OptimumOptions o;
  std::optional<Bytes> capacity = args.capacity;
  if (device_capacity && (!capacity || *device_capacity < *capacity)) capacity = device_capacity;
  // Arenas are whole units, so c bytes hold what floor(c / unit) units hold.
  if (capacity) o.capacity = *capacity / unit;
  o.timeout_seconds = seconds_left(deadline);
  return o;
}

int run_csv(const OracleArgs& args, const IntervalProblem& p, Clock::time_point deadline, Report& report,
            Progress& progress) {
  progress.stage(fmt::format("{} intervals: bounds and search", p.buffers.size()));
  auto r = oracle::solve_optimum(oracle::interval_packing(p), options_for(args, deadline, 1));
  if (!r) throw Exit{kExitBadInput, args.file + ": " + r.error().message()};
  add_answer(report, "CSV", p.buffers.size(), *r, 1);
  if (!args.plan.empty()) {
    check_plan_fits(args, "CSV", r->upper_bound, 1);
    auto plan = oracle::interval_plan(p, r->offsets, r->upper_bound);
    if (!plan) throw Exit{kExitBadInput, plan.error().message()};
    write_output(args.plan, print_plan(*plan));
  }
  return r->status == oracle::OptimumStatus::Infeasible ? kExitFound : kExitOk;
}

// The best of the heuristic planners' placements of each device, in the
// oracle's units, as its starting upper bound. The oracle checks it with its
// own checker before using it, so a planner's invalid plan shows up as an
// error here too. A planner is started only while time is left; greedy and
// bysize stop at the deadline (Planner::plan_until), and a planner that runs
// out of time gives nothing.
struct Incumbent {
  std::string planner;
  oracle::Offsets offsets;
  Bytes arena = 0;  // in units
};

std::vector<std::optional<Incumbent>> best_heuristics(const Schedule& s,
                                                      const std::vector<oracle::DevicePacking>& devices,
                                                      Clock::time_point deadline, Progress& progress) {
  std::vector<std::optional<Incumbent>> best(devices.size());
  for (const std::string& name : best_candidates()) {
    if (Clock::now() >= deadline) break;
    progress.stage("planner " + name);
    auto plan = make_planner(name)->plan_until(s, deadline);
    if (!plan) continue;
    for (std::size_t k = 0; k < devices.size(); ++k) {
      std::optional<oracle::Offsets> offsets = plan_offsets(*plan, devices[k]);
      if (!offsets) continue;
      const std::optional<Bytes> arena = oracle::arena_size(devices[k].problem, *offsets);
      if (arena && (!best[k] || *arena < best[k]->arena)) best[k] = Incumbent{name, std::move(*offsets), *arena};
    }
  }
  return best;
}

int run_schedule(const OracleArgs& args, const Schedule& s, Clock::time_point deadline, Report& report,
                 Progress& progress) {
  progress.stage("reading the schedule's lifetimes");
  auto devices = oracle::schedule_packings(s);
  if (!devices) throw Exit{kExitBadInput, devices.error().message()};
  for (const oracle::DevicePacking& d : *devices) {
    if (d.unpaired) {
      throw Exit{kExitBadInput, fmt::format("{}: device {} has {} planned buffers on several streams or in loops, "
                                            "more than the {} whose conflicts the optimum oracle lists",
                                            s.source, d.device, d.buffers.size(), oracle::kConflictItems)};
    }
  }
  if (devices->empty()) report.text += "nothing planned\n";
  const std::vector<std::optional<Incumbent>> incumbents = best_heuristics(s, *devices, deadline, progress);
  std::vector<oracle::Offsets> offsets;
  std::vector<Bytes> arenas;
  bool infeasible = false;
  for (std::size_t k = 0; k < devices->size(); ++k) {
    const oracle::DevicePacking& d = (*devices)[k];
    progress.stage(fmt::format("device {}: {} buffers: bounds and search", d.device, d.buffers.size()));
    oracle::OptimumOptions options = options_for(args, deadline, d.unit, d.capacity);
    const std::optional<Incumbent>& incumbent = incumbents[k];
    if (incumbent) options.incumbent = incumbent->offsets;
    auto r = oracle::solve_optimum(d.problem, options);
    if (!r) throw Exit{kExitBadInput, fmt::format("{}: device {}: {}", args.file, d.device, r.error().message())};
    if (incumbent && r->upper_bound_by == "incumbent") r->upper_bound_by = "planner " + incumbent->planner;
    add_answer(report, d.device, d.buffers.size(), *r, d.unit);
    add_device_model(report, d);
    infeasible = infeasible || r->status == oracle::OptimumStatus::Infeasible;
    if (!args.plan.empty()) check_plan_fits(args, d.device, r->upper_bound, d.unit);
    offsets.push_back(r->offsets);
    arenas.push_back(r->upper_bound);
  }
  if (!args.plan.empty()) {
    auto plan = oracle::schedule_plan(s, *devices, offsets, arenas);
    if (!plan) throw Exit{kExitBadInput, args.file + ": " + plan.error().message()};
    write_output(args.plan, print_plan(*plan));
  }
  return infeasible ? kExitFound : kExitOk;
}

void run_oracle(const OracleArgs& args) {
  const Clock::time_point start = Clock::now();
  const Clock::time_point deadline = deadline_after(start, args.time);
  Report report("oracle", args.out.json);
  report.object = {{"schedule", args.file}};
  if (args.capacity) report.object["capacity"] = *args.capacity;
  report.object["time"] = args.time;
  report.object["devices"] = nlohmann::ordered_json::array();
  int code = kExitOk;
  {
    Progress progress("oracle", args.out.progress);
    progress.stage("reading " + args.file);
    const Problem problem = load_problem(args.file);
    code = std::holds_alternative<IntervalProblem>(problem)
               ? run_csv(args, std::get<IntervalProblem>(problem), deadline, report, progress)
               : run_schedule(args, std::get<Schedule>(problem), deadline, report, progress);
  }
  if (args.capacity) {
    add_feasibility(report, std::to_string(*args.capacity));
  } else if (std::any_of(report.object["devices"].begin(), report.object["devices"].end(),
                         [](const auto& d) { return d.contains("capacity"); })) {
    add_feasibility(report, "of each device");
  }
  report.finish(code);
}

}  // namespace

void add_oracle_command(CLI::App& app) {
  add_command<OracleArgs>(app, "oracle", run_oracle, [](CLI::App& cmd, OracleArgs& args) {
    cmd.add_option("file", args.file, "a .sched schedule, or a .csv interval problem")->required();
    cmd.add_option("--capacity", args.capacity,
                   "bytes per arena: decide whether the buffers fit, stopping at the first "
                   "placement within it; prints `capacity C: feasible`, `infeasible` or `unknown`");
    add_time_option(cmd, args.time, "seconds for the whole run: when they run out, the bounds found so far",
                    TimeoutAlias::Yes);
    cmd.add_option("-o,--output", args.plan, "write the best placement found as a plan file");
  });
}

}  // namespace planck::cli
