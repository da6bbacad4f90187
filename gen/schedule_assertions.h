#pragma once
// What the tests of planck_gen ask of every schedule it makes.

#include <gtest/gtest.h>

#include <string>

#include "model/schedule.h"
#include "model/schedule_printer.h"
#include "model/schedule_reader.h"

namespace planck::gen {

// A valid schedule: its text parses, and prints back the same.
inline ::testing::AssertionResult round_trips(const Schedule& s) {
  const std::string text = print_schedule(s);
  Result<Schedule> read = parse_schedule(text, "generated.sched");
  if (!read) return ::testing::AssertionFailure() << read.error().message() << "\n" << text;
  if (print_schedule(*read) != text) return ::testing::AssertionFailure() << "prints differently:\n" << text;
  return ::testing::AssertionSuccess();
}

// The sum over the storage of max(256, round_up(phase + bytes, 256)) is
// below 2^62, so every planner can plan the schedule.
inline ::testing::AssertionResult within_plannable_total(const Schedule& s) {
  Bytes total = 0;
  for (const Storage& st : s.storage) {
    total += std::max(kPlaceAlign, (st.phase + st.bytes + kPlaceAlign - 1) / kPlaceAlign * kPlaceAlign);
    if (total >= kMaxBytes) return ::testing::AssertionFailure() << "the storage passes 2^62 at " << st.name;
  }
  return ::testing::AssertionSuccess();
}

}  // namespace planck::gen
