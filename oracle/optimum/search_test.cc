#include "oracle/optimum/search.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <random>

#include <fmt/format.h>

#include "oracle/optimum/brute_force.h"
#include "oracle/optimum/optimum_test_util.h"

namespace planck::oracle {
namespace {

using ::testing::IsEmpty;

Clock::time_point later() { return Clock::now() + std::chrono::seconds(60); }

const std::vector<UnitItem> kTricky = testing::tricky_items();

// Every combination of the ten switches, in a fixed order, but for those
// that differ from another only in a switch that takes no effect there (see
// SearchSwitches).
std::vector<SearchSwitches> every_combination() {
  std::vector<SearchSwitches> all;
  for (unsigned bits = 0; bits < (1u << 10); ++bits) {
    auto on = [&](unsigned k) { return (bits >> k & 1u) != 0; };
    const bool canonical = on(0);
    const bool ordering = on(2);
    if (!canonical && on(5)) continue;               // monotonic_floor
    if (canonical && !ordering && on(6)) continue;   // hatless_pruning
    if (on(9) && !(on(5) && on(4))) continue;        // tight_sections
    all.push_back({.canonical_only = on(0),
                   .section_inference = on(1),
                   .dynamic_ordering = on(2),
                   .check_dominance = on(3),
                   .unallocated_floor = on(4),
                   .monotonic_floor = on(5),
                   .hatless_pruning = on(6),
                   .dynamic_decomposition = on(7),
                   .round_robin = on(8),
                   .tight_sections = on(9)});
  }
  return all;
}

std::string describe(const SearchSwitches& s) {
  return fmt::format(
      "canonical {} sections {} ordering {} dominance {} unallocated {} monotonic {} hatless {} "
      "decomposition {} round_robin {} tight {}",
      s.canonical_only, s.section_inference, s.dynamic_ordering, s.check_dominance,
      s.unallocated_floor, s.monotonic_floor, s.hatless_pruning, s.dynamic_decomposition,
      s.round_robin, s.tight_sections);
}

TEST(Search, TheTrickyCaseDoesNotFitInItsPeakButFitsOneAbove) {
  PlacementSearch search(kTricky);
  EXPECT_EQ(search.fit(4, later()).outcome, FitOutcome::Infeasible);
  const Fit f = search.fit(5, later());
  ASSERT_EQ(f.outcome, FitOutcome::Found);
  EXPECT_THAT(placement_error(testing::as_problem(kTricky), testing::as_offsets(f.offsets), 5),
              IsEmpty());
}

TEST(Search, NoItemsFitAnyCapacity) {
  PlacementSearch search({});
  EXPECT_EQ(search.fit(0, later()).outcome, FitOutcome::Found);
}

TEST(Search, AnItemLargerThanTheCapacityDoesNotFit) {
  PlacementSearch search({{5, 0, 1}});
  EXPECT_EQ(search.fit(4, later()).outcome, FitOutcome::Infeasible);
  EXPECT_EQ(search.fit(5, later()).outcome, FitOutcome::Found);
}

TEST(Search, PiecesOfTheTimelineNoItemCrossesAreSolvedApart) {
  // Two copies of the tricky case, one after the other: each needs 5.
  std::vector<UnitItem> twice = kTricky;
  for (UnitItem u : kTricky) twice.push_back({u.size, u.alive.begin + 10, u.alive.end + 10});
  for (bool decomposition : {false, true}) {
    SearchSwitches sw;
    sw.dynamic_decomposition = decomposition;
    PlacementSearch search(twice, sw);
    EXPECT_EQ(search.fit(4, later()).outcome, FitOutcome::Infeasible);
    const Fit f = search.fit(5, later());
    ASSERT_EQ(f.outcome, FitOutcome::Found);
    EXPECT_THAT(placement_error(testing::as_problem(twice), testing::as_offsets(f.offsets), 5),
                IsEmpty());
  }
}

TEST(Search, ThePruningTechniquesVisitFewerNodesThanTheBareSearch) {
  // Proving that the tricky case does not fit in 4, with every technique and
  // with none.
  const SearchSwitches none{.canonical_only = false,
                            .section_inference = false,
                            .dynamic_ordering = false,
                            .check_dominance = false,
                            .unallocated_floor = false,
                            .monotonic_floor = false,
                            .hatless_pruning = false,
                            .dynamic_decomposition = false,
                            .round_robin = false,
                            .tight_sections = false};
  PlacementSearch bare(kTricky, none);
  PlacementSearch full(kTricky);
  ASSERT_EQ(bare.fit(4, later()).outcome, FitOutcome::Infeasible);
  ASSERT_EQ(full.fit(4, later()).outcome, FitOutcome::Infeasible);
  EXPECT_LT(full.stats().nodes * 10, bare.stats().nodes);
}

TEST(Search, ADeadlineAlreadyPastGivesTimeout) {
  PlacementSearch search(kTricky);
  EXPECT_EQ(search.fit(4, Clock::now() - std::chrono::seconds(1)).outcome, FitOutcome::Timeout);
}

// The heart of it: every technique can be switched off, and every
// combination must agree with brute force, both at the least arena (a
// placement, which the checker accepts) and one below it (none).
// Under the sanitizers, where each search costs some hundred times more,
// fewer random instances next to the tricky ones.
#ifdef PLANCK_SANITIZED_BUILD
constexpr std::size_t kCombinationInstances = 8;
#else
constexpr std::size_t kCombinationInstances = 20;
#endif

TEST(Search, EveryCombinationOfSwitchesAgreesWithBruteForce) {
  std::mt19937_64 rng(2024);
  std::vector<std::vector<UnitItem>> instances;
  std::vector<std::int64_t> least;
  for (const testing::Variant& v : testing::tricky_variants()) {
    if (v.least != 5) continue;  // the unscaled ones
    instances.push_back(v.items);
    least.push_back(v.least);
  }
  while (instances.size() < kCombinationInstances) {
    instances.push_back(testing::random_items(rng, {}));
    least.push_back(brute_force_least_arena(instances.back())->arena);
  }
  for (const SearchSwitches& sw : every_combination()) {
    for (std::size_t k = 0; k < instances.size(); ++k) {
      const std::vector<UnitItem>& items = instances[k];
      PlacementSearch search(items, sw);
      const Fit below = search.fit(least[k] - 1, later());
      ASSERT_EQ(below.outcome, FitOutcome::Infeasible)
          << describe(sw) << "\n" << testing::describe(items) << " at " << least[k] - 1;
      const Fit at = search.fit(least[k], later());
      ASSERT_EQ(at.outcome, FitOutcome::Found)
          << describe(sw) << "\n" << testing::describe(items) << " at " << least[k];
      ASSERT_THAT(placement_error(testing::as_problem(items), testing::as_offsets(at.offsets),
                                  static_cast<Bytes>(least[k])),
                  IsEmpty())
          << describe(sw) << "\n" << testing::describe(items);
    }
  }
}

TEST(Search, DefaultSwitchesAgreeWithBruteForceOnLongerTimelines) {
  std::mt19937_64 rng(99);
  const testing::Shape shape{.min_items = 5, .max_items = 7, .horizon = 20, .max_length = 10, .max_size = 9};
  for (int round = 0; round < 300; ++round) {
    const std::vector<UnitItem> items = testing::random_items(rng, shape);
    const std::int64_t least = brute_force_least_arena(items)->arena;
    PlacementSearch search(items);
    ASSERT_EQ(search.fit(least - 1, later()).outcome, FitOutcome::Infeasible) << testing::describe(items);
    ASSERT_EQ(search.fit(least, later()).outcome, FitOutcome::Found) << testing::describe(items);
  }
}

}  // namespace
}  // namespace planck::oracle
