#include "oracle/check/order.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <utility>

namespace planck::oracle {

// ---------------------------------------------------------------- happens-before

HappensBefore::HappensBefore(const Schedule& s, std::size_t max_components) {
  const std::size_t n = s.entries.size();
  stream_.resize(n);
  seq_.resize(n);
  wait_.assign(n, kNone);
  record_of_wait_.assign(n, kNone);
  prev_wait_.assign(n, kNone);
  row_of_.assign(n, kNone);
  streams_ = s.streams.size();
  dim_.assign(s.streams.size(), kNone);
  std::vector<std::uint32_t> count(s.streams.size(), 0);
  std::size_t waits = 0;
  std::size_t records = 0;
  for (std::size_t e = 0; e < n; ++e) {
    const Entry& entry = s.entries[e];
    stream_[e] = entry.stream < s.streams.size() ? entry.stream : 0;
    seq_[e] = ++count[stream_[e]];
    one_stream_ = one_stream_ && stream_[e] == stream_[0];
    if (entry.kind == Entry::Kind::Record) {
      ++records;
      if (dim_[stream_[e]] == kNone) dim_[stream_[e]] = static_cast<std::uint32_t>(dims_++);
    }
    if (entry.kind == Entry::Kind::Wait) ++waits;
  }
  // The record of each wait: each event is recorded once, before its waits.
  std::unordered_map<std::string_view, std::uint32_t> recorded;
  std::vector<std::uint32_t> last_wait(s.streams.size(), kNone);
  for (std::size_t e = 0; e < n; ++e) {
    const Entry& entry = s.entries[e];
    if (entry.kind == Entry::Kind::Record) recorded.emplace(entry.name.view(), static_cast<std::uint32_t>(e));
    if (entry.kind == Entry::Kind::Wait) {
      const auto r = recorded.find(entry.name.view());
      if (r != recorded.end()) {
        record_of_wait_[e] = r->second;
        prev_wait_[e] = last_wait[stream_[e]];
        last_wait[stream_[e]] = static_cast<std::uint32_t>(e);
      }
    }
    wait_[e] = last_wait[stream_[e]];
  }
  dense_ = dims_ == 0 || (waits + records) <= max_components / dims_;
  if (!dense_ || dims_ == 0) return;
  // Each stream's current clock, and each record's, in rows of dims_.
  std::vector<std::vector<std::uint32_t>> current(s.streams.size());
  std::vector<std::uint32_t> record_rows;
  std::vector<std::uint32_t> record_row_of(n, kNone);
  for (std::size_t e = 0; e < n; ++e) {
    const Entry& entry = s.entries[e];
    std::vector<std::uint32_t>& clock = current[stream_[e]];
    if (entry.kind == Entry::Kind::Record) {
      if (clock.empty()) clock.assign(dims_, 0);
      record_row_of[e] = static_cast<std::uint32_t>(record_rows.size() / dims_);
      record_rows.insert(record_rows.end(), clock.begin(), clock.end());
      record_rows[record_rows.size() - dims_ + dim_[stream_[e]]] = seq_[e];
    } else if (entry.kind == Entry::Kind::Wait && record_of_wait_[e] != kNone) {
      if (clock.empty()) clock.assign(dims_, 0);
      const std::uint32_t* rec = &record_rows[std::size_t{record_row_of[record_of_wait_[e]]} * dims_];
      for (std::size_t d = 0; d < dims_; ++d) clock[d] = std::max(clock[d], rec[d]);
      row_of_[e] = static_cast<std::uint32_t>(rows_.size() / dims_);
      rows_.insert(rows_.end(), clock.begin(), clock.end());
    }
  }
}

bool HappensBefore::before(std::size_t a, std::size_t b) const {
  if (a >= b) return false;  // before implies earlier in the file
  if (stream_[a] == stream_[b]) return true;
  if (dim_[stream_[a]] == kNone || wait_[b] == kNone) return false;
  if (!dense_) return walk_before(a, b);
  return rows_[std::size_t{row_of_[wait_[b]]} * dims_ + dim_[stream_[a]]] >= seq_[a];
}

// From b, every wait at or before it on its stream leads to its record,
// before which everything on the record's stream happens before b, and so
// on; a is before b when one of these points is on a's stream at or after
// a. Each stream is walked back from the latest point reached on it, once.
bool HappensBefore::walk_before(std::size_t a, std::size_t b) const {
  std::vector<std::uint32_t> reached(streams_, 0);  // 1 + the latest point reached on each stream
  std::vector<std::uint32_t> stack{static_cast<std::uint32_t>(b)};
  while (!stack.empty()) {
    const std::uint32_t x = stack.back();
    stack.pop_back();
    const StreamId on = stream_[x];
    const std::uint32_t earlier = reached[on];
    if (earlier > x) continue;
    reached[on] = x + 1;
    if (on == stream_[a] && a <= x) return true;
    for (std::uint32_t w = wait_[x]; w != kNone && w >= earlier; w = prev_wait_[w]) {
      stack.push_back(record_of_wait_[w]);
    }
  }
  return false;
}

// ---------------------------------------------------------------- uses

namespace {

// A use of a local buffer inside a loop: the loop and the position there.
struct LocalUse {
  std::size_t use;  // into uses_
  std::size_t loop;
  std::size_t position;
};

}  // namespace

UseOrder::UseOrder(const Schedule& s, const std::vector<Lifetime>& planned) : s_(s), hb_(s) {
  index_.assign(s.storage.size(), kNotPlanned);
  uses_.reserve(planned.size());
  for (const Lifetime& life : planned) {
    index_[life.buffer] = uses_.size();
    const Storage& st = s.storage[life.buffer];
    uses_.push_back({.buffer = life.buffer,
                     .first = life.first,
                     .last = life.last,
                     .from_start = lives_from_start(st),
                     .to_end = lives_to_end(st)});
  }
  std::vector<LocalUse> local_uses;
  std::size_t order = 0;
  // A use at top-level entry `top`, inside loop `loop` (kTopLevel for the
  // entry itself) at `position` of its body.
  auto use = [&](StorageId id, std::size_t top, std::size_t loop, std::size_t position) {
    const std::size_t i = index_[id];
    if (i == kNotPlanned) return;
    BufferUses& u = uses_[i];
    if (u.order == 0) u.order = order;
    const StreamId stream = hb_.stream(top);
    auto on = std::find_if(u.streams.begin(), u.streams.end(), [&](const auto& x) { return x.stream == stream; });
    if (on == u.streams.end()) {
      u.streams.push_back({.stream = stream, .first = top, .last = top});
    } else {
      on->last = top;
    }
    if (s_.storage[id].local) local_uses.push_back({i, loop, position});
  };
  struct Item {
    const Entry* entry;
    std::size_t loop;      // the loop whose body holds it, or kTopLevel
    std::size_t position;  // its position there
    bool flag_only;        // the loop's flag, taken after its body
  };
  std::vector<Item> stack;
  for (std::size_t top = 0; top < s.entries.size(); ++top) {
    stack.push_back({&s.entries[top], LoopNode::kTopLevel, top, false});
    while (!stack.empty()) {
      const Item item = stack.back();
      stack.pop_back();
      const Entry& e = *item.entry;
      if (item.flag_only) {
        ++order;
        for (const Arg& a : e.flag()) use(storage_of(a), top, item.loop, item.position);
        continue;
      }
      if (e.kind == Entry::Kind::Kernel || e.kind == Entry::Kind::Copy) {
        ++order;
        for (const Arg& a : e.args) use(storage_of(a), top, item.loop, item.position);
        if (item.loop != LoopNode::kTopLevel) inner_.push_back({&e, {item.loop, item.position}});
        continue;
      }
      if (e.kind != Entry::Kind::Range && e.kind != Entry::Kind::Loop) continue;
      const std::size_t node = loops_.size();
      loops_.push_back({.parent = item.loop,
                        .position = item.position,
                        .depth = item.loop == LoopNode::kTopLevel ? 1 : loops_[item.loop].depth + 1,
                        .entry = &e});
      if (item.loop != LoopNode::kTopLevel) inner_.push_back({&e, {item.loop, item.position}});
      // The flag after the body: pushed first.
      stack.push_back({&e, item.loop, item.position, true});
      const std::vector<Entry>& body = e.body();
      for (std::size_t p = body.size(); p-- > 0;) stack.push_back({&body[p], node, p, false});
    }
  }
  std::sort(inner_.begin(), inner_.end());
  // Each local buffer's scope: the innermost loop around all its uses.
  const auto lca = [&](std::size_t a, std::size_t b) { return innermost_around(a, b); };
  std::vector<bool> seen(uses_.size(), false);
  for (const LocalUse& lu : local_uses) {
    BufferUses& u = uses_[lu.use];
    u.scope = seen[lu.use] ? lca(u.scope, lu.loop) : lu.loop;
    seen[lu.use] = true;
  }
  std::fill(seen.begin(), seen.end(), false);
  for (const LocalUse& lu : local_uses) {
    BufferUses& u = uses_[lu.use];
    if (u.scope == LoopNode::kTopLevel) continue;
    // The position in the scope's body of the entry that holds the use.
    std::size_t loop = lu.loop;
    std::size_t position = lu.position;
    while (loop != u.scope) {
      position = loops_[loop].position;
      loop = loops_[loop].parent;
    }
    if (!seen[lu.use]) {
      u.pos_first = u.pos_last = position;
      seen[lu.use] = true;
    } else {
      u.pos_first = std::min(u.pos_first, position);
      u.pos_last = std::max(u.pos_last, position);
    }
  }
}

bool UseOrder::top_before(const BufferUses& b, const BufferUses& c) const {
  if (b.to_end || c.from_start) return false;
  if (hb_.one_stream()) return b.last < c.first;
  for (const BufferUses::OnStream& x : b.streams) {
    for (const BufferUses::OnStream& y : c.streams) {
      if (!hb_.before(x.last, y.first)) return false;
    }
  }
  return true;
}

std::size_t UseOrder::innermost_around(std::size_t x, std::size_t y) const {
  while (x != y) {
    if (x == LoopNode::kTopLevel || y == LoopNode::kTopLevel) return LoopNode::kTopLevel;
    if (loops_[x].depth >= loops_[y].depth) {
      x = loops_[x].parent;
    } else {
      y = loops_[y].parent;
    }
  }
  return x;
}

std::size_t UseOrder::common_loop(const BufferUses& b, const BufferUses& c) const {
  return innermost_around(b.scope, c.scope);
}

std::pair<std::size_t, std::size_t> UseOrder::positions_in(const BufferUses& b, std::size_t loop) const {
  if (b.scope == loop) return {b.pos_first, b.pos_last};
  std::size_t node = b.scope;
  while (loops_[node].parent != loop) node = loops_[node].parent;
  return {loops_[node].position, loops_[node].position};
}

bool UseOrder::before(const BufferUses& b, const BufferUses& c) const {
  const std::size_t loop = common_loop(b, c);
  if (loop == LoopNode::kTopLevel) return top_before(b, c);
  return positions_in(b, loop).second < positions_in(c, loop).first;
}

bool UseOrder::conflict_in_file_order(const BufferUses& b, const BufferUses& c) const {
  if (common_loop(b, c) != LoopNode::kTopLevel) return conflict(b, c);
  return b.first <= c.last && c.first <= b.last;
}

ConflictWitness UseOrder::witness(const BufferUses& b, const BufferUses& c) const {
  ConflictWitness w;
  const std::size_t loop = common_loop(b, c);
  if (loop != LoopNode::kTopLevel) {
    w.loop = loop;
    std::tie(w.b_first, w.b_last) = positions_in(b, loop);
    std::tie(w.c_first, w.c_last) = positions_in(c, loop);
    return w;
  }
  // b not before c: a pair of uses that says so.
  if (b.to_end) {
    w.b_use = UsePoint{.kind = UsePoint::Kind::AfterRun};
    w.c_use = UsePoint{.kind = UsePoint::Kind::Entry, .entry = c.streams.front().first};
    return w;
  }
  if (c.from_start) {
    w.b_use = UsePoint{.kind = UsePoint::Kind::Entry, .entry = b.streams.front().last};
    w.c_use = UsePoint{.kind = UsePoint::Kind::BeforeRun};
    return w;
  }
  // Two different entries first: an in-place kernel may take both.
  for (const bool distinct : {true, false}) {
    for (const BufferUses::OnStream& x : b.streams) {
      for (const BufferUses::OnStream& y : c.streams) {
        if ((!distinct || x.last != y.first) && !hb_.before(x.last, y.first)) {
          w.b_use = UsePoint{.kind = UsePoint::Kind::Entry, .entry = x.last};
          w.c_use = UsePoint{.kind = UsePoint::Kind::Entry, .entry = y.first};
          return w;
        }
      }
    }
  }
  return w;
}

const std::pair<std::size_t, std::size_t>* UseOrder::inner(const Entry* e) const {
  auto it = std::lower_bound(inner_.begin(), inner_.end(), e,
                             [](const auto& x, const Entry* key) { return x.first < key; });
  return it != inner_.end() && it->first == e ? &it->second : nullptr;
}

std::size_t UseOrder::loop_of(const Entry* e) const {
  const auto* at = inner(e);
  return at ? at->first : LoopNode::kTopLevel;
}

std::size_t UseOrder::position_of(const Entry* e) const {
  const auto* at = inner(e);
  return at ? at->second : static_cast<std::size_t>(e - s_.entries.data());
}

}  // namespace planck::oracle
