#include "oracle/optimum/brute_force.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include <fmt/format.h>

namespace planck::oracle {

Result<BruteForceAnswer> brute_force_least_arena(const std::vector<UnitItem>& items) {
  if (items.size() > kBruteForceMaxItems) {
    return Error{"", fmt::format("brute force takes at most {} items, not {}", kBruteForceMaxItems,
                                 items.size())};
  }
  std::vector<std::size_t> order(items.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  BruteForceAnswer best{std::numeric_limits<std::int64_t>::max(), {}};
  std::vector<std::int64_t> offsets(items.size(), 0);
  do {
    std::int64_t arena = 0;
    for (std::size_t k = 0; k < order.size(); ++k) {
      const std::size_t i = order[k];
      std::int64_t at = 0;
      for (std::size_t e = 0; e < k; ++e) {
        const std::size_t j = order[e];
        if (alive_together(items[i], items[j])) at = std::max(at, offsets[j] + items[j].size);
      }
      offsets[i] = at;
      arena = std::max(arena, at + items[i].size);
    }
    if (arena < best.arena) best = {arena, offsets};
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}

}  // namespace planck::oracle
