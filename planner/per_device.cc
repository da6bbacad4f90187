#include "planner/per_device.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "planner/conflicts.h"
#include "planner/inplace.h"
#include "planner/rules.h"

namespace planck {

std::vector<std::size_t> by_size_descending(const std::vector<PlannedBuffer>& buffers) {
  // Sizes beside their indices, so that the sort reads them in place; the
  // index breaks ties, as a stable sort by size would.
  std::vector<std::pair<Bytes, std::size_t>> keyed(buffers.size());
  for (std::size_t b = 0; b < buffers.size(); ++b) keyed[b] = {buffers[b].size, b};
  std::sort(keyed.begin(), keyed.end(), [](const auto& x, const auto& y) {
    return x.first != y.first ? x.first > y.first : x.second < y.second;
  });
  std::vector<std::size_t> order(buffers.size());
  for (std::size_t k = 0; k < keyed.size(); ++k) order[k] = keyed[k].second;
  return order;
}

bool Placing::conflict(std::size_t a, std::size_t b) const { return rule->conflict((*lives)[a], (*lives)[b]); }

Error timeout_error() {
  return Error{.where = "", .what = "the time ran out before the plan was done", .kind = "planner-timeout"};
}

Result<Plan> plan_per_device(const Schedule& s, DevicePlacer place, const Deadline& deadline) {
  const std::vector<Lifetime> lives = planned_lifetimes(s);
  if (lives.empty()) return Plan{};
  PLANCK_ASSIGN(const SizesAndDevices both, sizes_and_devices(s, lives));  // rules 4 and 5
  const std::vector<Bytes>& sizes = both.sizes;
  const Devices& devices = both.devices;
  // Model v3: conflicts by streams and loop-local storage.
  std::optional<ConflictRule> rule;
  if (s.version() >= 3) rule.emplace(s, lives);

  // Each lifetime's in-place partner, if any: an output's input, else an
  // input's output.
  std::vector<std::size_t> partner;
  for (const InPlaceLives& pair : inplace_pairs(s, lives)) {
    if (rule && !rule->inplace_ordered(pair.out, pair.in, lives[pair.out].first)) continue;
    if (partner.empty()) partner.assign(lives.size(), kNoShare);
    partner[pair.out] = pair.in;
    if (partner[pair.in] == kNoShare) partner[pair.in] = pair.out;
  }
  std::vector<Bytes> places(lives.size());
  std::vector<std::size_t> position;  // by lifetime: its index in its device's group
  if (!partner.empty()) position.resize(lives.size());
  for (std::vector<std::size_t>& group : lifetimes_by_device(devices, lives.size())) {
    // In order of first entry: a planned input, which lives from entry 0,
    // may appear after buffers first taken later.
    std::stable_sort(group.begin(), group.end(),
                     [&](std::size_t x, std::size_t y) { return lives[x].first < lives[y].first; });
    if (!partner.empty()) {
      for (std::size_t k = 0; k < group.size(); ++k) position[group[k]] = k;
    }
    std::vector<PlannedBuffer> buffers;
    buffers.reserve(group.size());
    for (std::size_t i : group) {
      // A partner on another device has no place in this group.
      const bool shares = !partner.empty() && partner[i] != kNoShare && devices.of_lifetime(partner[i]) == devices.of_lifetime(i);
      buffers.push_back({&s.storage[lives[i].buffer], sizes[i], lives[i].first,
                         rule ? rule->window_last(i) : lives[i].last, shares ? position[partner[i]] : kNoShare});
    }
    const Placing placing{.deadline = deadline, .rule = rule ? &*rule : nullptr, .lives = &group};
    PLANCK_ASSIGN(const std::vector<Bytes> at, place(buffers, placing));
    for (std::size_t k = 0; k < group.size(); ++k) places[group[k]] = at[k];
  }
  return plan_result(s, lives, devices, places);
}

std::unique_ptr<Planner> per_device_planner(std::string_view name, DevicePlacer place) {
  return planner_of(name, [place](const Schedule& s, std::chrono::steady_clock::time_point until) {
    return plan_per_device(s, place, Deadline{until});
  });
}

}  // namespace planck
