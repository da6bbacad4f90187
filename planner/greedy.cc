// "greedy": the shared-object greedy of ExecuTorch's memory planner
// (exir/memory_planning.py, pick_shared_obj), per device.
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

#include "planner/factories.h"
#include "planner/per_device.h"

namespace planck {
namespace {

struct SharedObject {
  Bytes size = 0;
  std::vector<std::size_t> members;  // indices into the buffers
};

// Where the buffer goes in obj when stacked above the buffers alive with it
// there, or nullopt when it does not fit below the object's size.
std::optional<Bytes> stack_offset(const SharedObject& obj, const std::vector<PlannedBuffer>& buffers,
                                  const std::vector<Bytes>& offset, std::size_t b) {
  Bytes top = 0;
  for (std::size_t m : obj.members) {
    // A member's offset + size is within the object's size, so it does not wrap.
    if (overlap_in_time(buffers[m], buffers[b])) top = std::max(top, offset[m] + buffers[m].size);
  }
  auto end = checked_add(top, buffers[b].size);
  if (!end || *end > obj.size) return std::nullopt;
  return top;
}

Result<std::vector<Bytes>> place_greedy(const std::vector<PlannedBuffer>& buffers) {
  std::vector<SharedObject> objects;
  std::vector<std::size_t> object_of(buffers.size());
  std::vector<Bytes> offset(buffers.size());  // within its object

  for (std::size_t b : by_size_descending(buffers)) {
    auto free_of_b = [&](const SharedObject& obj) {
      return std::none_of(obj.members.begin(), obj.members.end(),
                          [&](std::size_t m) { return overlap_in_time(buffers[m], buffers[b]); });
    };
    auto pick = std::find_if(objects.begin(), objects.end(), free_of_b);
    Bytes at = 0;
    if (pick == objects.end()) {
      for (pick = objects.begin(); pick != objects.end(); ++pick) {
        if (auto stacked = stack_offset(*pick, buffers, offset, b)) {
          at = *stacked;
          break;
        }
      }
    }
    if (pick == objects.end()) {
      objects.push_back({buffers[b].size, {}});
      pick = objects.end() - 1;
    }
    pick->members.push_back(b);
    object_of[b] = static_cast<std::size_t>(pick - objects.begin());
    offset[b] = at;
  }

  std::vector<Bytes> base(objects.size());
  Bytes end = 0;
  for (std::size_t o = 0; o < objects.size(); ++o) {
    base[o] = end;
    auto next = checked_add(end, objects[o].size);
    if (!next) return overflow_error(*buffers[objects[o].members.front()].storage,
                                     "the shared objects laid end to end");
    end = *next;
  }
  std::vector<Bytes> place(buffers.size());
  // offset + size is within the object, and the objects' total did not wrap.
  for (std::size_t b = 0; b < buffers.size(); ++b) place[b] = base[object_of[b]] + offset[b];
  return place;
}

class GreedyPlanner final : public Planner {
 public:
  std::string_view name() const override { return "greedy"; }
  Result<Plan> plan(const Schedule& s) const override { return plan_per_device(s, place_greedy); }
};

}  // namespace

std::unique_ptr<Planner> make_greedy_planner() { return std::make_unique<GreedyPlanner>(); }

}  // namespace planck
