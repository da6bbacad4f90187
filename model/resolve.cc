#include "model/resolve.h"

#include <algorithm>
#include <bit>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "model/huge_pages.h"
#include "model/name_index.h"

namespace planck {

StorageNames::StorageNames(const Schedule& s)
    : s_(&s),
      index_(s.storage.size(), NameOf{&s}),
      first_named_(huge_vector<StorageId>(s.storage.size())) {
  index_.emplace_each(s.storage.size(), [&](std::size_t id, std::size_t first) {
    first_named_[id] = static_cast<StorageId>(first);
  });
}

std::optional<StorageId> StorageNames::find(std::string_view name) const {
  const std::optional<std::size_t> id = index_.find(name);
  if (!id) return std::nullopt;
  return static_cast<StorageId>(*id);
}

namespace {

// The storage of `name` among storage first..last, a run in strictly
// increasing shortlex order of names, if one has it.
std::optional<StorageId> find_in_run(const Schedule& s, std::size_t first, std::size_t last, std::string_view name) {
  while (first < last) {
    const std::size_t middle = first + (last - first) / 2;
    const std::string_view at = s.storage[middle].name;
    if (at == name) return static_cast<StorageId>(middle);
    if (shortlex_less(at, name)) {
      first = middle + 1;
    } else {
      last = middle;
    }
  }
  return std::nullopt;
}

// The starts of runs of storage, each in strictly increasing shortlex order
// of names, then storage.size(), if the names are shown distinct at a cost
// below that of hashing them: at most kMostRuns runs, and names within a run
// differ by their order, so that only names of different runs need a
// comparison, each name of the shorter run searched in the longer one.
// Storage declared with numbered names (t0, t1, ..., t10, ...) is one run.
// nullopt when the names are not shown distinct, which they may still be.
std::optional<std::vector<std::size_t>> distinct_runs(const Schedule& s) {
  constexpr std::size_t kMostRuns = 16;
  const std::vector<Storage>& st = s.storage;
  std::vector<std::size_t> starts{0};
  for (std::size_t k = 1; k < st.size(); ++k) {
    if (shortlex_less(st[k - 1].name, st[k].name)) continue;
    if (starts.size() == kMostRuns) return std::nullopt;
    starts.push_back(k);
  }
  starts.push_back(st.size());
  const std::size_t runs = starts.size() - 1;
  auto size = [&](std::size_t run) { return starts[run + 1] - starts[run]; };
  // The comparisons the searches take, bounded by a fraction of the names.
  std::size_t cost = 0;
  for (std::size_t a = 0; a < runs; ++a) {
    for (std::size_t b = a + 1; b < runs; ++b) {
      cost += std::min(size(a), size(b)) * std::bit_width(std::max(size(a), size(b)));
    }
  }
  if (cost > st.size() / 4 + 64) return std::nullopt;
  for (std::size_t a = 0; a < runs; ++a) {
    for (std::size_t b = a + 1; b < runs; ++b) {
      const std::size_t shorter = size(a) <= size(b) ? a : b;
      const std::size_t longer = shorter == a ? b : a;
      for (std::size_t k = starts[shorter]; k < starts[shorter + 1]; ++k) {
        if (find_in_run(s, starts[longer], starts[longer + 1], st[k].name)) return std::nullopt;
      }
    }
  }
  return starts;
}

// The storage names of a schedule for resolving one plan. While its names
// are shown distinct by distinct_runs, which reads them in order once, each
// storage is the first of its name and a name is searched for in each run;
// a schedule whose names are not, or a plan that searches for more than
// kSearches names (placed out of the schedule's order), takes StorageNames'
// hash index, which hashes every name.
class OneShotNames {
 public:
  explicit OneShotNames(const Schedule& s) : s_(s), runs_(distinct_runs(s)) {
    if (!runs_) index_.emplace(s);
  }

  std::optional<StorageId> find(std::string_view name) {
    if (!index_ && ++searches_ > kSearches) index_.emplace(s_);
    if (index_) return index_->find(name);
    for (std::size_t run = 0; run + 1 < runs_->size(); ++run) {
      if (auto id = find_in_run(s_, (*runs_)[run], (*runs_)[run + 1], name)) return id;
    }
    return std::nullopt;
  }
  StorageId first_named(StorageId id) const { return index_ ? index_->first_named(id) : id; }

