#include "oracle/check/checker.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <tuple>
#include <utility>

#include "model/resolve.h"
#include "oracle/check/lifetimes.h"
#include "oracle/check/plan_rules.h"

namespace planck::oracle {
namespace {

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
    const std::vector<PlacedBuffer>& placed) {
  struct Event {
    std::size_t arena;
    std::size_t time;
    bool insert;  // false (a removal) sorts first
    std::size_t item;
    auto key() const { return std::tie(arena, time, insert, item); }
  };
  std::vector<Event> events;
  for (std::size_t i = 0; i < placed.size(); ++i) {
    const PlacedBuffer& x = placed[i];
    if (x.block.begin == x.block.end) continue;  // no bytes, no overlap
    events.push_back({x.arena, x.life.first, true, i});
    events.push_back({x.arena, x.life.last + 1, false, i});
  }
  std::sort(events.begin(), events.end(),
            [](const Event& x, const Event& y) { return x.key() < y.key(); });

  // Every removal follows its insertion within the same arena, so `kept`
  // is empty whenever the sweep passes from one arena to the next.
  std::map<Bytes, std::size_t> kept;  // block begin -> index into placed
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  for (const Event& event : events) {
    const ByteRange& x = placed[event.item].block;
    if (!event.insert) {
      auto it = kept.find(x.begin);
      if (it != kept.end() && it->second == event.item) kept.erase(it);
      continue;
    }
    // The first kept buffer that may intersect x: the one starting at or
    // before x.begin, if it reaches past it, else the first starting after.
    auto it = kept.upper_bound(x.begin);
    if (it != kept.begin() && placed[std::prev(it)->second].block.end > x.begin) --it;
    bool clashes = false;
    for (; it != kept.end() && placed[it->second].block.begin < x.end; ++it) {
      pairs.emplace_back(std::min(event.item, it->second), std::max(event.item, it->second));
      clashes = true;
    }
    if (!clashes) kept.emplace(x.begin, event.item);
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
  PlanRulesResult judged = judge_plan_rules(s, p, resolve(s, p), planned_buffers(s));
  CheckReport report{.violations = std::move(judged.violations)};
  const std::vector<std::pair<std::size_t, std::size_t>> pairs = sweep_overlaps(judged.placed);
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
