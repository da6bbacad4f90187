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
#include "oracle/check/lifetimes.h"
#include "oracle/check/plan_rules.h"

namespace planck::oracle {
namespace {

// One arena's kept blocks in the sweep below, pairwise disjoint. While few,
// as an arena mostly holds, they sit in a vector in no order: a scan of a
// few elements costs less than a search in sorted ones and the moves that
// keep them sorted, and a block leaves by taking the place of the last one.
// Past kFew the arena moves them to a map by address for the rest of the
// sweep, so that many live blocks cost O(log n) each, not O(n).
class KeptBlocks {
 public:
  explicit KeptBlocks(std::pmr::memory_resource* nodes) : many_(nodes) {}

  // Forgets the block of `item` at `begin`, if it is kept.
  void erase(Bytes begin, std::size_t item) {
    if (!in_map_) {
      // An item is kept once at most, at its own begin.
      const auto it = std::find_if(few_.begin(), few_.end(), [&](const Kept& k) { return k.item == item; });
      if (it != few_.end()) {
        *it = few_.back();
        few_.pop_back();
      }
      return;
    }
    const auto it = many_.find(begin);
    if (it != many_.end() && it->second.item == item) many_.erase(it);
  }

  // Calls clash(kept item) for each kept block that intersects x, in no
  // particular order, and keeps x (of `item`) if none does.
  template <class Clash>
  void insert_unless_clash(const ByteRange& x, std::size_t item, Clash clash) {
    if (!in_map_) {
      bool clashes = false;
      for (const Kept& k : few_) {
        if (k.begin < x.end && x.begin < k.end) {
          clash(k.item);
          clashes = true;
        }
      }
      if (clashes) return;
      few_.push_back(Kept{x.begin, x.end, item});
      if (few_.size() > kFew) {
        for (const Kept& k : few_) many_.emplace(k.begin, k);
        few_ = {};
        in_map_ = true;
      }
      return;
    }
    // The one starting at or before x.begin, if it reaches past it, else the first starting after.
    auto it = many_.upper_bound(x.begin);
    if (it != many_.begin() && std::prev(it)->second.end > x.begin) --it;
    bool clashes = false;
    for (; it != many_.end() && it->second.begin < x.end; ++it) {
      clash(it->second.item);
      clashes = true;
    }
    if (!clashes) many_.emplace(x.begin, Kept{x.begin, x.end, item});
  }

 private:
  static constexpr std::size_t kFew = 32;
  struct Kept {
    Bytes begin;
    Bytes end;
    std::size_t item;
  };
  std::vector<Kept> few_;  // in no order, while !in_map_
  std::pmr::map<Bytes, Kept> many_;  // begin -> the block, once in_map_
  bool in_map_ = false;
};

// Some of the overlapping pairs among `placed`, as index pairs (x < y) in
// ascending order: at least one whenever any pair overlaps.
//
// A sweep over time, in each arena apart. Its events are, for each buffer
// with bytes, an insertion at its first entry and a removal at its last entry
// + 1 (its bytes are free from then), in order of time, removals before
// insertions at the same time. `kept` holds an arena's live buffers that are
// pairwise disjoint in bytes. An inserted buffer is compared with the kept
// buffers that intersect it; each is reported, and a buffer that intersects
// any is not kept, so `kept` stays disjoint.
//
// Every pair reported overlaps: both are live at the insertion time t (the
// kept one was inserted at or before t and its removal, at last + 1, is not
// yet done, so last >= t), and their bytes intersect.
// Some pair is reported whenever one overlaps: take an overlapping pair
// (a, b), a inserted before b. At b's insertion, a is still live, since
// last(a) >= first(b). If a is kept, b's walk meets it and reports (a, b);
// if not, a was itself reported when inserted.
// The events of each time are in two lists, its removals and its
// insertions, each in order of item, so that ordering them costs
// O(n + entries); each insertion costs O(log n) plus one per pair it reports
// (O(1) while its arena keeps few blocks).
std::vector<std::pair<std::size_t, std::size_t>> sweep_overlaps(
    const std::vector<PlacedBuffer>& placed, std::size_t arenas) {
  auto has_bytes = [](const PlacedBuffer& b) { return b.block.begin != b.block.end; };
  std::size_t times = 0;  // past the last removal
  for (const PlacedBuffer& b : placed) {
    if (has_bytes(b)) times = std::max(times, b.life.last + 2);
  }
  // The lists, linked through the items: `heads[t]` holds the first item
  // removed and the first inserted at time t, `next[i]` the items after item
  // i in the lists it is on. Each list is built from its end, taking the
  // items in reverse, so that it runs in order of item.
  constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  struct Links {
    std::size_t removed = kNone;
    std::size_t inserted = kNone;
  };
  std::vector<Links> heads = huge_vector<Links>(times);
  std::vector<Links> next = huge_vector<Links>(placed.size());
  for (std::size_t i = placed.size(); i-- > 0;) {
    if (!has_bytes(placed[i])) continue;  // no bytes, no overlap
    const Lifetime& life = placed[i].life;
    next[i].removed = std::exchange(heads[life.last + 1].removed, i);
    next[i].inserted = std::exchange(heads[life.first].inserted, i);
  }

  // Each arena's kept buffers, the nodes of those in a map drawn from one
  // pool that reuses them, as buffers come and go all the time.
  std::pmr::unsynchronized_pool_resource nodes;
  std::vector<KeptBlocks> kept_in;  // by arena
  kept_in.reserve(arenas);
  for (std::size_t a = 0; a < arenas; ++a) kept_in.emplace_back(&nodes);
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  for (std::size_t t = 0; t < times; ++t) {
    for (std::size_t i = heads[t].removed; i != kNone; i = next[i].removed) {
      kept_in[placed[i].arena].erase(placed[i].block.begin, i);
    }
    for (std::size_t i = heads[t].inserted; i != kNone; i = next[i].inserted) {
      kept_in[placed[i].arena].insert_unless_clash(placed[i].block, i, [&](std::size_t other) {
        pairs.emplace_back(std::min(i, other), std::max(i, other));
      });
    }
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

// x and y (x placed first in the plan) are in one arena, alive together,
// and their blocks share bytes.
Violation overlap(const Schedule& s, const Plan& p, const PlacedBuffer& x, const PlacedBuffer& y) {
  const Storage& xs = s.storage[x.life.storage];
  const Storage& ys = s.storage[y.life.storage];
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

}  // namespace

CheckReport check_plan(const Schedule& s, const Plan& p, std::size_t max_overlaps) {
  return check_plan(s, p, resolve(s, p), planned_buffers(s), max_overlaps);
}

CheckReport check_plan(const Schedule& s, const Plan& p, const Resolution& r,
                       const std::vector<Lifetime>& planned, std::size_t max_overlaps) {
  PlanRulesResult judged = judge_plan_rules(s, p, r, planned);
  CheckReport report{.violations = std::move(judged.violations)};
  const std::vector<std::pair<std::size_t, std::size_t>> pairs = sweep_overlaps(judged.placed, p.arenas.size());
  const std::size_t listed = std::min(max_overlaps, pairs.size());
  for (std::size_t k = 0; k < listed; ++k) {
    report.violations.push_back(
        overlap(s, p, judged.placed[pairs[k].first], judged.placed[pairs[k].second]));
  }
  report.unlisted_overlaps = pairs.size() - listed;
  for (Violation& v : report.violations) v.message = describe(v);
  return report;
}

std::vector<Violation> check_plan(const Schedule& s, const Plan& p) {
  return check_plan(s, p, kEveryOverlap).violations;
}

}  // namespace planck::oracle
