#include "oracle/optimum/brute_force.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include "oracle/optimum/optimum_test_util.h"

namespace planck::oracle {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;

TEST(BruteForce, ItemsAliveTogetherStackAndItemsApartShareOffsets) {
  auto r = brute_force_least_arena({{3, 0, 2}, {4, 1, 3}, {5, 3, 4}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->arena, 7);
}

TEST(BruteForce, FindsAnArenaAboveThePeakWhenNoPlacementReachesIt) {
  // MiniMalloc's "infeasible tricky" case (../shared/intervals): peak 4, and
  // no placement within 4.
  const std::vector<UnitItem> tricky = {{3, 0, 1}, {1, 0, 3}, {3, 4, 5}, {1, 2, 5},
                                        {2, 1, 2}, {2, 3, 4}, {1, 1, 4}};
  auto r = brute_force_least_arena(tricky);
  ASSERT_TRUE(r);
  EXPECT_EQ(peak_live(testing::as_problem(tricky)), 4u);
  EXPECT_EQ(r->arena, 5);
  EXPECT_THAT(placement_error(testing::as_problem(tricky), testing::as_offsets(r->offsets), 5),
              IsEmpty());
}

TEST(BruteForce, RefusesMoreThanSevenItems) {
  std::vector<UnitItem> items(8, UnitItem{1, 0, 1});
  auto r = brute_force_least_arena(items);
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message(), HasSubstr("at most 7 items"));
}

TEST(BruteForce, ItsPlacementIsValidAndNoLowerThanThePeak) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 200; ++round) {
    const std::vector<UnitItem> items = testing::random_items(rng, {});
    auto r = brute_force_least_arena(items);
    ASSERT_TRUE(r);
    const PackingProblem p = testing::as_problem(items);
    EXPECT_THAT(placement_error(p, testing::as_offsets(r->offsets)), IsEmpty());
    EXPECT_EQ(arena_size(p, testing::as_offsets(r->offsets)), static_cast<Bytes>(r->arena));
    EXPECT_GE(static_cast<Bytes>(r->arena), peak_live(p)) << testing::describe(items);
  }
}

}  // namespace
}  // namespace planck::oracle
