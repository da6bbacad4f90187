#include "oracle/check/violation.h"

#include <algorithm>

#include <fmt/format.h>

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
    case Rule::OverCapacity: return "over-capacity";
    case Rule::Overlap: return "overlap";
    case Rule::InPlaceNotAllowed: return "inplace-not-allowed";
    case Rule::Race: return "race";
  }
  return "?";
}

EntrySpan entry_span(const Schedule& s, std::size_t first, std::size_t last) {
  return {.first = first,
          .last = last,
          .first_line = s.entries[first].pos.line,
          .last_line = s.entries[last].pos.line};
}

namespace {

// ---- Pieces of messages. Source lines are left out when unknown (0).

// " at plan line N"
std::string at_plan_line(int line) { return line > 0 ? fmt::format(" at plan line {}", line) : ""; }

// " (plan line N)"
std::string plan_line(int line) { return line > 0 ? fmt::format(" (plan line {})", line) : ""; }

// " (plan lines N and M)"
std::string plan_lines(int a, int b) {
  return a > 0 && b > 0 ? fmt::format(" (plan lines {} and {})", a, b) : "";
}

// "entry 2 (line 9)" or "entries 1..3 (lines 8-10)"
std::string entries_text(const EntrySpan& e) {
  if (e.first == e.last) {
    return e.first_line > 0 ? fmt::format("entry {} (line {})", e.first, e.first_line)
                            : fmt::format("entry {}", e.first);
  }
  return e.first_line > 0 && e.last_line > 0
             ? fmt::format("entries {}..{} (lines {}-{})", e.first, e.last, e.first_line,
                           e.last_line)
             : fmt::format("entries {}..{}", e.first, e.last);
}

std::string live_text(const EntrySpan& life) { return "live over " + entries_text(life); }

std::string range_text(const ByteRange& r) { return fmt::format("[{}, {})", r.begin, r.end); }

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

// ", the align of device D" where the violation names the device.
std::string device_align_text(const Violation& v) {
  return v.devices.empty() ? "" : fmt::format(", the align of device {}", v.devices[0]);
}

std::string unplanned_text(const Violation& v) {
  switch (*v.unplanned) {
    case Unplanned::Alloc: return "it is an alloc";
    case Unplanned::Param: return "it is a param";
    case Unplanned::Held: return "it is held";
    case Unplanned::OnDisk: return fmt::format("it is on the disk {}", v.devices[0]);
    case Unplanned::NotTaken: return "no entry takes it";
  }
  return "?";
}

std::string arena_twice_text(const Violation& v) {
  if (v.storage_kind) {
    return fmt::format("arena {}{} has the name of {} {}{}", v.arenas[0], plan_line(v.plan_lines[0]),
                       storage_kind_name(*v.storage_kind), v.buffers[0],
                       v.storage_line > 0 ? fmt::format(" (line {})", v.storage_line) : "");
  }
  return fmt::format("arena {} is declared twice{}", v.arenas[0],
                     plan_lines(v.plan_lines[0], v.plan_lines[1]));
}

std::string device_arenas_text(const Violation& v) {
  if (v.arenas.empty()) {
    return fmt::format("device {} has no arena for its planned buffers {}", v.devices[0],
                       names_text(v.buffers));
  }
  return fmt::format("arena {}{} is on device {}, which has no planned buffers", v.arenas[0],
                     plan_line(v.plan_lines[0]), v.devices[0]);
}

std::string over_capacity_text(const Violation& v) {
  std::vector<std::string> arena_texts;
  Bytes total = 0;
  for (std::size_t a = 0; a < v.arenas.size(); ++a) {
    arena_texts.push_back(fmt::format("{} of {} bytes{}", v.arenas[a], v.arena_sizes[a], plan_line(v.plan_lines[a])));
    total = checked_add(total, v.arena_sizes[a]).value_or(~Bytes{0});
  }
  const std::string sum = total == ~Bytes{0} ? "more than 2^64" : fmt::format("{}", total);
  return fmt::format("the arenas of device {} take {} bytes, more than its capacity of {}: {}", v.devices[0], sum,
                     *v.capacity, names_text(arena_texts));
}

std::string outside_arena_text(const Violation& v) {
  if (v.blocks.empty()) {
    return fmt::format("{} is placed{} at {}, where its end, place + round_up(phase {} + {} bytes, "
                       "{}), passes 2^64",
                       v.buffers[0], at_plan_line(v.plan_lines[0]), *v.place, *v.phase, *v.bytes,
                       v.align.value_or(kPlaceAlign));
  }
  return fmt::format("{} {} placed{} ends past the {} bytes of arena {}", v.buffers[0],
                     range_text(v.blocks[0]), at_plan_line(v.plan_lines[0]), *v.arena_size,
                     v.arenas[0]);
}

// The blocks of two buffers share bytes while both live. Where their own
// bytes share some too, that is all there is to say; where they are apart,
// the message says so, since it is the rounding that makes them collide.
std::string overlap_text(const Violation& v) {
  const std::string pair = fmt::format(
      "{} {} {} and {} {} {}", v.buffers[0], range_text(v.blocks[0]), live_text(v.lives[0]),
      v.buffers[1], range_text(v.blocks[1]), live_text(v.lives[1]));
  const std::string where = fmt::format("{} during {} in arena {}{}", range_text(*v.shared),
                                        entries_text(*v.during), v.arenas[0],
                                        plan_lines(v.plan_lines[0], v.plan_lines[1]));
  const ByteRange& x = v.own_bytes[0];
  const ByteRange& y = v.own_bytes[1];
  if (std::max(x.begin, y.begin) < std::min(x.end, y.end)) {
    return fmt::format("{} share bytes {}", pair, where);
  }
  return fmt::format("the rounded blocks of {} share bytes {}, though their own bytes, {} {} and {} {}, "
                     "are apart",
                     pair, where, v.buffers[0], range_text(x), v.buffers[1], range_text(y));
}

// "positions 1..2 of the loop at line 5"
std::string positions_text(const std::pair<std::size_t, std::size_t>& p) {
  return p.first == p.second ? fmt::format("position {}", p.first)
                             : fmt::format("positions {}..{}", p.first, p.second);
}

// Two local buffers of one loop whose positions in its body meet.
std::string loop_overlap_text(const Violation& v) {
  const auto& [a, b] = std::make_pair(v.positions[0], v.positions[1]);
  const std::pair<std::size_t, std::size_t> both{std::max(a.first, b.first), std::min(a.second, b.second)};
  std::string text = fmt::format(
      "{} {} at {} and {} {} at {} of the loop at line {} share bytes {} during {} of each iteration in arena {}{}",
      v.buffers[0], range_text(v.blocks[0]), positions_text(a), v.buffers[1], range_text(v.blocks[1]),
      positions_text(b), v.loop_line, range_text(*v.shared), positions_text(both), v.arenas[0],
      plan_lines(v.plan_lines[0], v.plan_lines[1]));
  if (v.rule == Rule::InPlaceNotAllowed) {
    text += fmt::format("; the kernel at {} declares inplace={}:{}, which allows no sharing here: {}",
                        entries_text(*v.declared_at), v.buffers[0], v.buffers[1], v.refusal);
  }
  return text;
}

// "b's use at entry 3 (line 9, stream copy)"
std::string use_text(const Violation& v, std::size_t k) {
  if (v.caller[k] < 0) return fmt::format("the caller's write of {} before the run", v.buffers[k]);
  if (v.caller[k] > 0) return fmt::format("the caller's read of {} after the run", v.buffers[k]);
  const EntrySpan& e = v.unordered[k];
  const std::string stream = v.streams[k].empty() ? "the default stream" : "stream " + v.streams[k];
  return e.first_line > 0 ? fmt::format("{}'s use at entry {} (line {}, {})", v.buffers[k], e.first, e.first_line, stream)
                          : fmt::format("{}'s use at entry {} ({})", v.buffers[k], e.first, stream);
}

std::string race_text(const Violation& v) {
  return fmt::format("{} {} {} and {} {} {} share bytes {} in arena {}{}, apart in file order, but nothing orders "
                     "{} before {}",
                     v.buffers[0], range_text(v.blocks[0]), live_text(v.lives[0]), v.buffers[1],
                     range_text(v.blocks[1]), live_text(v.lives[1]), range_text(*v.shared), v.arenas[0],
                     plan_lines(v.plan_lines[0], v.plan_lines[1]), use_text(v, 0), use_text(v, 1));
}

// An overlap of an in-place pair that its declaration does not allow.
std::string inplace_text(const Violation& v) {
  return fmt::format("{} {} {} and {} {} {} share bytes {} during {} in arena {}{}; the kernel at {} declares "
                     "inplace={}:{}, which allows no sharing here: {}",
                     v.buffers[0], range_text(v.blocks[0]), live_text(v.lives[0]), v.buffers[1],
                     range_text(v.blocks[1]), live_text(v.lives[1]), range_text(*v.shared), entries_text(*v.during),
                     v.arenas[0], plan_lines(v.plan_lines[0], v.plan_lines[1]), entries_text(*v.declared_at),
                     v.buffers[0], v.buffers[1], v.refusal);
}

std::string detail_text(const Violation& v) {
  switch (v.rule) {
    case Rule::NotPlaced:
      return fmt::format("{}, {}, has no placement", v.buffers[0], live_text(v.lives[0]));
    case Rule::PlacedTwice:
      return fmt::format("{} is placed twice{}", v.buffers[0],
                         plan_lines(v.plan_lines[0], v.plan_lines[1]));
    case Rule::NotPlanned:
      return fmt::format("{} is placed{} but is not planned: {}", v.buffers[0],
                         at_plan_line(v.plan_lines[0]), unplanned_text(v));
    case Rule::UnknownStorage:
      return fmt::format("{} is placed{} but the schedule declares no storage of that name",
                         v.buffers[0], at_plan_line(v.plan_lines[0]));
    case Rule::UnknownArena:
      return fmt::format("{} is placed{} in arena {}, which the plan does not declare",
                         v.buffers[0], at_plan_line(v.plan_lines[0]), v.arenas[0]);
    case Rule::ArenaTwice: return arena_twice_text(v);
    case Rule::DeviceArenas: return device_arenas_text(v);
    case Rule::WrongDevice:
      return fmt::format("{} on device {} is placed{} in arena {} of device {}", v.buffers[0],
                         v.devices[0], at_plan_line(v.plan_lines[0]), v.arenas[0], v.devices[1]);
    case Rule::ArenaSize:
      return fmt::format("arena {}{} has size {}, not a multiple of {}{}", v.arenas[0],
                         plan_line(v.plan_lines[0]), *v.arena_size, v.align.value_or(kPlaceAlign),
                         device_align_text(v));
    case Rule::Misaligned:
      return fmt::format("{} is placed{} at {}, not a multiple of {}{}", v.buffers[0],
                         at_plan_line(v.plan_lines[0]), *v.place, v.align.value_or(kPlaceAlign),
                         device_align_text(v));
    case Rule::OutsideArena: return outside_arena_text(v);
    case Rule::OverCapacity: return over_capacity_text(v);
    case Rule::Overlap: return v.positions.empty() ? overlap_text(v) : loop_overlap_text(v);
    case Rule::InPlaceNotAllowed: return v.positions.empty() ? inplace_text(v) : loop_overlap_text(v);
    case Rule::Race: return race_text(v);
  }
  return "?";
}

}  // namespace

std::string describe(const Violation& v) {
  return fmt::format("{}: {}", rule_name(v.rule), detail_text(v));
}

}  // namespace planck::oracle
