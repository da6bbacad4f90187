// Bytes decoded into a tiny packing problem (at most kBruteForceMaxItems
// items, small sizes and lifetimes), solved three ways: the optimum oracle
// with the search alone, with Z3 alone, and by brute force. Each oracle run
// must prove its answer optimal, give a placement the plain checker accepts,
// and agree with brute force on the least arena. Then the bound against
// every planner: the problem as a schedule of one buffer of 256 bytes per
// unit of size (model/interval_schedule.h), where the planners' 256-byte
// rules place exactly as the problem's alignment 1 does, is planned by each
// planner of the registry; the oracle's lower bound, and its optimum when
// proven, must be at most each planner's arena in units, and so must brute
// force's least arena. Any disagreement
// aborts, with the problem as CSV.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "gen/choices.h"
#include "model/interval_schedule.h"
#include "model/intervals.h"
#include "model/live_bytes.h"
#include "oracle/optimum/brute_force.h"
#include "oracle/optimum/optimum.h"
#include "oracle/optimum/optimum_problem.h"
#include "planner/planner.h"

namespace {

using namespace planck;
using namespace planck::oracle;

[[noreturn]] void fail(const std::string& what, const PackingProblem& p) {
  std::fprintf(stderr, "oracle: %s\nid,lower,upper,size\n", what.c_str());
  for (const PackingItem& item : p.items) {
    std::fprintf(stderr, "%s,%lld,%lld,%llu\n", item.name.c_str(), static_cast<long long>(item.alive.begin),
                 static_cast<long long>(item.alive.end), static_cast<unsigned long long>(item.size));
  }
  std::abort();
}

// The oracle's answer with one engine, checked against brute force's least
// arena.
OptimumResult agree(const char* engine, const PackingProblem& p, const OptimumOptions& options,
                    std::int64_t least) {
  Result<OptimumResult> r = solve_optimum(p, options);
  if (!r) fail(std::string(engine) + ": " + r.error().message(), p);
  // Tiny problems are proven within the time limit; a slow machine's
  // Unknown is no disagreement.
  if (r->status == OptimumStatus::Unknown) return *r;
  if (r->status != OptimumStatus::Optimal) fail(std::string(engine) + ": status " + std::string(status_name(r->status)), p);
  if (const std::string e = placement_error(p, r->offsets); !e.empty()) fail(std::string(engine) + ": " + e, p);
  if (r->upper_bound != static_cast<Bytes>(least) || r->lower_bound != static_cast<Bytes>(least)) {
    fail(std::string(engine) + ": least arena " + std::to_string(r->lower_bound) + ".." +
             std::to_string(r->upper_bound) + ", brute force " + std::to_string(least),
         p);
  }
  return *r;
}

// Each planner's arena for p, in units, against the oracle's bounds (the
// lower bound always, the optimum when proven) and brute force's least arena.
void bound_every_planner(const PackingProblem& p, const IntervalProblem& rows,
                         const std::vector<OptimumResult>& answers, std::int64_t least) {
  Result<Schedule> s = interval_schedule(rows, kPlaceAlign);
  if (!s) fail("the problem as a schedule: " + s.error().message(), p);
  for (const std::string& name : planner_names()) {
    Result<Plan> plan = make_planner(name)->plan(*s);
    if (!plan) fail("planner " + name + ": " + plan.error().message(), p);
    const Bytes arena = arena_total(*plan).value_or(~Bytes{0});
    // Places and sizes are multiples of 256 bytes: one unit each.
    const Bytes units = (arena + kPlaceAlign - 1) / kPlaceAlign;
    if (units < static_cast<Bytes>(least)) {
      fail("planner " + name + " places it in " + std::to_string(units) + " units, below brute force's " +
               std::to_string(least),
           p);
    }
    for (const OptimumResult& r : answers) {
      const bool proven = r.status == OptimumStatus::Optimal;
      if (r.lower_bound > units || (proven && r.upper_bound > units)) {
        fail("planner " + name + " places it in " + std::to_string(units) + " units, below the oracle's " +
                 (proven ? "optimum " + std::to_string(r.upper_bound)
                         : "lower bound " + std::to_string(r.lower_bound)),
             p);
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gen::ByteChoices choices(std::span<const std::uint8_t>(data, size));
  PackingProblem p;
  IntervalProblem rows;
  std::vector<UnitItem> units;
  const std::size_t n = choices.draw(0, kBruteForceMaxItems);
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t lower = choices.between(0, 7);
    const std::int64_t upper = lower + choices.between(1, 4);
    const std::int64_t bytes = choices.between(1, 24);
    p.items.push_back({"i" + std::to_string(i), static_cast<Bytes>(bytes), lower, upper});
    units.push_back({bytes, lower, upper});
    rows.buffers.push_back({p.items.back().name, lower, upper, static_cast<Bytes>(bytes), static_cast<int>(i) + 2});
  }
  Result<BruteForceAnswer> brute = brute_force_least_arena(units);
  if (!brute) fail("brute force: " + brute.error().message(), p);

  OptimumOptions search_only{.timeout_seconds = 5, .use_z3 = false};
  const OptimumResult by_search = agree("search", p, search_only, brute->arena);
  OptimumOptions z3_only{.timeout_seconds = 5, .use_search = false};
  const OptimumResult by_z3 = agree("z3", p, z3_only, brute->arena);
  bound_every_planner(p, rows, {by_search, by_z3}, brute->arena);
  return 0;
}
