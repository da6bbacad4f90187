#include "planner/conflicts.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

namespace planck {
namespace {

// Past this many numbers in the clocks, or this many streams for the
// windows, the rule gives up precision for memory and time: it takes
// entries on two streams as unordered, or a window to the last entry.
constexpr std::size_t kMaxClockNumbers = std::size_t{1} << 24;
constexpr std::size_t kMaxWindowStreams = 64;

}  // namespace

Status refuse_streams(const Schedule& s, std::string_view planner) {
  std::vector<bool> used(std::max<std::size_t>(s.streams.size(), 1), false);
  std::size_t count = 0;
  for (const Entry& e : s.entries) {
    const StreamId id = e.stream < used.size() ? e.stream : 0;
    if (!used[id]) ++count;
    used[id] = true;
  }
  if (count <= 1) return Ok{};
  std::string names;
  for (std::size_t id = 0; id < used.size(); ++id) {
    if (!used[id]) continue;
    if (!names.empty()) names += ", ";
    names += id == 0 ? std::string("the default stream") : fmt::format("`{}`", s.streams[id]);
  }
  return Error{.where = "",
               .what = fmt::format("{} plans one stream in file order, and this schedule runs entries on {} streams "
                                   "({}); plan it with greedy, bysize, naive, best or optimal",
                                   planner, count, names),
               .kind = "planner-streams"};
}

Features one_stream_features() {
  Features f;
  f.streams = false;
  return f;
}

std::unique_ptr<Planner> one_stream_planner(std::string_view name, OneStreamPlan plan) {
  return planner_of(
      name,
      [name = std::string(name), plan](const Schedule& s, std::chrono::steady_clock::time_point) -> Result<Plan> {
        PLANCK_TRY(refuse_streams(s, name));
        return plan(s);
      },
      one_stream_features());
}

ConflictRule::ConflictRule(const Schedule& s, const std::vector<Lifetime>& lives) : s_(s), lives_(lives) {
  const std::size_t n = s.entries.size();
  const std::size_t streams = std::max<std::size_t>(s.streams.size(), 1);
  stream_.resize(n);
  seq_.resize(n);
  last_wait_.assign(n, kNone);
  dim_.assign(streams, kNone);
  std::vector<std::uint32_t> count(streams, 0);
  std::size_t events = 0;
  for (std::size_t e = 0; e < n; ++e) {
    stream_[e] = s.entries[e].stream < streams ? s.entries[e].stream : 0;
    seq_[e] = ++count[stream_[e]];
    one_stream_ = one_stream_ && stream_[e] == stream_[0];
    const Entry::Kind k = s.entries[e].kind;
    if (k == Entry::Kind::Record && dim_[stream_[e]] == kNone) dim_[stream_[e]] = static_cast<std::uint32_t>(dims_++);
    if (k == Entry::Kind::Record || k == Entry::Kind::Wait) ++events;
  }
  clocks_ = dims_ == 0 || events <= kMaxClockNumbers / dims_;
  if (clocks_ && dims_ > 0) {
    std::vector<std::vector<std::uint32_t>> now(streams);
    std::unordered_map<std::string_view, std::vector<std::uint32_t>> recorded;
    std::vector<std::uint32_t> waited(streams, kNone);
    row_.assign(n, kNone);
    for (std::size_t e = 0; e < n; ++e) {
      const Entry& entry = s.entries[e];
      std::vector<std::uint32_t>& clock = now[stream_[e]];
      if (clock.empty()) clock.assign(dims_, 0);
      if (entry.kind == Entry::Kind::Record) {
        std::vector<std::uint32_t> at = clock;
        at[dim_[stream_[e]]] = seq_[e];
        recorded.emplace(entry.name.view(), std::move(at));
      } else if (entry.kind == Entry::Kind::Wait) {
        const auto r = recorded.find(entry.name.view());
        if (r != recorded.end()) {
          for (std::size_t d = 0; d < dims_; ++d) clock[d] = std::max(clock[d], r->second[d]);
          row_[e] = static_cast<std::uint32_t>(rows_.size() / dims_);
          rows_.insert(rows_.end(), clock.begin(), clock.end());
          waited[stream_[e]] = static_cast<std::uint32_t>(e);
        }
      }
      last_wait_[e] = waited[stream_[e]];
    }
  }

  // The uses of each lifetime, by stream, and those of local buffers by
  // position in their loops.
  std::vector<std::size_t> life_of(s.storage.size(), kNoLoop);
  for (std::size_t i = 0; i < lives.size(); ++i) life_of[lives[i].buffer] = i;
  uses_.resize(lives.size());
  struct LocalUse {
    std::size_t life;
    std::size_t loop;
    std::size_t position;
  };
  std::vector<LocalUse> local;
  const auto use = [&](StorageId id, std::size_t top, std::size_t loop, std::size_t position) {
    const std::size_t i = life_of[id];
    if (i == kNoLoop) return;
    std::vector<OnStream>& on = uses_[i].streams;
    auto it = std::find_if(on.begin(), on.end(), [&](const OnStream& x) { return x.stream == stream_[top]; });
    if (it == on.end()) {
      on.push_back({stream_[top], top, top});
    } else {
      it->last = top;
    }
    if (s.storage[id].local && loop != kNoLoop) local.push_back({i, loop, position});
  };
  struct Item {
    const Entry* entry;
    std::size_t loop;
    std::size_t position;
  };
  std::vector<Item> stack;
  for (std::size_t top = 0; top < n; ++top) {
    stack.push_back({&s.entries[top], kNoLoop, top});
    while (!stack.empty()) {
      const Item item = stack.back();
      stack.pop_back();
      const Entry& e = *item.entry;
      for (const Arg& a : e.args) use(storage_of(a), top, item.loop, item.position);
      for (const Arg& a : e.flag()) use(storage_of(a), top, item.loop, item.position);
      if (e.kind != Entry::Kind::Range && e.kind != Entry::Kind::Loop) continue;
      const std::size_t node = loops_.size();
      loops_.push_back({item.loop, item.position, item.loop == kNoLoop ? 1 : loops_[item.loop].depth + 1});
      for (std::size_t p = 0; p < e.body().size(); ++p) stack.push_back({&e.body()[p], node, p});
    }
  }
  const auto lca = [&](std::size_t a, std::size_t b) { return innermost_around(a, b); };
  std::vector<char> seen(lives.size(), 0);
  for (const LocalUse& u : local) {
    uses_[u.life].loop = seen[u.life] ? lca(uses_[u.life].loop, u.loop) : u.loop;
    seen[u.life] = 1;
  }
  std::fill(seen.begin(), seen.end(), 0);
  for (const LocalUse& u : local) {
    Uses& x = uses_[u.life];
    if (x.loop == kNoLoop) continue;
    std::size_t loop = u.loop;
    std::size_t position = u.position;
    while (loop != x.loop) {
      position = loops_[loop].position;
      loop = loops_[loop].parent;
    }
    x.pos_first = seen[u.life] ? std::min(x.pos_first, position) : position;
    x.pos_last = seen[u.life] ? std::max(x.pos_last, position) : position;
    seen[u.life] = 1;
  }

  // The windows: each stream's entries after the lifetime, searched for the
  // first that every use of it happens before.
  window_last_.resize(lives.size());
  std::vector<std::vector<std::size_t>> on_stream(streams);
  if (!one_stream_) {
    for (std::size_t e = 0; e < n; ++e) on_stream[stream_[e]].push_back(e);
  }
  for (std::size_t i = 0; i < lives.size(); ++i) {
    std::size_t window = lives[i].last;
    if (!one_stream_) {
      const bool to_end = lives_to_end(s.storage[lives[i].buffer]);
      if (to_end || !clocks_ || streams > kMaxWindowStreams) {
        window = n - 1;
      } else {
        for (const std::vector<std::size_t>& entries : on_stream) {
          auto from = std::upper_bound(entries.begin(), entries.end(), lives[i].last);
          // The first entry after the lifetime that all its uses happen before.
          auto ordered = std::partition_point(from, entries.end(), [&](std::size_t f) {
            return !std::all_of(uses_[i].streams.begin(), uses_[i].streams.end(),
                                [&](const OnStream& x) { return happens_before(x.last, f); });
          });
          if (ordered != from) window = std::max(window, *(ordered - 1));
        }
      }
    }
    window_last_[i] = window;
  }
}

bool ConflictRule::happens_before(std::size_t e, std::size_t f) const {
  if (e >= f) return false;
  if (stream_[e] == stream_[f]) return true;
  if (!clocks_ || dim_[stream_[e]] == kNone || last_wait_[f] == kNone) return false;
  return rows_[std::size_t{row_[last_wait_[f]]} * dims_ + dim_[stream_[e]]] >= seq_[e];
}

std::size_t ConflictRule::common_loop(std::size_t a, std::size_t b) const {
  return innermost_around(uses_[a].loop, uses_[b].loop);
}

std::size_t ConflictRule::innermost_around(std::size_t x, std::size_t y) const {
  while (x != y) {
    if (x == kNoLoop || y == kNoLoop) return kNoLoop;
    if (loops_[x].depth >= loops_[y].depth) {
      x = loops_[x].parent;
    } else {
      y = loops_[y].parent;
    }
  }
  return x;
}

std::pair<std::size_t, std::size_t> ConflictRule::positions(std::size_t a, std::size_t loop) const {
  if (uses_[a].loop == loop) return {uses_[a].pos_first, uses_[a].pos_last};
  std::size_t node = uses_[a].loop;
  while (loops_[node].parent != loop) node = loops_[node].parent;
  return {loops_[node].position, loops_[node].position};
}

bool ConflictRule::before(std::size_t a, std::size_t b) const {
  const std::size_t loop = common_loop(a, b);
  if (loop != kNoLoop) return positions(a, loop).second < positions(b, loop).first;
  if (lives_to_end(s_.storage[lives_[a].buffer]) || lives_from_start(s_.storage[lives_[b].buffer])) return false;
  if (one_stream_) return lives_[a].last < lives_[b].first;
  for (const OnStream& x : uses_[a].streams) {
    for (const OnStream& y : uses_[b].streams) {
      if (!happens_before(x.last, y.first)) return false;
    }
  }
  return true;
}

bool ConflictRule::conflict(std::size_t a, std::size_t b) const { return !before(a, b) && !before(b, a); }

bool ConflictRule::inplace_ordered(std::size_t out, std::size_t in, std::size_t entry) const {
  for (const OnStream& x : uses_[in].streams) {
    if (x.last != entry && !happens_before(x.last, entry)) return false;
  }
  for (const OnStream& y : uses_[out].streams) {
    if (y.first != entry && !happens_before(entry, y.first)) return false;
  }
  return true;
}

}  // namespace planck
