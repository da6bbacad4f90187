#pragma once
// What each entry takes, what is planned, and how long it lives (SPEC
// section 3, rules 1 to 3).

#include <cstddef>
#include <vector>

#include "model/schedule.h"

namespace planck {

// Rule 1: the storage a top-level entry takes, each once, in the order its
// calls take it; a loop takes its calls' storage, nested loops included,
// then its flag's.
std::vector<StorageId> taken(const Entry& entry);

// Rule 2, without the "taken" part: a buffer that is not held and not on a disk.
bool is_plannable(const Storage& s);

// Rule 3: a planned buffer lives from the first top-level entry that takes
// it to the last, inclusive.
struct Lifetime {
  StorageId buffer = 0;
  std::size_t first = 0;
  std::size_t last = 0;
};

// Every planned buffer with its lifetime, in order of first appearance
// (entry by entry, in the order the entries take them).
std::vector<Lifetime> planned_lifetimes(const Schedule& s);

}  // namespace planck
