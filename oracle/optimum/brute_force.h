#pragma once
// The brute-force oracle (docs/verification.md#the-optimum-oracle): the least arena of a few items by
// exhaustive enumeration, to check the Z3 encoding and the search against.
//
// Every placement can be pushed down, item by item, until each item rests at
// offset 0 or on the end of an item alive with it, without growing the arena.
// Listing the items of such a placement by offset, each one's offset is the
// highest end of the earlier items alive with it. So trying every order of
// the items, placing each at the highest end of the earlier ones alive with
// it, meets an optimal placement: n! orders, fine for n <= 7.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "oracle/optimum/optimum_problem.h"
#include "model/result.h"

namespace planck::oracle {

inline constexpr std::size_t kBruteForceMaxItems = 7;

struct BruteForceAnswer {
  std::int64_t arena = 0;
  std::vector<std::int64_t> offsets;  // a placement with that arena
};

// The least arena; an error for more than kBruteForceMaxItems items.
Result<BruteForceAnswer> brute_force_least_arena(const std::vector<UnitItem>& items);

}  // namespace planck::oracle
