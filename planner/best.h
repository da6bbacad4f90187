#pragma once
// What the "best" planner (docs/planners.md#the-other-planners) keeps of its candidates' plans, for a caller that
// has planned with each candidate already (the fuzz targets judge every
// candidate's plan, and so best's, without planning anything twice).

#include <cstddef>
#include <span>

#include "model/plan.h"
#include "model/result.h"

namespace planck {

// Of the results of best_candidates() (registry.h), in that order, the index
// of the one best gives: the plan with the fewest arena bytes in total, the
// earliest on a tie; when every one failed, 0, the first one's error.
std::size_t best_of(std::span<const Result<Plan>> results);

}  // namespace planck
