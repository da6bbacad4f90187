#pragma once
// A plan mapped onto a schedule's storage: which storage each placement
// places and in which arena. The checker, the shadow executor and the rewrite
// all read a plan through this one mapping, so that they agree on what a plan
// means, and on what makes it mean nothing (docs/formats.md#plans-plan).
//
// Names are looked up as the first of their kind: the first storage of a
// name, the first arena of a name. Whether a placement is right for the
// schedule (planned, on its device, inside its arena) is not judged here.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "model/name_index.h"
#include "model/plan.h"
#include "model/result.h"
#include "model/schedule.h"

namespace planck {

// What makes a plan fail to resolve, or resolve ambiguously.
struct PlanProblem {
  enum class Kind : std::uint8_t {
    ArenaTwice,          // an arena of a name declared before
    ArenaNamedLikeStorage,  // an arena with the name of storage the schedule declares
    UnknownStorage,      // a placement of storage the schedule does not declare
    PlacedTwice,         // a placement of storage placed before
    UnknownArena,        // a placement in an arena the plan does not declare
  };
  Kind kind = Kind::UnknownStorage;
  // The arena (ArenaTwice, ArenaNamedLikeStorage) or placement (the others)
  // at fault: an index into Plan::arenas or Plan::placements.
  std::size_t index = 0;
  // ArenaTwice: the first arena of the name; PlacedTwice: the storage's first
  // placement; ArenaNamedLikeStorage: the storage (a StorageId). Else 0.
  std::size_t earlier = 0;
  SourcePos pos;          // in the plan, of what is at fault
  SourcePos earlier_pos;  // of `earlier`: in the plan, or for ArenaNamedLikeStorage in the schedule
};

struct ResolvedPlacement {
  std::optional<StorageId> storage;  // the storage it places, if the schedule declares it
  std::optional<std::size_t> arena;  // its arena, the first of the name, if the plan declares it
  bool first = false;                // the first placement of its storage

  // Resolved without a problem: known storage placed here first, in a known arena.
  bool ok() const { return storage && arena && first; }
};

struct ResolvedArena {
  std::size_t first = 0;                // the first arena of its name: itself unless declared twice
  std::optional<StorageId> named_like;  // the storage of the same name, if any
};

struct Resolution {
  std::vector<ResolvedPlacement> placements;            // by index into Plan::placements
  std::vector<ResolvedArena> arenas;                    // by index into Plan::arenas
  std::vector<std::optional<std::size_t>> placement_of;  // by StorageId: its first placement
  // Arenas in plan order, then placements in plan order. An arena has at most
  // one problem: declared twice, else named like storage. A placement has at
  // most one: the first of unknown storage, placed twice, unknown arena.
  std::vector<PlanProblem> problems;
};

// The first storage of each name in a schedule, which resolve looks a
// plan's names up in. Made once for a schedule, it serves every plan judged
// against it; it refers to the schedule, which must outlive it unchanged.
class StorageNames {
  // The name of storage id, read on every comparison the index makes: a
  // plain callable, which inlines, not NameIndex's std::function.
  struct NameOf {
    const Schedule* s;
    std::string_view operator()(std::size_t id) const { return s->storage[id].name; }
  };

 public:
  explicit StorageNames(const Schedule& s);  // O(storage)
  StorageNames(const StorageNames&) = delete;  // its index refers to it
  StorageNames& operator=(const StorageNames&) = delete;

  const Schedule& schedule() const { return *s_; }
  // The first storage of the name, if the schedule declares one.
  std::optional<StorageId> find(std::string_view name) const;
  // The first storage of the name of storage id.
  StorageId first_named(StorageId id) const { return first_named_[id]; }

 private:
  const Schedule* s_;
  BasicNameIndex<NameOf> index_;
  std::vector<StorageId> first_named_;  // by StorageId
};

// O(storage + arenas + placements). It hashes the schedule's names only
// when it cannot show them distinct by their order (see resolve.cc) or the
// plan places many out of the schedule's order.
Resolution resolve(const Schedule& s, const Plan& p);
// The same for a schedule whose names are known: O(arenas + placements).
Resolution resolve(const StorageNames& names, const Plan& p);

// The problem as an error at its place in the plan ("FILE:LINE:COL"), for
// the commands that refuse a plan that does not resolve.
Error plan_problem_error(const Schedule& s, const Plan& p, const PlanProblem& problem);

}  // namespace planck
