#pragma once
// The shrinker: the edits that make a schedule smaller while keeping it
// valid, so that a failure shrinks to the few entries that cause it
// (docs/verification.md#planck-minimize).
//
// It edits the schedule itself rather than the random choices that made it:
// it works on any schedule, a user's included, and its shrinks keep the
// cross references sound (a shrink view fits its base, a bitcast divides it).

#include <cstddef>
#include <vector>

#include "model/schedule.h"

namespace planck::gen {

// The shrinks of a schedule, most effective first: fewer entries (halves of
// each body first, down to single entries), loops flattened into their
// bodies or collapsed into one kernel that takes what they take, flag loops
// made ranges, copies made kernels, fewer arguments, view layers dropped,
// unused declarations dropped (all at once, then one by one), model v2's
// words dropped (`inplace=` pairs, device lines, capacities, aligns other
// than 256, input/output/state), then simpler storage (sizes to 0, 256 or
// half, no phase, not held, int8, fewer distinct devices), then shrink views
// that start at 0. Each is a valid schedule
// strictly smaller than the original by shrink_measure.
//
// The shrinks are listed as small edits and each schedule is made when asked
// for, so that a large schedule's shrinks are never all held at once.
class Shrinks {
 public:
  explicit Shrinks(Schedule original);
  Shrinks(Shrinks&&) noexcept;
  Shrinks& operator=(Shrinks&&) noexcept;
  ~Shrinks();

  std::size_t size() const;
  // The i-th shrink, i < size().
  Schedule operator[](std::size_t i) const;

  struct Edit;  // one edit of the original, defined with the shrinker

 private:
  Schedule original_;
  std::vector<Edit> edits_;
};

// Every shrink of `s`, in the order of Shrinks: for schedules small enough
// to hold them all.
std::vector<Schedule> shrink_candidates(const Schedule& s);

// What every shrink makes smaller, compared lexicographically: entries at
// every depth, flag loops, copies, arguments, view layers, declarations,
// model v2's words (device lines, capacities, aligns other than 256, io
// words, `inplace=` pairs), the sum of the bit lengths of the sizes, nonzero phases, held buffers, dtypes
// other than int8 (declared or bitcast), the sum of the devices' ranks in
// name order, shrink views that start past 0.
std::vector<std::size_t> shrink_measure(const Schedule& s);

}  // namespace planck::gen
