#include "model/resolve.h"

#include <string>
#include <string_view>

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

Resolution resolve(const Schedule& s, const Plan& p) { return resolve(StorageNames(s), p); }

Resolution resolve(const StorageNames& names, const Plan& p) {
  const Schedule& s = names.schedule();
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
  for (std::size_t i = 0; i < p.placements.size(); ++i) {
    const Placement& pl = p.placements[i];
    ResolvedPlacement& out = r.placements.emplace_back();
    if (next < s.storage.size() && s.storage[next].name == pl.buffer) {
      out.storage = names.first_named(static_cast<StorageId>(next));
      ++next;
    } else {
      out.storage = names.find(pl.buffer);
      if (out.storage) next = *out.storage + 1;
    }
    // Neighbouring placements mostly share an arena, whose name is then
    // compared instead of looked up.
    if (i > 0 && pl.arena == p.placements[i - 1].arena) {
      out.arena = r.placements[i - 1].arena;
    } else {
      out.arena = arena_named.find(pl.arena);
    }
    if (!out.storage) {
      r.problems.push_back({.kind = PlanProblem::Kind::UnknownStorage, .index = i, .pos = pl.pos});
      continue;
    }
    std::optional<std::size_t>& first = r.placement_of[*out.storage];
    out.first = !first;
    if (!out.first) {
      r.problems.push_back({.kind = PlanProblem::Kind::PlacedTwice,
                            .index = i,
                            .earlier = *first,
                            .pos = pl.pos,
                            .earlier_pos = p.placements[*first].pos});
      continue;
    }
    first = i;
    if (!out.arena) {
      r.problems.push_back({.kind = PlanProblem::Kind::UnknownArena, .index = i, .pos = pl.pos});
    }
  }
  return r;
}

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
