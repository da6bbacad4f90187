#include "oracle/optimum/z3_packing.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <random>

#include "oracle/optimum/brute_force.h"
#include "oracle/optimum/optimum_test_util.h"

namespace planck::oracle {
namespace {

using ::testing::IsEmpty;

Clock::time_point later() { return Clock::now() + std::chrono::seconds(60); }

const std::vector<UnitItem> kTricky = testing::tricky_items();

TEST(Z3Packing, OneSolverAnswersARisingSeriesOfCapacities) {
  Z3Packing z3(kTricky);
  EXPECT_EQ(z3.fit(4, later()).outcome, FitOutcome::Infeasible);
  const Fit f = z3.fit(5, later());
  ASSERT_EQ(f.outcome, FitOutcome::Found) << z3.reason_unknown();
  EXPECT_THAT(placement_error(testing::as_problem(kTricky), testing::as_offsets(f.offsets), 5),
              IsEmpty());
  // Asking again below, after a larger capacity, still says no.
  EXPECT_EQ(z3.fit(4, later()).outcome, FitOutcome::Infeasible);
}

TEST(Z3Packing, IdenticalItemsStillFitWithTheirOrderFixed) {
  // Three identical items alive together, and a lone one: the chain and the
  // mirror rule must leave the placement at the peak.
  const std::vector<UnitItem> items = {{2, 0, 4}, {2, 0, 4}, {2, 0, 4}, {3, 2, 6}};
  Z3Packing z3(items);
  EXPECT_EQ(z3.fit(8, later()).outcome, FitOutcome::Infeasible);
  EXPECT_EQ(z3.fit(9, later()).outcome, FitOutcome::Found);
}

TEST(Z3Packing, ADeadlineAlreadyPastGivesTimeout) {
  Z3Packing z3(kTricky);
  EXPECT_EQ(z3.fit(5, Clock::now() - std::chrono::seconds(1)).outcome, FitOutcome::Timeout);
}

// The encoding, with and without each symmetry rule and the canonical
// constraint, against exhaustive enumeration.
TEST(Z3Packing, EveryEncodingAgreesWithBruteForce) {
  std::mt19937_64 rng(5);
  std::vector<std::vector<UnitItem>> instances;
  for (const testing::Variant& v : testing::tricky_variants()) instances.push_back(v.items);
  while (instances.size() < 60) instances.push_back(testing::random_items(rng, {}));
  for (bool symmetry : {false, true}) {
    for (bool canonical : {false, true}) {
      for (const auto& items : instances) {
        const std::int64_t least = brute_force_least_arena(items)->arena;
        Z3Packing z3(items, {.symmetry_breaking = symmetry, .canonical = canonical});
        const std::string what = testing::describe(items) + (symmetry ? " symmetry" : "") +
                                 (canonical ? " canonical" : "");
        EXPECT_EQ(z3.fit(least - 1, later()).outcome, FitOutcome::Infeasible) << what;
        const Fit f = z3.fit(least, later());
        ASSERT_EQ(f.outcome, FitOutcome::Found) << what << ": " << z3.reason_unknown();
        EXPECT_THAT(placement_error(testing::as_problem(items), testing::as_offsets(f.offsets),
                                    static_cast<Bytes>(least)),
                    IsEmpty())
            << what;
      }
    }
  }
}

}  // namespace
}  // namespace planck::oracle
