// The planck command as a user runs it: outputs, files and exit codes
// (0 success, 1 a wrong plan, 2 bad input).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "harness/planners.h"
#include "planner/planner.h"
#include "tests/run_command.h"

namespace planck {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using testing::CommandResult;
using testing::read_text;
using testing::write_text;

constexpr const char* kReuse = R"(schedule v1
param x CPU float32 1024
buffer a CPU float32 1024
buffer b CPU float32 1024
buffer c CPU float32 1024
kernel k0 a x
kernel k1 b a
kernel k2 c b
)";

// a at 0 and b at 1024; a is free from entry 2, where c takes its block.
constexpr const char* kReusePlan = "plan v1\narena arena0 CPU 2048\nplace a arena0 0\nplace b arena0 1024\nplace c arena0 0\n";

class Cli : public testing::PlanckCommandTest {
 protected:
  void SetUp() override {
    PlanckCommandTest::SetUp();
    sched_ = write("reuse.sched", kReuse);
  }

  std::string sched_;
};

TEST_F(Cli, PlanPrintsThePlanFile) {
  CommandResult r = planck("plan " + sched_);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, kReusePlan);
}

TEST_F(Cli, PlanTimingsGoToStandardErrorAndLeaveThePlanAsItIs) {
  CommandResult r = planck("plan --timings " + sched_);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, kReusePlan);
  EXPECT_THAT(r.err, ::testing::MatchesRegex(
                         "timings: read [0-9]+\\.[0-9]{3} s, parse [0-9]+\\.[0-9]{3} s, "
                         "plan [0-9]+\\.[0-9]{3} s, write [0-9]+\\.[0-9]{3} s\n"));
}

TEST_F(Cli, PlanTimingsLeaveTheRewriteAsItIs) {
  const CommandResult plain = planck("plan --rewrite " + sched_);
  const CommandResult timed = planck("plan --rewrite --timings " + sched_);
  EXPECT_EQ(timed.exit_code, 0) << timed.err;
  EXPECT_EQ(timed.out, plain.out);
  EXPECT_THAT(timed.err, StartsWith("timings: read "));
  EXPECT_EQ(plain.err, "");
}

TEST_F(Cli, PlanWritesThePlanFileWithOutput) {
  CommandResult r = planck("plan " + sched_ + " -o " + dir_ + "/reuse.plan");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(read_text(dir_ + "/reuse.plan"), kReusePlan);
}

TEST_F(Cli, RewriteReplacesEachPlannedBufferByAViewOfItsArena) {
  CommandResult r = planck("plan --rewrite " + sched_);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, R"(schedule v1
param x CPU float32 1024
buffer arena0 CPU int8 2048
kernel k0 bitcast(shrink(arena0, 0, 1024), float32) x
kernel k1 bitcast(shrink(arena0, 1024, 1024), float32) bitcast(shrink(arena0, 0, 1024), float32)
kernel k2 bitcast(shrink(arena0, 0, 1024), float32) bitcast(shrink(arena0, 1024, 1024), float32)
)");
}

TEST_F(Cli, NoMemoryPlannerLeavesTheScheduleUnchanged) {
  CommandResult r = planck("plan --rewrite " + sched_, "NO_MEMORY_PLANNER=1");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, kReuse);
  CommandResult p = planck("plan " + sched_, "NO_MEMORY_PLANNER=1");
  EXPECT_EQ(p.out, "plan v1\n");
}

// kReuse with comments, a blank line, tabs and uneven spacing, which a
// canonical print drops.
constexpr const char* kCommented =
    "schedule v1\n"
    "# three buffers in a chain; c may take a's bytes\n"
    "param  x CPU\tfloat32 1024   # the input\n"
    "\n"
    "buffer a CPU float32   1024\n"
    "buffer   b CPU float32 1024\n"
    "buffer c  CPU float32 1024 # last\n"
    "kernel  k0 a  x\n"
    "kernel k1 b\ta\n"
    "kernel k2 c b\n";

TEST_F(Cli, NoMemoryPlannerRewritePrintsTheInputByteForByte) {
  const std::string path = write("commented.sched", kCommented);
  CommandResult r = planck("plan --rewrite " + path, "NO_MEMORY_PLANNER=1");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, kCommented);
  CommandResult o = planck("plan --rewrite " + path + " -o " + dir_ + "/out.sched", "NO_MEMORY_PLANNER=1");
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(read_text(dir_ + "/out.sched"), kCommented);
}

TEST_F(Cli, RewriteOfAScheduleWithNothingPlannedPrintsTheInputByteForByte) {
  const std::string text =
      "schedule v1\n# only a param, a held buffer and one on a disk: nothing to plan\n"
      "param  x CPU float32 1024\nbuffer   w  CPU float32 1024 held   # a weight\n"
      "buffer d DISK:/d.bin  int8 64\n\ncopy d  x\nkernel   k x    w\n";
  const std::string path = write("held.sched", text);
  for (const std::string& name : harness::offered_planner_names()) {
    CommandResult r = planck("plan --rewrite --planner " + name + " " + path);
    EXPECT_EQ(r.exit_code, 0) << name << ": " << r.err;
    EXPECT_EQ(r.out, text) << name;
  }
}

