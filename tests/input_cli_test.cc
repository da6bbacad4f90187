// What every command reads, as a user runs it: interval problems as CSV
// wherever a schedule goes, standard input for `-`, and files that start
// with a byte order mark.

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "tests/run_command.h"

namespace planck {
namespace {

using testing::CommandResult;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;
using testing::read_text;

// a lives over entries 0..1, b over 1..2, c over 2..3. With the reference
// planner's 256-byte blocks, a takes [0, 256) and b [256, 768); a is free
// from entry 2, where c takes its block. The arena ends at b's last byte,
// 556, rounded up.
constexpr const char* kCsv = "id,lower,upper,size\na,0,2,100\nb,1,3,300\nc,2,4,50\n";
constexpr const char* kCsvPlan =
    "plan v1\narena arena0 CSV 768\nplace a arena0 0\nplace b arena0 256\nplace c arena0 0\n";

constexpr const char* kSched =
    "schedule v1\nbuffer a CPU int8 100\nbuffer b CPU int8 300\nkernel k0 a\nkernel k1 b a\n";
constexpr const char* kSchedPlan = "plan v1\narena arena0 CPU 768\nplace a arena0 0\nplace b arena0 256\n";

class Inputs : public testing::PlanckCommandTest {
 protected:
  // `check` and `run` both find a plan right for a schedule or CSV.
  void expect_valid(const std::string& input, const std::string& plan, int buffers) {
    CommandResult check = planck("check " + input + " " + plan);
    EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
    EXPECT_THAT(check.out, StartsWith(fmt::format("{}: valid plan for {}: {} buffers in 1 arena\n", plan, input, buffers)));
    CommandResult run = planck("run " + input + " " + plan);
    EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  }

  std::string csv() { return write("x.csv", kCsv); }
};

TEST_F(Inputs, PlanReadsAnIntervalProblemAsTheScheduleItStandsFor) {
  const std::string file = csv();
  CommandResult r = planck("plan " + file);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, kCsvPlan);
}

TEST_F(Inputs, RewriteShowsOneKernelPerTimeStep) {
  const std::string file = csv();
  CommandResult r = planck("plan --rewrite " + file);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "schedule v1\n"
            "buffer arena0 CSV int8 768\n"
            "kernel t0 bitcast(shrink(arena0, 0, 100), int8)\n"
            "kernel t1 bitcast(shrink(arena0, 256, 300), int8) bitcast(shrink(arena0, 0, 100), int8)\n"
            "kernel t2 bitcast(shrink(arena0, 0, 50), int8) bitcast(shrink(arena0, 256, 300), int8)\n"
            "kernel t3 bitcast(shrink(arena0, 0, 50), int8)\n");
}

TEST_F(Inputs, EveryPlannersPlanOfACsvPassesCheckAndRun) {
  const std::string file = csv();
  for (const std::string planner : {"tlsf", "greedy", "bysize", "naive", "best"}) {
    SCOPED_TRACE(planner);
    const std::string plan = dir_ + "/" + planner + ".plan";
    ASSERT_EQ(planck("plan " + file + " --planner " + planner + " -o " + plan).exit_code, 0);
    expect_valid(file, plan, 3);
  }
}

TEST_F(Inputs, TheOraclesPlanOfACsvAtAlignmentOnePassesCheckAndRun) {
  const std::string file = csv();
  const std::string plan = dir_ + "/o.plan";
  CommandResult oracle = planck("oracle " + file + " -o " + plan);
  ASSERT_EQ(oracle.exit_code, 0) << oracle.err;
  // b and either of a, c: 400 bytes, places that are no multiples of 256.
  EXPECT_THAT(read_text(plan), HasSubstr("arena arena0 CSV 400\n"));
  expect_valid(file, plan, 3);
}

TEST_F(Inputs, CheckJudgesACsvsPlanByTheBytesOfItsRows) {
  const std::string file = csv();
  // Alive together at entry 1, a [250, 350) and b [0, 300) share bytes
  // [250, 300); c [360, 410) passes the 400 bytes of the arena. Apart, a and
  // c may share bytes.
  const std::string plan = write("bad.plan",
                                 "plan v1\narena arena0 CSV 400\nplace a arena0 250\nplace b arena0 0\n"
                                 "place c arena0 360\n");
  CommandResult r = planck("check " + file + " " + plan);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out,
            plan +
                ": outside-arena: c [92160, 104960) placed at plan line 5 ends past the 102400 bytes of "
                "arena arena0\n" +
                plan +
                ": overlap: a [64000, 89600) live over entries 0..1 and b [0, 76800) live over entries "
                "1..2 share bytes [64000, 76800) during entry 1 in arena arena0 (plan lines 3 and 4)\n" +
                plan + ": " + file +
                " is judged at alignment 1, each of its bytes a block of 256: the byte "
                "figures above are 256 times its own\n" +
                plan + ": invalid plan for " + file + ": 2 violations\n");
  EXPECT_EQ(r.err, "");
}

