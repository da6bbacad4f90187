#include "oracle/optimum/search.h"

#include <algorithm>
#include <array>
#include <limits>
#include <utility>

namespace planck::oracle {
namespace {

constexpr std::int64_t kUnplaced = -1;
constexpr std::int64_t kNoLimit = std::numeric_limits<std::int64_t>::max();
// The clock is read once per this many nodes.
constexpr std::int64_t kClockEvery = 256;

// The keys of a static order, compared in turn, larger first; ties go to the
// lower item index. W: lifetime width, A: area (size x width), T: the largest
// unplaced total among the item's sections when its partition is opened.
enum class Key : std::uint8_t { Width, Area, Total };
using Order = std::array<Key, 3>;
constexpr std::array<Order, 3> kOrders = {{
    {Key::Width, Key::Area, Key::Total},
    {Key::Total, Key::Area, Key::Width},
    {Key::Total, Key::Width, Key::Area},
}};

struct Candidate {
  std::int64_t offset;
  std::int64_t rank;
  std::int32_t item;
};

// A contiguous range [section_lo, section_hi) of sections and the unplaced
// items inside it, solved apart from everything else once its owner's choice
// is made.
struct Partition {
  // Its items, the unplaced ones first: placing an item swaps it to the end
  // of that prefix, and undoing the placement swaps it back.
  std::vector<std::int32_t> items;
  std::size_t unplaced = 0;
  std::int32_t section_lo = 0;
  std::int32_t section_hi = 0;
  // The frame whose choice split this partition off, or -1 for the partitions
  // the search starts with. Partitions split off together are contiguous.
  std::int64_t owner = -1;
  std::int64_t first_frame = 0;  // where its first frame sits on the stack
};

// A node of the depth-first search: the choices left at it, and the one
// applied now, if any.
struct Frame {
  std::int32_t partition = 0;
  std::int64_t last_offset = 0;  // the choice that led here: its offset and rank
  std::int64_t last_rank = -1;
  std::vector<Candidate> candidates;
  std::size_t next = 0;
  bool applied = false;
  std::int32_t item = 0;      // the applied choice's item
  std::size_t pool_slot = 0;  // where it stood among its partition's unplaced items
  bool hatless = false;       // it has no unplaced item alive with it
  std::size_t trail_mark = 0;
  std::size_t partitions_mark = 0;
};

enum class Attempt { Found, Infeasible, Aborted, Timeout };

}  // namespace

struct PlacementSearch::Impl {
  Impl(std::vector<UnitItem> items_in, SearchSwitches sw) : items(std::move(items_in)), switches(sw) {
    switches.monotonic_floor = sw.monotonic_floor && sw.canonical_only;
    switches.hatless_pruning = sw.hatless_pruning && (sw.dynamic_ordering || !sw.canonical_only);
    switches.tight_sections = sw.tight_sections && switches.monotonic_floor && sw.unallocated_floor;
    sweep();
  }

  // --- built once ---
  std::vector<UnitItem> items;
  SearchSwitches switches;
  std::vector<std::vector<std::int32_t>> overlaps;       // by item: the items alive with it
  std::vector<std::vector<std::int32_t>> section_items;  // by section: the items alive in it
  std::vector<std::int32_t> first_section;               // by item: its sections are
  std::vector<std::int32_t> end_section;                 //   [first_section, end_section)
  std::vector<std::int64_t> initial_total;               // by section: all its sizes
  std::vector<std::int64_t> initial_cuts;                // by boundary b (between b and b+1)
  SearchStats stats;

