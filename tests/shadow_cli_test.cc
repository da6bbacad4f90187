// `planck run` as a user runs it: what it prints and its exit codes.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "tests/run_command.h"

namespace planck::oracle {
namespace {

using ::testing::HasSubstr;
using planck::testing::CommandResult;

// t is the loop's state; s, used only after it in the body, may not share its bytes.
constexpr const char* kLoop = R"(schedule v1
buffer t CPU float32 1024
buffer s CPU float32 1024
buffer f CPU bool 256
loop flag=f {
  kernel step t
  kernel scratch s
}
)";

constexpr const char* kValid = "plan v1\narena arena0 CPU 2304\nplace t arena0 0\nplace s arena0 1024\n"
                               "place f arena0 2048\n";
constexpr const char* kShared = "plan v1\narena arena0 CPU 1280\nplace t arena0 0\nplace s arena0 0\n"
                                "place f arena0 1024\n";

using RunCommand = planck::testing::PlanckCommandTest;

TEST_F(RunCommand, AValidPlanRunsCleanAndExitsZero) {
  const CommandResult r = planck("run " + write("l.sched", kLoop) + " " + write("v.plan", kValid));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // Two passes of (step, scratch, flag check).
  EXPECT_THAT(r.out, HasSubstr("no clobber"));
  EXPECT_THAT(r.out, HasSubstr("6 calls, each loop body 2 times"));
}

TEST_F(RunCommand, AClobberIsExplainedAtItsSourceLineAndExitsOne) {
  const std::string sched = write("l.sched", kLoop);
  const CommandResult r = planck("run " + sched + " " + write("s.plan", kShared));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr(sched + ":6: clobber: t lost bytes [0, 1024) of arena0 to s, which "
                               "claimed them at entry 0 (kernel scratch, line 7, iteration 1)"));
  EXPECT_THAT(r.out, HasSubstr("and entry 0 (kernel step, line 6, iteration 2)"));
}

TEST_F(RunCommand, BytesPastTheArenaAreAFaultWithExitOne) {
  const std::string sched = write("t.sched", "schedule v1\nbuffer t CPU int8 8192\nkernel fill t\n");
  const CommandResult r =
      planck("run " + sched + " " + write("t.plan", "plan v1\narena arena0 CPU 8000\nplace t arena0 0\n"));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("no clobber")));
  EXPECT_THAT(r.out, HasSubstr(sched + ":3: outside-arena: t [0, 8192) of arena0 reaches past its 8000 "
                               "bytes at entry 0 (kernel fill, line 3)"));
  EXPECT_THAT(r.out, HasSubstr("the plan puts t past the end of arena0"));
}

TEST_F(RunCommand, MoreIterationsMakeMoreCalls) {
  const CommandResult r =
      planck("run " + write("l.sched", kLoop) + " " + write("v.plan", kValid) + " --iterations 5");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("15 calls, each loop body 5 times"));
}

TEST_F(RunCommand, FewerThanTwoIterationsAreBadInput) {
  const CommandResult r =
      planck("run " + write("l.sched", kLoop) + " " + write("s.plan", kShared) + " --iterations 1");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--iterations"));
}

TEST_F(RunCommand, ARunOverTheCallLimitIsRefused) {
  const CommandResult r =
      planck("run " + write("l.sched", kLoop) + " " + write("v.plan", kValid) + " --max-calls 5");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("would make 6 calls, over the limit of 5"));
}

TEST_F(RunCommand, APlacementOfUndeclaredStorageIsBadInputAtItsPlace) {
  const std::string plan = write("u.plan", "plan v1\narena arena0 CPU 1024\nplace zz arena0 0\n");
  const CommandResult r = planck("run " + write("l.sched", kLoop) + " " + plan);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr(plan + ":3:1: zz is placed but the schedule declares no storage"));
}

TEST_F(RunCommand, AnUnreadablePlanIsBadInput) {
  const CommandResult r = planck("run " + write("l.sched", kLoop) + " " + dir_ + "/missing.plan");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("missing.plan"));
}

}  // namespace
}  // namespace planck::oracle
