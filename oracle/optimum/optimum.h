#pragma once
// The optimum oracle (docs/verification.md#the-optimum-oracle): the least arena of a packing problem,
// or whether it fits a given capacity, with proof, under a time limit.
//
//  - Lower bound: the peak of live bytes. Upper bound: greedy by size
//    (oracle/optimum/optimum_greedy.h), or the incumbent placement if it is
//    better. Every stage heeds the time limit: a part whose greedy placement
//    is not done by then has its items stacked (the sum of their sizes), and
//    the answer is `unknown` with the bounds found so far.
//  - The timeline is cut where no item is alive across, and each part is
//    solved apart, its sizes divided by their gcd: the least arena is the
//    largest of the parts' least arenas.
//  - A capacity c is tried on every part whose bounds do not settle it, by
//    the skyline search of oracle/optimum/skyline_search.h (briefly: it finds
//    placements that waste no room, and proves nothing), then the search of
//    oracle/optimum/search.h; on parts of at most z3_max_items
//    items, Z3 (oracle/optimum/z3_packing.h) confirms the search's proofs that
//    a part does not fit, and answers in its place when the search is off.
//  - With a capacity, that one only. Without, the capacities tried: the
//    lower bound (often the answer), rising in doubling steps until one fits, then
//    bisection between the bounds. Each answer moves a bound: a placement
//    that fits lowers the upper bound to its arena, a proof that none fits
//    raises the lower bound past c. The first trial, at the lower bound, gets
//    three quarters of the time, each later one half the time left (see
//    minimize() in optimum.cc), so one hard capacity cannot take it all.
//  - Every placement is judged by the plain checker of
//    oracle/optimum/optimum_problem.h before it is believed; one that fails
//    it is a bug in an engine, reported as an error, never as an answer.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "oracle/optimum/optimum_problem.h"
#include "oracle/optimum/search.h"
#include "oracle/optimum/z3_packing.h"
#include "model/result.h"

namespace planck::oracle {

enum class OptimumStatus {
  Optimal,     // lower bound == upper bound (within the capacity, when one is given)
  Feasible,    // a placement within the capacity, its optimality not proven in time
  Infeasible,  // proven: no placement fits the capacity
  Unknown,     // the time ran out with the bounds apart
};
std::string_view status_name(OptimumStatus s);  // "optimal", "feasible", ...

struct OptimumOptions {
  // Without a capacity, the least arena is sought. With one, only whether
  // the items fit in it: the search stops at the first placement within it
  // (status feasible, or optimal when that meets the lower bound).
  std::optional<Bytes> capacity;
  double timeout_seconds = 10;
  // A known placement, e.g. a planner's; an invalid one is an error.
  std::optional<Offsets> incumbent;
  bool use_search = true;
  bool use_z3 = true;
  // Z3 works on parts of at most this many items only.
  std::size_t z3_max_items = 40;
  // The most time one Z3 confirmation of the search's proof may take.
  double z3_confirm_seconds = 1;
  SearchSwitches search;
  Z3Switches z3;
};

struct OptimumResult {
  OptimumStatus status = OptimumStatus::Unknown;
  Bytes peak = 0;              // the most bytes alive at once, the first lower bound
  Bytes lower_bound = 0;       // proven: no smaller arena fits
  Bytes upper_bound = 0;       // the arena of `offsets`
  std::string lower_bound_by;  // "peak", "search", "z3" or "search and z3"
  std::string upper_bound_by;  // "greedy by size", "stacked", "incumbent", "skyline search", "search" or "z3"
  Offsets offsets;             // the best placement found; it passed the checker
  std::size_t parts = 0;       // independent parts of the timeline
  double seconds = 0;
};

// Errors: a problem that fails check_problem, an invalid incumbent, or an
// engine's placement that fails the checker (a bug, "internal error: ...").
Result<OptimumResult> solve_optimum(const PackingProblem& p, const OptimumOptions& options = {});

}  // namespace planck::oracle
