#include "draw/picture.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "model/resolve.h"
#include "oracle/check/lifetimes.h"
#include "oracle/check/order.h"

namespace planck::draw {
namespace {

// The calls of a loop's body, nested loops included, and the last line any
// of them starts on.
void count_body(const std::vector<Entry>& body, Column& c) {
  for (const Entry& e : body) {
    if (e.kind == Entry::Kind::Kernel || e.kind == Entry::Kind::Copy) ++c.calls;
    c.last_line = std::max(c.last_line, e.pos.line);
    count_body(e.body(), c);
  }
}

std::vector<Column> columns_of(const Schedule& s) {
  std::vector<Column> out;
  out.reserve(s.entries.size());
  for (const Entry& e : s.entries) {
    Column c{.kind = e.kind, .line = e.pos.line, .last_line = e.pos.line, .stream = e.stream};
    switch (e.kind) {
      case Entry::Kind::Kernel: c.label = std::string(e.name.view()); break;
      case Entry::Kind::Copy: c.label = "copy"; break;
      case Entry::Kind::Range: c.label = "range"; break;
      case Entry::Kind::Loop: c.label = "loop"; break;
      case Entry::Kind::Record: c.label = fmt::format("record {}", e.name.view()); break;
      case Entry::Kind::Wait: c.label = fmt::format("wait {}", e.name.view()); break;
    }
    if (c.loop()) count_body(e.body(), c);
    out.push_back(std::move(c));
  }
  return out;
}

// Marks the boxes of `a` that the violation names, and records where it is.
void add_violation(ArenaPicture& a, const oracle::Violation& v,
                   const std::unordered_map<std::string_view, std::size_t>& box_of) {
  a.violations.push_back(v.message);
  std::vector<std::size_t> named;
  for (const std::string& b : v.buffers) {
    if (auto it = box_of.find(b); it != box_of.end()) {
      a.boxes[it->second].violating = true;
      named.push_back(it->second);
    }
  }
  if (v.shared && named.size() == 2) {
    // The shared bytes where both boxes are; over both, where they are
    // drawn apart (uses that nothing orders, on two streams).
    const Box& x = a.boxes[named[0]];
    const Box& y = a.boxes[named[1]];
    Mark m{.rule = v.rule, .begin = v.shared->begin, .end = v.shared->end, .boxes = named, .message = v.message};
    if (std::max(x.from, y.from) <= std::min(x.to, y.to)) {
      m.first = std::max(x.first, y.first);
      m.last = std::min(x.last, y.last);
      m.from = std::max(x.from, y.from);
      m.to = std::min(x.to, y.to);
    } else {
      m.first = std::min(x.first, y.first);
      m.last = std::max(x.last, y.last);
      m.from = std::min(x.from, y.from);
      m.to = std::max(x.to, y.to);
    }
    a.marks.push_back(std::move(m));
  } else if (v.rule == oracle::Rule::OutsideArena && !v.blocks.empty() && v.arena_size && named.size() == 1) {
    const Box& b = a.boxes[named[0]];
    a.marks.push_back({.rule = v.rule,
                       .begin = std::max(*v.arena_size, v.blocks[0].begin),
                       .end = v.blocks[0].end,
                       .first = b.first,
                       .last = b.last,
                       .from = b.from,
                       .to = b.to,
                       .boxes = named,
                       .message = v.message});
  }
}

}  // namespace

bool Picture::has_streams() const {
  return std::any_of(columns.begin(), columns.end(), [&](const Column& c) { return c.stream != columns[0].stream; });
}

std::size_t Picture::box_count() const {
  std::size_t n = 0;
  for (const ArenaPicture& a : arenas) n += a.boxes.size();
  return n;
}

Picture make_picture(const Schedule& s, const Plan& p, const std::vector<oracle::Violation>& violations,
                     std::uint64_t unlisted_overlaps) {
  Picture out{.schedule = s.source, .plan = p.source, .columns = columns_of(s),
              .violation_count = violations.size(), .unlisted_overlaps = unlisted_overlaps};
  const Resolution r = resolve(s, p);
  const std::vector<Lifetime> planned = oracle::planned_buffers(s);
  out.streams.clear();
  for (const Name& n : s.streams) out.streams.push_back(std::string(n.view()));
  std::unordered_map<std::string_view, std::size_t> recorded;
  for (std::size_t e = 0; e < s.entries.size(); ++e) {
    if (s.entries[e].kind == Entry::Kind::Record) recorded.emplace(s.entries[e].name.view(), e);
    if (s.entries[e].kind == Entry::Kind::Wait) {
      if (auto it = recorded.find(s.entries[e].name.view()); it != recorded.end()) {
        out.events.push_back({.name = std::string(s.entries[e].name.view()), .record = it->second, .wait = e});
      }
    }
  }

  // A top-level loop around local buffers takes a slot per position of its
  // body; a local buffer spans its positions in it.
  std::vector<std::optional<std::pair<std::size_t, std::size_t>>> local_slots(s.storage.size());
  bool any_local = false;
  for (const Lifetime& l : planned) any_local = any_local || s.storage[l.buffer].local;
  if (any_local) {
    const oracle::UseOrder order(s, planned);
    std::vector<std::pair<const oracle::BufferUses*, std::size_t>> locals;  // with their top-level loop
    for (const oracle::BufferUses& u : order.all()) {
      if (u.scope == oracle::LoopNode::kTopLevel) continue;
      std::size_t top = u.scope;
      while (order.loops()[top].parent != oracle::LoopNode::kTopLevel) top = order.loops()[top].parent;
      const std::size_t entry = order.loops()[top].position;
      out.columns[entry].positions = std::max<std::size_t>(s.entries[entry].body().size(), 1);
      locals.emplace_back(&u, top);
    }
    for (std::size_t e = 0; e < s.entries.size(); ++e) {
      out.slot_of_entry.push_back(out.slot_of_entry.back() + std::max<std::size_t>(out.columns[e].positions, 1));
      out.entry_of_slot.resize(out.slot_of_entry.back(), e);
    }
    for (const auto& [u, top] : locals) {
      const auto [first, last] = order.positions_in(*u, top);
      const std::size_t at = out.first_slot(order.loops()[top].position);
      local_slots[u->buffer] = {{at + first, at + last}};
    }
  } else {
    for (std::size_t e = 0; e < s.entries.size(); ++e) {
      out.slot_of_entry.push_back(e + 1);
      out.entry_of_slot.push_back(e);
    }
  }

  // Each arena name once, as the checker reads them: the first of the name.
  std::vector<std::optional<std::size_t>> picture_of(p.arenas.size());
  std::unordered_map<std::string_view, std::size_t> arena_named;
  for (std::size_t i = 0; i < p.arenas.size(); ++i) {
    if (r.arenas[i].first != i) continue;
    const Arena& a = p.arenas[i];
    picture_of[i] = out.arenas.size();
    arena_named.emplace(a.name.view(), out.arenas.size());
    out.arenas.push_back({.name = std::string(a.name.view()), .device = std::string(a.device.view()), .size = a.size,
                          .plan_line = a.pos.line, .top = a.size});
  }

  std::vector<std::optional<Lifetime>> life_of(s.storage.size());
  for (const Lifetime& l : planned) life_of[l.buffer] = l;

  // Boxes, in plan order; by StorageId, the arena and box each one is.
  std::vector<std::optional<std::pair<std::size_t, std::size_t>>> box_of_storage(s.storage.size());
  std::vector<std::unordered_map<std::string_view, std::size_t>> box_named(out.arenas.size());
  for (std::size_t i = 0; i < p.placements.size(); ++i) {
    const ResolvedPlacement& rp = r.placements[i];
    if (!rp.ok() || !life_of[*rp.storage]) continue;
    const Storage& st = s.storage[*rp.storage];
    const Placement& pl = p.placements[i];
    const Result<Bytes> rounded = rounded_size(st, s.align_of(st.device));
    const std::optional<Bytes> end = rounded ? checked_add(pl.place, *rounded) : std::nullopt;
    if (!end) continue;
    const std::size_t a = *picture_of[r.arenas[*rp.arena].first];
    ArenaPicture& arena = out.arenas[a];
    box_of_storage[*rp.storage] = {{a, arena.boxes.size()}};
    box_named[a].emplace(st.name.view(), arena.boxes.size());
    arena.top = std::max(arena.top, *end);
    arena.boxes.push_back({.name = std::string(st.name.view()),
                           .begin = pl.place,
                           .end = *end,
                           .bytes = st.bytes,
                           .phase = st.phase,
                           .first = life_of[*rp.storage]->first,
                           .last = life_of[*rp.storage]->last,
                           .from = out.first_slot(life_of[*rp.storage]->first),
                           .to = out.last_slot(life_of[*rp.storage]->last),
                           .line = st.pos.line,
                           .plan_line = pl.pos.line,
                           .io = st.io});
    if (local_slots[*rp.storage]) {
      arena.boxes.back().local = true;
      arena.boxes.back().from = local_slots[*rp.storage]->first;
      arena.boxes.back().to = local_slots[*rp.storage]->second;
    }
  }

  for (std::size_t e = 0; e < s.entries.size(); ++e) {
    for (const InPlace& ip : s.entries[e].inplace()) {
      const auto& out_box = box_of_storage[ip.out];
      const auto& in_box = box_of_storage[ip.in];
      if (out_box && in_box && out_box->first == in_box->first) {
        out.arenas[out_box->first].inplace.push_back({.out = out_box->second, .in = in_box->second, .entry = e});
      }
    }
  }

  for (const oracle::Violation& v : violations) {
    const auto named = v.arenas.empty() ? arena_named.end() : arena_named.find(v.arenas[0]);
    if (named != arena_named.end()) {
      add_violation(out.arenas[named->second], v, box_named[named->second]);
      continue;
    }
    // Of no arena drawn: it still marks the boxes it names, wherever they are.
    out.other_violations.push_back(v.message);
    for (const std::string& b : v.buffers) {
      const std::optional<StorageId> id = s.find(b);
      if (id && box_of_storage[*id]) {
        const auto [a, box] = *box_of_storage[*id];
        out.arenas[a].boxes[box].violating = true;
      }
    }
  }
  return out;
}

std::string entries_text(const Picture& p, std::size_t first, std::size_t last) {
  const auto line = [&](std::size_t e) { return e < p.columns.size() ? p.columns[e].line : 0; };
  if (first == last) {
    return line(first) > 0 ? fmt::format("entry {} (line {})", first, line(first)) : fmt::format("entry {}", first);
  }
  return line(first) > 0 && line(last) > 0
             ? fmt::format("entries {}..{} (lines {}-{})", first, last, line(first), line(last))
             : fmt::format("entries {}..{}", first, last);
}

std::string box_text(const Picture& p, const ArenaPicture& a, const Box& b) {
  std::string io;
  if (b.io & kState) {
    io = ", state";
  } else {
    if (b.io & kInput) io += ", input";
    if (b.io & kOutput) io += ", output";
  }
  if (b.local) {
    const std::size_t at = p.first_slot(b.first);
    io += b.from == b.to ? fmt::format(", local to the loop: position {} of its body", b.from - at)
                         : fmt::format(", local to the loop: positions {}..{} of its body", b.from - at, b.to - at);
  }
  return fmt::format("{}: {} byte{}{} at [{}, {}) of {}{}, live over {}{}{}", b.name, b.bytes, b.bytes == 1 ? "" : "s",
                     b.phase > 0 ? fmt::format(" (phase {})", b.phase) : "", b.begin, b.end, a.name, io,
                     entries_text(p, b.first, b.last), b.line > 0 ? fmt::format(", declared line {}", b.line) : "",
                     b.plan_line > 0 ? fmt::format(", plan line {}", b.plan_line) : "");
}

}  // namespace planck::draw
