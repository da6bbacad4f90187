#include "oracle/optimum/optimum_problem.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <random>

#include "oracle/optimum/optimum_greedy.h"
#include "oracle/optimum/optimum_test_util.h"

namespace planck::oracle {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;

PackingProblem problem(std::vector<PackingItem> items) { return {std::move(items)}; }

TEST(PackingProblem, AnEmptyLifetimeIsAnErrorNamingTheItem) {
  Status s = check_problem(problem({{"a", 4, 0, 2}, {"b", 4, 3, 3}}));
  ASSERT_FALSE(s);
  EXPECT_THAT(s.error().message(), HasSubstr("item b"));
  EXPECT_THAT(s.error().message(), HasSubstr("empty"));
}

TEST(PackingProblem, SizesTotallingMoreThan2To62AreAnError) {
  const Bytes half = kMaxTotalSize / 2;
  EXPECT_TRUE(check_problem(problem({{"a", half, 0, 1}, {"b", half, 0, 1}})));
  Status s = check_problem(problem({{"a", half, 0, 1}, {"b", half, 5, 6}, {"c", 1, 9, 10}}));
  ASSERT_FALSE(s);
  EXPECT_THAT(s.error().message(), HasSubstr("item c"));
}

TEST(PackingProblem, PeakCountsItemsThatEndWhereOthersStartApart) {
  // [0, 2) and [2, 4) are never alive together; [1, 3) meets both.
  EXPECT_EQ(peak_live(problem({{"a", 5, 0, 2}, {"b", 7, 2, 4}})), 7u);
  EXPECT_EQ(peak_live(problem({{"a", 5, 0, 2}, {"b", 7, 2, 4}, {"c", 1, 1, 3}})), 8u);
  EXPECT_EQ(peak_live(problem({})), 0u);
}

// The peak by its definition: the most bytes alive at any one time.
TEST(PackingProblem, PeakIsTheMostBytesAliveAtOneTimeInAnyOrderOfItems) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 500; ++trial) {
    std::vector<PackingItem> items(rng() % 12);
    for (PackingItem& item : items) {
      item.size = rng() % 100;
      item.alive.begin = static_cast<std::int64_t>(rng() % 10) - 3;
      item.alive.end = item.alive.begin + 1 + static_cast<std::int64_t>(rng() % 6);
    }
    if (trial % 2 == 0) {
      std::sort(items.begin(), items.end(), [](const PackingItem& a, const PackingItem& b) { return a.alive.begin < b.alive.begin; });
    }
    Bytes want = 0;
    for (std::int64_t t = -3; t < 16; ++t) {
      Bytes live = 0;
      for (const PackingItem& item : items) live += item.alive.begin <= t && t < item.alive.end ? item.size : 0;
      want = std::max(want, live);
    }
    EXPECT_EQ(peak_live(problem(items)), want) << "trial " << trial;
  }
}

TEST(PackingProblem, CheckerAcceptsDisjointBytesAndSharedBytesAtDisjointTimes) {
  const PackingProblem p = problem({{"a", 4, 0, 2}, {"b", 4, 1, 3}, {"c", 8, 3, 5}});
  EXPECT_THAT(placement_error(p, {0, 4, 0}), IsEmpty());
  EXPECT_THAT(placement_error(p, {0, 4, 0}, 8), IsEmpty());
}

TEST(PackingProblem, CheckerLetsAnItemOfSizeZeroSitInsideAnother) {
  const PackingProblem p = problem({{"a", 4, 0, 2}, {"z", 0, 1, 3}});
  EXPECT_THAT(placement_error(p, {0, 2}), IsEmpty());
}

TEST(PackingProblem, CheckerNamesTwoItemsAliveTogetherThatShareBytes) {
  const PackingProblem p = problem({{"a", 4, 0, 2}, {"b", 4, 1, 3}});
  const std::string e = placement_error(p, {0, 3});
  EXPECT_THAT(e, HasSubstr("items a and b"));
  EXPECT_THAT(e, HasSubstr("[1, 2)"));  // the time they share
  EXPECT_THAT(e, HasSubstr("[3, 7)"));
}

TEST(PackingProblem, CheckerRejectsAnItemPastTheCapacityAndAWrongCount) {
  const PackingProblem p = problem({{"a", 4, 0, 2}, {"b", 4, 1, 3}});
  EXPECT_THAT(placement_error(p, {0, 4}, 7), HasSubstr("item b"));
  EXPECT_THAT(placement_error(p, {0}), HasSubstr("1 offsets for 2 items"));
}