TEST_F(Inputs, ACsvPlanThatTouchesButDoesNotOverlapIsValid) {
  const std::string file = csv();
  // b [0, 300) and a [300, 400) end to end; c reuses a's bytes after it.
  const std::string plan = write("tight.plan",
                                 "plan v1\narena arena0 CSV 400\nplace a arena0 300\nplace b arena0 0\n"
                                 "place c arena0 350\n");
  CommandResult r = planck("check " + file + " " + plan);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string one_short = write("short.plan",
                                      "plan v1\narena arena0 CSV 399\nplace a arena0 300\nplace b arena0 0\n"
                                      "place c arena0 350\n");
  EXPECT_EQ(planck("check " + file + " " + one_short).exit_code, 1);
}

TEST_F(Inputs, CheckNotesNoScaleWhenNoViolationHasByteFigures) {
  const std::string file = csv();
  const std::string plan = write("cpu.plan", "plan v1\narena arena0 CPU 768\nplace a arena0 0\n");
  CommandResult r = planck("check " + file + " " + plan);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("wrong-device: a on device CSV"));
  EXPECT_THAT(r.out, Not(HasSubstr("times its own")));
}

TEST_F(Inputs, StatsReadsACsv) {
  const std::string file = csv();
  CommandResult r = planck("stats " + file);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("CSV           3          768    768  1.000  ok"));
}

TEST_F(Inputs, AFileStartingWithIdIsACsvWhateverItsName) {
  CommandResult r = planck("plan " + write("problem.txt", kCsv));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, kCsvPlan);
}

TEST_F(Inputs, BadCsvInputIsPlacedAndExitsTwo) {
  CommandResult header = planck("plan " + write("bad.csv", "id,lower,upper\na,0,1\n"));
  EXPECT_EQ(header.exit_code, 2);
  EXPECT_EQ(header.err,
            dir_ + "/bad.csv:1:1: expected the header `id,lower,upper,size`, found `id,lower,upper`\n");
  CommandResult id = planck("check " + write("id.csv", "id,lower,upper,size\na,0,1,8\nb c,0,1,8\n") + " " +
                            write("p.plan", "plan v1\n"));
  EXPECT_EQ(id.exit_code, 2);
  EXPECT_EQ(id.err,
            dir_ + "/id.csv:3:1: id `b c` cannot name a buffer in a plan file (it has a blank or `#`)\n");
}

TEST_F(Inputs, ADashIsStandardInputForTheScheduleOrCsv) {
  const std::string file = csv();
  const std::string sched = write("s.sched", kSched);
  CommandResult plan = planck("plan - < " + sched);
  EXPECT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_EQ(plan.out, kSchedPlan);
  CommandResult planned = planck("plan - < " + file);
  EXPECT_EQ(planned.exit_code, 0) << planned.err;
  EXPECT_EQ(planned.out, kCsvPlan);
  CommandResult check = planck("check - " + write("s.plan", kSchedPlan) + " < " + sched);
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  CommandResult stats = planck("stats - < " + sched);
  EXPECT_EQ(stats.exit_code, 0) << stats.err;
}

TEST_F(Inputs, ADashIsStandardInputForThePlan) {
  const std::string sched = write("s.sched", kSched);
  CommandResult check = planck("check " + sched + " - < " + write("s.plan", kSchedPlan));
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  CommandResult run = planck("run " + sched + " - < " + write("s.plan", kSchedPlan));
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
}

TEST_F(Inputs, TheOracleReadsACsvFromStandardInputAsACsv) {
  const std::string file = csv();
  CommandResult r = planck("oracle - < " + file);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("device CSV: 3 buffers, 1 part\n  peak: 400\n"));
}

TEST_F(Inputs, ErrorsInStandardInputNameIt) {
  CommandResult r = planck("plan - < " + write("bad.sched", "schedule v1\nkernel k a\n"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "<stdin>:2:10: undeclared name `a`\n");
}

TEST_F(Inputs, AByteOrderMarkStartsAnyInput) {
  const std::string bom = "\xef\xbb\xbf";
  CommandResult sched = planck("plan " + write("bom.sched", bom + kSched));
  EXPECT_EQ(sched.exit_code, 0) << sched.err;
  EXPECT_EQ(sched.out, kSchedPlan);
  CommandResult interval = planck("plan " + write("bom.csv", bom + kCsv));
  EXPECT_EQ(interval.exit_code, 0) << interval.err;
  EXPECT_EQ(interval.out, kCsvPlan);
  CommandResult check = planck("check " + dir_ + "/bom.sched " + write("bom.plan", bom + kSchedPlan));
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
}

TEST_F(Inputs, UnreadableInputsSayWhy) {
  CommandResult dir = planck("plan " + dir_);
  EXPECT_EQ(dir.exit_code, 2);
  EXPECT_EQ(dir.err, dir_ + ": cannot read: Is a directory\n");
  CommandResult missing = planck("check " + dir_ + "/missing.csv " + write("p.plan", "plan v1\n"));
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.err, dir_ + "/missing.csv: cannot read: No such file or directory\n");
}

}  // namespace
}  // namespace planck
