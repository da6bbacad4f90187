#pragma once
// Text to model for tests: a schedule or plan that must parse; a parse error
// fails the current test and gives an empty value.

#include <gtest/gtest.h>

#include <string_view>

#include "model/plan.h"
#include "model/schedule_reader.h"

namespace planck::testing {

inline Schedule sched(std::string_view text) {
  Result<Schedule> s = parse_schedule(text, "test.sched");
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message());
  return s.ok() ? *s : Schedule{};
}

inline Plan plan(std::string_view text) {
  Result<Plan> p = parse_plan(text, "test.plan");
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message());
  return p.ok() ? *p : Plan{};
}

}  // namespace planck::testing
