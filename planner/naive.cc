// "naive" (docs/planners.md#the-other-planners): every planned buffer its own bytes, end to end in order of first
// appearance, per device. No reuse at all: the upper bound any planner
// should beat, and a plan that is right whatever the lifetimes are.

#include "planner/factories.h"
#include "planner/per_device.h"

namespace planck {
namespace {

// Quick enough, or a test oracle, so it never stops early.
Result<std::vector<Bytes>> place_end_to_end(const std::vector<PlannedBuffer>& buffers, const Placing&) {
  std::vector<Bytes> place;
  place.reserve(buffers.size());
  Bytes end = 0;
  for (const PlannedBuffer& b : buffers) {
    place.push_back(end);
    auto next = checked_add(end, b.size);
    if (!next) return overflow_error(*b.storage, "the buffers laid end to end");
    end = *next;
  }
  return place;
}

}  // namespace

std::unique_ptr<Planner> make_naive_planner() { return per_device_planner("naive", place_end_to_end); }

}  // namespace planck
