#pragma once
// Greedy shrinking of a failing schedule: the smallest schedule the
// shrinker reaches that still fails the same way
// (docs/verification.md#planck-minimize).

#include <chrono>
#include <cstddef>
#include <functional>

#include "model/schedule.h"

namespace planck::gen {

struct MinimizeLimits {
  std::size_t max_tries = 100000;  // calls of still_fails
  std::chrono::steady_clock::duration max_time = std::chrono::minutes(5);
};

struct Minimized {
  Schedule schedule;       // fails, and is no larger than the schedule given
  std::size_t shrinks = 0;  // shrinks taken on the way
  std::size_t tries = 0;    // calls of still_fails
  // No shrink of `schedule` (gen/shrink.h) still fails; false when a
  // limit stopped the search first.
  bool minimal = false;
};

// Starting from `failing`, for which still_fails holds, takes the first
// shrink that still fails, again and again, until none does or a limit is
// reached. After a shrink is taken the next round starts at the same place
// in the new list of shrinks (the earlier ones failed just before), and
// goes round to the start, so a schedule is called minimal only once every
// one of its shrinks has been tried.
Minimized minimize(Schedule failing, const std::function<bool(const Schedule&)>& still_fails,
                   const MinimizeLimits& limits = {});

}  // namespace planck::gen
