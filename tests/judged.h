#pragma once
// A schedule and a plan in text judged for tests: by both checkers, which
// must agree exactly wherever at most one pair overlaps, or by one run of
// the shadow executor, which must run. A failure fails the current test.

#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <string_view>
#include <vector>

#include "oracle/check/checker.h"
#include "oracle/check/shadow.h"
#include "tests/parsed.h"

namespace planck::oracle {

inline void PrintTo(const Violation& v, std::ostream* os) { *os << v.message; }

}  // namespace planck::oracle

namespace planck::testing {

inline std::vector<oracle::Violation> check(std::string_view schedule_text, std::string_view plan_text) {
  const Schedule s = sched(schedule_text);
  const Plan p = plan(plan_text);
  std::vector<oracle::Violation> fast = oracle::check_plan(s, p);
  EXPECT_EQ(fast, oracle::check_plan_quadratic(s, p));
  return fast;
}

inline oracle::ShadowRun run(std::string_view schedule_text, std::string_view plan_text,
                             std::uint64_t iterations = 2) {
  Result<oracle::ShadowRun> r = oracle::run_shadow(sched(schedule_text), plan(plan_text), {.iterations = iterations});
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message());
  return r.ok() ? *r : oracle::ShadowRun{};
}

}  // namespace planck::testing