TEST_F(Cli, PlannersListsEachPlannerWithItsDescriptionOneALine) {
  CommandResult r = planck("planners");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  std::vector<std::string> names;
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string name, description;
    words >> name;
    std::getline(words >> std::ws, description);
    EXPECT_FALSE(description.empty()) << line;
    names.push_back(name);
    // Each one listed is a planner plan takes.
    EXPECT_EQ(planck("plan --planner " + name + " " + sched_).exit_code, 0) << name;
  }
  EXPECT_EQ(names, harness::offered_planner_names());
}

TEST_F(Cli, PlannersJsonListsNameDescriptionAndInBest) {
  CommandResult r = planck("planners --json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json all = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(all.is_object()) << r.out;
  EXPECT_EQ(all.value("command", ""), "planners");
  const nlohmann::json& j = all["planners"];
  ASSERT_TRUE(j.is_array()) << r.out;
  ASSERT_EQ(j.size(), harness::offered_planners().size());
  std::vector<std::string> in_best;
  for (std::size_t i = 0; i < j.size(); ++i) {
    ASSERT_TRUE(j[i].is_object()) << j[i];
    EXPECT_EQ(j[i].size(), 3u) << j[i];
    EXPECT_EQ(j[i].value("name", ""), harness::offered_planners()[i].name);
    EXPECT_EQ(j[i].value("description", ""), harness::offered_planners()[i].description);
    ASSERT_TRUE(j[i].contains("in_best") && j[i]["in_best"].is_boolean()) << j[i];
    if (j[i]["in_best"].get<bool>()) in_best.push_back(j[i]["name"].get<std::string>());
  }
  EXPECT_EQ(in_best, best_candidates());
  // --json - is the same; --json FILE keeps the list on standard output.
  EXPECT_EQ(nlohmann::json::parse(planck("planners --json -").out)["planners"], j);
  const CommandResult to_file = planck("planners --json " + dir_ + "/p.json");
  EXPECT_EQ(to_file.out, planck("planners").out);
  EXPECT_EQ(nlohmann::json::parse(read_text(dir_ + "/p.json"))["planners"], j);
}

TEST_F(Cli, DebugPrintsTheMemorySavedFirst) {
  CommandResult r = planck("plan " + sched_, "DEBUG=1");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, StartsWith("memory reduced from 0.00 MB -> 0.00 MB, 3 -> 1 bufs\nplan v1\n"));
  EXPECT_EQ(planck("plan " + sched_, "DEBUG=yes").exit_code, 2);
}

TEST_F(Cli, CheckAcceptsAValidPlan) {
  write_text(dir_ + "/reuse.plan", kReusePlan);
  CommandResult r = planck("check " + sched_ + " " + dir_ + "/reuse.plan");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("valid plan"));
}

TEST_F(Cli, CheckRejectsOverlappingBuffersWithExitOneAndSaysWhy) {
  // b placed on a's bytes while both are alive at entry 1.
  write_text(dir_ + "/bad.plan",
             "plan v1\narena arena0 CPU 2048\nplace a arena0 0\nplace b arena0 0\nplace c arena0 1024\n");
  CommandResult r = planck("check " + sched_ + " " + dir_ + "/bad.plan");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("overlap"));
  EXPECT_THAT(r.out, HasSubstr("a"));
  EXPECT_THAT(r.out, HasSubstr("[0, 1024)"));
  EXPECT_THAT(r.out, HasSubstr("invalid plan"));
}

TEST_F(Cli, BadInputGivesExitTwoAndItsPlace) {
  write_text(dir_ + "/broken.sched", "schedule v1\nbuffer a CPU float32 1023\n");
  CommandResult r = planck("plan " + dir_ + "/broken.sched");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("broken.sched:2:"));

  write_text(dir_ + "/broken.plan", "plan v1\nplace a arena0\n");
  CommandResult c = planck("check " + sched_ + " " + dir_ + "/broken.plan");
  EXPECT_EQ(c.exit_code, 2);
  EXPECT_THAT(c.err, HasSubstr("broken.plan:2:"));
}

TEST_F(Cli, AMissingFileOrABadFlagIsBadInput) {
  CommandResult r = planck("plan " + dir_ + "/nope.sched");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("nope.sched"));
  EXPECT_EQ(planck("plan --no-such-flag " + sched_).exit_code, 2);
  EXPECT_EQ(planck("plan --planner nonesuch " + sched_).exit_code, 2);
  EXPECT_EQ(planck("").exit_code, 2);
}

TEST_F(Cli, StatsPrintsBuffersLowerBoundArenaAndRatioPerDevice) {
  CommandResult r = planck("stats " + sched_);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("lower bound"));
  // Three buffers of 1024 bytes, two alive at once: lower bound 2048, arena 2048.
  EXPECT_THAT(r.out, ::testing::ContainsRegex("CPU +3 +2048 +2048 +1\\.000 +ok"));
}

}  // namespace
}  // namespace planck
