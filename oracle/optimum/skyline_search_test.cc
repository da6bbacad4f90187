// The skyline search: what it finds is valid and within the capacity, it
// finds small perfect packings at their width, its answer does not depend on
// its threads, and it never claims that nothing fits.

#include "oracle/optimum/skyline_search.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <random>

#include "gen/perfect_packing.h"
#include "oracle/optimum/brute_force.h"
#include "oracle/optimum/optimum_input.h"
#include "oracle/optimum/optimum_test_util.h"

namespace planck::oracle {
namespace {

using ::testing::IsEmpty;

constexpr std::int64_t kNoLimit = std::int64_t{1} << 40;

Clock::time_point later() { return Clock::now() + std::chrono::seconds(60); }

TEST(SkylineSearch, EveryPlacementItFindsIsValidAndNoneBelowTheLeastArena) {
  std::mt19937_64 rng(7);
  const testing::Shape shape{.min_items = 3, .max_items = 7, .horizon = 12, .max_length = 6, .max_size = 6};
  int found_at_least = 0;
  for (int round = 0; round < 200; ++round) {
    const std::vector<UnitItem> items = testing::random_items(rng, shape);
    const std::int64_t least = brute_force_least_arena(items)->arena;
    EXPECT_NE(skyline_fit(items, least - 1, kNoLimit, later()).outcome, FitOutcome::Found)
        << testing::describe(items);
    for (std::int64_t c = least; c <= least + 2; ++c) {
      const Fit f = skyline_fit(items, c, kNoLimit, later());
      EXPECT_NE(f.outcome, FitOutcome::Infeasible);
      if (f.outcome != FitOutcome::Found) continue;
      found_at_least += c == least;
      EXPECT_THAT(placement_error(testing::as_problem(items), testing::as_offsets(f.offsets), static_cast<Bytes>(c)),
                  IsEmpty())
          << testing::describe(items) << " at " << c;
    }
  }
  // It finds most least arenas of these small instances.
  EXPECT_GT(found_at_least, 100);
}

std::vector<UnitItem> perfect_packing(std::uint64_t seed, std::size_t buffers, std::int64_t width) {
  gen::SeededChoices choices(seed);
  const gen::PerfectPacking p = gen::generate_perfect_packing(choices, {.buffers = buffers, .width = width});
  std::vector<UnitItem> items;
  for (const gen::PackingPiece& piece : p.pieces) {
    items.push_back({piece.size, static_cast<std::int64_t>(piece.first), static_cast<std::int64_t>(piece.last) + 1});
  }
  return items;
}

// The same items with the timeline turned back to front.
std::vector<UnitItem> turned(std::vector<UnitItem> items) {
  std::int64_t end = 0;
  for (const UnitItem& it : items) end = std::max(end, it.alive.end);
  for (UnitItem& it : items) it = {it.size, end - it.alive.end, end - it.alive.begin};
  return items;
}

TEST(SkylineSearch, FindsSmallPerfectPackingsAtTheirWidth) {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const std::vector<UnitItem> items = perfect_packing(seed, 60, 256);
    const Fit f = skyline_fit(items, 256, 1000000, later());
    ASSERT_EQ(f.outcome, FitOutcome::Found) << "seed " << seed;
    EXPECT_THAT(placement_error(testing::as_problem(items), testing::as_offsets(f.offsets), Bytes{256}), IsEmpty());
  }
}

// Cut from a wide rectangle, dozens of buffers, forward and turned around:
// every time step full, so no wrong choice goes unpunished.
TEST(SkylineSearch, FindsPerfectPackingsOfDozensOfBuffersEitherWayRound) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const std::vector<UnitItem> forward = perfect_packing(seed * 7919, 48, 1024);
    for (const std::vector<UnitItem>& items : {forward, turned(forward)}) {
      const Fit f = skyline_fit(items, 1024, 1000000, later());
      ASSERT_EQ(f.outcome, FitOutcome::Found) << "seed " << seed << "\n" << testing::describe(items);
      EXPECT_THAT(placement_error(testing::as_problem(items), testing::as_offsets(f.offsets), Bytes{1024}), IsEmpty())
          << "seed " << seed;
    }
  }
}

// The runs of the portfolio spread over threads, yet the lowest run that
// decides gives the answer, as on one thread: asked twice, a search gives the
// same placement, or fails the same way, whichever thread got there first.
TEST(SkylineSearch, GivesTheSameAnswerEveryTime) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const std::vector<UnitItem> items = perfect_packing(seed, 150, 1024);
    const Fit first = skyline_fit(items, 1024, 100000, later());
    for (int again = 0; again < 2; ++again) {
      const Fit f = skyline_fit(items, 1024, 100000, later());
      ASSERT_EQ(f.outcome, first.outcome) << "seed " << seed;
      EXPECT_EQ(f.offsets, first.offsets) << "seed " << seed;
    }
  }
}

TEST(SkylineSearch, GivesUpAtItsChoiceLimitOrDeadline) {
  const std::vector<UnitItem> tricky = testing::tricky_items();  // least arena 5
  EXPECT_EQ(skyline_fit(tricky, 4, kNoLimit, later()).outcome, FitOutcome::Timeout);
  EXPECT_EQ(skyline_fit(tricky, 5, 0, later()).outcome, FitOutcome::Timeout);
  EXPECT_EQ(skyline_fit(tricky, 5, kNoLimit, Clock::now() - std::chrono::seconds(1)).outcome, FitOutcome::Timeout);
  EXPECT_EQ(skyline_fit({}, 0, 0, later()).outcome, FitOutcome::Found);
  // Each item placed is a choice: a perfect packing of 40 cannot be found in 39.
  const std::vector<UnitItem> packing = perfect_packing(3, 40, 64);
  EXPECT_EQ(skyline_fit(packing, 64, 39, later()).outcome, FitOutcome::Timeout);
  EXPECT_EQ(skyline_fit(packing, 64, kNoLimit, Clock::now() - std::chrono::seconds(1)).outcome, FitOutcome::Timeout);
}

}  // namespace
}  // namespace planck::oracle
