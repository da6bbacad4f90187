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
  // `from` is the schedule rewritten, which outlives the rewriter.
  Rewriter(const Schedule& from, std::vector<std::optional<StorageId>> new_id,
           std::vector<std::optional<Replacement>> replace)
      : from_(from), new_id_(std::move(new_id)), replace_(std::move(replace)) {}

  // The rewritten copies of `from`, the arguments of the entry at `pos`,
  // appended to `to`.
  Status args(const Args& from, Args& to, SourcePos pos) {
    to.reserve(from.size());
    for (const Arg& a : from) PLANCK_TRY(arg(a, to.emplace_back(), pos, 0));
    return Ok{};
  }

  Status entries(const std::vector<Entry>& from, std::vector<Entry>& to) {
    to.reserve(from.size());
    for (const Entry& e : from) {
      Entry& out = to.emplace_back();
      out.kind = e.kind;
      out.name = e.name;
      out.pos = e.pos;
      PLANCK_TRY(args(e.args, out.args, e.pos));
      if (e.parts) {
        PLANCK_TRY(args(e.parts->flag, out.mutable_flag(), e.pos));
        PLANCK_TRY(entries(e.parts->body, out.mutable_body()));
        // An in-place pair of two placed buffers is now the bytes it
        // shared in the arena; a pair of unplaced storage stays.
        for (const InPlace& ip : e.parts->inplace) {
          if (new_id_[ip.out] && new_id_[ip.in]) out.mutable_inplace().push_back({*new_id_[ip.out], *new_id_[ip.in]});
        }
      }
    }
    return Ok{};
  }

 private:
  // A reference to a placed buffer grows two views deeper; the result must
  // still parse, so it stays within kMaxNesting.
  Status arg(const Arg& a, Arg& out, SourcePos pos, int depth) {
    if (a.kind != Arg::Kind::Storage) {
      out.kind = a.kind;
      out.dtype = a.dtype;
      out.view = Boxed<View>(View{.start = a.view->start, .length = a.view->length});
      return arg(a.view->base, out.view->base, pos, depth + 1);
    }
    const std::optional<Replacement>& r = replace_[a.storage];
    if (!r) {
      out = a;
      out.storage = *new_id_[a.storage];
      return Ok{};
    }
    if (depth + 2 > kMaxNesting) {
      return Error{pos.line > 0 ? fmt::format("{}:{}:{}", from_.source, pos.line, pos.col) : from_.source,
                   fmt::format("the rewritten view of {} would nest deeper than {}", from_.storage[a.storage].name,
                               kMaxNesting)};
    }
    Arg arena{.kind = Arg::Kind::Storage, .storage = r->arena};
    Arg shrink = make_view(Arg::Kind::Shrink, std::move(arena), r->offset, r->bytes);
    out = make_view(Arg::Kind::Bitcast, std::move(shrink), 0, 0, r->dtype);
    return Ok{};
  }

  const Schedule& from_;
  std::vector<std::optional<StorageId>> new_id_;        // old storage -> new, unless replaced
  std::vector<std::optional<Replacement>> replace_;     // old storage -> its arena bytes
};

}  // namespace

Result<Schedule> rewrite(const Schedule& s, const Plan& p) {
  if (p.placements.empty()) return s;
  return rewrite(s, p, resolve(s, p));
}

Result<Schedule> rewrite(const Schedule& s, const Plan& p, const Resolution& r) {
  if (p.placements.empty()) return s;
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
  out.devices = s.devices;
  out.storage.reserve(s.storage.size() - p.placements.size() + p.arenas.size());
  std::vector<std::optional<StorageId>> new_id(s.storage.size());
  for (StorageId i = 0; i < s.storage.size(); ++i) {
    if (replace[i]) continue;
    new_id[i] = static_cast<StorageId>(out.storage.size());
    out.storage.push_back(s.storage[i]);
  }
  const auto first_arena = static_cast<StorageId>(out.storage.size());
  for (const Arena& a : p.arenas) {
    out.storage.push_back(Storage{.kind = StorageKind::Buffer, .dtype = Dtype::Int8, .name = a.name,
                                  .device = a.device, .bytes = a.size});
  }
  for (StorageId i = 0; i < s.storage.size(); ++i) {
    if (replace[i]) replace[i]->arena = first_arena + static_cast<StorageId>(arena_of[i]);
  }

  Rewriter rw(s, std::move(new_id), std::move(replace));
  PLANCK_TRY(rw.entries(s.entries, out.entries));
  return out;
}

}  // namespace planck
