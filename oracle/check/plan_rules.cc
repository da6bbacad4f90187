#include "oracle/check/plan_rules.h"

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "model/huge_pages.h"

namespace planck::oracle {
namespace {

Unplanned why_unplanned(const Storage& st) {
  if (st.kind == StorageKind::Alloc) return Unplanned::Alloc;
  if (st.kind == StorageKind::Param) return Unplanned::Param;
  if (st.held) return Unplanned::Held;
  if (is_disk(st.device)) return Unplanned::OnDisk;
  return Unplanned::NotTaken;
}

class PlanRules {
 public:
  PlanRules(const Schedule& s, const Plan& p, const Resolution& r,
            const std::vector<Lifetime>& planned)
      : s_(s), p_(p), r_(r), planned_(planned), life_of_(huge_vector<const Lifetime*>(s.storage.size())) {
    for (const Lifetime& life : planned) life_of_[life.buffer] = &life;
  }

  PlanRulesResult judge() {
    out_.placed.reserve(p_.placements.size());
    advise_huge_pages(out_.placed);
    for (std::size_t a = 0; a < p_.arenas.size(); ++a) judge_arena(a);
    for (std::size_t i = 0; i < p_.placements.size(); ++i) judge_placement(i);
    // One pass over the planned buffers reports those left unplaced and
    // finds the devices that have any.
    std::vector<std::string_view> devices;  // with planned buffers, in order of first use
    std::unordered_set<std::string_view> with_buffers;
    const Name* previous = nullptr;  // most buffers share the device of the one before
    for (const Lifetime& life : planned_) {
      const Storage& st = s_.storage[life.buffer];
      if (!r_.placement_of[life.buffer]) {
        report({.rule = Rule::NotPlaced, .buffers = {st.name}, .lives = {entry_span(s_, life.first, life.last)}});
      }
      if (previous && st.device == *previous) continue;
      previous = &st.device;
      if (with_buffers.insert(st.device).second) devices.push_back(st.device);
    }
    judge_devices(devices, with_buffers);
    return std::move(out_);
  }

 private:
  void report(Violation v) { out_.violations.push_back(std::move(v)); }

  // An arena declared again is only that; the first of a name is judged for
  // its name and its size.
  void judge_arena(std::size_t a) {
    const Arena& arena = p_.arenas[a];
    const ResolvedArena& resolved = r_.arenas[a];
    if (resolved.first != a) {
      report({.rule = Rule::ArenaTwice,
              .arenas = {arena.name},
              .plan_lines = {p_.arenas[resolved.first].pos.line, arena.pos.line}});
      return;
    }
    if (resolved.named_like) {
      const Storage& st = s_.storage[*resolved.named_like];
      report({.rule = Rule::ArenaTwice,
              .buffers = {st.name},
              .arenas = {arena.name},
              .plan_lines = {arena.pos.line},
              .storage_kind = st.kind,
              .storage_line = st.pos.line});
    }
    if (arena.size % kPlaceAlign != 0) {
      report({.rule = Rule::ArenaSize,
              .arenas = {arena.name},
              .plan_lines = {arena.pos.line},
              .arena_size = arena.size});
    }
  }

  // The first rule broken of: unknown storage, not planned, placed twice,
  // unknown arena; else the rules on the placement in its arena. Most
  // placements break none of the four, and take a path of their own, apart
  // from the code that builds violations.
  void judge_placement(std::size_t i) {
    const ResolvedPlacement& resolved = r_.placements[i];
    const Lifetime* life = resolved.storage ? life_of_[*resolved.storage] : nullptr;
    if (life && resolved.first && resolved.arena) {
      judge_in_arena(i, *life, *resolved.arena);
    } else {
      report_first_broken(i);
    }
  }

  // Reports the first rule that placement i breaks of: unknown storage, not
  // planned, placed twice, unknown arena. It breaks one.
  [[gnu::noinline]] void report_first_broken(std::size_t i) {
    const Placement& pl = p_.placements[i];
    const ResolvedPlacement& resolved = r_.placements[i];
    const int line = pl.pos.line;
    if (!resolved.storage) {
      report({.rule = Rule::UnknownStorage, .buffers = {pl.buffer}, .plan_lines = {line}});
      return;
    }
    const Storage& st = s_.storage[*resolved.storage];
    const Lifetime* life = life_of_[*resolved.storage];
    if (!life) {
      const Unplanned why = why_unplanned(st);
      report({.rule = Rule::NotPlanned,
              .buffers = {pl.buffer},
              .devices = why == Unplanned::OnDisk ? std::vector<std::string>{st.device} : std::vector<std::string>{},
              .plan_lines = {line},
              .unplanned = why});
      return;
    }
    if (!resolved.first) {
      const std::size_t first = *r_.placement_of[*resolved.storage];
      report({.rule = Rule::PlacedTwice,
              .buffers = {pl.buffer},
              .plan_lines = {p_.placements[first].pos.line, line}});
      return;
    }
    if (!resolved.arena) {
      report({.rule = Rule::UnknownArena,
              .buffers = {pl.buffer},
              .arenas = {pl.arena},
              .plan_lines = {line}});
    }
  }

