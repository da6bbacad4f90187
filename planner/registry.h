#pragma once
// planner/'s planners, in one constant table: make_planner, planner_names,
// best's candidates and the oracle's upper bound are made from it. A planner
// built on parts above planner/ (the `optimal` planner, made of the oracle's
// search, docs/planners.md#the-other-planners) cannot be in it: the list a program offers, this
// table then `optimal`, is composed once in harness/planners.h.

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

}  // namespace planck