  // --- per attempt ---
  std::int64_t capacity = 0;
  std::vector<std::int64_t> offset;      // by item, kUnplaced until placed
  std::vector<std::int64_t> min_offset;  // by item: the highest end of the placed items alive with it
  std::vector<std::int64_t> rank;        // by item: its place in its partition's static order
  std::vector<std::int64_t> slot;        // by item: its index in its partition's `items`
  std::vector<std::int64_t> floor;       // by section
  std::vector<std::int64_t> total;       // by section: the sizes of its unplaced items
  std::vector<std::int64_t> cuts;        // by boundary: the unplaced items that cross it
  std::vector<std::pair<std::int64_t*, std::int64_t>> trail;  // (cell, old value), to undo
  std::vector<Partition> partitions;
  std::vector<Frame> frames;
  std::vector<std::int32_t> affected;
  std::vector<std::int64_t> seen;  // by section: the epoch that last put it in `affected`
  // By section: an item of it, a hint for the first to look at when asking
  // whether some unplaced item is still at or below the floor.
  std::vector<std::int32_t> witness;
  std::int64_t epoch = 0;

  void sweep();
  Fit fit(std::int64_t cap, Clock::time_point deadline);
  Attempt attempt(const Order& order, std::int64_t node_limit, Clock::time_point deadline);

  void set(std::int64_t& cell, std::int64_t value) {
    trail.emplace_back(&cell, cell);
    cell = value;
  }
  void undo(Frame& f) {
    while (trail.size() > f.trail_mark) {
      *trail.back().first = trail.back().second;
      trail.pop_back();
    }
    // The totals and the partition's unplaced prefix are restored by
    // arithmetic rather than from the trail: they change on every node.
    const UnitItem& it = items[f.item];
    for (std::int32_t s = first_section[f.item]; s < end_section[f.item]; ++s) total[s] += it.size;
    partitions.resize(f.partitions_mark);
    Partition& p = partitions[f.partition];
    swap_slots(p, f.pool_slot, p.unplaced);
    ++p.unplaced;
    f.applied = false;
  }

  void swap_slots(Partition& p, std::size_t a, std::size_t b) {
    std::swap(p.items[a], p.items[b]);
    slot[p.items[a]] = static_cast<std::int64_t>(a);
    slot[p.items[b]] = static_cast<std::int64_t>(b);
  }
  // A new partition: its slots (kept on the trail, since its items had slots
  // in the partition they were split from) and its static order.
  void add_partition(Partition p, const Order& order);
  void assign_ranks(Partition& p, const Order& order);
  void open(std::int32_t partition);
  bool fill_candidates(Frame& f);
  void place(std::size_t frame, const Candidate& c);
  bool sections_fit(const Frame& f, std::int64_t at) const;
  bool tight_sections_covered(const Frame& f, const Candidate& c) const;
  bool advance(std::size_t frame, const Candidate& c, const Order& order);
  bool solved(std::int32_t partition);
  bool retreat();
};

// Sections: the live set just before each time at which some item ends. Every
// live set of the timeline is contained in one of them, so they carry all the
// pruning the full list of live sets would, and each item's sections form a
// contiguous range.
void PlacementSearch::Impl::sweep() {
  const std::size_t n = items.size();
  overlaps.assign(n, {});
  first_section.assign(n, 0);
  end_section.assign(n, 0);
  struct Event {
    std::int64_t time;
    bool start;
    std::int32_t item;
  };
  std::vector<Event> events;
  events.reserve(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    events.push_back({items[i].alive.begin, true, static_cast<std::int32_t>(i)});
    events.push_back({items[i].alive.end, false, static_cast<std::int32_t>(i)});
  }
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    if (a.time != b.time) return a.time < b.time;
    if (a.start != b.start) return !a.start;  // ends first: lifetimes are half-open
    return a.item < b.item;
  });
  std::vector<std::int32_t> live;
  std::vector<std::size_t> where(n, 0);  // index of each live item in `live`
  for (std::size_t e = 0; e < events.size();) {
    const std::int64_t time = events[e].time;
    if (!events[e].start) {
      section_items.push_back(live);
      std::sort(section_items.back().begin(), section_items.back().end());
    }
    for (; e < events.size() && events[e].time == time && !events[e].start; ++e) {
      const std::int32_t i = events[e].item;
      end_section[i] = static_cast<std::int32_t>(section_items.size());
      live[where[i]] = live.back();
      where[live.back()] = where[i];
      live.pop_back();
    }
    for (; e < events.size() && events[e].time == time && events[e].start; ++e) {
      const std::int32_t i = events[e].item;
      first_section[i] = static_cast<std::int32_t>(section_items.size());
      for (std::int32_t j : live) {
        overlaps[i].push_back(j);
        overlaps[j].push_back(i);
      }
      where[i] = live.size();
      live.push_back(i);
    }
  }
  const std::size_t sections = section_items.size();
  initial_total.assign(sections, 0);
  for (std::size_t s = 0; s < sections; ++s) {
    for (std::int32_t i : section_items[s]) initial_total[s] += items[i].size;
  }
  initial_cuts.assign(sections == 0 ? 0 : sections - 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::int32_t b = first_section[i]; b + 1 < end_section[i]; ++b) ++initial_cuts[b];
  }
  seen.assign(sections, 0);
  witness.assign(sections, 0);
  for (std::size_t s = 0; s < sections; ++s) witness[s] = section_items[s].front();
}

