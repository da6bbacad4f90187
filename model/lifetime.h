#pragma once
// A lifetime (docs/planners.md#rule-3-lifetimes): the top-level entries, from the first
// to the last, that take a storage of a schedule. The planners
// (planner/rules.h), the oracles (oracle/check/lifetimes.h) and the
// properties' reference model each find lifetimes their own way, written
// apart so that a mistake in one shows against the others; they share this
// type, and what model/live_bytes.h reckons from lifetimes.

#include <cstddef>

#include "model/schedule.h"

namespace planck {

struct Lifetime {
  // The storage that lives: a planned buffer, but for the oracle's
  // taken_storage, which gives every storage taken.
  StorageId buffer = 0;
  std::size_t first = 0;  // the first top-level entry that takes it
  std::size_t last = 0;   // the last, inclusive: its bytes are free from last + 1
};

}  // namespace planck
