#pragma once
// A search (docs/verification.md#the-optimum-oracle) for a placement that wastes no room where there is none to waste:
// the oracle's fast way to a placement at the peak, which proves the peak the
// least arena (a perfect packing, or MiniMalloc's benchmarks, whose least
// arena is their peak). It complements the complete search of
// oracle/optimum/search.h, which proves what does not fit but, placing items
// in order of offset over the whole timeline, can try the choices of far
// apart sections between a wrong choice and its failure.
//
// The timeline is cut at every time an item starts or ends; each piece's
// floor is the top of the items placed over it. Every stretch of pieces at
// one height lower than both its neighbours has two points that must be
// covered: its lowest cell at the left end, by an item that starts there and
// ends within the stretch, and at the right end, by one that ends there and
// starts within it (or, when the piece has room to spare, the point is left
// empty and the piece raised to the lower of its neighbours). Of all these
// points the search branches on the one with the fewest ways to cover it,
// the largest candidates first, then the longest, and a point with none is a
// dead end at once. Twins (same size, same pieces) are tried once, and of
// two items over the same pieces one right on top of the other only one
// order is tried. A piece whose items left fill exactly the room above its
// floor has none to spare, so a wrong choice fails where it was made; and
// such a piece lower than a neighbour needs an item left that starts (or
// ends) at it and can rest on its floor, so a choice that leaves none fails
// at once.
//
// Its run time on a given order of choices is heavy-tailed, so it runs a
// portfolio: eight variants (the timeline forward and reversed; the
// leftmost, the lowest, or the lowest of the points with at least 3 or 5
// ways among the hardest) and four repeats, one after another, each run cut
// off at 1000 x Luby's sequence (1 1 2 1 1 2 4 ...) choices; every run but
// the first of each variant puts a random candidate first at some of its
// points. Depth first, on a stack of its own; memory linear in the items and
// pieces.
//
// After the first run of a question, the runs are spread over one thread a
// core (up to four). The lowest run that succeeds (or tries every choice)
// decides, so that the answer is the one a single thread would give, sooner.
//
// It proves nothing when it finds nothing: Timeout after `node_limit`
// choices, at `deadline`, or when a run has tried every choice, whichever
// comes first; never Infeasible.

#include <cstdint>
#include <map>
#include <vector>

#include "oracle/optimum/optimum_problem.h"

namespace planck::oracle {

// The search over one part's items, kept between questions: asked a
// capacity again, it goes on with the portfolio's next run for it (one
// counter per capacity asked).
class SkylineSearch {
 public:
  explicit SkylineSearch(std::vector<UnitItem> items);

  Fit fit(std::int64_t capacity, std::int64_t node_limit, Clock::time_point deadline);

 private:
  class Portfolio;

  std::vector<UnitItem> items_;
  std::vector<UnitItem> turned_;  // the same items, the timeline reversed
  std::map<std::int64_t, std::int64_t> next_run_;  // by capacity
};

// One question to a fresh search.
Fit skyline_fit(const std::vector<UnitItem>& items, std::int64_t capacity, std::int64_t node_limit,
                Clock::time_point deadline);

}  // namespace planck::oracle
