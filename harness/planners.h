#pragma once
// The planners a program offers by name (--planner, `planck planners`;
// docs/planners.md#planners): planner/'s table (planner/registry.h), then
// `optimal` (harness/optimal_planner.h), which is built on planner/ and
// oracle/ together and so cannot be in that table. The list is composed here,
// once, where both are linked, and is constant: a program takes it as it is,
// with nothing to add to it first.

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "planner/planner.h"
#include "planner/registry.h"

namespace planck::harness {

// planner_registry()'s entries, then optimal_planner_entry().
std::span<const PlannerEntry> offered_planners();

// Their names, in that order.
std::vector<std::string> offered_planner_names();

// The planner offered under `name`, or nullptr when there is none.
std::unique_ptr<Planner> make_offered_planner(std::string_view name);

}  // namespace planck::harness
