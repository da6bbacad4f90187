#include "planner/planner.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <unordered_set>

#include "planner/heuristics.h"
#include "planner/lifetimes.h"
#include "planner/plan_builder.h"
#include "planner/tlsf.h"

namespace planck {
namespace {

constexpr Bytes kTlsfBlockSize = 256;
constexpr Bytes kTlsfSecondLevel = 32;

// The reference planner of SPEC section 3: TLSF over events in order of time.
class TlsfPlanner final : public Planner {
 public:
  std::string_view name() const override { return "tlsf"; }

  Result<Plan> plan(const Schedule& s) const override {
    const std::vector<Lifetime> lives = planned_lifetimes(s);
    if (lives.empty()) return Plan{};

    auto sizes = rounded_sizes(s, lives);
    if (!sizes) return sizes.error();
    auto cap = capacity(s, lives, *sizes);
    if (!cap) return cap.error();

    std::vector<Bytes> place(lives.size());
    std::vector<std::string> devices;  // in order of first event
    std::vector<Tlsf> allocators;
    std::vector<std::size_t> device_of(lives.size());
    for (const Event& ev : events(lives)) {
      const Storage& b = s.storage[lives[ev.buffer].buffer];
      if (ev.kind == Event::Kind::Close) {
        Status freed = allocators[device_of[ev.buffer]].free(place[ev.buffer]);
        if (!freed) return freed.error();
        continue;
      }
      auto dev = std::find(devices.begin(), devices.end(), b.device);
      if (dev == devices.end()) {
        auto tlsf = Tlsf::create(*cap, kTlsfBlockSize, kTlsfSecondLevel);
        if (!tlsf) return tlsf.error();
        devices.push_back(b.device);
        allocators.push_back(std::move(*tlsf));
        dev = devices.end() - 1;
      }
      device_of[ev.buffer] = static_cast<std::size_t>(dev - devices.begin());
      std::optional<Bytes> at = allocators[device_of[ev.buffer]].alloc((*sizes)[ev.buffer]);
      if (!at) {
        return Error{"", fmt::format("the memory plan outgrew its arena: buffer {} ({} bytes "
                                     "rounded) on {} at entry {}",
                                     b.name, (*sizes)[ev.buffer], b.device,
                                     lives[ev.buffer].first)};
      }
      place[ev.buffer] = *at;
    }

    // Devices come to events in order of their first buffer's first
    // appearance, which is the order of the arenas build_plan makes.
    return build_plan(s, lives, place);
  }

 private:
  struct Event {
    enum class Kind { Close, Open };  // a close sorts before an open at equal times
    std::size_t time;
    Kind kind;
    std::size_t buffer;  // index into the lifetimes
  };

  // Rule 6: opens in order of first appearance, then closes in the same order,
  // stably sorted by time, closes first at equal times.
  static std::vector<Event> events(const std::vector<Lifetime>& lives) {
    std::vector<Event> out;
    out.reserve(2 * lives.size());
    for (std::size_t i = 0; i < lives.size(); ++i) out.push_back({lives[i].first, Event::Kind::Open, i});
    for (std::size_t i = 0; i < lives.size(); ++i) out.push_back({lives[i].last + 1, Event::Kind::Close, i});
    std::stable_sort(out.begin(), out.end(), [](const Event& a, const Event& b) {
      if (a.time != b.time) return a.time < b.time;
      return a.kind < b.kind;
    });
    return out;
  }

