#include "planner/rewrite.h"

#include <fmt/format.h>

#include <optional>

#include "model/resolve.h"

namespace planck {
namespace {

struct Replacement {
  StorageId arena = 0;  // id in the rewritten schedule
  Bytes offset = 0;     // place + phase
  Bytes bytes = 0;
  Dtype dtype = Dtype::Int8;
};

class Rewriter {
 public:
  Rewriter(std::string source, std::vector<std::optional<StorageId>> new_id,
           std::vector<std::optional<Replacement>> replace)
      : source_(std::move(source)), new_id_(std::move(new_id)), replace_(std::move(replace)) {}

  Status args(std::vector<Arg>& args, int depth) {
    for (Arg& a : args) PLANCK_TRY(arg(a, depth));
    return Ok{};
  }

  Status entries(std::vector<Entry>& es) {
    for (Entry& e : es) {
      PLANCK_TRY(args(e.args, 0));
      PLANCK_TRY(args(e.flag, 0));
      PLANCK_TRY(entries(e.body));
    }
    return Ok{};
  }

 private:
  // A reference to a placed buffer grows two views deeper; the result must
  // still parse, so it stays within kMaxNesting.
  Status arg(Arg& a, int depth) {
    if (a.kind != Arg::Kind::Storage) return args(a.base, depth + 1);
    const std::optional<Replacement>& r = replace_[a.storage];
    if (!r) {
      a.storage = *new_id_[a.storage];
      return Ok{};
    }
    if (depth + 2 > kMaxNesting) {
      return Error{fmt::format("{}:{}:{}", source_, a.pos.line, a.pos.col),
                   fmt::format("the rewritten view would nest deeper than {}", kMaxNesting)};
    }
    Arg arena{.kind = Arg::Kind::Storage, .storage = r->arena, .pos = a.pos};
    Arg shrink{.kind = Arg::Kind::Shrink, .start = r->offset, .length = r->bytes, .pos = a.pos};
    shrink.base.push_back(std::move(arena));
    Arg cast{.kind = Arg::Kind::Bitcast, .dtype = r->dtype, .pos = a.pos};
    cast.base.push_back(std::move(shrink));
    a = std::move(cast);
    return Ok{};
  }

  std::string source_;
  std::vector<std::optional<StorageId>> new_id_;        // old storage -> new, unless replaced
  std::vector<std::optional<Replacement>> replace_;     // old storage -> its arena bytes
};

}  // namespace

Result<Schedule> rewrite(const Schedule& s, const Plan& p) {
  if (p.placements.empty()) return s;

  const Resolution r = resolve(s, p);
  if (!r.problems.empty()) return plan_problem_error(s, p, r.problems.front());

  std::vector<std::optional<Replacement>> replace(s.storage.size());
  std::vector<std::size_t> arena_of(s.storage.size());
  for (std::size_t i = 0; i < p.placements.size(); ++i) {
    const Placement& pl = p.placements[i];
    const StorageId id = *r.placements[i].storage;
    const std::size_t arena = *r.placements[i].arena;
    const Storage& b = s.storage[id];
    auto offset = checked_add(pl.place, b.phase);
    auto end = offset ? checked_add(*offset, b.bytes) : std::nullopt;
    if (!end || *end > p.arenas[arena].size) {
      return Error{"", fmt::format("the plan places {} past the end of {}", pl.buffer, pl.arena)};
    }
    replace[id] = Replacement{0, *offset, b.bytes, b.dtype};
    arena_of[id] = arena;
  }

  Schedule out;
  out.source = s.source;
  std::vector<std::optional<StorageId>> new_id(s.storage.size());
  for (StorageId i = 0; i < s.storage.size(); ++i) {
    if (replace[i]) continue;
    new_id[i] = static_cast<StorageId>(out.storage.size());
    out.storage.push_back(s.storage[i]);
  }
  const auto first_arena = static_cast<StorageId>(out.storage.size());
  for (const Arena& a : p.arenas) {
    out.storage.push_back(Storage{.kind = StorageKind::Buffer, .name = a.name, .device = a.device,
                                  .dtype = Dtype::Int8, .bytes = a.size});
  }
  for (StorageId i = 0; i < s.storage.size(); ++i) {
    if (replace[i]) replace[i]->arena = first_arena + static_cast<StorageId>(arena_of[i]);
  }

  out.entries = s.entries;
  Rewriter rw(s.source, std::move(new_id), std::move(replace));
  PLANCK_TRY(rw.entries(out.entries));
  return out;
}

}  // namespace planck
