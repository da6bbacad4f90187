#pragma once
// The lower bound that `planck stats` sets beside each arena: per device,
// the most rounded bytes alive at once.

#include <cstddef>
#include <string>
#include <vector>

#include "model/result.h"
#include "model/schedule.h"

namespace planck {

// Per device, in order of first appearance: its planned buffers and the
// peak over entries of the rounded bytes alive at once, a lower bound on
// any plan's arena for it.
struct DeviceLoad {
  std::string device;
  std::size_t buffers = 0;
  Bytes peak = 0;
};
Result<std::vector<DeviceLoad>> device_loads(const Schedule& s);

}  // namespace planck
