// The planner options of planck plan and planck stats as a user runs them:
// --planner NAME, --planner-cmd CMD [--persistent] [--planner-timeout S],
// --planner-lib PATH; a planner's own failure exits 1 with its kind.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/run_command.h"
#include "tests/spec_example.h"
#include "tools/planner_options.h"

namespace planck {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using testing::CommandResult;

class PlannerOptions : public testing::PlanckCommandTest {
 protected:
  void SetUp() override {
    PlanckCommandTest::SetUp();
    sched_ = write("spec.sched", std::string(testing::kSpecExample));
    plan_ = write("spec.plan", std::string(testing::kSpecExamplePlan));
  }

  // A --planner-cmd argument, quoted for the shell that runs planck.
  static std::string cmd(const std::string& command) { return " --planner-cmd '" + command + "'"; }

  std::string sched_, plan_;
};

TEST_F(PlannerOptions, PlanPrintsThePlanOfACommand) {
  CommandResult r = planck("plan " + sched_ + cmd("cat >/dev/null; cat " + plan_));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, testing::kSpecExamplePlan);
}

TEST_F(PlannerOptions, PlanRewritesWithAPersistentCommand) {
  const std::string answer = write("answer.sh", "while read -r l; do [ \"$l\" = %% ] && cat " + plan_ +
                                                    " && echo %%; done\n");
  CommandResult r = planck("plan --rewrite " + sched_ + cmd("sh " + answer) + " --persistent");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("buffer arena0 CUDA int8 8704"));
}

TEST_F(PlannerOptions, APlannerFailureExitsOneWithItsKindAndItsStandardError) {
  CommandResult exit = planck("plan " + sched_ + cmd("echo out of ideas >&2; exit 3"));
  EXPECT_EQ(exit.exit_code, 1);
  EXPECT_THAT(exit.err, StartsWith("planner-exit: " + sched_ + ": "));
  EXPECT_THAT(exit.err, HasSubstr("status 3"));
  EXPECT_THAT(exit.err, HasSubstr("\n    out of ideas"));

  CommandResult signal = planck("plan " + sched_ + cmd("kill -9 $$"));
  EXPECT_EQ(signal.exit_code, 1);
  EXPECT_THAT(signal.err, StartsWith("planner-signal: "));

  CommandResult timeout = planck("plan " + sched_ + cmd("sleep 30") + " --planner-timeout 0.3");
  EXPECT_EQ(timeout.exit_code, 1);
  EXPECT_THAT(timeout.err, StartsWith("planner-timeout: "));
  EXPECT_THAT(timeout.err, HasSubstr("within 0.3 s"));

  CommandResult output = planck("plan " + sched_ + cmd("echo nonsense"));
  EXPECT_EQ(output.exit_code, 1);
  EXPECT_THAT(output.err, StartsWith("planner-output: "));
  EXPECT_THAT(output.err, HasSubstr("planner output:1:1"));
}

TEST_F(PlannerOptions, StatsPlansEveryScheduleWithTheCommandAndReportsEachFailure) {
  const std::string other = write("other.sched", "schedule v1\nbuffer z CPU int8 1\nkernel k z\n");
  CommandResult ok = planck("stats " + sched_ + cmd("cat " + plan_));
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_THAT(ok.out, HasSubstr("8704"));

  // The plan of spec.sched places nothing of other.sched: invalid there.
  CommandResult invalid = planck("stats " + sched_ + " " + other + cmd("cat " + plan_));
  EXPECT_EQ(invalid.exit_code, 1);
  EXPECT_THAT(invalid.out, HasSubstr("INVALID"));

  CommandResult failed = planck("stats " + sched_ + " " + other + cmd("exit 4"));
  EXPECT_EQ(failed.exit_code, 1);
  EXPECT_THAT(failed.err, HasSubstr("planner-exit: " + sched_));
  EXPECT_THAT(failed.err, HasSubstr("planner-exit: " + other));

  // Bad input outranks a planner's failure.
  CommandResult bad = planck("stats " + dir_ + "/missing.sched " + sched_ + cmd("exit 4"));
  EXPECT_EQ(bad.exit_code, 2);
}

TEST_F(PlannerOptions, ThePlannerIsNamedOneWayOnly) {
  CommandResult two = planck("plan " + sched_ + " --planner naive" + cmd("cat"));
  EXPECT_EQ(two.exit_code, 2);
  EXPECT_THAT(two.err, HasSubstr("--planner excludes --planner-cmd"));
  EXPECT_EQ(planck("plan " + sched_ + cmd("cat") + " --planner-lib x.so").exit_code, 2);
  EXPECT_EQ(planck("plan " + sched_ + " --planner tlsf --planner-lib x.so").exit_code, 2);
}

TEST_F(PlannerOptions, CommandOptionsNeedACommand) {
  CommandResult persistent = planck("plan " + sched_ + " --persistent");
  EXPECT_EQ(persistent.exit_code, 2);
  EXPECT_THAT(persistent.err, HasSubstr("--persistent requires --planner-cmd"));
  EXPECT_EQ(planck("plan " + sched_ + " --planner-timeout 3").exit_code, 2);
}

TEST_F(PlannerOptions, ABadTimeoutOrAnEmptyCommandIsRefused) {
  for (const char* timeout : {"0", "-1", "nan", "inf", "1e9", "soon"}) {
    CommandResult r = planck("plan " + sched_ + cmd("cat") + " --planner-timeout " + timeout);
    EXPECT_EQ(r.exit_code, 2) << timeout;
    EXPECT_THAT(r.err, HasSubstr("--planner-timeout")) << timeout;
  }
  CommandResult empty = planck("plan " + sched_ + " --planner-cmd ''");
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_THAT(empty.err, HasSubstr("--planner-cmd: must not be empty"));
}

TEST_F(PlannerOptions, ALibraryThatDoesNotLoadIsBadInputWithTheReason) {
  CommandResult missing = planck("plan " + sched_ + " --planner-lib " + dir_ + "/none.so");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.err, HasSubstr("--planner-lib: " + dir_ + "/none.so: cannot load the planner library"));
  CommandResult not_lib = planck("plan " + sched_ + " --planner-lib " + sched_);
  EXPECT_EQ(not_lib.exit_code, 2);
  EXPECT_THAT(not_lib.err, HasSubstr("cannot load the planner library"));
}

TEST(PlannerArguments, ReproduceTheChoiceQuotedForAShell) {
  EXPECT_EQ(cli::planner_arguments({}), "--planner tlsf");
  EXPECT_EQ(cli::planner_arguments({.name = "best"}), "--planner best");
  EXPECT_EQ(cli::planner_arguments({.command = "python3 it's.py", .persistent = true, .timeout_seconds = 2.5}),
            "--planner-cmd 'python3 it'\\''s.py' --persistent --planner-timeout 2.5");
  EXPECT_EQ(cli::planner_arguments({.command = "./plan"}), "--planner-cmd ./plan");
  EXPECT_EQ(cli::planner_arguments({.library = "/lib/my planner.so"}), "--planner-lib '/lib/my planner.so'");
}

}  // namespace
}  // namespace planck
