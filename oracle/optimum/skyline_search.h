#pragma once
// A search for a placement that wastes no room where there is none to waste:
// the oracle's fast way to a placement at the peak, which proves the peak the
// least arena (a perfect packing, or MiniMalloc's benchmarks, whose least
// arena is their peak). It complements the complete search of
// oracle/optimum/search.h, which proves what does not fit but, placing items
// in order of offset over the whole timeline, can try the choices of far
// apart sections between a wrong choice and its failure.
//
// The timeline is cut at every time an item starts or ends; each piece's
// floor is the top of the items placed over it. At each step the lowest
// stretch of pieces with items left (the leftmost on ties) is filled from its
// left end: an item that starts there and ends within the stretch goes at
// its height (first the longest, then the largest); or, when no item does
// and the piece has room to spare, the piece is raised to the lower of its
// neighbours, the room below it given up. A piece whose items left fill
// exactly the room above its floor has none to spare, so a wrong choice
// fails where it was made; and such a piece lower than a neighbour needs an
// item left that starts (or ends) at it and can rest on its floor, so a
// choice that leaves none fails at once. Depth first, on a stack of its own.
//
// It proves nothing when it finds nothing: Timeout after `node_limit`
// choices or at `deadline`, whichever comes first; never Infeasible.

#include <cstdint>
#include <vector>

#include "oracle/optimum/optimum_problem.h"

namespace planck::oracle {

Fit skyline_fit(const std::vector<UnitItem>& items, std::int64_t capacity, std::int64_t node_limit,
                Clock::time_point deadline);

}  // namespace planck::oracle
