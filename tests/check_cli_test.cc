// `planck check` as a user runs it: what it lists when a plan breaks many
// rules, and how it explains an overlap of rounded blocks.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "tests/run_command.h"

namespace planck::oracle {
namespace {

using ::testing::HasSubstr;
using planck::testing::CommandResult;

using CheckCommand = planck::testing::PlanckCommandTest;

// How many times `part` occurs in `text`.
std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// 40 buffers alive together, every one at place 0: 780 overlapping pairs.
class EveryBufferAtZero : public CheckCommand {
 protected:
  void SetUp() override {
    CheckCommand::SetUp();
    std::string schedule = "schedule v1\n";
    std::string plan = "plan v1\narena arena0 CPU 256\n";
    std::string call = "kernel k";
    for (int i = 0; i < 40; ++i) {
      schedule += fmt::format("buffer b{} CPU int8 256\n", i);
      plan += fmt::format("place b{} arena0 0\n", i);
      call += fmt::format(" b{}", i);
    }
    sched_ = write("all.sched", schedule + call + "\n");
    plan_ = write("all.plan", plan);
  }

  std::string sched_;
  std::string plan_;
};

TEST_F(EveryBufferAtZero, TheQuadraticCheckerListsTheFirstHundredOverlapsThenCountsTheRest) {
  const CommandResult r = planck("check --quadratic " + sched_ + " " + plan_);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(count_of(r.out, ": overlap: "), 100u);
  EXPECT_THAT(r.out, HasSubstr(plan_ + ": and 680 more overlaps past the first 100 (--max-overlaps)\n"));
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 102);
  EXPECT_THAT(r.out, HasSubstr("invalid plan for " + sched_ + ": 780 violations"));
}

TEST_F(EveryBufferAtZero, MaxOverlapsSetsHowManyAreListed) {
  const CommandResult r = planck("check --quadratic --max-overlaps 3 " + sched_ + " " + plan_);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(count_of(r.out, ": overlap: "), 3u);
  EXPECT_THAT(r.out, HasSubstr("and 777 more overlaps past the first 3"));

  const CommandResult fast = planck("check --max-overlaps 3 " + sched_ + " " + plan_);
  EXPECT_EQ(fast.exit_code, 1) << fast.err;
  EXPECT_EQ(count_of(fast.out, ": overlap: "), 3u);
  EXPECT_THAT(fast.out, HasSubstr("more overlaps past the first 3"));
}

TEST_F(CheckCommand, RoundedBlocksThatOverlapAreSaidToAndTheirOwnBytesShown) {
  const std::string sched = write("r.sched", R"(schedule v1
buffer a CPU int8 100
buffer b CPU int8 100 phase=128
kernel k a b
)");
  const std::string plan = write("r.plan", "plan v1\narena arena0 CPU 256\nplace a arena0 0\nplace b arena0 0\n");
  const CommandResult r = planck("check " + sched + " " + plan);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out, plan + ": overlap: the rounded blocks of a [0, 256) live over entry 0 (line 4) and b "
                          "[0, 256) live over entry 0 (line 4) share bytes [0, 256) during entry 0 (line "
                          "4) in arena arena0 (plan lines 3 and 4), though their own bytes, a [0, 100) "
                          "and b [128, 228), are apart\n" +
                          plan + ": invalid plan for " + sched + ": 1 violation\n");
}

}  // namespace
}  // namespace planck::oracle