 private:
  static constexpr std::size_t kSearches = 64;
  const Schedule& s_;
  std::optional<std::vector<std::size_t>> runs_;  // distinct_runs(s)
  std::optional<StorageNames> index_;
  std::size_t searches_ = 0;
};

// resolve against names, a StorageNames or a OneShotNames.
template <class Names>
Resolution resolve_with(const Schedule& s, Names& names, const Plan& p) {
  Resolution r;
  NameIndex arena_named(p.arenas.size(), [&](std::size_t a) -> std::string_view { return p.arenas[a].name; });
  r.arenas.reserve(p.arenas.size());
  for (std::size_t a = 0; a < p.arenas.size(); ++a) {
    const Arena& arena = p.arenas[a];
    const auto [first, fresh] = arena_named.emplace(a);
    ResolvedArena& out = r.arenas.emplace_back();
    out.first = first;
    out.named_like = names.find(arena.name);
    if (!fresh) {
      r.problems.push_back({.kind = PlanProblem::Kind::ArenaTwice,
                            .index = a,
                            .earlier = out.first,
                            .pos = arena.pos,
                            .earlier_pos = p.arenas[out.first].pos});
    } else if (out.named_like) {
      r.problems.push_back({.kind = PlanProblem::Kind::ArenaNamedLikeStorage,
                            .index = a,
                            .earlier = *out.named_like,
                            .pos = arena.pos,
                            .earlier_pos = s.storage[*out.named_like].pos});
    }
  }

  r.placement_of = huge_vector<std::optional<std::size_t>>(s.storage.size());
  r.placements.reserve(p.placements.size());
  advise_huge_pages(r.placements);
  // Plans mostly place storage in the order the schedule declares it, so the
  // storage after the last one placed is tried first: a comparison of
  // storage read in order, where a lookup in the index is a cache miss. Two
  // names held in place compare as two words each (Name's ==).
  std::size_t next = 0;
  const std::size_t placements = p.placements.size();
  const std::size_t storage = s.storage.size();
  for (std::size_t i = 0; i < placements;) {
    const std::size_t index = i++;  // i moves on to the placements after this one
    const Placement& pl = p.placements[index];
    ResolvedPlacement& out = r.placements.emplace_back();
    if (next < storage && s.storage[next].name == pl.buffer) {
      out.storage = names.first_named(static_cast<StorageId>(next));
      ++next;
    } else {
      out.storage = names.find(pl.buffer);
      if (out.storage) next = *out.storage + 1;
    }
    // Neighbouring placements mostly share an arena, whose name is then
    // compared instead of looked up.
    if (index > 0 && pl.arena == p.placements[index - 1].arena) {
      out.arena = r.placements[index - 1].arena;
    } else {
      out.arena = arena_named.find(pl.arena);
    }
    if (!out.storage) {
      r.problems.push_back({.kind = PlanProblem::Kind::UnknownStorage, .index = index, .pos = pl.pos});
      continue;
    }
    std::optional<std::size_t>& first = r.placement_of[*out.storage];
    out.first = !first;
    if (!out.first) {
      r.problems.push_back({.kind = PlanProblem::Kind::PlacedTwice,
                            .index = index,
                            .earlier = *first,
                            .pos = pl.pos,
                            .earlier_pos = p.placements[*first].pos});
      continue;
    }
    first = index;
    if (!out.arena) {
      r.problems.push_back({.kind = PlanProblem::Kind::UnknownArena, .index = index, .pos = pl.pos});
      continue;
    }
    // The placements that follow this one as most do: each of the storage
    // after the last one placed, not placed before, in the same arena. They
    // resolve without a problem, in a loop of their own, short enough to
    // keep what it needs in registers.
    const std::size_t arena = *out.arena;
    const Name* arena_name = &pl.arena;
    for (; i < placements && next < storage; ++i, ++next) {
      const Placement& run = p.placements[i];
      if (!(s.storage[next].name == run.buffer) || !(run.arena == *arena_name)) break;
      const StorageId id = names.first_named(static_cast<StorageId>(next));
      std::optional<std::size_t>& placed = r.placement_of[id];
      if (placed) break;
      placed = i;
      r.placements.push_back({.storage = id, .arena = arena, .first = true});
      arena_name = &run.arena;
    }
  }
  return r;
}

}  // namespace

Resolution resolve(const Schedule& s, const Plan& p) {
  OneShotNames names(s);
  return resolve_with(s, names, p);
}

Resolution resolve(const StorageNames& names, const Plan& p) { return resolve_with(names.schedule(), names, p); }

namespace {

std::string where(const std::string& file, const SourcePos& pos) {
  return pos.line > 0 ? fmt::format("{}:{}:{}", file, pos.line, pos.col) : file;
}

// " (first at line N)", or nothing for a plan built in code.
std::string first_at(const SourcePos& pos) {
  return pos.line > 0 ? fmt::format(" (first at line {})", pos.line) : "";
}

}  // namespace

namespace {

std::string problem_text(const Schedule& s, const Plan& p, const PlanProblem& problem) {
  using Kind = PlanProblem::Kind;
  switch (problem.kind) {
    case Kind::ArenaTwice:
      return fmt::format("arena {} is declared twice{}", p.arenas[problem.index].name,
                         first_at(problem.earlier_pos));
    case Kind::ArenaNamedLikeStorage: {
      const Storage& st = s.storage[problem.earlier];
      return fmt::format("arena {} has the name of the schedule's {} {}{}", st.name,
                         storage_kind_name(st.kind), st.name,
                         problem.earlier_pos.line > 0
                             ? fmt::format(" (line {})", problem.earlier_pos.line)
                             : "");
    }
    case Kind::UnknownStorage:
      return fmt::format("{} is placed but the schedule declares no storage of that name",
                         p.placements[problem.index].buffer);
    case Kind::PlacedTwice:
      return fmt::format("{} is placed twice{}", p.placements[problem.index].buffer,
                         first_at(problem.earlier_pos));
    case Kind::UnknownArena:
      return fmt::format("{} is placed in arena {}, which the plan does not declare",
                         p.placements[problem.index].buffer, p.placements[problem.index].arena);
  }
  return "the plan does not resolve";
}

}  // namespace

Error plan_problem_error(const Schedule& s, const Plan& p, const PlanProblem& problem) {
  return Error{where(p.source, problem.pos), problem_text(s, p, problem)};
}

}  // namespace planck