void PlacementSearch::Impl::add_partition(Partition p, const Order& order) {
  p.unplaced = p.items.size();
  for (std::size_t k = 0; k < p.items.size(); ++k) set(slot[p.items[k]], static_cast<std::int64_t>(k));
  partitions.push_back(std::move(p));
  assign_ranks(partitions.back(), order);
}

void PlacementSearch::Impl::assign_ranks(Partition& p, const Order& order) {
  struct Keyed {
    double width, area, total;
    std::int32_t item;
  };
  std::vector<Keyed> keyed;
  keyed.reserve(p.items.size());
  for (std::size_t k = 0; k < p.unplaced; ++k) {
    const std::int32_t i = p.items[k];
    const UnitItem& it = items[i];
    std::int64_t most = 0;
    for (std::int32_t s = first_section[i]; s < end_section[i]; ++s) most = std::max(most, total[s]);
    // Doubles: an area can pass 2^63, and these keys only order the search.
    // The width is taken in unsigned arithmetic, where upper - lower cannot wrap.
    const double width =
        static_cast<double>(static_cast<std::uint64_t>(it.alive.end) - static_cast<std::uint64_t>(it.alive.begin));
    keyed.push_back({width, width * static_cast<double>(it.size), static_cast<double>(most), i});
  }
  auto key = [](const Keyed& k, Key which) {
    switch (which) {
      case Key::Width: return k.width;
      case Key::Area: return k.area;
      case Key::Total: return k.total;
    }
    return 0.0;
  };
  std::sort(keyed.begin(), keyed.end(), [&](const Keyed& a, const Keyed& b) {
    for (Key k : order) {
      if (key(a, k) != key(b, k)) return key(a, k) > key(b, k);
    }
    return a.item < b.item;
  });
  for (std::size_t r = 0; r < keyed.size(); ++r) set(rank[keyed[r].item], static_cast<std::int64_t>(r));
}

void PlacementSearch::Impl::open(std::int32_t partition) {
  partitions[partition].first_frame = static_cast<std::int64_t>(frames.size());
  frames.emplace_back();
  frames.back().partition = partition;
  fill_candidates(frames.back());
}

// The choices at a node. Returns false when the partition has no unplaced
// item left, i.e. it is solved.
bool PlacementSearch::Impl::fill_candidates(Frame& f) {
  const Partition& p = partitions[f.partition];
  if (p.unplaced == 0) return false;
  std::int64_t min_height = kNoLimit;
  for (std::size_t k = 0; k < p.unplaced; ++k) {
    const std::int32_t i = p.items[k];
    min_height = std::min(min_height, min_offset[i] + items[i].size);
  }
  f.candidates.clear();
  f.next = 0;
  for (std::size_t k = 0; k < p.unplaced; ++k) {
    const std::int32_t i = p.items[k];
    const Candidate c{min_offset[i], rank[i], i};
    // Canonical order: offsets never decrease, and items at one offset go in
    // static order.
    if (switches.canonical_only &&
        (c.offset < f.last_offset || (c.offset == f.last_offset && c.rank < f.last_rank))) {
      continue;
    }
    // Dominance: the item that ends at min_height could sit below this one.
    if (switches.check_dominance && c.offset >= min_height) continue;
    f.candidates.push_back(c);
  }
  std::sort(f.candidates.begin(), f.candidates.end(), [&](const Candidate& a, const Candidate& b) {
    if (switches.dynamic_ordering && a.offset != b.offset) return a.offset < b.offset;
    return a.rank < b.rank;
  });
  return true;
}

