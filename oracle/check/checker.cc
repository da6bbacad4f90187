#include "oracle/check/checker.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>
#include <memory_resource>
#include <utility>
#include <vector>

#include "model/huge_pages.h"
#include "model/resolve.h"
#include "oracle/check/conflicts.h"
#include "oracle/check/lifetimes.h"
#include "oracle/check/order.h"
#include "oracle/check/plan_rules.h"

namespace planck::oracle {
namespace {

// One arena's kept blocks in the sweep below, pairwise disjoint, each with
// the time its buffer dies (its last entry + 1), from which it is dead. A
// dead block is not removed at that time but when an insertion meets it, as
// no insertion may clash with it then, or when the blocks are swept.
// While few, as an arena mostly holds, they sit in a vector by address,
// where a binary search finds the few an insertion intersects: a scan of
// all of them takes a branch on the data for each, which goes either way
// at random. An insertion takes the place of the dead blocks it meets or
// moves the blocks above it up. When the vector passes kSweep blocks its dead blocks leave; past kFew
// live ones the arena moves them to a map by address for the rest of the
// sweep, so that many live blocks cost O(log n) each, not O(n), and the map
// drops its dead blocks whenever it has doubled since it last did, which
// costs O(1) per insertion over time.
class KeptBlocks {
 public:
  explicit KeptBlocks(std::pmr::memory_resource* nodes) : many_(nodes) {}

  // At time `now`, calls clash(kept item) for each live kept block that
  // intersects x, in no particular order, and keeps x (of `item`, dead from
  // `dies`) if none does.
  template <class Clash>
  [[gnu::always_inline]] void insert_unless_clash(std::size_t now, const ByteRange& x, std::size_t dies,
                                                 std::size_t item, Clash clash) {
    if (!in_map_) {
      // The blocks x intersects: from the first that ends past x.begin, a
      // run in order of address since they are disjoint.
      const std::size_t first = first_ending_after(x.begin);
      std::size_t last = first;
      bool clashes = false;
      for (; last < few_.size() && few_[last].begin < x.end; ++last) {
        if (few_[last].dies > now) {
          clash(few_[last].item);
          clashes = true;
        }
      }
      if (clashes) return;
      // Those it intersects are dead: it takes their place.
      const Kept kept{x.begin, x.end, dies, item};
      if (first == last) {
        few_.insert(few_.begin() + static_cast<std::ptrdiff_t>(first), kept);
      } else {
        few_[first] = kept;
        few_.erase(few_.begin() + static_cast<std::ptrdiff_t>(first + 1),
                   few_.begin() + static_cast<std::ptrdiff_t>(last));
      }
      if (few_.size() > kSweep) sweep_few(now);
      return;
    }
    insert_in_map(now, x, dies, item, clash);
  }

 private:
  // insert_unless_clash once the blocks are in the map.
  template <class Clash>
  [[gnu::noinline]] void insert_in_map(std::size_t now, const ByteRange& x, std::size_t dies, std::size_t item,
                                       Clash clash) {
    // The one starting at or before x.begin, if it reaches past it, else the first starting after.
    auto it = many_.upper_bound(x.begin);
    if (it != many_.begin() && std::prev(it)->second.end > x.begin) --it;
    bool clashes = false;
    while (it != many_.end() && it->second.begin < x.end) {
      if (it->second.dies <= now) {
        it = many_.erase(it);
        continue;
      }
      clash(it->second.item);
      clashes = true;
      ++it;
    }
    if (clashes) return;
    many_.emplace(x.begin, Kept{x.begin, x.end, dies, item});
    if (many_.size() >= 2 * swept_size_) {
      std::erase_if(many_, [&](const auto& at) { return at.second.dies <= now; });
      swept_size_ = many_.size();
    }
  }

  static constexpr std::size_t kFew = 32;
  static constexpr std::size_t kSweep = 48;
  struct Kept {
    Bytes begin;
    Bytes end;
    std::size_t dies;
    std::size_t item;
  };
  // The index of the first block in few_ that ends past `at`, or
  // few_.size(): a binary search that narrows a base and a length.
  std::size_t first_ending_after(Bytes at) const {
    const Kept* base = few_.data();
    std::size_t n = few_.size();
    while (n > 1) {
      const std::size_t half = n / 2;
      base = base[half - 1].end <= at ? base + half : base;
      n -= half;
    }
    return static_cast<std::size_t>(base - few_.data()) + (n == 1 && base->end <= at ? 1 : 0);
  }

  // Drops the dead blocks of few_ at time now; past kFew live ones, moves
  // them to the map.
  void sweep_few(std::size_t now) {
    std::erase_if(few_, [&](const Kept& k) { return k.dies <= now; });
    if (few_.size() <= kFew) return;
    for (const Kept& k : few_) many_.emplace_hint(many_.end(), k.begin, k);
    few_ = {};
    in_map_ = true;
    swept_size_ = many_.size();
  }

