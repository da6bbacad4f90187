// "bysize": greedy by size for offset calculation (Y. Pisarchyk and J. Lee,
// "Efficient Memory Management for Deep Neural Net Inference", 2020,
// arXiv:2001.03288, section 4.3), per device.
//
// Buffers go, largest first, each to the lowest gap that fits it between the
// [offset, offset + size) ranges of the buffers already placed that are alive
// with it, scanning those ranges by offset from 0; with no such gap it goes
// above them all. The paper takes the smallest fitting gap; docs/planners.md#the-other-planners
// takes the lowest, which keeps every buffer as low as it can go.
//
// A buffer that an in-place kernel lets share its partner's bytes
// (per_device.h) takes its partner's place when that one is placed already
// and nothing else alive with it is in the way.
//
// The placed buffers alive with each one come from an index by lifetime
// (placed_in_time.h), so a buffer costs the buffers it is alive with, not
// every buffer placed; the scan over their ranges by offset is the plain
// rule's (bysize_plain.cc). The plain rule scans equal offsets in order of
// placing; here they come in any order, which picks the same place: a range
// of the buffer's own size fits before the first of them exactly when it
// fits before any, and past them the floor is their highest end either way.

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "model/ranges.h"
#include "planner/factories.h"
#include "planner/per_device.h"
#include "planner/placed_in_time.h"

namespace planck {
namespace {

Result<std::vector<Bytes>> place_by_size(const std::vector<PlannedBuffer>& buffers, const Placing& placing) {
  std::vector<Bytes> offset = huge_vector<Bytes>(buffers.size());
  // [offset, offset + size) of each placed buffer, its end checked when placed.
  std::vector<ByteRange> range = huge_vector<ByteRange>(buffers.size());
  std::vector<ByteRange> ranges;  // those of the buffers alive with the one placed, by offset

  // In-place sharing: b takes the place of its partner when that one is
  // placed and no other buffer alive with b is in the way.
  const auto shares_place = [&](std::size_t b, const std::vector<std::size_t>& alive) {
    const std::size_t p = buffers[b].share;
    if (p == kNoShare || std::find(alive.begin(), alive.end(), p) == alive.end()) return false;
    const Bytes at = offset[p];
    const std::optional<Bytes> end = checked_add(at, buffers[b].size);
    if (!end) return false;
    for (std::size_t q : alive) {
      if (q != p && range[q].begin < *end && at < range[q].end && buffers[b].size != 0) return false;
    }
    offset[b] = at;
    range[b] = {at, *end};
    return true;
  };
  const auto lowest_gap = [&](std::size_t b, const std::vector<std::size_t>& alive) -> Status {
    if (shares_place(b, alive)) return Ok{};
    ranges.clear();
    for (std::size_t p : alive) ranges.push_back(range[p]);
    // By offset alone: the order of equal offsets does not change the place.
    std::sort(ranges.begin(), ranges.end(), [](const ByteRange& x, const ByteRange& y) { return x.begin < y.begin; });
    // The lowest byte above every range scanned so far.
    Bytes floor = 0;
    std::optional<Bytes> at;
    for (const auto& [begin, end] : ranges) {
      if (begin >= floor && begin - floor >= buffers[b].size) {
        at = floor;
        break;
      }
      floor = std::max(floor, end);
    }
    if (!at) {
      if (!checked_add(floor, buffers[b].size)) {
        return overflow_error(*buffers[b].storage, "the buffers alive with it stacked");
      }
      at = floor;
    }
    offset[b] = *at;
    range[b] = {*at, *at + buffers[b].size};
    return Ok{};
  };
  const auto ahead = [&](std::size_t b, std::size_t begin, std::size_t end) {
    prefetch_range(range.data() + begin, range.data() + end);
    __builtin_prefetch(&range[b], 1);
    __builtin_prefetch(&offset[b], 1);
  };
  PLANCK_TRY(place_each_by_size(buffers, placing, lowest_gap, ahead));
  return offset;
}

}  // namespace

std::unique_ptr<Planner> make_bysize_planner() { return per_device_planner("bysize", place_by_size); }

}  // namespace planck
