#pragma once
// greedy's and bysize's placement rules as docs/planners.md#the-other-planners states them, each
// buffer compared with every buffer placed before it: O(n^2) per device. Not
// in the registry: they are the oracles that the fast planners of the same
// names are tested against, plan for plan, byte for byte.

#include <memory>
#include <string_view>

#include "planner/planner.h"

namespace planck {

std::unique_ptr<Planner> make_greedy_plain_planner();  // "greedy_plain", greedy_plain.cc
std::unique_ptr<Planner> make_bysize_plain_planner();  // "bysize_plain", bysize_plain.cc

// The plain twin of the planner called name ("greedy" or "bysize"), or
// nullptr when it has none.
std::unique_ptr<Planner> plain_twin(std::string_view name);

}  // namespace planck
