// The `optimal` planner: offered after planner/'s own, its plans pass the
// checker, are never larger than best's, and meet the oracle's proven optimum.

#include "harness/optimal_planner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "gen/perfect_packing.h"
#include "gen/random_schedules.h"
#include "oracle/check/checker.h"
#include "oracle/optimum/optimum.h"
#include "oracle/optimum/optimum_input.h"
#include "harness/planners.h"
#include "planner/registry.h"

namespace planck::harness {
namespace {

Bytes total(const Plan& p) {
  Bytes sum = 0;
  for (const Arena& a : p.arenas) sum += a.size;
  return sum;
}

Bytes arena_of(const Plan& p, const std::string& device) {
  for (const Arena& a : p.arenas) {
    if (a.device == device) return a.size;
  }
  return 0;
}

std::string violations(const Schedule& s, const Plan& p) {
  std::string out;
  for (const oracle::Violation& v : oracle::check_plan(s, p)) out += v.message + "\n";
  return out;
}

TEST(OptimalPlanner, IsOfferedOnceAfterPlannersTableAndIsNotAmongBestsCandidates) {
  const std::vector<std::string> names = offered_planner_names();
  std::vector<std::string> table = planner_names();
  table.emplace_back("optimal");
  EXPECT_EQ(names, table);
  EXPECT_EQ(names.front(), "tlsf");
  EXPECT_EQ(std::count(names.begin(), names.end(), "optimal"), 1);
  const std::vector<std::string> best = best_candidates();
  EXPECT_EQ(std::find(best.begin(), best.end(), "optimal"), best.end());
  for (const PlannerEntry& e : offered_planners()) {
    auto made = make_offered_planner(e.name);
    ASSERT_NE(made, nullptr) << e.name;
    EXPECT_EQ(made->name(), e.name);
  }
  EXPECT_EQ(make_offered_planner("no-such-planner"), nullptr);
}

TEST(OptimalPlanner, IsNeverLargerThanBestAndPassesTheChecker) {
  const auto best = make_planner("best");
  const auto optimal = make_optimal_planner(0.5);
  int smaller = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    SCOPED_TRACE(::testing::Message() << "seed " << seed);
    gen::SeededChoices choices(seed);
    const Schedule s = gen::generate_schedule(choices, gen::ScheduleOptions::small());
    auto b = best->plan(s);
    auto o = optimal->plan(s);
    ASSERT_EQ(b.ok(), o.ok());
    if (!b) continue;
    EXPECT_EQ(violations(s, *o), "");
    EXPECT_LE(total(*o), total(*b));
    smaller += total(*o) < total(*b);
  }
  // The search beats the heuristics somewhere among these.
  EXPECT_GT(smaller, 0);
}

TEST(OptimalPlanner, MeetsTheProvenOptimumOfEachDevice) {
  const auto optimal = make_optimal_planner(5);
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    SCOPED_TRACE(::testing::Message() << "seed " << seed);
    gen::SeededChoices choices(seed);
    const Schedule s = gen::generate_schedule(choices, gen::ScheduleOptions::small());
    auto o = optimal->plan(s);
    if (!o) continue;
    auto devices = oracle::schedule_packings(s);
    ASSERT_TRUE(devices.ok()) << devices.error().message();
    for (const oracle::DevicePacking& d : *devices) {
      // Where a kernel works in place, the optimum leaves the sharing out.
      if (d.has_inplace) continue;
      auto r = oracle::solve_optimum(d.problem, {.timeout_seconds = 5});
      ASSERT_TRUE(r.ok()) << r.error().message();
      if (r->status != oracle::OptimumStatus::Optimal) continue;
      EXPECT_EQ(arena_of(*o, d.device), r->upper_bound * d.unit) << d.device;
    }
  }
}

TEST(OptimalPlanner, PlacesAPerfectPackingAtItsPeak) {
  gen::SeededChoices choices(3);
  const gen::PerfectPacking p = gen::generate_perfect_packing(choices, {.buffers = 40, .width = 32});
  auto o = make_optimal_planner(10)->plan(p.schedule);
  ASSERT_TRUE(o.ok()) << o.error().message();
  EXPECT_EQ(violations(p.schedule, *o), "");
  EXPECT_EQ(total(*o), static_cast<Bytes>(p.width) * kPlaceAlign);
}

TEST(OptimalPlanner, ReadsItsBudgetFromTheEnvironment) {
  ::setenv(kOptimalSecondsVariable, "0.5", 1);
  EXPECT_EQ(optimal_seconds_from_environment().value(), 0.5);
  ::setenv(kOptimalSecondsVariable, "", 1);
  EXPECT_EQ(optimal_seconds_from_environment().value(), kDefaultOptimalSeconds);
  for (const char* bad : {"soon", "-1", "1e9", "nan", "2s"}) {
    ::setenv(kOptimalSecondsVariable, bad, 1);
    auto r = optimal_seconds_from_environment();
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.error().message().find(std::string("PLANCK_OPTIMAL_SECONDS=") + bad), std::string::npos)
        << r.error().message();
  }
  // The offered planner reads it when it plans, and fails with its message.
  gen::SeededChoices choices(1);
  auto failed = make_offered_planner("optimal")->plan(gen::generate_schedule(choices, gen::ScheduleOptions::small()));
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.error().message().find("PLANCK_OPTIMAL_SECONDS"), std::string::npos);
  ::unsetenv(kOptimalSecondsVariable);
}

}  // namespace
}  // namespace planck::harness
