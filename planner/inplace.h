#pragma once
// The in-place pairs a planner may use (docs/model-v2.md), as the planners
// read the rule: a top-level kernel's `inplace=OUT:IN` where IN's last entry
// and OUT's first are the kernel's (lifetimes as stretched by input, output
// and state), IN is neither output nor state, OUT neither input nor state,
// the kernel takes neither through a view as well, both are on one device
// with one phase, and OUT has no more bytes than IN. Given the same place in
// the same arena, the two may then share bytes. Internal to planner/; the
// checker reads the rule with code of its own.

#include <cstddef>
#include <vector>

#include "model/schedule.h"
#include "planner/rules.h"

namespace planck {

struct InPlaceLives {
  std::size_t out = 0;  // into the lifetimes
  std::size_t in = 0;
};

// The pairs of `lives` (planned_lifetimes(s)) that may share bytes, in
// order of the declarations; empty when the schedule declares none.
std::vector<InPlaceLives> inplace_pairs(const Schedule& s, const std::vector<Lifetime>& lives);

}  // namespace planck
