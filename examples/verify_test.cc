// `planck verify` on planners written elsewhere, as a user runs it: each
// right example passes a bounded run with no false alarm, each wrong one is
// caught, through the adapter it is written for, with a schedule of at most
// 12 lines that the written reproduce command fails on again. The Python
// planner reads models v2 and v3 (--features v2, --features v3): each of its
// bugs of v2 and of v3 is caught on generated schedules within a minute, with
// the failure of its kind.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "tests/run_command.h"

namespace planck {
namespace {

using ::testing::HasSubstr;

const std::string kPython = PLANCK_PYTHON;
const std::string kFirstFitPy = PLANCK_SOURCE_DIR "/examples/python/first_fit.py";

struct Example {
  std::string name;
  bool python;
  std::string planner;          // the planner options of the planck command line
  std::set<std::string> kinds;  // a wrong example's failure is one of these kinds; any if empty
};

void PrintTo(const Example& e, std::ostream* os) { *os << e.name; }

Example persistent_python(const std::string& name, const std::string& flags) {
  return {name, true,
          "--planner-cmd '" + kPython + " " + kFirstFitPy + " --persistent " + flags + "' --persistent"};
}
// Two buffers alive together share bytes: where a kernel declares one in place
// of the other, the checker says the declaration does not allow it.
const std::set<std::string> kSharedBytes{"invalid-overlap", "invalid-inplace-not-allowed", "clobber"};

// The Python planner judged on model v2, with the kinds of failure its bug gives.
Example python_v2(const std::string& name, const std::string& flags, std::set<std::string> kinds = {}) {
  Example e = persistent_python(name, flags);
  e.planner += " --features v2";
  e.kinds = std::move(kinds);
  return e;
}
// Two buffers share bytes while nothing orders the uses of one before those
// of the other, though in file order they are apart.
const std::set<std::string> kRace{"invalid-race"};

// The Python planner judged on model v3, with the kinds of failure its bug gives.
Example python_v3(const std::string& name, const std::string& flags, std::set<std::string> kinds = {}) {
  Example e = persistent_python(name, flags);
  e.planner += " --features v3";
  e.kinds = std::move(kinds);
  return e;
}
Example library(const std::string& name, const std::string& path) { return {name, false, "--planner-lib " + path}; }

class VerifyExample : public testing::PlanckCommandTest, public ::testing::WithParamInterface<Example> {
 protected:
  void SetUp() override {
    if (GetParam().python && kPython.empty()) GTEST_SKIP() << "no Python 3 found";
    PlanckCommandTest::SetUp();
  }
  nlohmann::json verify(const std::string& args, int expected_exit) {
    const testing::CommandResult r =
        planck("verify " + GetParam().planner + " --seed 5 --out " + dir_ + "/failures --json " + dir_ +
               "/result.json " + args);
    EXPECT_EQ(r.exit_code, expected_exit) << r.out << r.err;
    return nlohmann::json::parse(testing::read_text(dir_ + "/result.json"));
  }
};

using RightExample = VerifyExample;
using WrongExample = VerifyExample;

TEST_P(RightExample, PassesTheCorpusAndGeneratedSchedules) {
  const nlohmann::json result = verify("--cases 2000 --time 120", 0);
  EXPECT_EQ(result["result"], "pass");
  EXPECT_GE(result["files"].get<int>(), 20);
  EXPECT_EQ(result["generated"].get<int>(), 2000);
}

INSTANTIATE_TEST_SUITE_P(Examples, RightExample,
                         ::testing::Values(persistent_python("python", ""), python_v2("python_v2", ""),
                                           python_v2("python_v2_lanes", "--lanes"), python_v3("python_v3", ""),
                                           python_v3("python_v3_lanes", "--lanes"),
                                           library("c", PLANCK_FIRST_FIT)),
                         [](const auto& info) { return info.param.name; });

TEST_P(WrongExample, IsCaughtOnGeneratedSchedulesWithASmallSchedule) {
  // Generated schedules only: the corpus must not be what finds the bug.
  const nlohmann::json result = verify("--no-corpus --cases 5000 --time 60", 1);
  ASSERT_EQ(result["result"], "fail");
  const nlohmann::json& f = result["failure"];
  if (!GetParam().kinds.empty()) EXPECT_TRUE(GetParam().kinds.contains(f["kind"])) << f["kind"];
  const std::string sched = testing::read_text(f["schedule"]);
  const std::string body = sched.substr(sched.find("schedule v"));
  EXPECT_LE(std::count(body.begin(), body.end(), '\n'), 12) << sched;
  EXPECT_THAT(sched, HasSubstr("# reproduce: planck verify"));

  // The written schedule fails the same way when judged again.
  const testing::CommandResult again =
      planck("verify " + GetParam().planner + " --out " + dir_ + "/again " + f["schedule"].get<std::string>());
  EXPECT_EQ(again.exit_code, 1) << again.out << again.err;
  EXPECT_THAT(again.out, HasSubstr("fails with " + f["kind"].get<std::string>()));
}

INSTANTIATE_TEST_SUITE_P(
    Examples, WrongExample,
    ::testing::Values(persistent_python("python_early_free", "--bug early-free"),
                      persistent_python("python_loops", "--bug loops"),
                      persistent_python("python_phase", "--bug phase"),
                      python_v2("python_input_first_use", "--bug input-first-use", kSharedBytes),
                      python_v2("python_state_temporary", "--bug state-temporary", kSharedBytes),
                      python_v2("python_inplace_read", "--bug inplace-read", {"invalid-inplace-not-allowed"}),
                      python_v2("python_inplace_view", "--bug inplace-view", {"invalid-inplace-not-allowed"}),
                      python_v2("python_inplace_loop", "--bug inplace-loop", {"invalid-inplace-not-allowed"}),
                      python_v2("python_inplace_tail", "--bug inplace-tail", kSharedBytes),
                      python_v2("python_align256", "--bug align256",
                                {"invalid-misaligned", "invalid-arena-size", "invalid-outside-arena"}),
                      python_v2("python_capacity", "--bug capacity", {"invalid-over-capacity"}),
                      python_v2("python_one_arena", "--bug one-arena", kSharedBytes),
                      python_v3("python_streams", "--bug streams", kRace),
                      python_v3("python_wait_all", "--bug wait-all", kRace),
                      python_v3("python_record_early", "--bug record-early", kRace),
                      python_v3("python_loop_positions", "--bug loop-positions", kSharedBytes),
                      python_v3("python_inplace_streams", "--bug inplace-streams",
                                {"invalid-race", "invalid-inplace-not-allowed"}),
                      library("c_flag", PLANCK_FIRST_FIT_BUG_FLAG),
                      library("c_align128", PLANCK_FIRST_FIT_BUG_ALIGN128)),
    [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace planck

namespace planck {
namespace {

class VerifyCommand : public testing::PlanckCommandTest {};

TEST_F(VerifyCommand, MinimizeShrinksAFailingScheduleAndLeavesAPassingOneAlone) {
  const std::string wrong = "--planner-lib " + std::string(PLANCK_FIRST_FIT_BUG_FLAG);
  const std::string sched = std::string(PLANCK_SOURCE_DIR) + "/corpus/schedules/11-flag-view.sched";
  const testing::CommandResult r = planck("minimize " + sched + " " + wrong + " -o " + dir_ + "/min.sched");
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  const std::string min = testing::read_text(dir_ + "/min.sched");
  EXPECT_THAT(min, HasSubstr("fails with invalid-"));
  const std::string body = min.substr(min.find("schedule v1"));
  const std::string original = testing::read_text(sched);
  EXPECT_LT(std::count(body.begin(), body.end(), '\n'), std::count(original.begin(), original.end(), '\n'));
  // The minimized schedule still fails, and the right planner passes it.
  EXPECT_EQ(planck("verify " + wrong + " --out " + dir_ + "/f " + dir_ + "/min.sched").exit_code, 1);
  const testing::CommandResult right =
      planck("minimize " + dir_ + "/min.sched --planner-lib " + std::string(PLANCK_FIRST_FIT));
  EXPECT_EQ(right.exit_code, 0) << right.err;
  EXPECT_THAT(right.out, HasSubstr("nothing to minimize"));
  EXPECT_EQ(right.err, "");
}

TEST_F(VerifyCommand, BadUsageIsExitTwoWithTheReason) {
  EXPECT_EQ(planck("verify --planner nope").exit_code, 2);
  EXPECT_EQ(planck("verify --time -1").exit_code, 2);
  const testing::CommandResult missing = planck("verify " + dir_ + "/missing.sched");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.err, HasSubstr("missing.sched"));
  const testing::CommandResult json = planck("verify --cases 1 --json " + dir_ + "/no/such/folder/r.json");
  EXPECT_EQ(json.exit_code, 2);
  EXPECT_THAT(json.err, HasSubstr("no folder"));
  EXPECT_EQ(planck("minimize " + dir_ + "/missing.sched").exit_code, 2);
}

TEST_F(VerifyCommand, APassingRunSaysWhatItJudged) {
  const testing::CommandResult r = planck("verify --planner tlsf --cases 50 --seed 3");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("passed"));
  EXPECT_THAT(r.out, HasSubstr("50 generated, seed 3"));
}

}  // namespace
}  // namespace planck
