// Brute force, the search and Z3 must give the same answers: the least arena
// of generated instances, and whether each capacity around it fits.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include "oracle/brute_force.h"
#include "oracle/optimum.h"
#include "oracle/optimum_test_util.h"

namespace planck::oracle {
namespace {

struct Engines {
  const char* name;
  bool search;
  bool z3;
};
constexpr Engines kEngines[] = {{"search", true, false}, {"z3", false, true}, {"both", true, true}};

OptimumOptions options_for(const Engines& e) {
  OptimumOptions o;
  o.use_search = e.search;
  o.use_z3 = e.z3;
  o.timeout_seconds = 60;
  return o;
}

std::vector<std::vector<UnitItem>> tiny_instances(std::uint64_t seed, std::size_t count) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<UnitItem>> all;
  while (all.size() < count) all.push_back(testing::random_items(rng, {}));
  return all;
}

TEST(OptimumAgreement, BruteForceSearchAndZ3FindTheSameLeastArena) {
  int above_peak = 0;
  for (const auto& items : tiny_instances(31337, 200)) {
    const std::int64_t least = brute_force_least_arena(items)->arena;
    const PackingProblem p = testing::as_problem(items);
    above_peak += static_cast<Bytes>(least) > peak_live(p) ? 1 : 0;
    for (const Engines& e : kEngines) {
      auto r = solve_optimum(p, options_for(e));
      ASSERT_TRUE(r) << r.error().message();
      EXPECT_EQ(r->status, OptimumStatus::Optimal) << e.name << " " << testing::describe(items);
      EXPECT_EQ(r->lower_bound, static_cast<Bytes>(least)) << e.name << " " << testing::describe(items);
      EXPECT_EQ(r->upper_bound, static_cast<Bytes>(least)) << e.name << " " << testing::describe(items);
    }
  }
  // The instances must exercise proofs beyond the peak, not only the bound.
  EXPECT_GE(above_peak, 10);
}

TEST(OptimumAgreement, EveryCapacityAroundTheLeastArenaGetsTheSameVerdict) {
  for (const auto& items : tiny_instances(4242, 80)) {
    const std::int64_t least = brute_force_least_arena(items)->arena;
    const PackingProblem p = testing::as_problem(items);
    const auto peak = static_cast<std::int64_t>(peak_live(p));
    for (std::int64_t c = peak - 1; c <= least + 1; ++c) {
      for (const Engines& e : kEngines) {
        OptimumOptions o = options_for(e);
        o.capacity = static_cast<Bytes>(c);
        auto r = solve_optimum(p, o);
        ASSERT_TRUE(r) << r.error().message();
        const std::string what = std::string(e.name) + " at " + std::to_string(c) + ": " +
                                 testing::describe(items);
        if (c < least) {
          EXPECT_EQ(r->status, OptimumStatus::Infeasible) << what;
          EXPECT_GT(r->lower_bound, static_cast<Bytes>(c)) << what;
        } else {
          // Asked to fit, the oracle goes on to prove the least arena.
          EXPECT_EQ(r->status, OptimumStatus::Optimal) << what;
          EXPECT_EQ(r->upper_bound, static_cast<Bytes>(least)) << what;
        }
      }
    }
  }
}

TEST(OptimumAgreement, SearchAndZ3FindTheSameLeastArenaOnLargerInstances) {
  std::mt19937_64 rng(777);
  const testing::Shape shape{.min_items = 9, .max_items = 14, .horizon = 16, .max_length = 8, .max_size = 12};
  for (int round = 0; round < 40; ++round) {
    const std::vector<UnitItem> items = testing::random_items(rng, shape);
    const PackingProblem p = testing::as_problem(items);
    auto search = solve_optimum(p, options_for(kEngines[0]));
    auto z3 = solve_optimum(p, options_for(kEngines[1]));
    ASSERT_TRUE(search && z3);
    ASSERT_EQ(search->status, OptimumStatus::Optimal) << testing::describe(items);
    ASSERT_EQ(z3->status, OptimumStatus::Optimal) << testing::describe(items);
    EXPECT_EQ(search->upper_bound, z3->upper_bound) << testing::describe(items);
  }
}

}  // namespace
}  // namespace planck::oracle
