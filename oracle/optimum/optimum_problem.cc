#include "oracle/optimum/optimum_problem.h"

#include <algorithm>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "model/live_bytes.h"

namespace planck::oracle {
namespace {

// The indices of the items that `keep`, by start, equal starts in index
// order: a stable sort by start, done on (start, index) pairs, which the
// sort reads in place.
template <class Keep>
std::vector<std::size_t> by_start(const PackingProblem& p, Keep keep) {
  std::vector<std::pair<std::int64_t, std::size_t>> keyed;
  keyed.reserve(p.items.size());
  for (std::size_t i = 0; i < p.items.size(); ++i) {
    if (keep(p.items[i])) keyed.emplace_back(p.items[i].lower, i);
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<std::size_t> order;
  order.reserve(keyed.size());
  for (const auto& k : keyed) order.push_back(k.second);
  return order;
}

}  // namespace

Status check_problem(const PackingProblem& p) {
  Bytes total = 0;
  for (const PackingItem& item : p.items) {
    if (item.lower >= item.upper) {
      return Error{"", fmt::format("item {}: its lifetime [{}, {}) is empty", item.name,
                                   item.lower, item.upper)};
    }
    if (item.size > kMaxTotalSize - total) {
      return Error{"", fmt::format("item {}: the sizes up to it total more than 2^62, more "
                                   "than any arena the oracle takes",
                                   item.name)};
    }
    total += item.size;
  }
  return Ok{};
}

std::optional<Bytes> peak_live(const PackingProblem& p) {
  std::vector<Load> loads;
  loads.reserve(p.items.size());
  for (const PackingItem& item : p.items) loads.push_back({item.lower, item.upper, item.size});
  return peak_live_bytes(loads);
}

std::optional<Bytes> arena_size(const PackingProblem& p, const Offsets& offsets) {
  Bytes arena = 0;
  for (std::size_t i = 0; i < p.items.size() && i < offsets.size(); ++i) {
    std::optional<Bytes> end = checked_add(offsets[i], p.items[i].size);
    if (!end) return std::nullopt;
    arena = std::max(arena, *end);
  }
  return arena;
}

std::string placement_error(const PackingProblem& p, const Offsets& offsets,
                            std::optional<Bytes> capacity) {
  if (offsets.size() != p.items.size()) {
    return fmt::format("{} offsets for {} items", offsets.size(), p.items.size());
  }
  std::vector<Bytes> end(p.items.size());
  for (std::size_t i = 0; i < p.items.size(); ++i) {
    std::optional<Bytes> e = checked_add(offsets[i], p.items[i].size);
    if (!e) {
      return fmt::format("item {}: offset {} + size {} overflows", p.items[i].name, offsets[i],
                         p.items[i].size);
    }
    if (capacity && *e > *capacity) {
      return fmt::format("item {}: [{}, {}) passes the capacity {}", p.items[i].name,
                         offsets[i], *e, *capacity);
    }
    end[i] = *e;
  }
  // Every pair alive together, found by walking the items in order of start:
  // the items after one that start before it ends.
  const std::vector<std::size_t> order = by_start(p, [](const PackingItem&) { return true; });
  for (std::size_t x = 0; x < order.size(); ++x) {
    const std::size_t i = order[x];
    for (std::size_t y = x + 1; y < order.size() && p.items[order[y]].lower < p.items[i].upper; ++y) {
      const std::size_t j = order[y];
      // Half-open byte ranges; an empty one (size 0) meets nothing.
      const bool empty = p.items[i].size == 0 || p.items[j].size == 0;
      if (!empty && offsets[i] < end[j] && offsets[j] < end[i]) {
        const PackingItem& a = p.items[std::min(i, j)];
        const PackingItem& b = p.items[std::max(i, j)];
        return fmt::format(
            "items {} and {}, both alive on [{}, {}), share bytes: [{}, {}) and [{}, {})", a.name,
            b.name, std::max(a.lower, b.lower), std::min(a.upper, b.upper), offsets[std::min(i, j)],
            end[std::min(i, j)], offsets[std::max(i, j)], end[std::max(i, j)]);
      }
    }
  }
  return {};
}

std::vector<std::vector<std::size_t>> independent_parts(const PackingProblem& p) {
  const std::vector<std::size_t> order = by_start(p, [](const PackingItem& item) { return item.size > 0; });
  std::vector<std::vector<std::size_t>> parts;
  std::int64_t reach = 0;  // the latest end among the items of the current part
  for (std::size_t i : order) {
    const PackingItem& item = p.items[i];
    if (parts.empty() || item.lower >= reach) {
      parts.emplace_back();
      reach = item.upper;
    }
    parts.back().push_back(i);
    reach = std::max(reach, item.upper);
  }
  for (auto& part : parts) std::sort(part.begin(), part.end());
  return parts;
}

}  // namespace planck::oracle
