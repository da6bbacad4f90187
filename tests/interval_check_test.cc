// The checker's 256-byte rules, on an interval problem taken a block per
// byte, judge exactly the problem's own rule at alignment 1: rows inside
// the arena, and no two alive together sharing a byte.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include "model/interval_schedule.h"
#include "oracle/check/checker.h"

namespace planck {
namespace {

struct Case {
  IntervalProblem problem;
  Plan plan;
};

// Rows on [0, 8) time steps of 0..5 bytes, each placed once at 0..11 in an
// arena of 0..15 bytes: small enough that valid and invalid plans both come often.
Case random_case(std::mt19937& rng) {
  auto draw = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Case c;
  c.problem.source = "t.csv";
  c.plan.arenas.push_back({"arena0", "CSV", static_cast<Bytes>(draw(0, 15)), {}});
  const int rows = draw(1, 6);
  for (int i = 0; i < rows; ++i) {
    const int lower = draw(0, 6);
    c.problem.buffers.push_back({.id = fmt::format("r{}", i),
                                 .lower = lower,
                                 .upper = draw(lower + 1, 7),
                                 .size = static_cast<Bytes>(draw(0, 5)),
                                 .line = i + 2});
    c.plan.placements.push_back({fmt::format("r{}", i), "arena0", static_cast<Bytes>(draw(0, 11)), {}});
  }
  return c;
}

// The rule of an interval problem at alignment 1, written out plainly.
bool valid_at_alignment_one(const Case& c) {
  const std::vector<Interval>& rows = c.problem.buffers;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Bytes place = c.plan.placements[i].place;
    if (place + rows[i].size > c.plan.arenas[0].size) return false;
    for (std::size_t j = 0; j < i; ++j) {
      const bool alive_together = rows[i].lower < rows[j].upper && rows[j].lower < rows[i].upper;
      const Bytes other = c.plan.placements[j].place;
      const bool share_a_byte = std::max(place, other) < std::min(place + rows[i].size, other + rows[j].size);
      if (alive_together && share_a_byte) return false;
    }
  }
  return true;
}

TEST(IntervalCheck, TheCheckerOnBlocksJudgesExactlyTheRuleAtAlignmentOne) {
  std::mt19937 rng(2024);
  int valid = 0;
  constexpr int kCases = 4000;
  for (int k = 0; k < kCases; ++k) {
    const Case c = random_case(rng);
    Result<IntervalCheck> blocks = interval_check(c.problem, c.plan);
    ASSERT_TRUE(blocks) << blocks.error().message();
    const std::vector<oracle::Violation> found = oracle::check_plan(blocks->schedule, blocks->plan);
    const bool expected = valid_at_alignment_one(c);
    ASSERT_EQ(found.empty(), expected)
        << "case " << k << ":\n"
        << print_intervals(c.problem) << print_plan(c.plan) << (found.empty() ? "" : found.front().message);
    valid += expected ? 1 : 0;
  }
  // Both verdicts were put to the test.
  EXPECT_GT(valid, kCases / 10);
  EXPECT_LT(valid, kCases - kCases / 10);
}

}  // namespace
}  // namespace planck
