#include "properties/rapidcheck_generators.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gen/shrink.h"

namespace planck::props {
namespace {

// The storage each top-level entry takes, through views, loops and flags.
void collect_taken(const Entry& e, std::vector<StorageId>& out) {
  for (const Arg& a : e.args) out.push_back(storage_of(a));
  for (const Entry& inner : e.body()) collect_taken(inner, out);
  for (const Arg& a : e.flag()) out.push_back(storage_of(a));
}

// Whether some entry takes buffers of one device that cannot all fit in 2^64
// bytes at once, so that no plan can exist.
bool cannot_fit(const Schedule& s) {
  for (const Entry& e : s.entries) {
    std::vector<StorageId> taken;
    collect_taken(e, taken);
    std::sort(taken.begin(), taken.end());
    taken.erase(std::unique(taken.begin(), taken.end()), taken.end());
    std::vector<std::pair<std::string, Bytes>> per_device;
    for (StorageId id : taken) {
      const Storage& st = s.storage[id];
      if (st.kind != StorageKind::Buffer || st.held || is_disk(st.device)) continue;
      auto it = std::find_if(per_device.begin(), per_device.end(), [&](const auto& d) { return d.first == st.device; });
      if (it == per_device.end()) {
        per_device.emplace_back(st.device, 0);
        it = per_device.end() - 1;
      }
      // Sizes and phases are below 2^62, so phase + bytes does not wrap.
      const std::optional<Bytes> rounded = checked_round_up(st.phase + st.bytes, kPlaceAlign);
      const std::optional<Bytes> sum =
          rounded ? checked_add(it->second, std::max(kPlaceAlign, *rounded)) : std::nullopt;
      if (!sum) return true;
      it->second = *sum;
    }
  }
  return false;
}

// A generator of schedules made by `make` from RapidCheck picks at
// RapidCheck's size, whose shrinks are `shrinks`.
template <class Make, class ShrinkSeq>
rc::Gen<Schedule> generator(Make make, ShrinkSeq shrinks) {
  return [make, shrinks](const rc::Random& random, int size) {
    // The picks are made once, here, at the nominal size, at which a pick
    // may take any value of its range: the schedule's size is `size`, and it
    // shrinks by its own edits, not by RapidCheck's shrinks of the picks.
    Schedule s = rc::gen::exec([&] {
                   RapidCheckChoices choices;
                   return make(choices, size);
                 })(random, rc::kNominalSize)
                     .value();
    return rc::shrinkable::shrinkRecur(std::move(s), shrinks);
  };
}

}  // namespace

std::uint8_t RapidCheckChoices::next_byte() {
  if (left_ == 0) {
    // inRange excludes its upper bound: every value but the largest.
    pool_ = *rc::gen::inRange<std::uint64_t>(0, std::numeric_limits<std::uint64_t>::max());
    left_ = 8;
  }
  const auto byte = static_cast<std::uint8_t>(pool_);
  pool_ >>= 8;
  --left_;
  return byte;
}

rc::Gen<Schedule> schedules(gen::ScheduleOptions options) {
  return generator(
      [options](gen::Choices& choices, int size) {
        gen::ScheduleOptions sized = options;
        sized.size = size;
        return gen::generate_schedule(choices, sized);
      },
      &shrink_schedule);
}

rc::Gen<Schedule> overflowing_schedules() {
  return generator(
      [](gen::Choices& choices, int size) {
        gen::ScheduleOptions ordinary = gen::ScheduleOptions::small();
        ordinary.size = size;
        return gen::generate_unplannable_schedule(choices, ordinary);
      },
      [](const Schedule& s) { return rc::seq::filter(shrink_schedule(s), &cannot_fit); });
}

rc::Seq<Schedule> shrink_schedule(const Schedule& s) {
  auto shrinks = std::make_shared<const gen::Shrinks>(s);
  return rc::seq::map(rc::seq::range<std::size_t>(0, shrinks->size()),
                      [shrinks](std::size_t i) { return (*shrinks)[i]; });
}

}  // namespace planck::props
