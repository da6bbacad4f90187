// The planners on model v3: greedy, bysize, naive and best plan schedules
// on several streams and with local buffers by the conflict rule, and each
// plan passes the checker and the shadow executor; tlsf and tinygrad plan
// one stream in file order and refuse several, naming the streams and the
// planners that plan them.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "model/file.h"
#include "model/plan.h"
#include "model/schedule_printer.h"
#include "oracle/check/checker.h"
#include "oracle/check/shadow.h"
#include "planner/planner.h"
#include "tests/parsed.h"
#include "tests/v3_schedules.h"

namespace planck {
namespace {

using ::testing::HasSubstr;
using testing::sched;

// Plans s with `planner`, which must succeed with a plan that both oracles
// pass; its arena sizes added up.
Bytes planned_total(const Schedule& s, std::string_view planner) {
  Result<Plan> p = make_planner(planner)->plan(s);
  EXPECT_TRUE(p.ok()) << planner << ": " << (p.ok() ? "" : p.error().message());
  if (!p.ok()) return 0;
  std::string violations;
  for (const oracle::Violation& v : oracle::check_plan(s, *p)) violations += v.message + "\n";
  EXPECT_EQ(violations, "") << planner << "\n" << print_plan(*p);
  Result<oracle::ShadowRun> run = oracle::run_shadow(s, *p, {.iterations = 3});
  EXPECT_TRUE(run.ok());
  if (run.ok() && run->clobber) ADD_FAILURE() << planner << ": " << run->clobber->message() << "\n" << print_plan(*p);
  Bytes total = 0;
  for (const Arena& a : p->arenas) total += a.size;
  return total;
}

const std::vector<std::string_view> kConflictPlanners = {"greedy", "bysize", "naive", "best"};

TEST(PlannersV3, EventsLetALaterStreamReuseBytes) {
  const Schedule s = sched(testing::kTwoStreamsOrdered);
  for (std::string_view p : kConflictPlanners) planned_total(s, p);
  EXPECT_EQ(planned_total(s, "bysize"), 256u);
  EXPECT_EQ(planned_total(s, "greedy"), 256u);
  EXPECT_EQ(planned_total(s, "naive"), 512u);
}

TEST(PlannersV3, UnorderedStreamsKeepTheirBytesApart) {
  const Schedule s = sched(testing::kTwoStreams);
  for (std::string_view p : kConflictPlanners) EXPECT_EQ(planned_total(s, p), 512u) << p;
}

TEST(PlannersV3, LocalBuffersShareBytesInsideTheLoopBody) {
  const Schedule s = sched(R"(schedule v3
buffer x CUDA float32 1024
buffer a CUDA float32 1024 local
buffer b CUDA float32 1024 local
buffer c CUDA float32 1024 local
range {
  kernel k1 a x
  kernel k2 b a
  kernel k3 c b
  kernel k4 x c
}
)");
  for (std::string_view p : kConflictPlanners) planned_total(s, p);
  // x lives over the loop; a and c, at positions 0..1 and 2..3, take turns.
  EXPECT_EQ(planned_total(s, "bysize"), 3072u);
  EXPECT_EQ(planned_total(s, "naive"), 4096u);
}

TEST(PlannersV3, TheReadmePipelinePlansWithEveryPlannerThatTakesIt) {
  Result<FileText> text = read_file(PLANCK_SOURCE_DIR "/examples/schedules/pipeline-v3.sched");
  ASSERT_TRUE(text.ok());
  const Schedule s = sched(*text);
  for (std::string_view p : kConflictPlanners) planned_total(s, p);
  EXPECT_LT(planned_total(s, "bysize"), planned_total(s, "naive"));
}

TEST(PlannersV3, TlsfAndTinygradRefuseSeveralStreams) {
  const Schedule s = sched("schedule v3\nbuffer a CUDA float32 1024\nkernel k1 a stream=s1\nkernel k2 a\n");
  for (std::string_view name : {"tlsf", "tinygrad"}) {
    Result<Plan> p = make_planner(name)->plan(s);
    ASSERT_FALSE(p.ok()) << name;
    EXPECT_EQ(p.error().kind, "planner-streams");
    EXPECT_THAT(p.error().what, HasSubstr(std::string(name) + " plans one stream in file order"));
    EXPECT_THAT(p.error().what, HasSubstr("2 streams (the default stream, `s1`)"));
    EXPECT_THAT(p.error().what, HasSubstr("greedy, bysize, naive, best or optimal"));
  }
}

// On one stream, tlsf plans a local buffer as used at its loop's entry:
// valid, only never shared inside the loop.
TEST(PlannersV3, TlsfPlansLocalBuffersAtTheirLoop) {
  const Schedule s = sched(R"(schedule v3
buffer a CUDA float32 1024 local
buffer b CUDA float32 1024 local
range stream=main {
  kernel k1 a
  kernel k2 b
}
)");
  EXPECT_EQ(planned_total(s, "tlsf"), 2048u);
  EXPECT_EQ(planned_total(s, "tinygrad"), 2048u);
  EXPECT_EQ(planned_total(s, "bysize"), 1024u);
}

}  // namespace
}  // namespace planck
