// Brute force, the search and Z3 must give the same answers: the least arena
// of generated instances, and whether each capacity around it fits.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include "oracle/optimum/brute_force.h"
#include "oracle/optimum/optimum.h"
#include "oracle/optimum/optimum_test_util.h"

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

// The variants of the tricky case, whose least arena is above the peak, then
// generated instances up to `count`.
std::vector<std::vector<UnitItem>> tiny_instances(std::uint64_t seed, std::size_t count) {
  std::vector<std::vector<UnitItem>> all;
  for (const testing::Variant& v : testing::tricky_variants()) all.push_back(v.items);
  std::mt19937_64 rng(seed);
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
  // Proofs beyond the peak, not only the bound, are exercised.
  EXPECT_GE(above_peak, static_cast<int>(testing::tricky_variants().size()));
}

TEST(OptimumAgreement, EveryCapacityAroundTheLeastArenaGetsTheSameVerdict) {
  for (const auto& items : tiny_instances(4242, 80)) {
    const std::int64_t least = brute_force_least_arena(items)->arena;
    const PackingProblem p = testing::as_problem(items);
    const auto peak = static_cast<std::int64_t>(*peak_live(p));
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
          // Asked whether they fit, the oracle stops at the first placement
          // within the capacity: optimal only when that is the least arena.
          EXPECT_TRUE(r->status == OptimumStatus::Feasible || r->status == OptimumStatus::Optimal) << what;
          EXPECT_LE(r->upper_bound, static_cast<Bytes>(c)) << what;
          EXPECT_GE(r->upper_bound, static_cast<Bytes>(least)) << what;
          if (r->status == OptimumStatus::Optimal) {
            EXPECT_EQ(r->upper_bound, static_cast<Bytes>(least)) << what;
          }
          EXPECT_THAT(placement_error(p, r->offsets, static_cast<Bytes>(c)), ::testing::IsEmpty()) << what;
        }
      }
    }
  }
}

// Beyond brute force: tight instances of 14 to 16 items, kept when the
// search finds their least arena above the peak (rare), plus the first few.
TEST(OptimumAgreement, SearchAndZ3FindTheSameLeastArenaOnLargerInstances) {
  std::mt19937_64 rng(777);
  int above_peak = 0;
  int compared = 0;
  for (int round = 0; round < 3000; ++round) {
    const std::vector<UnitItem> items =
        testing::tight_items(rng, 8, 12, static_cast<std::size_t>(14 + round % 3));
    const PackingProblem p = testing::as_problem(items);
    auto search = solve_optimum(p, options_for(kEngines[0]));
    ASSERT_TRUE(search) << search.error().message();
    ASSERT_EQ(search->status, OptimumStatus::Optimal) << testing::describe(items);
    const bool above = search->upper_bound > peak_live(p);
    if (!above && round >= 30) continue;
    above_peak += above ? 1 : 0;
    ++compared;
    auto z3 = solve_optimum(p, options_for(kEngines[1]));
    ASSERT_TRUE(z3) << z3.error().message();
    ASSERT_EQ(z3->status, OptimumStatus::Optimal) << testing::describe(items);
    EXPECT_EQ(search->upper_bound, z3->upper_bound) << testing::describe(items);
  }
  EXPECT_GE(above_peak, 5);
  EXPECT_GE(compared, 35);
}

}  // namespace
}  // namespace planck::oracle
