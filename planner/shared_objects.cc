#include "planner/shared_objects.h"

namespace planck {

Result<std::vector<Bytes>> lay_objects_end_to_end(const std::vector<PlannedBuffer>& buffers,
                                                  const std::vector<SharedObject>& objects,
                                                  const std::vector<std::size_t>& object_of,
                                                  const std::vector<Bytes>& offset) {
  std::vector<Bytes> base(objects.size());
  Bytes end = 0;
  for (std::size_t o = 0; o < objects.size(); ++o) {
    base[o] = end;
    auto next = checked_add(end, objects[o].size);
    if (!next) return overflow_error(*buffers[objects[o].first].storage, "the shared objects laid end to end");
    end = *next;
  }
  std::vector<Bytes> place(buffers.size());
  // offset + size is within the object, and the objects' total did not wrap.
  for (std::size_t b = 0; b < buffers.size(); ++b) place[b] = base[object_of[b]] + offset[b];
  return place;
}

}  // namespace planck