void PlacementSearch::Impl::place(std::size_t frame, const Candidate& c) {
  Frame& f = frames[frame];
  f.applied = true;
  f.item = c.item;
  f.trail_mark = trail.size();
  f.partitions_mark = partitions.size();
  const std::int32_t i = c.item;
  const std::int64_t height = c.offset + items[i].size;
  set(offset[i], c.offset);
  Partition& p = partitions[f.partition];
  f.pool_slot = static_cast<std::size_t>(slot[i]);
  --p.unplaced;
  swap_slots(p, f.pool_slot, p.unplaced);
  for (std::int32_t s = first_section[i]; s < end_section[i]; ++s) {
    if (floor[s] < height) set(floor[s], height);
    total[s] -= items[i].size;
  }
  bool hatless = true;
  ++epoch;
  affected.clear();
  for (std::int32_t j : overlaps[i]) {
    if (offset[j] != kUnplaced) continue;
    hatless = false;
    if (min_offset[j] >= height) continue;
    set(min_offset[j], height);
    if (!switches.unallocated_floor) continue;
    // A floor at or above j's new minimum offset stays, since j is at or
    // below it; the floors of i's sections are there already.
    auto note = [&](std::int32_t s) {
      if (floor[s] >= height || seen[s] == epoch) return;
      seen[s] = epoch;
      affected.push_back(s);
    };
    for (std::int32_t s = first_section[j]; s < first_section[i]; ++s) note(s);
    for (std::int32_t s = std::max(end_section[i], first_section[j]); s < end_section[j]; ++s) note(s);
  }
  // Every unplaced item of a section goes at or above its minimum offset, so
  // the floor rises to the lowest of them, unless one is still at or below it.
  for (std::int32_t s : affected) {
    const std::int32_t w = witness[s];
    if (offset[w] == kUnplaced && min_offset[w] <= floor[s]) continue;
    std::int64_t lowest = kNoLimit;
    std::int32_t lowest_item = w;
    for (std::int32_t j : section_items[s]) {
      if (offset[j] != kUnplaced || min_offset[j] >= lowest) continue;
      lowest = min_offset[j];
      lowest_item = j;
      if (lowest <= floor[s]) break;
    }
    witness[s] = lowest_item;
    if (lowest != kNoLimit && lowest > floor[s]) set(floor[s], lowest);
  }
  f.hatless = hatless;
}

// Whether every section of the partition can still take its unplaced items:
// they all go at or above its floor (and, in canonical order, at or above the
// offset just placed), one above the other since they are alive together.
// The node above passed the same check; when the offset has not risen since,
// only the sections whose floor or total the placement changed need another
// look.
bool PlacementSearch::Impl::sections_fit(const Frame& f, std::int64_t at) const {
  const std::int64_t least = switches.monotonic_floor ? at : 0;
  const std::int64_t count_total = switches.section_inference ? 1 : 0;
  auto fits = [&](std::int32_t s) { return std::max(floor[s], least) + count_total * total[s] <= capacity; };
  const Partition& p = partitions[f.partition];
  const bool first = p.first_frame == static_cast<std::int64_t>(&f - frames.data());
  if (!first && at == f.last_offset) {
    for (std::int32_t s = first_section[f.item]; s < end_section[f.item]; ++s) {
      if (!fits(s)) return false;
    }
    for (std::int32_t s : affected) {
      if (!fits(s)) return false;
    }
    return true;
  }
  for (std::int32_t s = p.section_lo; s < p.section_hi; ++s) {
    if (!fits(s)) return false;
  }
  return true;
}

