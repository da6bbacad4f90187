// Each property fails, with a small counterexample, on a planner with the bug
// it guards against; and the reference planner passes the same statement on
// that counterexample, so the failure is the bug's.

#include "properties/broken_planners.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <memory>
#include <ostream>
#include <string>

#include "gen/schedule_parts.h"
#include "model/schedule_reader.h"
#include "planner/planner.h"
#include "properties/plan_properties.h"
#include "properties/property_runner.h"
#include "properties/rapidcheck_generators.h"
#include "properties/show.h"

namespace planck::props {
namespace {

// Fixed seeds, so that the test does not flake; several, so that a catch is
// not luck. The cases are the most a run may take to find the bug.
constexpr std::uint64_t kSeeds[] = {11, 12, 13};
constexpr int kCases = 300;
constexpr std::size_t kMostEntries = 5;

struct Guard {
  Bug bug;
  const char* property;
  PlanStatement statement;
};

void PrintTo(const Guard& guard, std::ostream* os) { *os << bug_name(guard.bug) << " by " << guard.property; }

// Which property guards against which bug.
const Guard kGuards[] = {
    {Bug::OffByOneLifetimes, "plan_passes_checker", &plan_passes_checker},
    {Bug::OffByOneLifetimes, "live_buffers_share_no_bytes", &live_buffers_share_no_bytes},
    {Bug::OffByOneLifetimes, "agrees_with_plain_model", &agrees_with_plain_model},
    {Bug::OffByOneLifetimes, "plan_passes_shadow_executor", &plan_passes_shadow_executor},
    {Bug::LoopsNotExtended, "plan_passes_checker", &plan_passes_checker},
    {Bug::LoopsNotExtended, "loop_buffers_live_through_the_loop", &loop_buffers_live_through_the_loop},
    {Bug::LoopsNotExtended, "live_buffers_share_no_bytes", &live_buffers_share_no_bytes},
    {Bug::LoopsNotExtended, "plan_passes_shadow_executor", &plan_passes_shadow_executor},
    {Bug::PhaseIgnored, "plan_passes_checker", &plan_passes_checker},
    {Bug::PhaseIgnored, "live_buffers_share_no_bytes", &live_buffers_share_no_bytes},
    {Bug::PhaseIgnored, "places_aligned_and_buffers_start_at_place_plus_phase",
     &places_aligned_and_buffers_start_at_place_plus_phase},
    {Bug::AlignmentIgnored, "plan_passes_checker", &plan_passes_checker},
    {Bug::AlignmentIgnored, "places_aligned_and_buffers_start_at_place_plus_phase",
     &places_aligned_and_buffers_start_at_place_plus_phase},
    {Bug::FreeAfterPlace, "agrees_with_plain_model", &agrees_with_plain_model},
};

class BrokenPlannerIsCaught : public ::testing::TestWithParam<Guard> {};

TEST_P(BrokenPlannerIsCaught, WithACounterexampleOfAtMostFiveEntries) {
  const Guard& guard = GetParam();
  const std::unique_ptr<Planner> broken = make_broken_planner(guard.bug);
  const std::unique_ptr<Planner> reference = make_planner("tlsf");
  ASSERT_NE(reference, nullptr);
  // The broken planners, as the statements above, know model v1.
  gen::ScheduleOptions v1;
  v1.features = v1_only(v1.features);
  for (std::uint64_t seed : kSeeds) {
    const std::optional<Failure> found =
        find_counterexample(planner_property(*broken, schedules(v1), guard.statement), seed, kCases);
    ASSERT_TRUE(found) << guard.property << " never failed on " << bug_name(guard.bug) << " (seed " << seed << ")";
    ASSERT_TRUE(found->schedule) << found->description;
    Result<Schedule> s = parse_schedule(*found->schedule, "counterexample");
    ASSERT_TRUE(s.ok()) << s.error().message();
    EXPECT_LE(gen::count_entries(*s), kMostEntries)
        << guard.property << " on " << bug_name(guard.bug) << ", seed " << seed << ":\n"
        << *found->schedule << found->description;
    // The reference planner passes where the broken one failed.
    const std::optional<Failure> reference_fails =
        find_counterexample([&] { guard.statement(*reference, *s); }, seed, 1);
    EXPECT_FALSE(reference_fails) << "the reference planner fails too:\n" << reference_fails->description;
  }
}

INSTANTIATE_TEST_SUITE_P(Bugs, BrokenPlannerIsCaught, ::testing::ValuesIn(kGuards),
                         [](const ::testing::TestParamInfo<Guard>& info) {
                           return std::string(bug_name(info.param.bug)) + "_by_" + info.param.property;
                         });

}  // namespace
}  // namespace planck::props