  std::vector<Kept> few_;  // by address, while !in_map_
  std::pmr::map<Bytes, Kept> many_;  // begin -> the block, once in_map_
  std::size_t swept_size_ = 0;  // the map's size when it last dropped its dead blocks
  bool in_map_ = false;
};

// Some of the overlapping pairs among `placed`, as index pairs (x < y) in
// ascending order: at least one whenever any pair overlaps.
//
// A sweep over time, in each arena apart. Each buffer with bytes is inserted
// at its first entry and dies at its last entry + 1 (its bytes are free from
// then). `kept` holds an arena's buffers inserted so far that are pairwise
// disjoint in bytes; those live at a time are those not dead by then. An
// inserted buffer is compared with the live kept buffers that intersect it;
// each is reported, and a buffer that intersects any is not kept, so `kept`
// stays disjoint.
//
// Every pair reported overlaps: both are live at the insertion time t (the
// kept one was inserted at or before t and is not dead at t, so last >= t),
// and their bytes intersect.
// Some pair is reported whenever one overlaps: take an overlapping pair
// (a, b), a inserted before b. At b's insertion, a is still live, since
// last(a) >= first(b). If a is kept, b's walk meets it and reports (a, b);
// if not, a was itself reported when inserted.
// The insertions come in order of time, and of item at one time. Plans
// mostly place buffers in order of first use, and then the items are in
// that order already; else the insertions of each time are in a list, in
// order of item, so that ordering them costs O(n + entries). Each insertion
// costs O(log n) plus one per pair it reports, and each block dies once.
//
// A buffer that starts late (plan_rules.h) is inserted at the entry after
// its first, and not at all if it dies there: at its first entry a buffer
// whose block holds its block stands in for it.
std::vector<std::pair<std::size_t, std::size_t>> sweep_overlaps(
    const std::vector<PlacedBuffer>& placed, std::size_t arenas) {
  auto has_bytes = [](const PlacedBuffer& b) {
    return b.block.begin != b.block.end && (!b.starts_late || b.life.first < b.life.last);
  };
  auto starts = [](const PlacedBuffer& b) { return b.life.first + (b.starts_late ? 1 : 0); };
  // Each arena's kept buffers, the nodes of those in a map drawn from one
  // pool that reuses them, as buffers come and go all the time.
  std::pmr::unsynchronized_pool_resource nodes;
  std::vector<KeptBlocks> kept_in;  // by arena
  kept_in.reserve(arenas);
  for (std::size_t a = 0; a < arenas; ++a) kept_in.emplace_back(&nodes);
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  auto insert = [&](std::size_t i) {
    const PlacedBuffer& b = placed[i];
    kept_in[b.arena].insert_unless_clash(starts(b), b.block, b.life.last + 1, i, [&](std::size_t other) {
      pairs.emplace_back(std::min(i, other), std::max(i, other));
    });
  };

  std::size_t times = 0;  // past the last insertion
  bool in_order = true;   // the items with bytes in order of time
  for (const PlacedBuffer& b : placed) {
    if (!has_bytes(b)) continue;  // no bytes, no overlap
    in_order = in_order && starts(b) + 1 >= times;
    times = std::max(times, starts(b) + 1);
  }
  if (in_order) {
    for (std::size_t i = 0; i < placed.size(); ++i) {
      if (has_bytes(placed[i])) insert(i);
    }
  } else {
    // The lists, linked through the items: `inserted[t]` is the first item
    // inserted at time t, `next[i]` the one after item i. Each list is built
    // from its end, taking the items in reverse, so that it runs in order of
    // item.
    constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
    std::vector<std::size_t> inserted = huge_vector<std::size_t>(times, kNone);
    std::vector<std::size_t> next = huge_vector<std::size_t>(placed.size(), kNone);
    for (std::size_t i = placed.size(); i-- > 0;) {
      if (has_bytes(placed[i])) next[i] = std::exchange(inserted[starts(placed[i])], i);
    }
    for (std::size_t t = 0; t < times; ++t) {
      for (std::size_t i = inserted[t]; i != kNone; i = next[i]) insert(i);
    }
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

// x and y (x placed first in the plan) are in one arena, alive together,
// and their blocks share bytes: an overlap, or where a kernel declares the
// two in place, an in-place pair that its declaration does not allow.
Violation overlap(const Schedule& s, const Plan& p, const PlacedBuffer& x, const PlacedBuffer& y);

Violation overlap(const Schedule& s, const Plan& p, const InPlaceRule& inplace, const PlacedBuffer& x,
                  const PlacedBuffer& y) {
  if (const InPlaceDeclaration* d = inplace.empty() ? nullptr : inplace.declared(x.life.buffer, y.life.buffer)) {
    // OUT first, as the declaration names them.
    const bool x_out = d->pair.out == x.life.buffer;
    Violation v = overlap(s, p, x_out ? x : y, x_out ? y : x);
    v.rule = Rule::InPlaceNotAllowed;
    v.declared_at = entry_span(s, d->entry, d->entry);
    const PlacedBuffer& o = x_out ? x : y;
    const PlacedBuffer& i = x_out ? y : x;
    v.refusal = inplace.refusal(*d, {o.arena, o.block.begin}, {i.arena, i.block.begin})
                    .value_or("another pair of the kernel shares these bytes");
    return v;
  }
  return overlap(s, p, x, y);
}

Violation overlap(const Schedule& s, const Plan& p, const PlacedBuffer& x, const PlacedBuffer& y) {
  const Storage& xs = s.storage[x.life.buffer];
  const Storage& ys = s.storage[y.life.buffer];
  auto own_bytes = [](const PlacedBuffer& b, const Storage& st) {
    return ByteRange{b.block.begin + st.phase, b.block.begin + st.phase + st.bytes};
  };
  return {.rule = Rule::Overlap,
          .buffers = {xs.name, ys.name},
          .arenas = {p.arenas[x.arena].name},
          .plan_lines = {p.placements[x.placement].pos.line, p.placements[y.placement].pos.line},
          .lives = {entry_span(s, x.life.first, x.life.last),
                    entry_span(s, y.life.first, y.life.last)},
          .during = entry_span(s, std::max(x.life.first, y.life.first),
                               std::min(x.life.last, y.life.last)),
          .blocks = {x.block, y.block},
          .own_bytes = {own_bytes(x, xs), own_bytes(y, ys)},
          .shared = ByteRange{std::max(x.block.begin, y.block.begin),
                              std::min(x.block.end, y.block.end)}};
}

// The overlaps of model v3 (oracle/check/conflicts.h), listed into report.
void check_conflicts(const Schedule& s, const Plan& p, const std::vector<Lifetime>& planned,
                     const PlanRulesResult& judged, std::size_t max_overlaps, CheckReport& report) {
  const UseOrder order(s, planned);
  InPlaceRule inplace(s, planned);
  inplace.use_order(&order);
  const std::vector<std::pair<std::size_t, std::size_t>> pairs =
      claim_conflicts(judged.placed, p.arenas.size(), order, inplace);
  const auto facts = [](const PlacedBuffer& b) {
    return ConflictFacts{.buffer = b.life.buffer, .placement = b.placement, .arena = b.arena, .block = b.block};
  };
  const std::size_t listed = std::min(max_overlaps, pairs.size());
  for (std::size_t k = 0; k < listed; ++k) {
    report.violations.push_back(conflict_violation(s, p, order, inplace, judged.inplace,
                                                   facts(judged.placed[pairs[k].first]),
                                                   facts(judged.placed[pairs[k].second])));
  }
  report.unlisted_overlaps = pairs.size() - listed;
  for (Violation& v : report.violations) v.message = describe(v);
}

}  // namespace

CheckReport check_plan(const Schedule& s, const Plan& p, std::size_t max_overlaps) {
  return check_plan(s, p, resolve(s, p), planned_buffers(s), max_overlaps);
}

CheckReport check_plan(const Schedule& s, const Plan& p, const Resolution& r,
                       const std::vector<Lifetime>& planned, std::size_t max_overlaps) {
  PlanRulesResult judged = judge_plan_rules(s, p, r, planned);
  CheckReport report{.violations = std::move(judged.violations)};
  if (s.version() >= 3) {
    check_conflicts(s, p, planned, judged, max_overlaps, report);
    return report;
  }
  std::vector<std::pair<std::size_t, std::size_t>> pairs = sweep_overlaps(judged.placed, p.arenas.size());
  if (!judged.inplace_overlaps.empty()) {
    pairs.insert(pairs.end(), judged.inplace_overlaps.begin(), judged.inplace_overlaps.end());
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  }
  const std::size_t listed = std::min(max_overlaps, pairs.size());
  for (std::size_t k = 0; k < listed; ++k) {
    report.violations.push_back(
        overlap(s, p, judged.inplace, judged.placed[pairs[k].first], judged.placed[pairs[k].second]));
  }
  report.unlisted_overlaps = pairs.size() - listed;
  for (Violation& v : report.violations) v.message = describe(v);
  return report;
}

std::vector<Violation> check_plan(const Schedule& s, const Plan& p) {
  return check_plan(s, p, kEveryOverlap).violations;
}

}  // namespace planck::oracle