// After the choice c: every section of the partition whose floor is at most
// c's offset and whose unplaced items fill exactly the room from there to the
// capacity (the floor cannot be above the offset, under the monotonic floor)
// needs an unplaced item that can still go at that offset. Later items go no
// lower; one at the same offset must come later in the static order; and an
// item's minimum offset only rises, by the ends of items placed from now on,
// which are above the offset. So the item must rest at the offset already
// (with the unallocated floor, none of the section rests lower) and be
// ranked after c.
bool PlacementSearch::Impl::tight_sections_covered(const Frame& f, const Candidate& c) const {
  const Partition& p = partitions[f.partition];
  for (std::int32_t s = p.section_lo; s < p.section_hi; ++s) {
    if (floor[s] > c.offset || total[s] == 0 || c.offset + total[s] != capacity) continue;
    bool covered = false;
    for (std::int32_t j : section_items[s]) {
      if (offset[j] == kUnplaced && min_offset[j] == c.offset && rank[j] > c.rank) {
        covered = true;
        break;
      }
    }
    if (!covered) return false;
  }
  return true;
}

// After the choice c at `frame` passed the checks: go one level deeper, into
// the same partition or into the first of the partitions the choice splits it
// into. Returns true when that leaves nothing to place: the part is solved.
bool PlacementSearch::Impl::advance(std::size_t frame, const Candidate& c, const Order& order) {
  const std::int32_t partition = frames[frame].partition;
  std::vector<std::int32_t> cutpoints;
  if (switches.dynamic_decomposition) {
    const std::int32_t i = c.item;
    for (std::int32_t b = first_section[i]; b + 1 < end_section[i]; ++b) {
      set(cuts[b], cuts[b] - 1);
      if (cuts[b] == 0) cutpoints.push_back(b + 1);
    }
  }
  if (cutpoints.empty()) {
    frames.emplace_back();
    Frame& next = frames.back();
    next.partition = partition;
    next.last_offset = c.offset;
    next.last_rank = c.rank;
    if (fill_candidates(next)) return false;
    frames.pop_back();
    return solved(partition);
  }
  const std::size_t first_new = partitions.size();
  std::int32_t lo = partitions[partition].section_lo;
  cutpoints.push_back(partitions[partition].section_hi);
  for (std::int32_t hi : cutpoints) {
    Partition sub;
    sub.section_lo = lo;
    sub.section_hi = hi;
    sub.owner = static_cast<std::int64_t>(frame);
    const Partition& parent = partitions[partition];
    for (std::size_t k = 0; k < parent.unplaced; ++k) {
      const std::int32_t j = parent.items[k];
      if (first_section[j] < hi && lo < end_section[j]) sub.items.push_back(j);
    }
    lo = hi;
    if (sub.items.empty()) continue;
    add_partition(std::move(sub), order);
  }
  if (partitions.size() == first_new) return solved(partition);
  open(static_cast<std::int32_t>(first_new));
  return false;
}

// The partition has no unplaced item left: go on to its next sibling, or, when
// it was the last, its owner's partition is solved too. Returns true when
// that solves the part.
bool PlacementSearch::Impl::solved(std::int32_t partition) {
  std::int32_t p = partition;
  while (true) {
    const std::int64_t owner = partitions[p].owner;
    if (static_cast<std::size_t>(p) + 1 < partitions.size() && partitions[p + 1].owner == owner) {
      open(p + 1);
      return false;
    }
    if (owner < 0) return true;
    p = frames[owner].partition;
  }
}

// The top frame has no choice left. Pops it; when it was the first frame of a
// split-off partition, that partition has no solution, so neither has its
// owner's choice: everything above the owner is undone. Returns false when
// the part itself has no solution.
bool PlacementSearch::Impl::retreat() {
  const std::size_t top = frames.size() - 1;
  const std::int32_t p = frames[top].partition;
  frames.pop_back();
  if (partitions[p].first_frame != static_cast<std::int64_t>(top)) return true;
  const std::int64_t owner = partitions[p].owner;
  if (owner < 0) return false;
  while (frames.size() > static_cast<std::size_t>(owner) + 1) {
    if (frames.back().applied) undo(frames.back());
    frames.pop_back();
  }
  return true;
}

