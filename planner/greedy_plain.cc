// greedy's placement rule as docs/planners.md#the-other-planners states it, each buffer compared
// with every buffer of every object: O(n^2) per device. The oracle the fast
// greedy (greedy.cc) is tested against, plan for plan; not in the registry.
//
// Buffers go, largest first, into shared objects. A buffer joins the first
// object none of whose buffers is alive with it, at the object's offset 0;
// failing that, the first object in which it fits above the highest end of
// the buffers it is alive with there; failing that, a new object of its
// size. An object never grows, and the first buffer of an object is its
// largest, so a buffer at offset 0 always fits. The objects are then laid
// end to end in order of creation.

#include <algorithm>
#include <optional>

#include "planner/plain_planners.h"
#include "planner/shared_objects.h"

namespace planck {
namespace {

// Where the buffer goes in an object of `size` with these members when
// stacked above the members alive with it, or nullopt when it does not fit
// below the object's size.
std::optional<Bytes> stack_offset(Bytes size, const std::vector<std::size_t>& members,
                                  const std::vector<PlannedBuffer>& buffers, const Placing& placing,
                                  const std::vector<Bytes>& offset, std::size_t b) {
  Bytes top = 0;
  for (std::size_t m : members) {
    // A member's offset + size is within the object's size, so it does not wrap.
    if (alive_together(placing, buffers, m, b)) top = std::max(top, offset[m] + buffers[m].size);
  }
  auto end = checked_add(top, buffers[b].size);
  if (!end || *end > size) return std::nullopt;
  return top;
}

// Quick enough, or a test oracle, so it never stops early.
Result<std::vector<Bytes>> place_greedy_plain(const std::vector<PlannedBuffer>& buffers, const Placing& placing) {
  std::vector<SharedObject> objects;
  std::vector<std::vector<std::size_t>> members;  // of each object
  std::vector<std::size_t> object_of(buffers.size());
  std::vector<Bytes> offset(buffers.size());  // within its object

  for (std::size_t b : by_size_descending(buffers)) {
    auto free_of_b = [&](const std::vector<std::size_t>& in) {
      return std::none_of(in.begin(), in.end(),
                          [&](std::size_t m) { return alive_together(placing, buffers, m, b); });
    };
    std::size_t pick = static_cast<std::size_t>(std::find_if(members.begin(), members.end(), free_of_b) -
                                                members.begin());
    Bytes at = 0;
    if (pick == objects.size()) {
      for (pick = 0; pick < objects.size(); ++pick) {
        if (auto stacked = stack_offset(objects[pick].size, members[pick], buffers, placing, offset, b)) {
          at = *stacked;
          break;
        }
      }
    }
    if (pick == objects.size()) {
      objects.push_back({buffers[b].size, b});
      members.emplace_back();
    }
    members[pick].push_back(b);
    object_of[b] = pick;
    offset[b] = at;
  }
  return lay_objects_end_to_end(buffers, objects, object_of, offset);
}

}  // namespace

std::unique_ptr<Planner> make_greedy_plain_planner() { return per_device_planner("greedy_plain", place_greedy_plain); }

}  // namespace planck
