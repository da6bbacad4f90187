#pragma once
// The oracle's own upper bound: greedy by size for offsets (Pisarchyk and
// Lee, "Efficient Memory Management for Deep Neural Net Inference", 2020,
// arXiv 2001.03288). Items by size, largest first; each goes into a gap
// between the already placed items alive with it that holds it, else above
// them all. It is written here rather than taken from planner/, so that the
// oracle's bounds do not lean on the code they judge.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "oracle/optimum/optimum_problem.h"

namespace planck::oracle {

// Which gap an item takes when several hold it.
enum class GapRule {
  Lowest,    // the lowest (docs/planners.md#the-other-planners, the `bysize` planner)
  Smallest,  // the smallest, lowest first on ties (the paper's best fit)
};

// A placement by greedy by size with the given gap rule; ties in size go to
// the longer lifetime, then to the lower index. It takes time quadratic in
// the items; nullopt when `until` passes before it is done (the clock is
// read every 64 items, so fewer are always placed).
std::optional<std::vector<std::int64_t>> greedy_by_size(const std::vector<UnitItem>& items, GapRule rule,
                                                        Clock::time_point until = Clock::time_point::max(),
                                                        const Together& together = {});

// The better of the two gap rules' placements (the one with the smaller
// arena, Lowest on ties), or the only one done by `until`; nullopt when
// neither is.
std::optional<std::vector<std::int64_t>> best_greedy_by_size(const std::vector<UnitItem>& items,
                                                             Clock::time_point until = Clock::time_point::max(),
                                                             const Together& together = {});

// Each item above the one before it, in index order: always valid, its arena
// the sum of the sizes. The upper bound when there is no time for better.
std::vector<std::int64_t> stacked(const std::vector<UnitItem>& items);

}  // namespace planck::oracle
