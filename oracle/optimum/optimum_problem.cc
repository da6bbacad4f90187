#include "oracle/optimum/optimum_problem.h"

#include <algorithm>
#include <limits>
#include <numeric>
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
    if (keep(p.items[i])) keyed.emplace_back(p.items[i].alive.begin, i);
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
    if (item.alive.begin >= item.alive.end) {
      return Error{"", fmt::format("item {}: its lifetime [{}, {}) is empty", item.name,
                                   item.alive.begin, item.alive.end)};
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

Together::Together(std::size_t n, const std::vector<std::pair<std::size_t, std::size_t>>& pairs)
    : n_(n), bits_((n * n + 63) / 64 + 1, 0) {
  for (const auto& [a, b] : pairs) {
    bits_[(a * n + b) / 64] |= std::uint64_t{1} << ((a * n + b) % 64);
    bits_[(b * n + a) / 64] |= std::uint64_t{1} << ((b * n + a) % 64);
  }
}

namespace {

// A largest flow by Dinic's method over a network of few nodes.
class Flow {
 public:
  explicit Flow(std::size_t nodes) : edges_(nodes), level_(nodes), next_(nodes) {}
  void add(std::size_t from, std::size_t to, Bytes capacity) {
    edges_[from].push_back({to, capacity, edges_[to].size()});
    edges_[to].push_back({from, 0, edges_[from].size() - 1});
  }
  Bytes run(std::size_t s, std::size_t t) {
    Bytes total = 0;
    while (levels(s, t)) {
      std::fill(next_.begin(), next_.end(), 0);
      while (Bytes pushed = push(s, t, std::numeric_limits<Bytes>::max())) total += pushed;
    }
    return total;
  }

 private:
  struct Edge {
    std::size_t to;
    Bytes capacity;
    std::size_t back;
  };
  bool levels(std::size_t s, std::size_t t) {
    std::fill(level_.begin(), level_.end(), -1);
    std::vector<std::size_t> queue{s};
    level_[s] = 0;
    for (std::size_t k = 0; k < queue.size(); ++k) {
      for (const Edge& e : edges_[queue[k]]) {
        if (e.capacity > 0 && level_[e.to] < 0) {
          level_[e.to] = level_[queue[k]] + 1;
          queue.push_back(e.to);
        }
      }
    }
    return level_[t] >= 0;
  }
  // One augmenting path's flow along the levels, iteratively.
  Bytes push(std::size_t s, std::size_t t, Bytes limit) {
    std::vector<std::size_t> path;  // the edges taken, as node, edge index
    std::vector<std::size_t> nodes{s};
    while (!nodes.empty()) {
      const std::size_t at = nodes.back();
      if (at == t) {
        Bytes flow = limit;
        for (std::size_t k = 0; k < path.size(); ++k) flow = std::min(flow, edges_[nodes[k]][path[k]].capacity);
        for (std::size_t k = 0; k < path.size(); ++k) {
          Edge& e = edges_[nodes[k]][path[k]];
          e.capacity -= flow;
          edges_[e.to][e.back].capacity += flow;
        }
        return flow;
      }
      bool advanced = false;
      for (std::size_t& i = next_[at]; i < edges_[at].size(); ++i) {
        const Edge& e = edges_[at][i];
        if (e.capacity > 0 && level_[e.to] == level_[at] + 1) {
          path.push_back(i);
          nodes.push_back(e.to);
          advanced = true;
          break;
        }
      }
      if (advanced) continue;
      level_[at] = -1;  // a dead end
      nodes.pop_back();
      if (!path.empty()) {
        path.pop_back();
        ++next_[nodes.back()];
      }
    }
    return 0;
  }

  std::vector<std::vector<Edge>> edges_;
  std::vector<int> level_;
  std::vector<std::size_t> next_;
};

}  // namespace

Bytes conflict_lower_bound(const PackingProblem& p, std::string* by) {
  const std::size_t n = p.items.size();
  Bytes largest = 0;
  Bytes total = 0;
  for (const PackingItem& item : p.items) {
    largest = std::max(largest, item.size);
    total += item.size;  // at most kMaxTotalSize, by check_problem
  }
  if (n > kFlowItems || !p.conflicts) {
    if (by) *by = "largest buffer";
    return largest;
  }
  const Together together(n, *p.conflicts);
  std::vector<UnitItem> none(n);
  // Nodes: source, sink, then each item's out-node and in-node.
  Flow flow(2 + 2 * n);
  const std::size_t s = 0;
  const std::size_t t = 1;
  for (std::size_t i = 0; i < n; ++i) {
    if (p.items[i].size == 0) continue;
    flow.add(s, 2 + 2 * i, p.items[i].size);
    flow.add(3 + 2 * i, t, p.items[i].size);
    for (std::size_t j = i + 1; j < n; ++j) {
      if (p.items[j].size != 0 && !together(none, i, j)) flow.add(2 + 2 * i, 3 + 2 * j, total);
    }
  }
  if (by) *by = "heaviest conflicting set (flow)";
  return total - flow.run(s, t);
}

std::optional<Bytes> peak_live(const PackingProblem& p) {
  if (p.conflicts) return conflict_lower_bound(p);
  std::vector<Load> loads;
  loads.reserve(p.items.size());
  for (const PackingItem& item : p.items) loads.push_back({item.alive, item.size});
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
  if (p.conflicts) {
    for (const auto& [i, j] : *p.conflicts) {
      const bool empty = p.items[i].size == 0 || p.items[j].size == 0;
      if (!empty && offsets[i] < end[j] && offsets[j] < end[i]) {
        return fmt::format("items {} and {}, which conflict, share bytes: [{}, {}) and [{}, {})", p.items[i].name,
                           p.items[j].name, offsets[i], end[i], offsets[j], end[j]);
      }
    }
    return {};
  }
  // Every pair alive together, found by walking the items in order of start:
  // the items after one that start before it ends.
  const std::vector<std::size_t> order = by_start(p, [](const PackingItem&) { return true; });
  for (std::size_t x = 0; x < order.size(); ++x) {
    const std::size_t i = order[x];
    for (std::size_t y = x + 1; y < order.size() && p.items[order[y]].alive.begin < p.items[i].alive.end; ++y) {
      const std::size_t j = order[y];
      // Half-open byte ranges; an empty one (size 0) meets nothing.
      const bool empty = p.items[i].size == 0 || p.items[j].size == 0;
      if (!empty && offsets[i] < end[j] && offsets[j] < end[i]) {
        const PackingItem& a = p.items[std::min(i, j)];
        const PackingItem& b = p.items[std::max(i, j)];
        return fmt::format(
            "items {} and {}, both alive on [{}, {}), share bytes: [{}, {}) and [{}, {})", a.name,
            b.name, std::max(a.alive.begin, b.alive.begin), std::min(a.alive.end, b.alive.end), offsets[std::min(i, j)],
            end[std::min(i, j)], offsets[std::max(i, j)], end[std::max(i, j)]);
      }
    }
  }
  return {};
}

std::vector<std::vector<std::size_t>> independent_parts(const PackingProblem& p) {
  if (p.conflicts) {
    // The items joined by conflicts, by union-find; empty items alone.
    std::vector<std::size_t> root(p.items.size());
    std::iota(root.begin(), root.end(), std::size_t{0});
    const auto find = [&](std::size_t x) {
      while (root[x] != x) x = root[x] = root[root[x]];
      return x;
    };
    for (const auto& [i, j] : *p.conflicts) root[find(i)] = find(j);
    std::vector<std::vector<std::size_t>> parts;
    std::vector<std::size_t> part_of(p.items.size(), static_cast<std::size_t>(-1));
    for (std::size_t i = 0; i < p.items.size(); ++i) {
      if (p.items[i].size == 0) continue;
      std::size_t& at = part_of[find(i)];
      if (at == static_cast<std::size_t>(-1)) {
        at = parts.size();
        parts.emplace_back();
      }
      parts[at].push_back(i);
    }
    return parts;
  }
  const std::vector<std::size_t> order = by_start(p, [](const PackingItem& item) { return item.size > 0; });
  std::vector<std::vector<std::size_t>> parts;
  std::int64_t reach = 0;  // the latest end among the items of the current part
  for (std::size_t i : order) {
    const PackingItem& item = p.items[i];
    if (parts.empty() || item.alive.begin >= reach) {
      parts.emplace_back();
      reach = item.alive.end;
    }
    parts.back().push_back(i);
    reach = std::max(reach, item.alive.end);
  }
  for (auto& part : parts) std::sort(part.begin(), part.end());
  return parts;
}

}  // namespace planck::oracle
