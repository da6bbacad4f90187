#pragma once
// The oracle's own reading of docs/planners.md#the-reference-planner-tlsf, rules 1 to 3: what each
// top-level entry takes, what is planned and how long it lives. Written
// apart from planner/rules.h on purpose: a bug there must not hide
// itself from the oracles. Rule 4 is model/schedule.h's rounded_size.

#include <cstddef>
#include <optional>
#include <vector>

#include "model/lifetime.h"
#include "model/schedule.h"

namespace planck::oracle {

// Rules 1 and 3 for all storage: every storage some entry takes, in order
// of first appearance (entry by entry, in the order each entry takes it),
// with the first and last top-level entry that takes it (model/lifetime.h). A call takes the
// storage of each argument, through any depth of views; a loop takes what
// each call in it takes, nested loops included, then its flag's storage.
std::vector<Lifetime> taken_storage(const Schedule& s);

// Rule 2 without "taken": a buffer that is not held and not on a disk.
// Inline, as it is asked of every storage taken.
inline bool plannable(const Storage& s) {
  return s.kind == StorageKind::Buffer && !s.held && !is_disk(s.device);
}

// Rule 2: the taken storage that is plannable, in order of first appearance,
// its lifetime stretched as docs/model-v2.md says: a planned input or state
// from entry 0, a planned output or state to the last entry.
std::vector<Lifetime> planned_buffers(const Schedule& s);

}  // namespace planck::oracle
