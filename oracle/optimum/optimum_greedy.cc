#include "oracle/optimum/optimum_greedy.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace planck::oracle {
namespace {

std::int64_t arena_of(const std::vector<UnitItem>& items, const std::vector<std::int64_t>& offsets) {
  std::int64_t arena = 0;
  for (std::size_t i = 0; i < items.size(); ++i) arena = std::max(arena, offsets[i] + items[i].size);
  return arena;
}

}  // namespace

std::optional<std::vector<std::int64_t>> greedy_by_size(const std::vector<UnitItem>& items, GapRule rule,
                                                        Clock::time_point until, const Together& together) {
  // The clock is read once every this many items, each costing a pass over
  // the placed ones; a problem of fewer items is always placed whole.
  constexpr std::size_t kItemsPerClockRead = 64;
  std::vector<std::size_t> order(items.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  // Widths in unsigned arithmetic, where upper - lower cannot wrap.
  auto width = [&](std::size_t i) {
    return static_cast<std::uint64_t>(items[i].alive.end) - static_cast<std::uint64_t>(items[i].alive.begin);
  };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (items[a].size != items[b].size) return items[a].size > items[b].size;
    return width(a) > width(b);
  });
  std::vector<std::int64_t> offsets(items.size(), 0);
  std::vector<std::size_t> placed;
  std::vector<std::size_t> neighbours;  // placed items alive with the current one
  for (std::size_t i : order) {
    if (!placed.empty() && placed.size() % kItemsPerClockRead == 0 && Clock::now() >= until) return std::nullopt;
    neighbours.clear();
    for (std::size_t j : placed) {
      if (together(items, i, j)) neighbours.push_back(j);
    }
    std::sort(neighbours.begin(), neighbours.end(),
              [&](std::size_t a, std::size_t b) { return offsets[a] < offsets[b]; });
    std::int64_t best = -1;
    std::int64_t best_gap = std::numeric_limits<std::int64_t>::max();
    std::int64_t top = 0;  // the highest end among the neighbours seen so far
    for (std::size_t j : neighbours) {
      const std::int64_t gap = offsets[j] - top;
      if (gap >= items[i].size && gap < best_gap) {
        best = top;
        best_gap = gap;
        if (rule == GapRule::Lowest) break;
      }
      top = std::max(top, offsets[j] + items[j].size);
    }
    offsets[i] = best >= 0 ? best : top;
    placed.push_back(i);
  }
  return offsets;
}

std::optional<std::vector<std::int64_t>> best_greedy_by_size(const std::vector<UnitItem>& items,
                                                             Clock::time_point until, const Together& together) {
  std::optional<std::vector<std::int64_t>> lowest = greedy_by_size(items, GapRule::Lowest, until, together);
  if (!lowest) return std::nullopt;
  std::optional<std::vector<std::int64_t>> smallest = greedy_by_size(items, GapRule::Smallest, until, together);
  if (!smallest) return lowest;
  return arena_of(items, *smallest) < arena_of(items, *lowest) ? smallest : lowest;
}

std::vector<std::int64_t> stacked(const std::vector<UnitItem>& items) {
  std::vector<std::int64_t> offsets;
  std::int64_t top = 0;
  for (const UnitItem& item : items) {
    offsets.push_back(top);
    top += item.size;
  }
  return offsets;
}

}  // namespace planck::oracle
