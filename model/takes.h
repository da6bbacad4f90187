#pragma once
// What a call takes, as the rules of in-place kernels (docs/model-v2.md) read
// it: the planner, the checker and the shadow executor alike.

#include "model/schedule.h"

namespace planck {

// Whether call `e` takes storage `id` through a view among its arguments;
// an in-place pair so taken may share nothing.
inline bool takes_through_view(const Entry& e, StorageId id) {
  for (const Arg& a : e.args) {
    if (a.kind != Arg::Kind::Storage && storage_of(a) == id) return true;
  }
  return false;
}

}  // namespace planck
