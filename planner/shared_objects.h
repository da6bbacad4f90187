#pragma once
// greedy's shared objects (docs/planners.md#the-other-planners), what the fast placer (greedy.cc)
// and its plain twin (greedy_plain.cc) share: an object's size, and the
// objects laid end to end once every buffer is in one. Internal to planner/.

#include <cstddef>
#include <vector>

#include "model/result.h"
#include "planner/per_device.h"

namespace planck {

// An object never grows: its size is its first buffer's, the largest.
struct SharedObject {
  Bytes size = 0;
  std::size_t first = 0;  // its first buffer, named if the objects' total overflows
};

// Each buffer's place: its object's base, the objects laid end to end in
// order of creation, plus its offset in the object. An error when the
// objects' total passes 2^64.
Result<std::vector<Bytes>> lay_objects_end_to_end(const std::vector<PlannedBuffer>& buffers,
                                                  const std::vector<SharedObject>& objects,
                                                  const std::vector<std::size_t>& object_of,
                                                  const std::vector<Bytes>& offset);

}  // namespace planck