TEST(PackingProblem, ArenaIsTheHighestEnd) {
  const PackingProblem p = problem({{"a", 4, 0, 2}, {"b", 4, 1, 3}});
  EXPECT_EQ(arena_size(p, {0, 4}), 8u);
  EXPECT_EQ(arena_size(p, {std::numeric_limits<Bytes>::max() - 2, 4}), std::nullopt);
}

TEST(PackingProblem, PartsSplitWhereNoItemIsAliveAcross) {
  // a and b overlap; c starts as b ends; d, of size 0, crosses every cut but
  // fits anywhere, so it belongs to no part.
  const PackingProblem p =
      problem({{"a", 1, 0, 3}, {"c", 1, 5, 6}, {"b", 1, 2, 5}, {"e", 1, 7, 9}, {"d", 0, 0, 9}});
  const std::vector<std::vector<std::size_t>> want = {{0, 2}, {1}, {3}};
  EXPECT_EQ(independent_parts(p), want);
}

TEST(Greedy, TheLowestGapRuleAndTheSmallestGapRuleChooseDifferentGaps) {
  // Placed by size, each above its neighbours: a 0..5, b 5..9, c 9..12,
  // d 12..14, e 14..15. Once b and d end, the last item (alive on [3, 6))
  // sees the gaps [5, 9) and [12, 14).
  const std::vector<UnitItem> items = {
      {5, 0, 10}, {4, 0, 2}, {3, 0, 10}, {2, 0, 2}, {1, 0, 10}, {1, 3, 6},
  };
  EXPECT_EQ(greedy_by_size(items, GapRule::Lowest), (std::vector<std::int64_t>{0, 5, 9, 12, 14, 5}));
  EXPECT_EQ(greedy_by_size(items, GapRule::Smallest),
            (std::vector<std::int64_t>{0, 5, 9, 12, 14, 12}));
}

TEST(Greedy, PlacementsAreValidOnGeneratedInstances) {
  std::mt19937_64 rng(7);
  testing::Shape shape{.min_items = 1, .max_items = 40, .horizon = 30, .max_length = 12, .max_size = 20};
  for (int round = 0; round < 200; ++round) {
    const std::vector<UnitItem> items = testing::random_items(rng, shape);
    const PackingProblem p = testing::as_problem(items);
    for (GapRule rule : {GapRule::Lowest, GapRule::Smallest}) {
      EXPECT_THAT(placement_error(p, testing::as_offsets(*greedy_by_size(items, rule))), IsEmpty())
          << testing::describe(items);
    }
  }
}


TEST(Greedy, GivesUpWhenItsTimeHasPassed) {
  // Past 64 items the clock is read, and the time is already gone; below, a
  // problem is always placed whole.
  std::vector<UnitItem> items;
  for (std::int64_t k = 0; k < 200; ++k) items.push_back({1 + k % 7, k, k + 10});
  const Clock::time_point gone = Clock::now() - std::chrono::seconds(1);
  EXPECT_EQ(greedy_by_size(items, GapRule::Lowest, gone), std::nullopt);
  EXPECT_EQ(best_greedy_by_size(items, gone), std::nullopt);
  EXPECT_NE(best_greedy_by_size(items), std::nullopt);
  const std::vector<UnitItem> few(items.begin(), items.begin() + 64);
  EXPECT_NE(best_greedy_by_size(few, gone), std::nullopt);
}

TEST(Greedy, StackedPlacementsAreValidWithTheSumOfTheSizesForArena) {
  std::mt19937_64 rng(11);
  testing::Shape shape{.min_items = 1, .max_items = 40, .horizon = 30, .max_length = 12, .max_size = 20};
  for (int round = 0; round < 50; ++round) {
    const std::vector<UnitItem> items = testing::random_items(rng, shape);
    const PackingProblem p = testing::as_problem(items);
    const Offsets offsets = testing::as_offsets(stacked(items));
    EXPECT_THAT(placement_error(p, offsets), IsEmpty()) << testing::describe(items);
    Bytes total = 0;
    for (const UnitItem& item : items) total += static_cast<Bytes>(item.size);
    EXPECT_EQ(arena_size(p, offsets), total);
  }
}

}  // namespace
}  // namespace planck::oracle
