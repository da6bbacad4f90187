#pragma once
// The oracle's own search (docs/verification.md#the-optimum-oracle) for a placement within a capacity, after MiniMalloc
// (Moffitt, "MiniMalloc: A Lightweight Memory Allocator for
// Hardware-Accelerated Machine Learning", ASPLOS 2023). It decides, exactly,
// whether the items of one part fit in the capacity.
//
// It places items one at a time, each at its lowest offset above the placed
// items alive with it (its "minimum offset"), in non-decreasing order of
// offset. Every placement can be pushed down into that canonical form without
// growing, so the search is complete over canonical placements only. On top
// of that, each technique below is a switch (all on by default) so that tests
// can hold every combination to the same answers:
//
//  - sections: the timeline cut into maximal ranges with the same live set.
//    A section's floor (the highest end of its placed items, or the lowest
//    minimum offset among its unplaced ones) plus its unplaced bytes must fit
//    the capacity, else the branch is dead;
//  - dominance: an item is not placed at or above the lowest minimum offset
//    + size of the unplaced items, since that item would then fit below it;
//  - hatless pruning: when the placed item has no unplaced item alive with
//    it and its subtree failed, its siblings fail too;
//  - dynamic decomposition: when the placed items cut the timeline so that no
//    unplaced item crosses some point, the two sides are solved apart;
//  - round robin: several static orders (by width, area and section total),
//    each under a node limit that doubles until one finishes;
//  - tight sections: a section whose unplaced items exactly fill the room
//    left above the offset just placed must have one of them at that offset,
//    so the branch dies once no unplaced item of it can still go there (in
//    canonical order: one resting at that offset, later in the static order).
//    When the capacity is the peak (a perfect packing, or MiniMalloc's
//    benchmarks) every section at the peak is tight, and this keeps the
//    search from trying the choices of unrelated sections between a choice
//    and its failure.
//
// The depth-first search keeps its path on an explicit stack, so a part of
// any number of items costs heap, never call stack.

#include <cstdint>
#include <memory>
#include <vector>

#include "oracle/optimum/optimum_problem.h"

namespace planck::oracle {

// Some techniques rest on others, and are off whatever they say when those
// are: monotonic_floor needs canonical_only; hatless_pruning, under
// canonical_only, needs dynamic_ordering (the items it skips must be those no
// lower than the one that failed); tight_sections needs monotonic_floor and
// unallocated_floor.
struct SearchSwitches {
  bool canonical_only = true;       // offsets placed in non-decreasing order only
  bool section_inference = true;    // a section's floor + unplaced bytes must fit
  bool dynamic_ordering = true;     // try items by minimum offset, then by static order
  bool check_dominance = true;      // never leave a gap an unplaced item would fit
  bool unallocated_floor = true;    // a section's floor is at least its unplaced items' minimum offsets
  bool monotonic_floor = true;      // later items go no lower than the last placed one
  bool hatless_pruning = true;      // see above
  bool dynamic_decomposition = true;
  bool round_robin = true;          // several static orders under doubling node limits
  bool tight_sections = true;       // see above
};

// Counts over every fit() since construction.
struct SearchStats {
  std::int64_t nodes = 0;       // placements tried
  std::int64_t backtracks = 0;  // nodes whose every child failed
};

// Built once per part (the sections and the overlaps), then asked about as
// many capacities as needed.
class PlacementSearch {
 public:
  // Items as in one part of a problem that passed check_problem: sizes at
  // least 1 and totalling at most kMaxTotalSize, lower < upper.
  explicit PlacementSearch(std::vector<UnitItem> items, SearchSwitches switches = {});
  ~PlacementSearch();
  PlacementSearch(const PlacementSearch&) = delete;
  PlacementSearch& operator=(const PlacementSearch&) = delete;

  // Whether the items fit in `capacity` units; Timeout once `deadline` passes.
  Fit fit(std::int64_t capacity, Clock::time_point deadline);

  const SearchStats& stats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace planck::oracle
