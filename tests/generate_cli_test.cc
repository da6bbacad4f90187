// planck generate as a user runs it: every kind listed in its help, written
// to a file or standard output alike, the same for a seed, and planned and
// checked by the other commands.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/run_command.h"

namespace planck {
namespace {

using testing::CommandResult;
using testing::read_text;

// Each kind with sizes small enough to plan in milliseconds.
const std::vector<std::pair<std::string, std::string>> kKinds{
    {"transformer", "--layers 1 --sequence 32"},
    {"convnet", "--image 64"},
    {"training", "--layers 1 --sequence 16"},
    {"decoding", "--layers 1 --prompt 8 --steps 4 --chunks 2"},
    {"experts", "--layers 1 --sequence 16 --devices 2"},
    {"chain", "--buffers 50"},
    {"random", "--size 50"},
};

class Generate : public testing::PlanckCommandTest {};

TEST_F(Generate, HelpListsEveryKindOnALineOfItsOwn) {
  const CommandResult r = planck("generate --help");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const auto& [kind, flags] : kKinds) {
    EXPECT_NE(r.out.find("\n  " + kind + " "), std::string::npos) << kind << " missing from:\n" << r.out;
  }
}

TEST_F(Generate, EveryKindPlansAndChecksAndASeedGivesOneSchedule) {
  for (const auto& [kind, flags] : kKinds) {
    SCOPED_TRACE(kind);
    const std::string path = dir_ + "/" + kind + ".sched";
    const CommandResult to_file = planck("generate " + kind + " " + flags + " --seed 4 -o " + path);
    ASSERT_EQ(to_file.exit_code, 0) << to_file.err;
    EXPECT_EQ(to_file.out, "");
    const CommandResult to_stdout = planck("generate " + kind + " " + flags + " --seed 4");
    ASSERT_EQ(to_stdout.exit_code, 0) << to_stdout.err;
    EXPECT_EQ(to_stdout.out, read_text(path));
    EXPECT_NE(planck("generate " + kind + " " + flags + " --seed 5").out, to_stdout.out);
    const CommandResult plan = planck("plan --planner best " + path + " -o " + dir_ + "/p.plan");
    if (plan.exit_code == 1 && plan.err.starts_with("over-capacity: ")) {
      // A random schedule may give a device less capacity than its buffers
      // need: the refusal must be one verify accepts.
      const CommandResult verified = planck("verify --planner best " + path);
      EXPECT_EQ(verified.exit_code, 0) << verified.out << verified.err;
      continue;
    }
    ASSERT_EQ(plan.exit_code, 0) << plan.err;
    const CommandResult check = planck("check " + path + " " + dir_ + "/p.plan");
    EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  }
}

}  // namespace
}  // namespace planck
