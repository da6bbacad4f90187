#include "oracle/checker.h"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <map>
#include <optional>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "oracle/lifetimes.h"

namespace planck::oracle {

std::string_view rule_name(Rule r) {
  switch (r) {
    case Rule::NotPlaced: return "not-placed";
    case Rule::PlacedTwice: return "placed-twice";
    case Rule::NotPlanned: return "not-planned";
    case Rule::UnknownStorage: return "unknown-storage";
    case Rule::UnknownArena: return "unknown-arena";
    case Rule::ArenaTwice: return "arena-twice";
    case Rule::DeviceArenas: return "device-arenas";
    case Rule::WrongDevice: return "wrong-device";
    case Rule::ArenaSize: return "arena-size";
    case Rule::Misaligned: return "misaligned";
    case Rule::OutsideArena: return "outside-arena";
    case Rule::Overlap: return "overlap";
  }
  return "?";
}

namespace {

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

// A placement that passed the identity rules (its storage is a planned
// buffer, placed here first, in a declared arena) and whose end is a number:
// what the overlap rule judges.
struct Placed {
  std::size_t placement = 0;  // into Plan::placements
  std::size_t arena = 0;      // into Plan::arenas: the first arena of the name placed in
  Lifetime life;
  Bytes begin = 0;
  Bytes end = 0;  // begin + rounded size: [begin, end) is the buffer's
};

// ---- Message pieces. Source lines are left out when unknown (0), as for a
// schedule or plan built in code rather than read from a file.

Violation make(Rule rule, std::vector<std::string> buffers, std::vector<std::string> arenas,
               const std::string& detail) {
  return {.rule = rule,
          .buffers = std::move(buffers),
          .arenas = std::move(arenas),
          .message = fmt::format("{}: {}", rule_name(rule), detail)};
}

// " at plan line N"
std::string at_plan_line(const SourcePos& pos) {
  return pos.line > 0 ? fmt::format(" at plan line {}", pos.line) : "";
}

// " (plan line N)"
std::string plan_line(const SourcePos& pos) {
  return pos.line > 0 ? fmt::format(" (plan line {})", pos.line) : "";
}

// " (plan lines N and M)"
std::string plan_lines(const SourcePos& a, const SourcePos& b) {
  return a.line > 0 && b.line > 0 ? fmt::format(" (plan lines {} and {})", a.line, b.line) : "";
}

// "entry 2 (line 9)" or "entries 1..3 (lines 8-10)": top-level entries with
// the source lines they start on.
std::string entries_text(const Schedule& s, std::size_t first, std::size_t last) {
  const int first_line = s.entries[first].pos.line;
  const int last_line = s.entries[last].pos.line;
  if (first == last) {
    return first_line > 0 ? fmt::format("entry {} (line {})", first, first_line)
                          : fmt::format("entry {}", first);
  }
  return first_line > 0 && last_line > 0
             ? fmt::format("entries {}..{} (lines {}-{})", first, last, first_line, last_line)
             : fmt::format("entries {}..{}", first, last);
}

std::string live_text(const Schedule& s, const Lifetime& life) {
  return "live over " + entries_text(s, life.first, life.last);
}

// Names, comma-separated; past a handful, the rest only counted.
std::string names_text(const std::vector<std::string>& names) {
  constexpr std::size_t kShown = 5;
  std::string text;
  for (std::size_t i = 0; i < names.size() && i < kShown; ++i) {
    if (i > 0) text += ", ";
    text += names[i];
  }
  if (names.size() > kShown) text += fmt::format(", and {} more", names.size() - kShown);
  return text;
}

// ---- Violations, one builder per rule (and per case of a rule).

Violation arena_declared_twice(const Plan& p, std::size_t first, std::size_t again) {
  const Arena& arena = p.arenas[again];
  return make(Rule::ArenaTwice, {}, {arena.name},
              fmt::format("arena {} is declared twice{}", arena.name,
                          plan_lines(p.arenas[first].pos, arena.pos)));
}

// The rules on an arena by itself, for the first arena of its name.
// `same_name` is the storage with the arena's name, if any.
void judge_arena(const Schedule& s, const Plan& p, std::size_t a,
                 std::optional<StorageId> same_name, std::vector<Violation>& out) {
  const Arena& arena = p.arenas[a];
  if (same_name) {
    const Storage& st = s.storage[*same_name];
    out.push_back(make(Rule::ArenaTwice, {st.name}, {arena.name},
                       fmt::format("arena {}{} has the name of {} {}{}", arena.name,
                                   plan_line(arena.pos), storage_kind_name(st.kind), st.name,
                                   st.pos.line > 0 ? fmt::format(" (line {})", st.pos.line) : "")));
  }
  if (arena.size % kPlaceAlign != 0) {
    out.push_back(make(Rule::ArenaSize, {}, {arena.name},
                       fmt::format("arena {}{} has size {}, not a multiple of {}", arena.name,
                                   plan_line(arena.pos), arena.size, kPlaceAlign)));
  }
}

Violation unknown_storage(const Plan& p, std::size_t i) {
  const Placement& pl = p.placements[i];
  return make(Rule::UnknownStorage, {pl.buffer}, {},
              fmt::format("{} is placed{} but the schedule declares no storage of that name",
                          pl.buffer, at_plan_line(pl.pos)));
}

Violation not_planned(const Schedule& s, const Plan& p, std::size_t i, StorageId id) {
  const Placement& pl = p.placements[i];
  const Storage& st = s.storage[id];
  std::string why;
  if (st.kind != StorageKind::Buffer) {
    why = fmt::format("it is {} {}", st.kind == StorageKind::Alloc ? "an" : "a",
                      storage_kind_name(st.kind));
  } else if (st.held) {
    why = "it is held";
  } else if (is_disk(st.device)) {
    why = fmt::format("it is on the disk {}", st.device);
  } else {
    why = "no entry takes it";
  }
  return make(Rule::NotPlanned, {pl.buffer}, {},
              fmt::format("{} is placed{} but is not planned: {}", pl.buffer,
                          at_plan_line(pl.pos), why));
}

Violation placed_twice(const Plan& p, std::size_t first, std::size_t again) {
  const Placement& pl = p.placements[again];
  return make(Rule::PlacedTwice, {pl.buffer}, {},
              fmt::format("{} is placed twice{}", pl.buffer,
                          plan_lines(p.placements[first].pos, pl.pos)));
}

Violation unknown_arena(const Plan& p, std::size_t i) {
  const Placement& pl = p.placements[i];
  return make(Rule::UnknownArena, {pl.buffer}, {pl.arena},
              fmt::format("{} is placed{} in arena {}, which the plan does not declare",
                          pl.buffer, at_plan_line(pl.pos), pl.arena));
}

// The rules on a placement of planned buffer `life` in arena `a` (device,
// alignment, end). Returns what the overlap rule needs, unless the end does
// not fit in a Bytes, which is reported here as outside the arena.
std::optional<Placed> judge_in_arena(const Schedule& s, const Plan& p, std::size_t i,
                                     const Lifetime& life, std::size_t a,
                                     std::vector<Violation>& out) {
  const Placement& pl = p.placements[i];
  const Storage& buffer = s.storage[life.storage];
  const Arena& arena = p.arenas[a];
  if (arena.device != buffer.device) {
    out.push_back(make(Rule::WrongDevice, {buffer.name}, {arena.name},
                       fmt::format("{} on device {} is placed{} in arena {} of device {}",
                                   buffer.name, buffer.device, at_plan_line(pl.pos),
                                   arena.name, arena.device)));
  }
  if (pl.place % kPlaceAlign != 0) {
    out.push_back(make(Rule::Misaligned, {buffer.name}, {arena.name},
                       fmt::format("{} is placed{} at {}, not a multiple of {}", buffer.name,
                                   at_plan_line(pl.pos), pl.place, kPlaceAlign)));
  }
  const Result<Bytes> rounded = rounded_size(buffer);
  const std::optional<Bytes> end = rounded ? checked_add(pl.place, *rounded) : std::nullopt;
  if (!end) {
    out.push_back(make(Rule::OutsideArena, {buffer.name}, {arena.name},
                       fmt::format("{} is placed{} at {}, where its end, place + "
                                   "round_up(phase {} + {} bytes, {}), passes 2^64",
                                   buffer.name, at_plan_line(pl.pos), pl.place, buffer.phase,
                                   buffer.bytes, kPlaceAlign)));
    return std::nullopt;
  }
  if (*end > arena.size) {
    out.push_back(make(Rule::OutsideArena, {buffer.name}, {arena.name},
                       fmt::format("{} [{}, {}) placed{} ends past the {} bytes of arena {}",
                                   buffer.name, pl.place, *end, at_plan_line(pl.pos),
                                   arena.size, arena.name)));
  }
  return Placed{.placement = i, .arena = a, .life = life, .begin = pl.place, .end = *end};
}

Violation not_placed(const Schedule& s, const Lifetime& life) {
  const std::string& name = s.storage[life.storage].name;
  return make(Rule::NotPlaced, {name}, {},
              fmt::format("{}, {}, has no placement", name, live_text(s, life)));
}

// A device with planned buffers `buffers` (in order of first use) and
// `arenas` (the first of each name, in plan order), not exactly one.
Violation device_arenas(const Schedule& s, const Plan& p, std::string_view device,
                        const std::vector<StorageId>& buffers,
                        const std::vector<std::size_t>& arenas) {
  std::vector<std::string> buffer_names;
  for (StorageId id : buffers) buffer_names.push_back(s.storage[id].name);
  if (arenas.empty()) {
    std::string detail = fmt::format("device {} has no arena for its planned buffers {}", device,
                                     names_text(buffer_names));
    return make(Rule::DeviceArenas, std::move(buffer_names), {}, detail);
  }
  std::vector<std::string> arena_names;
  std::vector<std::string> arena_texts;
  for (std::size_t a : arenas) {
    arena_names.push_back(p.arenas[a].name);
    arena_texts.push_back(p.arenas[a].name + plan_line(p.arenas[a].pos));
  }
  std::string detail = fmt::format("device {} has {} arenas but must have exactly one: {}", device,
                                   arenas.size(), names_text(arena_texts));
  return make(Rule::DeviceArenas, std::move(buffer_names), std::move(arena_names), detail);
}

Violation arena_without_buffers(const Plan& p, std::size_t a) {
  const Arena& arena = p.arenas[a];
  return make(Rule::DeviceArenas, {}, {arena.name},
              fmt::format("arena {}{} is on device {}, which has no planned buffers",
                          arena.name, plan_line(arena.pos), arena.device));
}

bool lives_overlap(const Lifetime& x, const Lifetime& y) {
  return x.first <= y.last && y.first <= x.last;
}

// [max begin, min end) is empty exactly when the ranges share no byte, so
// a zero-length range never overlaps anything.
bool bytes_overlap(const Placed& x, const Placed& y) {
  return std::max(x.begin, y.begin) < std::min(x.end, y.end);
}

// x and y are in one arena, alive together and sharing bytes; x was placed
// first in the plan.
Violation overlap(const Schedule& s, const Plan& p, const Placed& x, const Placed& y) {
  const std::string& x_name = s.storage[x.life.storage].name;
  const std::string& y_name = s.storage[y.life.storage].name;
  const std::string& arena = p.arenas[x.arena].name;
  return make(
      Rule::Overlap, {x_name, y_name}, {arena},
      fmt::format("{} [{}, {}) {} and {} [{}, {}) {} share bytes [{}, {}) during {} in arena "
                  "{}{}",
                  x_name, x.begin, x.end, live_text(s, x.life), y_name, y.begin, y.end,
                  live_text(s, y.life), std::max(x.begin, y.begin), std::min(x.end, y.end),
                  entries_text(s, std::max(x.life.first, y.life.first),
                               std::min(x.life.last, y.life.last)),
                  arena,
                  plan_lines(p.placements[x.placement].pos, p.placements[y.placement].pos)));
}

// Some of the overlapping pairs among `placed`, as index pairs (x < y) in
// ascending order: at least one whenever any pair overlaps.
//
// A sweep over time, arena by arena. Its events are, for each buffer with
// bytes, an insertion at its first entry and a removal at its last entry + 1
// (its bytes are free from then), sorted by arena, then time, removals
// before insertions at the same time. `kept` holds live buffers that are
// pairwise disjoint in bytes, by address. An inserted buffer is compared
// with the kept buffers that intersect it, a contiguous run in address order
// since they are disjoint; each is reported, and a buffer that intersects
// any is not kept, so `kept` stays disjoint.
//
// Every pair reported overlaps: both are live at the insertion time t (the
// kept one was inserted at or before t and its removal, at last + 1, is not
// yet done, so last >= t), and their bytes intersect.
// Some pair is reported whenever one overlaps: take an overlapping pair
// (a, b), a inserted before b. At b's insertion, a is still live, since
// last(a) >= first(b). If a is kept, b's walk meets it and reports (a, b);
// if not, a was itself reported when inserted.
// Each insertion costs O(log n) plus one per pair it reports.
std::vector<std::pair<std::size_t, std::size_t>> sweep_overlaps(
    const std::vector<Placed>& placed) {
  struct Event {
    std::size_t arena;
    std::size_t time;
    bool insert;  // false (a removal) sorts first
    std::size_t item;
    auto key() const { return std::tie(arena, time, insert, item); }
  };
  std::vector<Event> events;
  for (std::size_t i = 0; i < placed.size(); ++i) {
    const Placed& x = placed[i];
    if (x.begin == x.end) continue;  // no bytes, no overlap
    events.push_back({x.arena, x.life.first, true, i});
    events.push_back({x.arena, x.life.last + 1, false, i});
  }
  std::sort(events.begin(), events.end(),
            [](const Event& x, const Event& y) { return x.key() < y.key(); });

  // Every removal follows its insertion within the same arena, so `kept`
  // is empty whenever the sweep passes from one arena to the next.
  std::map<Bytes, std::size_t> kept;  // begin -> index into placed
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  for (const Event& event : events) {
    const Placed& x = placed[event.item];
    if (!event.insert) {
      auto it = kept.find(x.begin);
      if (it != kept.end() && it->second == event.item) kept.erase(it);
      continue;
    }
    // The first kept buffer that may intersect x: the one starting at or
    // before x.begin, if it reaches past it, else the first starting after.
    auto it = kept.upper_bound(x.begin);
    if (it != kept.begin() && placed[std::prev(it)->second].end > x.begin) --it;
    bool clashes = false;
    for (; it != kept.end() && placed[it->second].begin < x.end; ++it) {
      pairs.emplace_back(std::min(event.item, it->second), std::max(event.item, it->second));
      clashes = true;
    }
    if (!clashes) kept.emplace(x.begin, event.item);
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

}  // namespace

std::vector<Violation> check_plan(const Schedule& s, const Plan& p) {
  const std::vector<Lifetime> planned = planned_buffers(s);
  std::vector<std::size_t> planned_index(s.storage.size(), kNone);  // into planned
  for (std::size_t b = 0; b < planned.size(); ++b) planned_index[planned[b].storage] = b;
  std::unordered_map<std::string_view, StorageId> storage_named;  // the first of each name
  for (StorageId id = 0; id < s.storage.size(); ++id) storage_named.emplace(s.storage[id].name, id);
  std::vector<Violation> out;

  std::unordered_map<std::string_view, std::size_t> arena_named;  // the first of each name
  for (std::size_t a = 0; a < p.arenas.size(); ++a) {
    const auto [first, fresh] = arena_named.emplace(p.arenas[a].name, a);
    if (!fresh) {
      out.push_back(arena_declared_twice(p, first->second, a));
      continue;
    }
    const auto same_name = storage_named.find(p.arenas[a].name);
    judge_arena(s, p, a,
                same_name == storage_named.end() ? std::nullopt
                                                 : std::optional<StorageId>(same_name->second),
                out);
  }

  std::vector<std::size_t> placement_of(planned.size(), kNone);  // the first of each buffer
  std::vector<Placed> placed;
  for (std::size_t i = 0; i < p.placements.size(); ++i) {
    const Placement& pl = p.placements[i];
    const auto storage = storage_named.find(pl.buffer);
    if (storage == storage_named.end()) {
      out.push_back(unknown_storage(p, i));
      continue;
    }
    const std::size_t b = planned_index[storage->second];
    if (b == kNone) {
      out.push_back(not_planned(s, p, i, storage->second));
      continue;
    }
    if (placement_of[b] != kNone) {
      out.push_back(placed_twice(p, placement_of[b], i));
      continue;
    }
    placement_of[b] = i;
    const auto arena = arena_named.find(pl.arena);
    if (arena == arena_named.end()) {
      out.push_back(unknown_arena(p, i));
      continue;
    }
    if (auto x = judge_in_arena(s, p, i, planned[b], arena->second, out)) placed.push_back(*x);
  }

  for (std::size_t b = 0; b < planned.size(); ++b) {
    if (placement_of[b] == kNone) out.push_back(not_placed(s, planned[b]));
  }

  std::vector<std::string_view> devices;  // with planned buffers, in order of first use
  std::unordered_map<std::string_view, std::vector<StorageId>> buffers_on;
  for (const Lifetime& life : planned) {
    const std::string& device = s.storage[life.storage].device;
    auto [it, fresh] = buffers_on.try_emplace(device);
    if (fresh) devices.push_back(device);
    it->second.push_back(life.storage);
  }
  std::unordered_map<std::string_view, std::vector<std::size_t>> arenas_on;
  for (std::size_t a = 0; a < p.arenas.size(); ++a) {
    if (arena_named.at(p.arenas[a].name) == a) arenas_on[p.arenas[a].device].push_back(a);
  }
  for (std::string_view device : devices) {
    const std::vector<std::size_t>& arenas = arenas_on[device];
    if (arenas.size() != 1) out.push_back(device_arenas(s, p, device, buffers_on[device], arenas));
  }
  for (std::size_t a = 0; a < p.arenas.size(); ++a) {
    if (arena_named.at(p.arenas[a].name) == a && !buffers_on.contains(p.arenas[a].device)) {
      out.push_back(arena_without_buffers(p, a));
    }
  }

  for (const auto& [x, y] : sweep_overlaps(placed)) {
    out.push_back(overlap(s, p, placed[x], placed[y]));
  }
  return out;
}

std::vector<Violation> check_plan_quadratic(const Schedule& s, const Plan& p) {
  const std::vector<Lifetime> planned = planned_buffers(s);
  auto planned_index = [&](StorageId id) {
    for (std::size_t b = 0; b < planned.size(); ++b) {
      if (planned[b].storage == id) return b;
    }
    return kNone;
  };
  auto first_arena_named = [&](std::string_view name) {
    for (std::size_t a = 0; a < p.arenas.size(); ++a) {
      if (p.arenas[a].name == name) return a;
    }
    return kNone;
  };
  std::vector<Violation> out;

  for (std::size_t a = 0; a < p.arenas.size(); ++a) {
    const std::size_t first = first_arena_named(p.arenas[a].name);
    if (first != a) {
      out.push_back(arena_declared_twice(p, first, a));
      continue;
    }
    judge_arena(s, p, a, s.find(p.arenas[a].name), out);
  }

  std::vector<Placed> placed;
  for (std::size_t i = 0; i < p.placements.size(); ++i) {
    const Placement& pl = p.placements[i];
    const std::optional<StorageId> storage = s.find(pl.buffer);
    if (!storage) {
      out.push_back(unknown_storage(p, i));
      continue;
    }
    const std::size_t b = planned_index(*storage);
    if (b == kNone) {
      out.push_back(not_planned(s, p, i, *storage));
      continue;
    }
    std::size_t first = 0;
    while (p.placements[first].buffer != pl.buffer) ++first;
    if (first != i) {
      out.push_back(placed_twice(p, first, i));
      continue;
    }
    const std::size_t arena = first_arena_named(pl.arena);
    if (arena == kNone) {
      out.push_back(unknown_arena(p, i));
      continue;
    }
    if (auto x = judge_in_arena(s, p, i, planned[b], arena, out)) placed.push_back(*x);
  }

  for (const Lifetime& life : planned) {
    const std::string& name = s.storage[life.storage].name;
    if (std::none_of(p.placements.begin(), p.placements.end(),
                     [&](const Placement& pl) { return pl.buffer == name; })) {
      out.push_back(not_placed(s, life));
    }
  }

  auto device_of = [&](const Lifetime& life) -> const std::string& {
    return s.storage[life.storage].device;
  };
  for (std::size_t b = 0; b < planned.size(); ++b) {
    const std::string& device = device_of(planned[b]);
    if (std::any_of(planned.begin(), planned.begin() + static_cast<std::ptrdiff_t>(b),
                    [&](const Lifetime& life) { return device_of(life) == device; })) {
      continue;  // judged with the device's first buffer
    }
    std::vector<StorageId> buffers;
    for (const Lifetime& life : planned) {
      if (device_of(life) == device) buffers.push_back(life.storage);
    }
    std::vector<std::size_t> arenas;
    for (std::size_t a = 0; a < p.arenas.size(); ++a) {
      if (first_arena_named(p.arenas[a].name) == a && p.arenas[a].device == device) {
        arenas.push_back(a);
      }
    }
    if (arenas.size() != 1) out.push_back(device_arenas(s, p, device, buffers, arenas));
  }
  for (std::size_t a = 0; a < p.arenas.size(); ++a) {
    if (first_arena_named(p.arenas[a].name) == a &&
        std::none_of(planned.begin(), planned.end(),
                     [&](const Lifetime& life) { return device_of(life) == p.arenas[a].device; })) {
      out.push_back(arena_without_buffers(p, a));
    }
  }

  for (std::size_t x = 0; x < placed.size(); ++x) {
    for (std::size_t y = x + 1; y < placed.size(); ++y) {
      if (placed[x].arena == placed[y].arena && lives_overlap(placed[x].life, placed[y].life) &&
          bytes_overlap(placed[x], placed[y])) {
        out.push_back(overlap(s, p, placed[x], placed[y]));
      }
    }
  }
  return out;
}

}  // namespace planck::oracle
