#pragma once
// The schedule generators of gen/random_schedules.h as RapidCheck generators,
// shrinking by the shrinker of gen/shrink.h.
//
// A schedule's random choices are RapidCheck picks, so RC_PARAMS seeds
// reproduce it. Shrinking does not go through RapidCheck's shrinks of those
// picks: the shrinker edits the schedule itself, every edit keeping it valid
// and making it strictly smaller, so a failure shrinks to the few entries
// that cause it.

#include <rapidcheck.h>

#include <cstdint>

#include "gen/choices.h"
#include "gen/random_schedules.h"
#include "model/schedule.h"
#include "properties/show.h"

namespace planck::props {

// Choices drawn from RapidCheck picks (`*rc::gen::inRange`), so only inside
// rc::gen::exec or a property. Each pick gives eight random bytes, which the
// draws take as ByteChoices take theirs: most draws need one byte, and a
// pick costs far more than a byte. RapidCheck scales a pick's range by its
// size, so the generators below pick at the nominal size, where a pick may
// take any value of its range.
class RapidCheckChoices final : public gen::ByteStreamChoices {
 private:
  std::uint8_t next_byte() override;

  std::uint64_t pool_ = 0;
  int left_ = 0;  // bytes of pool_ not yet taken
};

// Schedules of generate_schedule, at RapidCheck's size (options.size is
// ignored): sizes past the nominal 100 (RC_PARAMS max_size) give longer
// schedules.
rc::Gen<Schedule> schedules(gen::ScheduleOptions options = {});

// Schedules of generate_unplannable_schedule. Their shrinks stay
// unplannable, else a planner that wrongly accepts one would shrink to a
// schedule it rightly accepts.
rc::Gen<Schedule> overflowing_schedules();

// The shrinks of gen/shrink.h, made as RapidCheck asks for them.
rc::Seq<Schedule> shrink_schedule(const Schedule& s);

}  // namespace planck::props
