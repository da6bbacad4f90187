#include "planner/device_loads.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <utility>

#include "planner/rules.h"

namespace planck {

Result<std::vector<DeviceLoad>> device_loads(const Schedule& s) {
  const std::vector<Lifetime> lives = planned_lifetimes(s);
  PLANCK_ASSIGN(const SizesAndDevices both, sizes_and_devices(s, lives));  // rules 4 and 5
  const std::vector<Bytes>& sizes = both.sizes;
  const Devices& devices = both.devices;
  std::vector<DeviceLoad> out;
  const std::vector<std::vector<std::size_t>> groups = lifetimes_by_device(devices, lives.size());
  for (std::size_t d = 0; d < groups.size(); ++d) {
    const std::vector<std::size_t>& group = groups[d];
    // The change of live bytes at each entry: +rounded at first, -rounded
    // after last. Rounded sizes are below 2^63, so they fit a signed step.
    std::vector<std::pair<std::size_t, std::int64_t>> steps;
    steps.reserve(2 * group.size());
    for (std::size_t i : group) {
      steps.emplace_back(lives[i].first, static_cast<std::int64_t>(sizes[i]));
      steps.emplace_back(lives[i].last + 1, -static_cast<std::int64_t>(sizes[i]));
    }
    std::sort(steps.begin(), steps.end());  // at equal times the frees come first
    DeviceLoad load{devices.names[d], group.size(), 0};
    Bytes live = 0;
    for (auto [time, delta] : steps) {
      if (delta < 0) {
        live -= static_cast<Bytes>(-delta);
        continue;
      }
      auto sum = checked_add(live, static_cast<Bytes>(delta));
      if (!sum) return Error{"", fmt::format("byte count overflow: the live bytes on {} pass 2^64", devices.names[d])};
      live = *sum;
      load.peak = std::max(load.peak, live);
    }
    out.push_back(std::move(load));
  }
  return out;
}

}  // namespace planck
