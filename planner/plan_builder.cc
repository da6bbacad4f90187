#include "planner/plan_builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "planner/planner.h"

namespace planck {

Result<std::vector<Bytes>> rounded_sizes(const Schedule& s, const std::vector<Lifetime>& lives) {
  std::vector<Bytes> out;
  out.reserve(lives.size());
  for (const Lifetime& l : lives) {
    auto r = rounded_size(s.storage[l.buffer]);
    if (!r) return r.error();
    out.push_back(*r);
  }
  return out;
}

std::vector<DeviceGroup> group_by_device(const Schedule& s, const std::vector<Lifetime>& lives) {
  std::vector<DeviceGroup> out;
  std::unordered_map<std::string_view, std::size_t> index;  // device -> position in out
  for (std::size_t i = 0; i < lives.size(); ++i) {
    const std::string& device = s.storage[lives[i].buffer].device;
    auto [it, fresh] = index.try_emplace(device, out.size());
    if (fresh) out.push_back({device, {}});
    out[it->second].buffers.push_back(i);
  }
  return out;
}

Result<Plan> build_plan(const Schedule& s, const std::vector<Lifetime>& lives,
                        const std::vector<Bytes>& place) {
  Plan plan;
  const std::vector<DeviceGroup> groups = group_by_device(s, lives);
  const std::vector<std::string> names = arena_names(s, groups.size());
  std::vector<std::size_t> arena_of(lives.size());
  for (std::size_t d = 0; d < groups.size(); ++d) {
    // Rule 7: an arena ends at the last byte its buffers reach, rounded up.
    Bytes size = 0;
    for (std::size_t i : groups[d].buffers) {
      const Storage& b = s.storage[lives[i].buffer];
      auto end = checked_add(place[i], b.phase);
      if (end) end = checked_add(*end, b.bytes);
      if (end) end = checked_round_up(*end, kPlaceAlign);
      if (!end) return overflow_error(b, "place + phase + bytes");
      size = std::max(size, *end);
      arena_of[i] = d;
    }
    plan.arenas.push_back({names[d], groups[d].device, size, {}});
  }
  for (std::size_t i = 0; i < lives.size(); ++i) {
    plan.placements.push_back({s.storage[lives[i].buffer].name, names[arena_of[i]], place[i], {}});
  }
  return plan;
}

std::vector<std::size_t> by_size_descending(const std::vector<PlannedBuffer>& buffers) {
  std::vector<std::size_t> order(buffers.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return buffers[a].size > buffers[b].size;
  });
  return order;
}

Result<Plan> plan_per_device(const Schedule& s, DevicePlacer place) {
  const std::vector<Lifetime> lives = planned_lifetimes(s);
  if (lives.empty()) return Plan{};
  auto sizes = rounded_sizes(s, lives);
  if (!sizes) return sizes.error();

  std::vector<Bytes> places(lives.size());
  for (const DeviceGroup& group : group_by_device(s, lives)) {
    std::vector<PlannedBuffer> buffers;
    buffers.reserve(group.buffers.size());
    for (std::size_t i : group.buffers) {
      buffers.push_back({&s.storage[lives[i].buffer], (*sizes)[i], lives[i].first, lives[i].last});
    }
    auto at = place(buffers);
    if (!at) return at.error();
    for (std::size_t k = 0; k < group.buffers.size(); ++k) places[group.buffers[k]] = (*at)[k];
  }
  return build_plan(s, lives, places);
}

}  // namespace planck
