// "greedy" (docs/planners.md#the-other-planners): the shared-object greedy of ExecuTorch's memory planner
// (exir/memory_planning.py, pick_shared_obj), per device.
//
// Buffers go, largest first, into shared objects. A buffer joins the first
// object none of whose buffers is alive with it, at the object's offset 0;
// failing that, the first object in which it fits above the highest end of
// the buffers it is alive with there; failing that, a new object of its
// size. An object never grows, and the first buffer of an object is its
// largest, so a buffer at offset 0 always fits. The objects are then laid
// end to end in order of creation.
//
// Only the objects that hold a buffer alive with b can turn it away, so the
// placed buffers alive with b (from an index by lifetime, placed_in_time.h)
// decide where it goes: the first object none of them is in, if there is
// one, takes b at 0; else every object holds one of them, and each object's
// highest end among them is where b would stack there. A buffer costs the
// buffers it is alive with, not every buffer placed. The plain rule
// (greedy_plain.cc) is what this is tested against.

#include <algorithm>
#include <utility>

#include "planner/factories.h"
#include "planner/placed_in_time.h"
#include "planner/shared_objects.h"

namespace planck {
namespace {

Result<std::vector<Bytes>> place_greedy(const std::vector<PlannedBuffer>& buffers, const Placing& placing) {
  std::vector<SharedObject> objects;
  std::vector<std::size_t> object_of = huge_vector<std::size_t>(buffers.size());
  std::vector<Bytes> offset = huge_vector<Bytes>(buffers.size());  // within its object
  // offset + size, beside the object, for the buffers alive with the next:
  // within the object's size, so it does not wrap.
  std::vector<std::pair<std::size_t, Bytes>> object_end = huge_vector<std::pair<std::size_t, Bytes>>(buffers.size());
  // By object: whether it holds a buffer alive with the one placed, and the
  // highest end of those; both cleared after each buffer, for the objects in
  // `touched`.
  std::vector<char> holds_alive;
  std::vector<Bytes> top;
  std::vector<std::size_t> touched;

  const auto into_an_object = [&](std::size_t b, const std::vector<std::size_t>& alive) -> Status {
    for (std::size_t p : alive) {
      const auto [o, end] = object_end[p];
      if (!holds_alive[o]) {
        holds_alive[o] = 1;
        touched.push_back(o);
      }
      top[o] = std::max(top[o], end);
    }
    // At most touched.size() objects hold one, so the first free one is no later.
    std::size_t pick = 0;
    while (pick < touched.size() && holds_alive[pick]) ++pick;
    Bytes at = 0;
    if (pick == objects.size()) {
      for (pick = 0; pick < objects.size(); ++pick) {
        auto end = checked_add(top[pick], buffers[b].size);
        if (end && *end <= objects[pick].size) {
          at = top[pick];
          break;
        }
      }
    }
    for (std::size_t o : touched) {
      holds_alive[o] = 0;
      top[o] = 0;
    }
    touched.clear();
    if (pick == objects.size()) {
      objects.push_back({buffers[b].size, b});
      holds_alive.push_back(0);
      top.push_back(0);
    }
    object_of[b] = pick;
    offset[b] = at;
    object_end[b] = {pick, at + buffers[b].size};
    return Ok{};
  };
  const auto ahead = [&](std::size_t b, std::size_t begin, std::size_t end) {
    prefetch_range(object_end.data() + begin, object_end.data() + end);
    __builtin_prefetch(&object_end[b], 1);
    __builtin_prefetch(&object_of[b], 1);
    __builtin_prefetch(&offset[b], 1);
  };
  PLANCK_TRY(place_each_by_size(buffers, placing, into_an_object, ahead));
  return lay_objects_end_to_end(buffers, objects, object_of, offset);
}

}  // namespace

std::unique_ptr<Planner> make_greedy_planner() { return per_device_planner("greedy", place_greedy); }

}  // namespace planck
