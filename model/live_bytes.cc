#include "model/live_bytes.h"

#include <fmt/format.h>

#include <algorithm>

namespace planck {

std::optional<Bytes> peak_live_bytes(const std::vector<Load>& loads) {
  // The begins and the ends apart, each in time order, merged with the ends
  // first at a time, since loads are half-open. An end is taken only once a
  // later or equal begin is, after its own begin, so the live bytes never go
  // below zero.
  struct Event {
    std::int64_t time;
    Bytes size;
  };
  std::vector<Event> begins;
  std::vector<Event> ends;
  begins.reserve(loads.size());
  ends.reserve(loads.size());
  for (const Load& load : loads) {
    begins.push_back({load.alive.begin, load.size});
    ends.push_back({load.alive.end, load.size});
  }
  const auto by_time = [](const Event& a, const Event& b) { return a.time < b.time; };
  for (std::vector<Event>* events : {&begins, &ends}) {
    if (!std::is_sorted(events->begin(), events->end(), by_time)) std::sort(events->begin(), events->end(), by_time);
  }
  Bytes live = 0;
  Bytes peak = 0;
  std::size_t end = 0;
  for (const Event& begin : begins) {
    for (; end < ends.size() && ends[end].time <= begin.time; ++end) live -= ends[end].size;
    const std::optional<Bytes> sum = checked_add(live, begin.size);
    if (!sum) return std::nullopt;
    live = *sum;
    peak = std::max(peak, live);
  }
  return peak;
}

namespace {

template <class Counted>
std::optional<Bytes> arena_sum(const Plan& p, Counted counted) {
  Bytes total = 0;
  for (const Arena& a : p.arenas) {
    if (!counted(a)) continue;
    const std::optional<Bytes> sum = checked_add(total, a.size);
    if (!sum) return std::nullopt;
    total = *sum;
  }
  return total;
}

}  // namespace

std::optional<Bytes> arena_total(const Plan& p) {
  return arena_sum(p, [](const Arena&) { return true; });
}

std::optional<Bytes> arena_total(const Plan& p, std::string_view device) {
  return arena_sum(p, [&](const Arena& a) { return a.device == device; });
}

std::optional<std::string> capacity_too_small(const Schedule& s, const std::vector<Lifetime>& planned) {
  for (const Device& d : s.devices) {
    if (!d.capacity) continue;
    const Bytes block = std::max(d.align, kPlaceAlign);
    Bytes total = 0;
    for (const Lifetime& l : planned) {
      const Storage& st = s.storage[l.buffer];
      if (st.device != d.name) continue;
      const Result<Bytes> r = rounded_size(st, block);
      const std::optional<Bytes> sum = r ? checked_add(total, std::max(block, *r)) : std::nullopt;
      total = sum ? *sum : ~Bytes{0};
    }
    if (total > *d.capacity) {
      return fmt::format("device {}'s planned buffers side by side take {} bytes, more than its capacity of {}",
                         d.name, total, *d.capacity);
    }
  }
  return std::nullopt;
}

}  // namespace planck
