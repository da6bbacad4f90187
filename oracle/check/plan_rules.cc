#include "oracle/check/plan_rules.h"

#include <algorithm>
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
      : s_(s), p_(p), r_(r), planned_(planned), life_of_(huge_vector<const Lifetime*>(s.storage.size())),
        out_{.inplace = InPlaceRule(s, planned)} {
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
    if (!out_.inplace.empty()) grant_inplace();
    return std::move(out_);
  }

 private:
  void report(Violation v) { out_.violations.push_back(std::move(v)); }

  // The device, for a message on alignment, if a `device` line gives it one.
  std::vector<std::string> aligned_device(const Name& device) const {
    if (s_.find_device(device) == nullptr) return {};
    return {std::string(device)};
  }

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
    const Bytes align = s_.align_of(arena.device);
    if (arena.size % align != 0) {
      report({.rule = Rule::ArenaSize,
              .arenas = {arena.name},
              .devices = aligned_device(arena.device),
              .plan_lines = {arena.pos.line},
              .arena_size = arena.size,
              .align = align});
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
    const Bytes align = s_.align_of(buffer.device);
    const Result<Bytes> rounded = rounded_size(buffer, align);
    const std::optional<Bytes> end = rounded ? checked_add(pl.place, *rounded) : std::nullopt;
    if (arena.device != buffer.device || pl.place % align != 0 || !end || *end > arena.size) {
      report_in_arena(pl, buffer, arena, align, end);
    }
    if (end) out_.placed.push_back({.placement = i, .arena = a, .life = life, .block = {pl.place, *end}});
  }

  // Reports the rules that placement pl of buffer in arena breaks, in order:
  // its device, its alignment (to `align`), its end (`end`, if a number).
  [[gnu::noinline]] void report_in_arena(const Placement& pl, const Storage& buffer, const Arena& arena,
                                         Bytes align, std::optional<Bytes> end) {
    const int line = pl.pos.line;
    if (arena.device != buffer.device) {
      report({.rule = Rule::WrongDevice,
              .buffers = {buffer.name},
              .arenas = {arena.name},
              .devices = {buffer.device, arena.device},
              .plan_lines = {line}});
    }
    if (pl.place % align != 0) {
      report({.rule = Rule::Misaligned,
              .buffers = {buffer.name},
              .arenas = {arena.name},
              .devices = aligned_device(buffer.device),
              .plan_lines = {line},
              .place = pl.place,
              .align = align});
    }
    if (!end) {
      report({.rule = Rule::OutsideArena,
              .buffers = {buffer.name},
              .arenas = {arena.name},
              .plan_lines = {line},
              .place = pl.place,
              .phase = buffer.phase,
              .bytes = buffer.bytes,
              .align = align});
    } else if (*end > arena.size) {
      report({.rule = Rule::OutsideArena,
              .buffers = {buffer.name},
              .arenas = {arena.name},
              .plan_lines = {line},
              .blocks = {{pl.place, *end}},
              .arena_size = arena.size});
    }
  }

  // At least one arena (the first of each name) on each device with planned
  // buffers, `devices` in order of first use; none on other devices; and
  // the arenas of a device with a capacity within it.
  void judge_devices(const std::vector<std::string_view>& devices,
                     const std::unordered_set<std::string_view>& with_buffers) {
    std::unordered_map<std::string_view, std::vector<std::size_t>> arenas_on;
    for (std::size_t a = 0; a < p_.arenas.size(); ++a) {
      if (r_.arenas[a].first == a) arenas_on[p_.arenas[a].device].push_back(a);
    }
    // The devices without an arena, each reported with its buffers.
    std::vector<Violation> wrong;
    std::unordered_map<std::string_view, std::size_t> wrong_index;  // device -> into wrong
    for (std::string_view device : devices) {
      if (!arenas_on[device].empty()) continue;
      wrong_index.emplace(device, wrong.size());
      wrong.push_back(Violation{.rule = Rule::DeviceArenas, .devices = {std::string(device)}});
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
    for (const Device& device : s_.devices) {
      if (!device.capacity) continue;
      const auto on = arenas_on.find(device.name);
      if (on == arenas_on.end()) continue;
      std::optional<Bytes> total = 0;
      for (std::size_t a : on->second) total = total ? checked_add(*total, p_.arenas[a].size) : std::nullopt;
      if (total && *total <= *device.capacity) continue;
      Violation v{.rule = Rule::OverCapacity, .devices = {std::string(device.name)}, .capacity = device.capacity};
      for (std::size_t a : on->second) {
        v.arenas.push_back(p_.arenas[a].name);
        v.plan_lines.push_back(p_.arenas[a].pos.line);
        v.arena_sizes.push_back(p_.arenas[a].size);
      }
      report(std::move(v));
    }
  }

  // The in-place pairs the placements make use of (docs/model-v2.md). At a
  // kernel's entry, the buffers joined by the pairs it declares that are
  // allowed share one place in one arena; of each such group, the one with
  // the largest block (one that lived before the entry, if that is as
  // large) stands for the group's bytes at the entry, and the others that
  // start there start late. Pairs in a group that no allowed declaration
  // joins, and whose blocks share bytes, are overlaps the check would not
  // meet, and are listed.
  void grant_inplace() {
    constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    std::unordered_map<StorageId, std::size_t> placed_of;  // planned buffer -> into out_.placed
    for (const InPlaceDeclaration& d : out_.inplace.declarations()) placed_of.emplace(d.pair.out, kNone), placed_of.emplace(d.pair.in, kNone);
    for (std::size_t i = 0; i < out_.placed.size(); ++i) {
      if (auto it = placed_of.find(out_.placed[i].life.buffer); it != placed_of.end() && it->second == kNone) it->second = i;
    }
    const std::vector<InPlaceDeclaration>& decls = out_.inplace.declarations();
    for (std::size_t k = 0; k < decls.size();) {
      // The declarations of one top-level entry: k..next.
      std::size_t next = k;
      while (next < decls.size() && decls[next].entry == decls[k].entry) ++next;
      std::vector<std::pair<std::size_t, std::size_t>> granted;  // (out, in) into placed
      for (std::size_t j = k; j < next; ++j) {
        const std::size_t o = placed_of[decls[j].pair.out];
        const std::size_t i = placed_of[decls[j].pair.in];
        if (o == kNone || i == kNone) continue;
        const PlacedBuffer& ob = out_.placed[o];
        const PlacedBuffer& ib = out_.placed[i];
        if (!out_.inplace.refusal(decls[j], {ob.arena, ob.block.begin}, {ib.arena, ib.block.begin})) {
          granted.emplace_back(o, i);
        }
      }
      if (!granted.empty()) share(decls[k].entry, granted);
      k = next;
    }
  }

  // The groups that the allowed pairs `granted` at top-level entry `entry` make.
  void share(std::size_t entry, const std::vector<std::pair<std::size_t, std::size_t>>& granted) {
    std::vector<std::size_t> members;
    for (const auto& [o, i] : granted) members.push_back(o), members.push_back(i);
    std::sort(members.begin(), members.end());
    members.erase(std::unique(members.begin(), members.end()), members.end());
    // Union-find over positions in members.
    std::vector<std::size_t> root(members.size());
    for (std::size_t m = 0; m < root.size(); ++m) root[m] = m;
    auto pos = [&](std::size_t placed) {
      return static_cast<std::size_t>(std::lower_bound(members.begin(), members.end(), placed) - members.begin());
    };
    auto find = [&](std::size_t m) {
      while (root[m] != m) m = root[m] = root[root[m]];
      return m;
    };
    for (const auto& [o, i] : granted) root[find(pos(o))] = find(pos(i));
    // Each group's stand-in: the largest block, one that lived before the entry first.
    std::vector<std::size_t> stand_in(members.size(), static_cast<std::size_t>(-1));
    auto better = [&](std::size_t x, std::size_t y) {  // into placed: x stands in rather than y
      const PlacedBuffer& a = out_.placed[x];
      const PlacedBuffer& b = out_.placed[y];
      const Bytes sa = a.block.end - a.block.begin;
      const Bytes sb = b.block.end - b.block.begin;
      if (sa != sb) return sa > sb;
      return (a.life.first < entry) > (b.life.first < entry);
    };
    for (std::size_t m = 0; m < members.size(); ++m) {
      std::size_t& best = stand_in[find(m)];
      if (best == static_cast<std::size_t>(-1) || better(members[m], members[best])) best = m;
    }
    for (std::size_t m = 0; m < members.size(); ++m) {
      PlacedBuffer& b = out_.placed[members[m]];
      if (stand_in[find(m)] != m && b.life.first == entry) b.starts_late = true;
    }
    auto allowed = [&](std::size_t x, std::size_t y) {
      return std::any_of(granted.begin(), granted.end(), [&](const auto& g) {
        return (g.first == x && g.second == y) || (g.first == y && g.second == x);
      });
    };
    for (std::size_t x = 0; x < members.size(); ++x) {
      for (std::size_t y = x + 1; y < members.size(); ++y) {
        const PlacedBuffer& a = out_.placed[members[x]];
        const PlacedBuffer& b = out_.placed[members[y]];
        const bool share_bytes = a.arena == b.arena && std::max(a.block.begin, b.block.begin) <
                                                            std::min(a.block.end, b.block.end);
        if (share_bytes && !allowed(members[x], members[y])) out_.inplace_overlaps.emplace_back(members[x], members[y]);
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
