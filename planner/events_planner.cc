// Rules 4 to 7 over events sorted in full (events_planner.h), and the
// `tinygrad` planner (docs/model-v2.md): tinygrad's current rule
// (tinygrad/schedule/memory.py), the reference planner's rules with three changes. A
// planned buffer that some copy takes is in its device's copy lane, every
// other in its compute lane; each (device, lane) with a buffer has a TLSF
// allocator and an arena of its own, created in the order in which the lanes
// first appear among the events. A copy lane's buffer closes at
// last + 1 + (last - first + 1) instead of last + 1, as the copy engine may
// still read it. The arenas are named in the order their allocators were
// created. On a schedule where no copy takes a planned buffer, its plan is
// tlsf's.

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <numeric>
#include <utility>
#include <vector>

#include "planner/conflicts.h"
#include "planner/events_planner.h"
#include "planner/factories.h"
#include "planner/rules.h"
#include "planner/tlsf.h"

namespace planck {
namespace {

// Marks the storage each copy in `entries` takes, at any depth of loops.
void mark_copied(const std::vector<Entry>& entries, std::vector<bool>& copied) {
  for (const Entry& e : entries) {
    if (e.kind == Entry::Kind::Copy) {
      for (const Arg& a : e.args) copied[storage_of(a)] = true;
    }
    if (!e.body().empty()) mark_copied(e.body(), copied);
  }
}

}  // namespace

Result<Plan> plan_by_events(const Schedule& s, const std::vector<Lifetime>& lives, bool copy_lanes) {
  if (lives.empty()) return Plan{};
  std::vector<bool> copied(s.storage.size(), false);
  if (copy_lanes) mark_copied(s.entries, copied);

  // Rule 4 in the unit of each device, and the lanes in order of first
  // appearance among the events: by time, then by first appearance.
  std::vector<std::size_t> by_time(lives.size());
  std::iota(by_time.begin(), by_time.end(), std::size_t{0});
  std::stable_sort(by_time.begin(), by_time.end(),
                   [&](std::size_t x, std::size_t y) { return lives[x].first < lives[y].first; });
  std::vector<Bytes> size(lives.size());
  std::vector<Bytes> unit(lives.size());
  for (std::size_t i = 0; i < lives.size(); ++i) {
    const Storage& b = s.storage[lives[i].buffer];
    unit[i] = tlsf_unit(s.align_of(b.device));
    PLANCK_ASSIGN(size[i], rounded_size(b, unit[i]));
  }
  std::vector<std::size_t> lane(lives.size());
  std::vector<std::pair<Name, bool>> lanes;  // (device, copy lane), in order of creation
  std::map<std::pair<std::string_view, bool>, std::size_t> lane_index;
  for (std::size_t i : by_time) {
    const Storage& b = s.storage[lives[i].buffer];
    const bool copy_lane = copied[lives[i].buffer];
    auto [it, fresh] = lane_index.try_emplace({std::string_view(b.device), copy_lane}, lanes.size());
    if (fresh) lanes.emplace_back(b.device, copy_lane);
    lane[i] = it->second;
  }
  // Rule 5's capacity, each allocator's: twice the sum of max(unit, rounded).
  Bytes total = 0;
  for (std::size_t i = 0; i < lives.size(); ++i) {
    const std::optional<Bytes> sum = checked_add(total, std::max(unit[i], size[i]));
    if (!sum) return overflow_error(s.storage[lives[i].buffer], "the sum of planned sizes");
    total = *sum;
  }
  const std::optional<Bytes> capacity = checked_mul(total, 2);
  if (!capacity) return overflow_error(s.storage[lives.back().buffer], "twice the sum of planned sizes");

  // Rule 6's events: opens in order of first appearance, then closes,
  // stably sorted by time, closes first; a copy lane closes late.
  struct Event {
    std::size_t time;
    bool open;
    std::size_t life;
  };
  std::vector<Event> events;
  events.reserve(2 * lives.size());
  for (std::size_t i = 0; i < lives.size(); ++i) events.push_back({lives[i].first, true, i});
  for (std::size_t i = 0; i < lives.size(); ++i) {
    const Lifetime& l = lives[i];
    const bool hold = lanes[lane[i]].second;
    events.push_back({l.last + 1 + (hold ? l.last - l.first + 1 : 0), false, i});
  }
  std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    if (a.time != b.time) return a.time < b.time;
    return !a.open && b.open;
  });

  std::vector<Tlsf> allocators;
  for (const auto& [device, copy_lane] : lanes) {
    PLANCK_ASSIGN(Tlsf tlsf, Tlsf::create(*capacity, tlsf_unit(s.align_of(device)), kTlsfSecondLevel));
    allocators.push_back(std::move(tlsf));
  }
  std::vector<Bytes> place(lives.size(), 0);
  std::vector<Tlsf::BlockId> block(lives.size(), Tlsf::kNoBlock);
  for (const Event& e : events) {
    Tlsf& tlsf = allocators[lane[e.life]];
    if (!e.open) {
      PLANCK_TRY(tlsf.free_block(block[e.life]));
      continue;
    }
    const Tlsf::Allocation made = tlsf.alloc_block(size[e.life]);
    if (!made.found()) return outgrew_arena(s, lives[e.life], size[e.life]);
    place[e.life] = made.start;
    block[e.life] = made.block;
  }

  // Rule 7 per lane, in the order the allocators were created; placements
  // in order of first appearance.
  const std::vector<std::string> names = arena_names(s, lanes.size());
  Plan plan;
  std::vector<Bytes> arena_size(lanes.size(), 0);
  for (std::size_t i = 0; i < lives.size(); ++i) {
    const Storage& b = s.storage[lives[i].buffer];
    std::optional<Bytes> end = checked_add(place[i], b.phase);
    if (end) end = checked_add(*end, b.bytes);
    if (end) end = checked_round_up(*end, unit[i]);
    if (!end) return overflow_error(b, "place + phase + bytes");
    arena_size[lane[i]] = std::max(arena_size[lane[i]], *end);
    plan.placements.push_back({b.name, Name(names[lane[i]]), place[i], {}});
  }
  for (std::size_t k = 0; k < lanes.size(); ++k) {
    plan.arenas.push_back({Name(names[k]), lanes[k].first, arena_size[k], {}});
  }
  PLANCK_TRY(check_capacities(s, plan));
  return plan;
}

namespace {

class TinygradPlanner final : public Planner {
 public:
  std::string_view name() const override { return "tinygrad"; }
  std::optional<std::string> claimed_features() const override { return std::string(kOneStreamFeatures); }
  Result<Plan> plan(const Schedule& s) const override {
    PLANCK_TRY(refuse_streams(s, name()));
    return plan_by_events(s, planned_lifetimes(s), true);
  }
};

}  // namespace

std::unique_ptr<Planner> make_tinygrad_planner() { return std::make_unique<TinygradPlanner>(); }

}  // namespace planck
