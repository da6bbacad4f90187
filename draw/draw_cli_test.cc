// planck draw, check --picture and the pictures verify and minimize write,
// as a user runs them: outputs, exit codes and every kind of bad input.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/run_command.h"

namespace planck::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

namespace fs = std::filesystem;

const std::string kSched = std::string(PLANCK_SOURCE_DIR) + "/corpus/schedules/08-range.sched";
const std::string kPlan = std::string(PLANCK_SOURCE_DIR) + "/corpus/schedules/08-range.plan";
const std::string kBad = std::string(PLANCK_SOURCE_DIR) + "/draw/testdata/08-range-loops.plan";

class DrawCommand : public PlanckCommandTest {};

TEST_F(DrawCommand, SvgOnStandardOutputWhenItIsNoTerminal) {
  const CommandResult r = planck("draw " + kSched + " " + kPlan);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, StartsWith("<?xml"));
  EXPECT_THAT(r.out, HasSubstr("</svg>\n"));
}

TEST_F(DrawCommand, AnInvalidPlanIsDrawnAndExits1) {
  const CommandResult text = planck("draw --text " + kSched + " " + kBad);
  EXPECT_EQ(text.exit_code, 1) << text.err;
  EXPECT_THAT(text.out, HasSubstr("! A h: 2048 bytes"));
  EXPECT_THAT(text.out, HasSubstr("#"));
  const std::string svg = dir_ + "/bad.svg";
  const CommandResult written = planck("draw " + kSched + " " + kBad + " -o " + svg);
  EXPECT_EQ(written.exit_code, 1) << written.err;
  EXPECT_THAT(written.out, HasSubstr("drawn to " + svg + " (invalid plan: 2 violations)"));
  EXPECT_THAT(read_text(svg), HasSubstr("class=\"buffer violating\""));
}

TEST_F(DrawCommand, WidthAndJson) {
  const CommandResult narrow = planck("draw --text --width 40 " + kSched + " " + kPlan);
  EXPECT_EQ(narrow.exit_code, 0) << narrow.err;
  const CommandResult json = planck("draw --json - -o " + dir_ + "/x.svg " + kSched + " " + kBad);
  EXPECT_EQ(json.exit_code, 1) << json.err;
  EXPECT_THAT(json.out, HasSubstr("\"command\": \"draw\""));
  EXPECT_THAT(json.out, HasSubstr("\"violating\": [\n        \"h\""));
  EXPECT_TRUE(fs::exists(dir_ + "/x.svg"));
}

TEST_F(DrawCommand, BadInputExits2WithItsPlace) {
  const std::string bad_plan = write("bad.plan", "plan v1\narena a CUDA x\n");
  const struct {
    std::string args, message;
  } cases[] = {
      {"draw " + dir_ + "/none.sched " + kPlan, "none.sched"},
      {"draw " + kSched + " " + bad_plan, "bad.plan:2:"},
      {"draw --width 10 " + kSched + " " + kPlan, "--width"},
      {"draw --json - " + kSched + " " + kPlan, "--json - needs -o FILE for the picture"},
      {"draw " + kSched + " " + kPlan + " -o " + dir_ + "/no/such/x.svg", "no folder"},
      {"draw " + kSched, "plan"},
  };
  for (const auto& c : cases) {
    const CommandResult r = planck(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args;
    EXPECT_THAT(r.err, HasSubstr(c.message)) << c.args;
  }
  EXPECT_FALSE(fs::exists(dir_ + "/x.svg"));
}

TEST_F(DrawCommand, CheckPictureDrawsTheArenasWithViolations) {
  const CommandResult bad = planck("check --picture " + kSched + " " + kBad);
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_THAT(bad.out, HasSubstr("! C act: 2048 bytes"));
  EXPECT_THAT(bad.out, HasSubstr("invalid plan for"));
  const CommandResult good = planck("check --picture " + kSched + " " + kPlan);
  EXPECT_EQ(good.exit_code, 0);
  EXPECT_THAT(good.out, Not(HasSubstr("arena arena0 on")));
}

// verify and minimize write the failing plan and its picture beside the
// minimized schedule.
TEST_F(DrawCommand, VerifyAndMinimizeWriteThePicture) {
  const std::string planner =
      "--planner-cmd 'python3 " + std::string(PLANCK_SOURCE_DIR) + "/examples/python/first_fit.py --persistent --bug loops' --persistent";
  const CommandResult v = planck("verify " + planner + " " + kSched + " --out " + dir_ + "/failures");
  EXPECT_EQ(v.exit_code, 1) << v.err;
  const std::string svg = dir_ + "/failures/invalid-overlap-08-range.svg";
  EXPECT_THAT(v.out, HasSubstr(svg));
  EXPECT_THAT(read_text(svg), HasSubstr("class=\"buffer violating\""));

  const CommandResult m = planck("minimize " + kSched + " " + planner + " -o " + dir_ + "/small.sched");
  EXPECT_EQ(m.exit_code, 1) << m.err;
  EXPECT_THAT(m.out, HasSubstr(dir_ + "/small.plan, " + dir_ + "/small.svg"));
  EXPECT_THAT(read_text(dir_ + "/small.svg"), HasSubstr("class=\"buffer violating\""));
}

// gate draws each plan whose arena grew against the baseline, and its
// table links the picture.
TEST_F(DrawCommand, GateDrawsTheGrownArenas) {
  const std::string baseline =
      write("baseline.json", R"({"planner": "--planner tlsf", "instances": {"corpus/schedules/01-chain.sched": 256}})");
  const CommandResult r =
      planck("gate --planner tlsf --no-shared --cases 1 --baseline " + baseline + " --pictures " + dir_ + "/pictures");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const std::string svg = dir_ + "/pictures/corpus-schedules-01-chain.svg";
  EXPECT_THAT(r.out, HasSubstr("| REGRESSED ([picture](" + svg + ")) |"));
  EXPECT_THAT(read_text(svg), HasSubstr("</svg>"));
  EXPECT_EQ(fs::directory_iterator(dir_ + "/pictures")->path(), svg) << "one picture, of the one grown arena";
}

}  // namespace
}  // namespace planck::testing
