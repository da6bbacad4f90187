// bysize's placement rule as docs/planners.md#the-other-planners states it, each buffer compared
// with every buffer placed before it: O(n^2) per device. A buffer that may
// share its in-place partner's place (per_device.h) takes it when the
// partner is placed and no other buffer alive with it is in the way. The oracle the fast
// bysize (bysize.cc) is tested against, plan for plan; not in the registry.
//
// Buffers go, largest first, each to the lowest gap that fits it between the
// [offset, offset + size) ranges of the buffers already placed that are alive
// with it, scanning those ranges by offset from 0; with no such gap it goes
// above them all. The paper takes the smallest fitting gap; docs/planners.md#the-other-planners
// takes the lowest, which keeps every buffer as low as it can go.

#include <algorithm>
#include <optional>

#include "planner/per_device.h"
#include "planner/plain_planners.h"

namespace planck {
namespace {

// Quick enough, or a test oracle, so it never stops early.
Result<std::vector<Bytes>> place_by_size_plain(const std::vector<PlannedBuffer>& buffers, const Placing& placing) {
  std::vector<Bytes> offset(buffers.size());
  std::vector<std::size_t> placed;  // by offset; equal offsets in order of placing
  placed.reserve(buffers.size());

  std::vector<bool> is_placed(buffers.size(), false);
  // Whether b can take the place of its in-place partner: placed, alive
  // with it, and no other placed buffer alive with b in the way.
  const auto partner_place = [&](std::size_t b) -> std::optional<Bytes> {
    const std::size_t p = buffers[b].share;
    if (p == kNoShare || !is_placed[p] || !alive_together(placing, buffers, p, b)) return std::nullopt;
    const std::optional<Bytes> end = checked_add(offset[p], buffers[b].size);
    if (!end) return std::nullopt;
    for (std::size_t q : placed) {
      if (q == p || buffers[b].size == 0 || !alive_together(placing, buffers, q, b)) continue;
      if (offset[q] < *end && offset[p] < offset[q] + buffers[q].size) return std::nullopt;
    }
    return offset[p];
  };

  for (std::size_t b : by_size_descending(buffers)) {
    // The lowest byte above every range scanned so far that is alive with b.
    Bytes floor = 0;
    std::optional<Bytes> at = partner_place(b);
    for (std::size_t p : placed) {
      if (at) break;
      if (!alive_together(placing, buffers, p, b)) continue;
      if (offset[p] >= floor && offset[p] - floor >= buffers[b].size) {
        at = floor;
        break;
      }
      // A placed range's end was checked when it was placed.
      floor = std::max(floor, offset[p] + buffers[p].size);
    }
    if (!at) {
      if (!checked_add(floor, buffers[b].size)) {
        return overflow_error(*buffers[b].storage, "the buffers alive with it stacked");
      }
      at = floor;
    }
    offset[b] = *at;
    is_placed[b] = true;
    auto pos = std::upper_bound(placed.begin(), placed.end(), *at,
                                [&](Bytes value, std::size_t p) { return value < offset[p]; });
    placed.insert(pos, b);
  }
  return offset;
}

}  // namespace

std::unique_ptr<Planner> make_bysize_plain_planner() { return per_device_planner("bysize_plain", place_by_size_plain); }

}  // namespace planck
