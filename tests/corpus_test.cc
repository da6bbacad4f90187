// The corpus: every schedule in corpus/schedules is planned by the reference
// planner and compared byte for byte with the plan beside it, which was
// derived by hand from the rules; every plan passes the checker. Every
// minimized failure in corpus/regressions is replayed.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "oracle/check/checker.h"
#include "oracle/check/shadow.h"
#include "planner/planner.h"
#include "model/text.h"
#include "tests/run_command.h"

namespace planck {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> schedules_in(const std::string& folder) {
  std::vector<std::string> out;
  const fs::path dir = fs::path(PLANCK_SOURCE_DIR) / "corpus" / folder;
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".sched") out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string stem = fs::path(info.param).stem().string();
  std::replace_if(stem.begin(), stem.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return stem;
}

std::string violations_text(const std::vector<oracle::Violation>& vs) {
  std::string out;
  for (const auto& v : vs) out += v.message + "\n";
  return out;
}

class CorpusSchedule : public ::testing::TestWithParam<std::string> {};

TEST_P(CorpusSchedule, PlanMatchesTheHandDerivedPlanAndPassesTheChecker) {
  const std::string path = GetParam();
  auto s = read_schedule(path);
  ASSERT_TRUE(s.ok()) << s.error().message();
  auto plan = make_planner("tlsf")->plan(*s);
  ASSERT_TRUE(plan.ok()) << plan.error().message();
  const std::string expected_path = fs::path(path).replace_extension(".plan").string();
  ASSERT_TRUE(fs::exists(expected_path)) << "no expected plan beside " << path;
  EXPECT_EQ(print_plan(*plan), testing::read_text(expected_path)) << path;
  auto expected = read_plan(expected_path);
  ASSERT_TRUE(expected.ok()) << expected.error().message();
  EXPECT_EQ(violations_text(oracle::check_plan(*s, *expected)), "");
}

TEST_P(CorpusSchedule, PrintingIsCanonical) {
  auto s = read_schedule(GetParam());
  ASSERT_TRUE(s.ok()) << s.error().message();
  const std::string once = print_schedule(*s);
  auto again = parse_schedule(once, "printed");
  ASSERT_TRUE(again.ok()) << again.error().message();
  EXPECT_EQ(print_schedule(*again), once);
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusSchedule, ::testing::ValuesIn(schedules_in("schedules")),
                         test_name);

// A regression is a schedule that once broke a planner or an oracle; each
// carries a comment saying what it caught. Every planner must plan it into
// a plan the checker accepts.
class RegressionSchedule : public ::testing::TestWithParam<std::string> {};

TEST_P(RegressionSchedule, EveryPlannerGivesAValidPlan) {
  auto s = read_schedule(GetParam());
  ASSERT_TRUE(s.ok()) << s.error().message();
  for (const std::string& name : planner_names()) {
    auto plan = make_planner(name)->plan(*s);
    ASSERT_TRUE(plan.ok()) << name << ": " << plan.error().message();
    EXPECT_EQ(violations_text(oracle::check_plan(*s, *plan)), "") << name;
    auto run = oracle::run_shadow(*s, *plan);
    ASSERT_TRUE(run.ok()) << name << ": " << run.error().message();
    EXPECT_FALSE(run->clobber.has_value()) << name << ": " << run->clobber->message();
  }
}

INSTANTIATE_TEST_SUITE_P(Regressions, RegressionSchedule,
                         ::testing::ValuesIn(schedules_in("regressions")), test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(RegressionSchedule);

}  // namespace
}  // namespace planck
