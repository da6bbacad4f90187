#include "harness/verify.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/features.h"
#include "gen/schedule_parts.h"
#include "model/schedule_printer.h"
#include "model/schedule_reader.h"
#include "planner/planner.h"
#include "properties/broken_planners.h"

namespace planck::harness {
namespace {

using ::testing::StartsWith;

VerifyOptions quick(std::uint64_t cases) {
  VerifyOptions o;
  o.max_cases = cases;
  o.time = std::chrono::seconds(600);
  o.shrink_time = std::chrono::seconds(120);
  return o;
}

std::size_t lines(const Schedule& s) {
  const std::string text = print_schedule(s);
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

TEST(Verify, EveryPlannerOfThisProjectPassesGeneratedSchedules) {
  for (const std::string& name : planner_names()) {
    SCOPED_TRACE(name);
    const VerifyResult r = verify(*make_planner(name), {}, quick(150));
    EXPECT_FALSE(r.failure.has_value()) << r.failure->verdict.explanation << print_schedule(r.failure->minimized);
    EXPECT_EQ(r.progress.cases, 150u);
  }
}

TEST(Verify, TheSameSeedGivesTheSameCases) {
  VerifyOptions o = quick(1);
  EXPECT_EQ(case_seed(7, 3), case_seed(7, 3));
  EXPECT_NE(case_seed(7, 3), case_seed(7, 4));
  EXPECT_NE(case_seed(7, 3), case_seed(8, 3));
  EXPECT_EQ(case_options(0, o).size, 1);
  EXPECT_GT(case_options(400, o).size, case_options(40, o).size);
  o.max_size = 20;
  EXPECT_EQ(case_options(100000, o).size, 20);
}

// Each planted bug that makes plans wrong is found, and shrinks to a
// schedule of at most 12 lines that still fails the same way.
TEST(Verify, EveryBrokenPlannerIsCaughtWithASmallSchedule) {
  for (props::Bug bug : {props::Bug::OffByOneLifetimes, props::Bug::LoopsNotExtended, props::Bug::PhaseIgnored,
                         props::Bug::AlignmentIgnored}) {
    SCOPED_TRACE(std::string(props::bug_name(bug)));
    const auto planner = props::make_broken_planner(bug);
    const VerifyResult r = verify(*planner, {}, quick(2000));
    ASSERT_TRUE(r.failure.has_value());
    const Failure& f = *r.failure;
    EXPECT_EQ(f.verdict.kind, f.first.kind);
    EXPECT_THAT(f.verdict.kind, StartsWith("invalid-"));
    EXPECT_LE(lines(f.minimized), 12u) << print_schedule(f.minimized);
    EXPECT_EQ(judge(*planner, f.minimized).kind, f.verdict.kind);
    EXPECT_FALSE(judge(*make_planner("tlsf"), f.minimized).failed());
  }
}

TEST(Verify, FilesAreJudgedFirstAndFilesUsingASwitchedOffFeatureAreSkipped) {
  const Schedule looped = *parse_schedule(R"(schedule v1
buffer a CPU int8 256
buffer b CPU int8 256
range {
  kernel k1 a
  kernel k2 b
}
)",
                                          "looped.sched");
  const auto planner = props::make_broken_planner(props::Bug::LoopsNotExtended);
  VerifyOptions o = quick(0);
  o.generate = false;
  const VerifyResult caught = verify(*planner, {looped}, o);
  ASSERT_TRUE(caught.failure.has_value());
  EXPECT_EQ(caught.failure->origin, "looped.sched");

  o.features.range_loops = false;
  const VerifyResult skipped = verify(*planner, {looped}, o);
  EXPECT_FALSE(skipped.failure.has_value());
  EXPECT_EQ(skipped.progress.skipped, 1u);
  EXPECT_EQ(skipped.progress.cases, 0u);
}

TEST(Verify, GeneratedCasesHonourTheFeatureSwitches) {
  // The loop bug is invisible when no loop is generated. The broken
  // planners know model v1.
  VerifyOptions o = quick(300);
  o.features = v1_only(o.features);
  o.features.range_loops = false;
  o.features.flag_loops = false;
  const VerifyResult r = verify(*props::make_broken_planner(props::Bug::LoopsNotExtended), {}, o);
  EXPECT_FALSE(r.failure.has_value()) << print_schedule(r.failure->minimized);
}

}  // namespace
}  // namespace planck::harness
