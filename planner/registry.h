#pragma once
// Every planner, in one table: make_planner, planner_names, best's
// candidates, the oracle's upper bound, the command line's choices and
// `planck planners` are all made from it. The table holds planner/'s own
// planners; a planner built on parts above planner/ (the `optimal` planner,
// made of the oracle's search, SPEC section 6) is added to it by whoever
// links both, through register_planner.

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "planner/planner.h"

namespace planck {

struct PlannerEntry {
  std::string_view name;
  std::string_view description;  // one line
  bool in_best = false;           // one of the planners `best` runs and picks from
  std::unique_ptr<Planner> (*make)() = nullptr;
};

// The reference planner first. The order is planner_names' and the order in
// which best tries its candidates (the earliest wins a tie).
std::span<const PlannerEntry> planner_registry();

// The names of the entries with in_best, in the registry's order.
std::vector<std::string> best_candidates();

// Adds an entry after the others (in the order of the calls), never one of
// best's candidates whatever its in_best says, since it may be built on best.
// Its name and description must outlive every use (string literals). Returns
// false, adding nothing, when the name is taken. Not thread-safe: call it at
// the start of a program, before planners are looked up.
bool register_planner(const PlannerEntry& entry);

}  // namespace planck