  // Device, alignment and end of a placement of a planned buffer. One whose
  // end is a number joins the overlap check. Most placements break none of
  // these rules: they are all asked at once, and only a placement that
  // breaks one takes the path that works out which and reports them.
  void judge_in_arena(std::size_t i, const Lifetime& life, std::size_t a) {
    const Placement& pl = p_.placements[i];
    const Storage& buffer = s_.storage[life.buffer];
    const Arena& arena = p_.arenas[a];
    const Result<Bytes> rounded = rounded_size(buffer);
    const std::optional<Bytes> end = rounded ? checked_add(pl.place, *rounded) : std::nullopt;
    if (arena.device != buffer.device || pl.place % kPlaceAlign != 0 || !end || *end > arena.size) {
      report_in_arena(pl, buffer, arena, end);
    }
    if (end) out_.placed.push_back({.placement = i, .arena = a, .life = life, .block = {pl.place, *end}});
  }

  // Reports the rules that placement pl of buffer in arena breaks, in order:
  // its device, its alignment, its end (`end`, if a number).
  [[gnu::noinline]] void report_in_arena(const Placement& pl, const Storage& buffer, const Arena& arena,
                                         std::optional<Bytes> end) {
    const int line = pl.pos.line;
    if (arena.device != buffer.device) {
      report({.rule = Rule::WrongDevice,
              .buffers = {buffer.name},
              .arenas = {arena.name},
              .devices = {buffer.device, arena.device},
              .plan_lines = {line}});
    }
    if (pl.place % kPlaceAlign != 0) {
      report({.rule = Rule::Misaligned,
              .buffers = {buffer.name},
              .arenas = {arena.name},
              .plan_lines = {line},
              .place = pl.place});
    }
    if (!end) {
      report({.rule = Rule::OutsideArena,
              .buffers = {buffer.name},
              .arenas = {arena.name},
              .plan_lines = {line},
              .place = pl.place,
              .phase = buffer.phase,
              .bytes = buffer.bytes});
    } else if (*end > arena.size) {
      report({.rule = Rule::OutsideArena,
              .buffers = {buffer.name},
              .arenas = {arena.name},
              .plan_lines = {line},
              .blocks = {{pl.place, *end}},
              .arena_size = arena.size});
    }
  }

  // Exactly one arena (the first of each name) per device with planned
  // buffers, `devices` in order of first use, and none on other devices.
  void judge_devices(const std::vector<std::string_view>& devices,
                     const std::unordered_set<std::string_view>& with_buffers) {
    std::unordered_map<std::string_view, std::vector<std::size_t>> arenas_on;
    for (std::size_t a = 0; a < p_.arenas.size(); ++a) {
      if (r_.arenas[a].first == a) arenas_on[p_.arenas[a].device].push_back(a);
    }
    // The devices without exactly one arena, each reported with its buffers.
    std::vector<Violation> wrong;
    std::unordered_map<std::string_view, std::size_t> wrong_index;  // device -> into wrong
    for (std::string_view device : devices) {
      const std::vector<std::size_t>& arenas = arenas_on[device];
      if (arenas.size() == 1) continue;
      wrong_index.emplace(device, wrong.size());
      Violation& v = wrong.emplace_back(Violation{.rule = Rule::DeviceArenas, .devices = {std::string(device)}});
      for (std::size_t a : arenas) {
        v.arenas.push_back(p_.arenas[a].name);
        v.plan_lines.push_back(p_.arenas[a].pos.line);
      }
    }
    if (!wrong.empty()) {
      for (const Lifetime& life : planned_) {
        const Storage& st = s_.storage[life.buffer];
        if (auto it = wrong_index.find(st.device); it != wrong_index.end()) wrong[it->second].buffers.push_back(st.name);
      }
    }
    for (Violation& v : wrong) report(std::move(v));
    for (std::size_t a = 0; a < p_.arenas.size(); ++a) {
      const Arena& arena = p_.arenas[a];
      if (r_.arenas[a].first == a && !with_buffers.contains(arena.device)) {
        report({.rule = Rule::DeviceArenas,
                .arenas = {arena.name},
                .devices = {arena.device},
                .plan_lines = {arena.pos.line}});
      }
    }
  }

  const Schedule& s_;
  const Plan& p_;
  const Resolution& r_;
  const std::vector<Lifetime>& planned_;
  std::vector<const Lifetime*> life_of_;  // by StorageId: its lifetime if planned, else null
  PlanRulesResult out_;
};

}  // namespace

PlanRulesResult judge_plan_rules(const Schedule& s, const Plan& p, const Resolution& r,
                                 const std::vector<Lifetime>& planned) {
  return PlanRules(s, p, r, planned).judge();
}

}  // namespace planck::oracle
