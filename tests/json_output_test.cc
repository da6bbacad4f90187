// What every command prints: the text for people on standard output, the
// same result as one JSON object with --json, and nothing on standard error
// when all is well.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "tests/run_command.h"

namespace planck {
namespace {

using testing::CommandResult;
using ::testing::HasSubstr;
using nlohmann::json;

// a (100 bytes) and b (300) alive together: 1 + 2 blocks at the peak.
constexpr const char* kSched = "schedule v1\nbuffer a CPU int8 100\nbuffer b CPU int8 300\nkernel k0 a\nkernel k1 b a\n";
// b above a: optimal. The same with room to spare: valid, not optimal.
constexpr const char* kPlan = "plan v1\narena arena0 CPU 768\nplace a arena0 0\nplace b arena0 256\n";
constexpr const char* kLoosePlan = "plan v1\narena arena0 CPU 1280\nplace a arena0 0\nplace b arena0 768\n";
constexpr const char* kOverlapPlan = "plan v1\narena arena0 CPU 768\nplace a arena0 0\nplace b arena0 0\n";

class JsonOutput : public testing::PlanckCommandTest {
 protected:
  // Runs planck with --json -: standard output must be one JSON object.
  json run_json(const std::string& args, int exit_code = 0) {
    const CommandResult r = planck(args + " --json -");
    EXPECT_EQ(r.exit_code, exit_code) << r.out << r.err;
    EXPECT_EQ(r.err, "");
    return json::parse(r.out);
  }
};

TEST_F(JsonOutput, CheckShowsTheArenaAgainstTheLowerBound) {
  const std::string s = write("s.sched", kSched);
  const std::string p = write("loose.plan", kLoosePlan);
  const CommandResult text = planck("check " + s + " " + p);
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out, p + ": valid plan for " + s + ": 2 buffers in 1 arena\n" + p +
                          ": device CPU: arena 1280, lower bound 768 (ratio 1.667)\n");
  const json j = run_json("check " + s + " " + p);
  EXPECT_EQ(j["valid"], true);
  EXPECT_EQ(j["violation_count"], 0);
  EXPECT_EQ(j["devices"], json::parse(R"([{"device":"CPU","buffers":2,"arena":1280,"lower_bound":768}])"));
}

TEST_F(JsonOutput, CheckWithOptimumRunsTheOracle) {
  const std::string s = write("s.sched", kSched);
  const std::string p = write("loose.plan", kLoosePlan);
  const CommandResult text = planck("check " + s + " " + p + " --optimum --timeout 5");
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("device CPU: arena 1280, lower bound 768 (ratio 1.667), optimum 768 (optimal)\n"));
  const json j = run_json("check " + s + " " + p + " --optimum --timeout 5");
  EXPECT_EQ(j["devices"][0]["optimum"], json::parse(R"({"status":"optimal","lower_bound":768,"upper_bound":768})"));
}

TEST_F(JsonOutput, AnInvalidPlanListsItsViolationsOnStandardOutput) {
  const std::string s = write("s.sched", kSched);
  const std::string p = write("bad.plan", kOverlapPlan);
  const CommandResult text = planck("check " + s + " " + p);
  EXPECT_EQ(text.exit_code, 1);
  EXPECT_EQ(text.err, "");
  EXPECT_THAT(text.out, HasSubstr(p + ": invalid plan for " + s + ": 1 violation\n"));
  const json j = run_json("check " + s + " " + p, 1);
  EXPECT_EQ(j["valid"], false);
  ASSERT_EQ(j["violations"].size(), 1u);
  EXPECT_EQ(j["violations"][0]["rule"], "overlap");
}

TEST_F(JsonOutput, JsonToAFileKeepsTheTextOnStandardOutput) {
  const std::string s = write("s.sched", kSched);
  const std::string p = write("p.plan", kPlan);
  const CommandResult r = planck("check " + s + " " + p + " --json " + dir_ + "/r.json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("valid plan"));
  EXPECT_EQ(json::parse(testing::read_text(dir_ + "/r.json"))["valid"], true);
}

TEST_F(JsonOutput, PlanDescribesItsArenas) {
  const std::string s = write("s.sched", kSched);
  const json j = run_json("plan " + s + " -o " + dir_ + "/out.plan");
  EXPECT_EQ(j["placements"], 2);
  EXPECT_EQ(j["arenas"], json::parse(R"([{"name":"arena0","device":"CPU","size":768}])"));
  EXPECT_EQ(testing::read_text(dir_ + "/out.plan"), kPlan);
}

TEST_F(JsonOutput, RunNamesTheFault) {
  const std::string s = write("s.sched", kSched);
  EXPECT_EQ(run_json("run " + s + " " + write("p.plan", kPlan))["result"], "ok");
  const json bad = run_json("run " + s + " " + write("bad.plan", kOverlapPlan), 1);
  EXPECT_EQ(bad["result"], "clobber");
  EXPECT_EQ(bad["fault"]["buffer"], "a");
  EXPECT_EQ(bad["fault"]["taker"], "b");
}

TEST_F(JsonOutput, StatsGivesARowPerDevice) {
  const std::string s = write("s.sched", kSched);
  const json j = run_json("stats " + s + " --optimum --timeout 5");
  ASSERT_EQ(j["files"].size(), 1u);
  const json& d = j["files"][0]["devices"][0];
  EXPECT_EQ(d["lower_bound"], 768);
  EXPECT_EQ(d["arena"], 768);
  EXPECT_EQ(d["optimum"]["status"], "optimal");
  EXPECT_EQ(j["errors"], json::array());
}

TEST_F(JsonOutput, OracleGivesItsBoundsPerDevice) {
  const json j = run_json("oracle " + write("s.sched", kSched));
  ASSERT_EQ(j["devices"].size(), 1u);
  EXPECT_EQ(j["devices"][0]["status"], "optimal");
  EXPECT_EQ(j["devices"][0]["lower_bound"], 768);
  EXPECT_EQ(j["devices"][0]["upper_bound"], 768);
}

// Bounds past 2^62 bytes, which no plan, schedule or CSV holds, are said so,
// never as a product of units nor a wrapped figure.
TEST_F(JsonOutput, OracleBoundsPastThePlanLimitAreSaidSo) {
  std::string sched = "schedule v1\n";
  for (int k = 0; k < 8; ++k) sched += "buffer b" + std::to_string(k) + " CPU int8 4611686018427387000\n";
  sched += "kernel k b0 b1 b2 b3 b4 b5 b6 b7\n";
  const std::string s = write("huge.sched", sched);
  const CommandResult text = planck("oracle " + s + " --timeout 1");
  EXPECT_THAT(text.out, HasSubstr("lower bound: more than 4611686018427387904 (2^62)"));
  EXPECT_THAT(text.out, ::testing::Not(HasSubstr(" x 256")));
  const CommandResult with_plan = planck("oracle " + s + " --timeout 1 -o " + dir_ + "/huge.plan");
  EXPECT_EQ(with_plan.exit_code, 2);
  EXPECT_THAT(with_plan.err, HasSubstr("no plan written"));
}

TEST_F(JsonOutput, ProgressIsQuietWhenStandardErrorIsNoTerminal) {
  const std::string s = write("s.sched", kSched);
  const CommandResult r = planck("stats " + s + " " + s);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

}  // namespace
}  // namespace planck
