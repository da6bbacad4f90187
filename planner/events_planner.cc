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

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <numeric>
#include <string_view>
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

  // Rule 4, in blocks of each device's allocator.
  PLANCK_ASSIGN(const SizesAndDevices sized, sizes_and_devices(s, lives, Rounding::TlsfBlocks));
  const std::vector<Bytes>& size = sized.sizes;

  // Rule 5's arenas, here lanes (device, copy lane), in order of first
  // appearance among the events: by time, then by first appearance.
  std::vector<std::size_t> by_time(lives.size());
  std::iota(by_time.begin(), by_time.end(), std::size_t{0});
  std::stable_sort(by_time.begin(), by_time.end(),
                   [&](std::size_t x, std::size_t y) { return lives[x].first < lives[y].first; });
  Devices lanes;                  // each lane's device, and each lifetime's lane
  std::vector<bool> copy_lane;    // per lane: whether it is a copy lane
  lanes.of.resize(lives.size());
  std::map<std::pair<std::string_view, bool>, std::uint32_t> lane_index;
  for (std::size_t i : by_time) {
    const Storage& b = s.storage[lives[i].buffer];
    const bool copy = copied[lives[i].buffer];
    const auto [it, fresh] =
        lane_index.try_emplace({std::string_view(b.device), copy}, static_cast<std::uint32_t>(lanes.names.size()));
    if (fresh) {
      lanes.names.push_back(b.device);
      copy_lane.push_back(copy);
    }
    lanes.of[i] = it->second;
  }
  // Rule 5's capacity and allocators, one per lane.
  PLANCK_ASSIGN(const Bytes capacity, tlsf_capacity(s, lives, size));
  PLANCK_ASSIGN(std::vector<Tlsf> allocators, make_allocators(s, capacity, lanes.names));

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
    const bool hold = copy_lane[lanes.of[i]];
    events.push_back({l.last + 1 + (hold ? l.last - l.first + 1 : 0), false, i});
  }
  std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    if (a.time != b.time) return a.time < b.time;
    return !a.open && b.open;
  });
  // Rule 6's run.
  std::vector<Bytes> place(lives.size(), 0);
  std::vector<Tlsf::BlockId> block(lives.size(), Tlsf::kNoBlock);
  for (const Event& e : events) {
    Tlsf& tlsf = allocators[lanes.of[e.life]];
    if (!e.open) {
      PLANCK_TRY(tlsf.free_block(block[e.life]));
      continue;
    }
    const Tlsf::Allocation made = tlsf.alloc_block(size[e.life]);
    if (!made.found()) return outgrew_arena(s, lives[e.life], size[e.life]);
    place[e.life] = made.start;
    block[e.life] = made.block;
  }

  // Rule 7, an arena per lane in the order the allocators were created.
  return plan_result(s, lives, lanes, place, Rounding::TlsfBlocks);
}

std::unique_ptr<Planner> make_tinygrad_planner() {
  return one_stream_planner("tinygrad", [](const Schedule& s) { return plan_by_events(s, planned_lifetimes(s), true); });
}

}  // namespace planck