Attempt PlacementSearch::Impl::attempt(const Order& order, std::int64_t node_limit,
                                       Clock::time_point deadline) {
  const std::size_t n = items.size();
  offset.assign(n, kUnplaced);
  min_offset.assign(n, 0);
  rank.assign(n, 0);
  slot.assign(n, 0);
  floor.assign(section_items.size(), 0);
  total = initial_total;
  cuts = initial_cuts;
  trail.clear();
  partitions.clear();
  frames.clear();

  // The partitions to start with: the whole part, or with decomposition on,
  // its pieces between the boundaries no item crosses.
  std::int32_t lo = 0;
  const auto sections = static_cast<std::int32_t>(section_items.size());
  for (std::int32_t b = 0; b < sections; ++b) {
    const bool last = b + 1 == sections;
    if (!last && (!switches.dynamic_decomposition || cuts[b] > 0)) continue;
    Partition p;
    p.section_lo = lo;
    p.section_hi = b + 1;
    for (std::size_t i = 0; i < n; ++i) {
      if (first_section[i] >= lo && end_section[i] <= b + 1) p.items.push_back(static_cast<std::int32_t>(i));
    }
    lo = b + 1;
    if (p.items.empty()) continue;
    add_partition(std::move(p), order);
  }
  if (partitions.empty()) return Attempt::Found;
  open(0);

  std::int64_t nodes = 0;
  while (true) {
    const std::size_t top = frames.size() - 1;
    Frame& f = frames[top];
    if (f.applied) {
      undo(f);
      if (f.hatless && switches.hatless_pruning) f.next = f.candidates.size();
    }
    if (f.next == f.candidates.size()) {
      ++stats.backtracks;
      if (!retreat()) return Attempt::Infeasible;
      continue;
    }
    if (nodes == node_limit) return Attempt::Aborted;
    ++nodes;
    ++stats.nodes;
    // The clock is read on the first node too, so a deadline already past
    // stops any search that has a choice to make.
    if (nodes % kClockEvery == 1 && Clock::now() > deadline) return Attempt::Timeout;
    const Candidate c = f.candidates[f.next++];
    place(top, c);
    if (!sections_fit(frames[top], c.offset)) continue;
    if (switches.tight_sections && !tight_sections_covered(frames[top], c)) continue;
    if (advance(top, c, order)) return Attempt::Found;
  }
}

Fit PlacementSearch::Impl::fit(std::int64_t cap, Clock::time_point deadline) {
  capacity = cap;
  Attempt a = Attempt::Aborted;
  if (!switches.round_robin) {
    a = attempt(kOrders[0], kNoLimit, deadline);
  } else {
    // Start small, in the hope that some order finishes fast, and double.
    std::int64_t limit = std::max<std::int64_t>(1, static_cast<std::int64_t>(items.size()));
    while (a == Attempt::Aborted) {
      limit = limit > kNoLimit / 2 ? kNoLimit : 2 * limit;
      for (const Order& order : kOrders) {
        a = attempt(order, limit, deadline);
        if (a != Attempt::Aborted) break;
      }
    }
  }
  switch (a) {
    case Attempt::Found:
      return {FitOutcome::Found, offset};
    case Attempt::Infeasible:
      return {FitOutcome::Infeasible, {}};
    case Attempt::Aborted:
    case Attempt::Timeout:
      break;
  }
  return {FitOutcome::Timeout, {}};
}

PlacementSearch::PlacementSearch(std::vector<UnitItem> items, SearchSwitches switches)
    : impl_(std::make_unique<Impl>(std::move(items), switches)) {}

PlacementSearch::~PlacementSearch() = default;

Fit PlacementSearch::fit(std::int64_t capacity, Clock::time_point deadline) {
  return impl_->fit(capacity, deadline);
}

const SearchStats& PlacementSearch::stats() const { return impl_->stats; }

}  // namespace planck::oracle
