#pragma once
// What every planner shares around its placement rule (SPEC section 3,
// rules 4, 7 and 8): rounded sizes, the planned buffers grouped per device,
// and the Plan built from their places. Internal to planner/.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "planner/lifetimes.h"
#include "model/plan.h"
#include "model/result.h"
#include "model/schedule.h"

namespace planck {

// Rule 4 for each planned buffer, parallel to lives.
Result<std::vector<Bytes>> rounded_sizes(const Schedule& s, const std::vector<Lifetime>& lives);

// One device's planned buffers, as indices into the lifetimes, in order of
// first appearance.
struct DeviceGroup {
  std::string device;
  std::vector<std::size_t> buffers;
};

// Devices in order of first appearance of their first planned buffer.
std::vector<DeviceGroup> group_by_device(const Schedule& s, const std::vector<Lifetime>& lives);

// Rules 7 and 8 from the places (parallel to lives): one arena per device in
// the order of group_by_device, named by arena_names, ending at the last
// byte its buffers reach rounded up to 256; placements in order of first
// appearance.
Result<Plan> build_plan(const Schedule& s, const std::vector<Lifetime>& lives,
                        const std::vector<Bytes>& place);

// A planned buffer as a per-device placement rule sees it.
struct PlannedBuffer {
  const Storage* storage = nullptr;  // for error messages
  Bytes size = 0;                    // rounded; a zero size takes no bytes
  std::size_t first = 0;             // lifetime in top-level entries, inclusive
  std::size_t last = 0;
};

inline bool overlap_in_time(const PlannedBuffer& a, const PlannedBuffer& b) {
  return a.first <= b.last && b.first <= a.last;
}

// The buffers' indices by size, largest first; equal sizes keep their order
// (of first appearance), which is what makes the heuristics deterministic.
std::vector<std::size_t> by_size_descending(const std::vector<PlannedBuffer>& buffers);

// Places (multiples of 256, parallel to the buffers) for one device's
// buffers, given in order of first appearance, such that buffers alive
// together have disjoint [place, place + size).
using DevicePlacer = Result<std::vector<Bytes>> (*)(const std::vector<PlannedBuffer>& buffers);

// A plan that places each device's buffers apart with place.
Result<Plan> plan_per_device(const Schedule& s, DevicePlacer place);

}  // namespace planck
