// The oracle's --timeout bounds the whole command, on a schedule far too
// large to settle in the time: every stage heeds it, and the answer is
// `unknown` with the bounds found so far.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "gen/chain.h"
#include "gen/choices.h"
#include "model/schedule_printer.h"
#include "tests/run_command.h"

namespace planck {
namespace {

using testing::CommandResult;

class OracleDeadline : public testing::PlanckCommandTest {
 protected:
  // A chain of 50,000 buffers on one device: one part, the greedy bound
  // alone quadratic in it.
  std::string large_schedule() {
    gen::SeededChoices choices(5);
    return write("chain.sched", print_schedule(gen::generate_chain_schedule(choices, {.buffers = 50000})));
  }

  nlohmann::json oracle(const std::string& file, const std::string& timeout) {
    const CommandResult r = planck("oracle " + file + " --timeout " + timeout + " --json -");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out);
  }
};

TEST_F(OracleDeadline, NoTimeLeftGivesThePeakAndTheStackedBuffers) {
  const nlohmann::json r = oracle(large_schedule(), "0");
  ASSERT_EQ(r["devices"].size(), 1u);
  const nlohmann::json& d = r["devices"][0];
  EXPECT_EQ(d["status"], "unknown");
  EXPECT_EQ(d["lower_bound_by"], "peak");
  EXPECT_EQ(d["lower_bound"], d["peak"]);
  // No planner ran and greedy by size had no time: each buffer its own bytes.
  EXPECT_EQ(d["upper_bound_by"], "stacked");
  EXPECT_GT(d["upper_bound"].get<Bytes>(), d["lower_bound"].get<Bytes>());
}

TEST_F(OracleDeadline, ATinyTimeoutAnswersUnknownWithValidBounds) {
  const std::string file = large_schedule();
  const std::string plan = dir_ + "/best.plan";
  const CommandResult r = planck("oracle " + file + " --timeout 0.05 --json - -o " + plan);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json d = nlohmann::json::parse(r.out)["devices"][0];
  EXPECT_EQ(d["status"], "unknown");
  EXPECT_LT(d["lower_bound"].get<Bytes>(), d["upper_bound"].get<Bytes>());
  // The placement behind the upper bound is a valid plan of that arena.
  const CommandResult check = planck("check " + file + " " + plan + " --json -");
  ASSERT_EQ(check.exit_code, 0) << check.out << check.err;
  const nlohmann::json c = nlohmann::json::parse(check.out);
  EXPECT_EQ(c["devices"][0]["arena"], d["upper_bound"]);
  EXPECT_EQ(c["devices"][0]["lower_bound"], d["lower_bound"]);
}

// check and stats ask the oracle within their --timeout too: with none left,
// the answer is `unknown`, the plan's own arena the upper bound.
TEST_F(OracleDeadline, CheckAndStatsWithTheOptimumAndNoTimeLeftAnswerUnknown) {
  const std::string file = large_schedule();
  const std::string plan = dir_ + "/tlsf.plan";
  ASSERT_EQ(planck("plan " + file + " -o " + plan).exit_code, 0);
  const CommandResult check = planck("check " + file + " " + plan + " --optimum --timeout 0 --json -");
  ASSERT_EQ(check.exit_code, 0) << check.err;
  const nlohmann::json c = nlohmann::json::parse(check.out)["devices"][0];
  EXPECT_EQ(c["optimum"]["status"], "unknown");
  EXPECT_EQ(c["optimum"]["upper_bound"], c["arena"]);
  EXPECT_LT(c["optimum"]["lower_bound"].get<Bytes>(), c["optimum"]["upper_bound"].get<Bytes>());

  const CommandResult stats = planck("stats " + file + " --optimum --timeout 0 --json -");
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  const nlohmann::json d = nlohmann::json::parse(stats.out)["files"][0]["devices"][0];
  EXPECT_EQ(d["optimum"]["status"], "unknown");
  EXPECT_EQ(d["optimum"]["upper_bound"], c["arena"]);
}

}  // namespace
}  // namespace planck
