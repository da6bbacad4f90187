#include "planner/per_device.h"

#include <algorithm>
#include <numeric>

#include "planner/rules.h"

namespace planck {

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
  PLANCK_ASSIGN(const std::vector<Bytes> sizes, rounded_sizes(s, lives));
  const std::vector<DeviceGroup> devices = group_by_device(s, lives);

  std::vector<Bytes> places(lives.size());
  for (const DeviceGroup& group : devices) {
    std::vector<PlannedBuffer> buffers;
    buffers.reserve(group.buffers.size());
    for (std::size_t i : group.buffers) {
      buffers.push_back({&s.storage[lives[i].buffer], sizes[i], lives[i].first, lives[i].last});
    }
    PLANCK_ASSIGN(const std::vector<Bytes> at, place(buffers));
    for (std::size_t k = 0; k < group.buffers.size(); ++k) places[group.buffers[k]] = at[k];
  }
  return plan_result(s, lives, devices, places);
}

}  // namespace planck
