#pragma once
// In-place kernels through views (docs/model-v2.md#in-place-kernels): a call
// that takes a storage through a view may not share it in place. One reading
// of the rule for the planner, the checker and the shadow executor alike.

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