  // Rule 5: 2 x sum of max(256, rounded) over every planned buffer of the schedule.
  static Result<Bytes> capacity(const Schedule& s, const std::vector<Lifetime>& lives,
                                const std::vector<Bytes>& sizes) {
    Bytes total = 0;
    for (std::size_t i = 0; i < lives.size(); ++i) {
      auto sum = checked_add(total, std::max(kPlaceAlign, sizes[i]));
      if (!sum) return overflow_error(s.storage[lives[i].buffer], "the sum of planned sizes");
      total = *sum;
    }
    auto doubled = checked_mul(total, 2);
    if (!doubled) {
      return overflow_error(s.storage[lives.back().buffer], "twice the sum of planned sizes");
    }
    return *doubled;
  }
};

}  // namespace

std::unique_ptr<Planner> make_planner(std::string_view name) {
  if (name == "tlsf") return std::make_unique<TlsfPlanner>();
  if (name == "greedy") return make_greedy_planner();
  if (name == "bysize") return make_bysize_planner();
  if (name == "naive") return make_naive_planner();
  if (name == "best") return make_best_planner();
  return nullptr;
}

std::vector<std::string> planner_names() { return {"tlsf", "greedy", "bysize", "naive", "best"}; }

Result<std::vector<DeviceLoad>> device_loads(const Schedule& s) {
  std::vector<DeviceLoad> out;
  // Per device, the change of live bytes at each entry: +rounded at first,
  // -rounded after last.
  std::vector<std::vector<std::pair<std::size_t, std::int64_t>>> steps;
  for (const Lifetime& l : planned_lifetimes(s)) {
    const Storage& b = s.storage[l.buffer];
    auto r = rounded_size(b);
    if (!r) return r.error();
    auto dev = std::find_if(out.begin(), out.end(), [&](const DeviceLoad& d) { return d.device == b.device; });
    if (dev == out.end()) {
      out.push_back({b.device, 0, 0});
      steps.emplace_back();
      dev = out.end() - 1;
    }
    auto& st = steps[static_cast<std::size_t>(dev - out.begin())];
    dev->buffers++;
    // Rounded sizes are below 2^63, so they fit a signed step.
    st.emplace_back(l.first, static_cast<std::int64_t>(*r));
    st.emplace_back(l.last + 1, -static_cast<std::int64_t>(*r));
  }
  for (std::size_t d = 0; d < out.size(); ++d) {
    std::sort(steps[d].begin(), steps[d].end());  // at equal times the frees come first
    Bytes live = 0;
    for (auto [time, delta] : steps[d]) {
      if (delta < 0) {
        live -= static_cast<Bytes>(-delta);
        continue;
      }
      auto sum = checked_add(live, static_cast<Bytes>(delta));
      if (!sum) return Error{"", fmt::format("byte count overflow: the live bytes on {} pass 2^64", out[d].device)};
      live = *sum;
      out[d].peak = std::max(out[d].peak, live);
    }
  }
  return out;
}

std::vector<std::string> arena_names(const Schedule& s, std::size_t count) {
  std::unordered_set<std::string> used;
  for (const Storage& st : s.storage) used.insert(st.name);
  std::vector<std::string> out;
  for (std::size_t k = 0; out.size() < count; ++k) {
    std::string name = fmt::format("arena{}", k);
    if (used.insert(name).second) out.push_back(std::move(name));
  }
  return out;
}

std::string debug_line(const Schedule& s, const Plan& p) {
  if (p.placements.empty()) return "";
  // Rule 10 sums rounded sizes as the planners do; a sum that overflows
  // would have failed planning first, so saturating here loses nothing.
  Bytes before = 0;
  for (const Placement& pl : p.placements) {
    auto id = s.find(pl.buffer);
    if (!id) continue;
    auto r = rounded_size(s.storage[*id]);
    before = r ? checked_add(before, *r).value_or(UINT64_MAX) : UINT64_MAX;
  }
  Bytes after = 0;
  for (const Arena& a : p.arenas) after = checked_add(after, a.size).value_or(UINT64_MAX);
  if (before == after) return "";
  return fmt::format("memory reduced from {:.2f} MB -> {:.2f} MB, {} -> {} bufs",
                     static_cast<double>(before) / 1e6, static_cast<double>(after) / 1e6,
                     p.placements.size(), p.arenas.size());
}

}  // namespace planck
