#include <fmt/format.h>

#include <chrono>
#include <map>
#include <fstream>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "oracle/optimum/optimum.h"
#include "oracle/optimum/optimum_input.h"
#include "model/intervals.h"
#include "planner/registry.h"
#include "tools/commands.h"

namespace planck::cli {
namespace {

struct OracleArgs {
  std::string file;
  std::optional<Bytes> capacity;
  double timeout = 10;
  std::string plan;
};

// `units` in bytes; a count too large for 64 bits is shown as units.
std::string in_bytes(Bytes units, Bytes scale) {
  std::optional<Bytes> b = checked_mul(units, scale);
  return b ? std::to_string(*b) : fmt::format("{} x {}", units, scale);
}

// What one device's answer looks like on stdout; `scale` turns the problem's
// units into bytes.
void print_answer(const std::string& device, std::size_t buffers, const oracle::OptimumResult& r,
                  Bytes scale) {
  fmt::print("device {}: {} buffer{}, {} part{}\n", device, buffers, buffers == 1 ? "" : "s",
             r.parts, r.parts == 1 ? "" : "s");
  fmt::print("  peak: {}\n", in_bytes(r.peak, scale));
  fmt::print("  lower bound: {} ({})\n", in_bytes(r.lower_bound, scale), r.lower_bound_by);
  fmt::print("  upper bound: {} ({})\n", in_bytes(r.upper_bound, scale), r.upper_bound_by);
  fmt::print("  status: {}\n", oracle::status_name(r.status));
  fmt::print("  time: {:.3f} s\n", r.seconds);
}

void write_plan(const std::string& path, const Plan& plan) {
  std::ofstream out(path, std::ios::binary);
  out << print_plan(plan);
  out.close();
  if (!out) throw Exit{kExitBadInput, path + ": cannot write the plan"};
}

oracle::OptimumOptions options_for(const OracleArgs& args, std::chrono::steady_clock::time_point start,
                                   Bytes scale) {
  oracle::OptimumOptions o;
  // Arenas are whole units, so c bytes hold what floor(c / scale) units hold.
  if (args.capacity) o.capacity = *args.capacity / scale;
  const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  o.timeout_seconds = args.timeout > spent ? args.timeout - spent : 0;
  return o;
}

int run_csv(const OracleArgs& args, const IntervalProblem& p, std::chrono::steady_clock::time_point start) {
  auto r = oracle::solve_optimum(oracle::interval_packing(p), options_for(args, start, 1));
  if (!r) throw Exit{kExitBadInput, args.file + ": " + r.error().message()};
  print_answer("CSV", p.buffers.size(), *r, 1);
  if (!args.plan.empty()) {
    auto plan = oracle::interval_plan(p, r->offsets, r->upper_bound);
    if (!plan) throw Exit{kExitBadInput, plan.error().message()};
    write_plan(args.plan, *plan);
  }
  return r->status == oracle::OptimumStatus::Infeasible ? kExitFound : kExitOk;
}

// The best of the heuristic planners' placements of one device, in the
// oracle's units, as its starting upper bound; nullopt when none planned it.
// The oracle checks it with its own checker before using it, so a planner's
// invalid plan shows up as an error here too.
struct Incumbent {
  std::string planner;
  oracle::Offsets offsets;
  Bytes arena = 0;  // in units
};

std::optional<Incumbent> best_heuristic(const std::vector<std::pair<std::string, Plan>>& plans,
                                        const oracle::DevicePacking& d) {
  std::optional<Incumbent> best;
  for (const auto& [name, plan] : plans) {
    std::map<std::string, Bytes> place;
    for (const Placement& pl : plan.placements) place[pl.buffer] = pl.place;
    Incumbent c{name, {}, 0};
    bool complete = true;
    for (std::size_t k = 0; k < d.problem.items.size() && complete; ++k) {
      auto it = place.find(d.problem.items[k].name);
      complete = it != place.end() && it->second % kPlaceAlign == 0;
      if (!complete) break;
      // An item of no bytes takes no room anywhere; the oracle keeps those at 0.
      const Bytes units = d.problem.items[k].size == 0 ? 0 : it->second / kPlaceAlign;
      c.offsets.push_back(units);
      auto end = checked_add(units, d.problem.items[k].size);
      complete = end.has_value();
      if (complete) c.arena = std::max(c.arena, *end);
    }
    if (complete && (!best || c.arena < best->arena)) best = std::move(c);
  }
  return best;
}

int run_schedule(const OracleArgs& args, const Schedule& s, std::chrono::steady_clock::time_point start) {
  auto devices = oracle::schedule_packings(s);
  if (!devices) throw Exit{kExitBadInput, devices.error().message()};
  if (devices->empty()) fmt::print("nothing planned\n");
  std::vector<std::pair<std::string, Plan>> plans;
  for (const std::string& name : best_candidates()) {
    auto plan = make_planner(name)->plan(s);
    if (plan) plans.emplace_back(name, std::move(plan).value());
  }
  std::vector<oracle::Offsets> offsets;
  std::vector<Bytes> arenas;
  bool infeasible = false;
  for (const oracle::DevicePacking& d : *devices) {
    oracle::OptimumOptions options = options_for(args, start, kPlaceAlign);
    const std::optional<Incumbent> incumbent = best_heuristic(plans, d);
    if (incumbent) options.incumbent = incumbent->offsets;
    auto r = oracle::solve_optimum(d.problem, options);
    if (!r) throw Exit{kExitBadInput, fmt::format("{}: device {}: {}", args.file, d.device, r.error().message())};
    if (incumbent && r->upper_bound_by == "incumbent") r->upper_bound_by = "planner " + incumbent->planner;
    print_answer(d.device, d.buffers.size(), *r, kPlaceAlign);
    infeasible = infeasible || r->status == oracle::OptimumStatus::Infeasible;
    offsets.push_back(r->offsets);
    arenas.push_back(r->upper_bound);
  }
  if (!args.plan.empty()) {
    auto plan = oracle::schedule_plan(s, *devices, offsets, arenas);
    if (!plan) throw Exit{kExitBadInput, args.file + ": " + plan.error().message()};
    write_plan(args.plan, *plan);
  }
  return infeasible ? kExitFound : kExitOk;
}

void run_oracle(const OracleArgs& args) {
  const auto start = std::chrono::steady_clock::now();
  const Problem problem = load_problem(args.file);
  const int code = std::holds_alternative<IntervalProblem>(problem)
                       ? run_csv(args, std::get<IntervalProblem>(problem), start)
                       : run_schedule(args, std::get<Schedule>(problem), start);
  if (code != kExitOk) throw Exit{code, ""};
}

}  // namespace

void add_oracle_command(CLI::App& app) {
  auto args = std::make_shared<OracleArgs>();
  CLI::App* cmd = app.add_subcommand(
      "oracle",
      "Bound and prove the least arena of a schedule (per device, its planned buffers in "
      "256-byte units) or of a CSV interval problem (id,lower,upper,size; alignment 1), or "
      "decide whether it fits a capacity. Prints the lower bound (peak of live bytes, or "
      "proven by the search or Z3), the upper bound and who found it, the status and the "
      "time. Status: optimal (the bounds meet), feasible (fits the capacity, optimum not "
      "proven in time), infeasible (proven not to fit the capacity), unknown (time ran out "
      "with the bounds apart). Exit 0: optimal, feasible or unknown (read the status); "
      "1: infeasible at the capacity; 2: bad input.");
  cmd->add_option("file", args->file, "a .sched schedule, or a .csv interval problem")->required();
  cmd->add_option("--capacity", args->capacity,
                  "bytes per arena: decide whether the buffers fit, then seek the least arena "
                  "below it as time allows");
  cmd->add_option("--timeout", args->timeout, "seconds for the whole run")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("-o,--output", args->plan, "write the best placement found as a plan file");
  cmd->callback([args] { run_oracle(*args); });
}

}  // namespace planck::cli
