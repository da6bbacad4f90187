// The corpus: every schedule in corpus/schedules is planned by the reference
// planner and compared byte for byte with the plan beside it, which was
// derived by hand from the rules, and its rewrite with the expected rewrite
// beside it; every other planner's plan is compared with the plan pinned for
// it there (corpus/schedules/README.md says how each was checked). Every
// plan passes the checker. Every minimized failure in corpus/regressions is
// replayed.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "harness/planners.h"
#include "oracle/check/checker.h"
#include "oracle/check/shadow.h"
#include "planner/plain_planners.h"
#include "planner/planner.h"
#include "planner/plan_schedule.h"
#include "model/schedule_printer.h"
#include "model/schedule_reader.h"
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

// The file beside a corpus schedule that has its stem and then suffix:
// beside("01-chain.sched", ".greedy.plan") is "01-chain.greedy.plan".
std::string beside(const std::string& path, const std::string& suffix) {
  const fs::path p(path);
  return (p.parent_path() / (p.stem().string() + suffix)).string();
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

// The plan is, byte for byte, the one pinned at pinned_path, and that one
// passes the checker.
void expect_pinned_plan(const Schedule& s, const Plan& plan, const std::string& pinned_path) {
  ASSERT_TRUE(fs::exists(pinned_path)) << "no pinned plan " << pinned_path;
  EXPECT_EQ(print_plan(plan), testing::read_text(pinned_path)) << pinned_path;
  auto pinned = read_plan(pinned_path);
  ASSERT_TRUE(pinned.ok()) << pinned.error().message();
  EXPECT_EQ(violations_text(oracle::check_plan(s, *pinned)), "") << pinned_path;
}

class CorpusSchedule : public ::testing::TestWithParam<std::string> {};

TEST_P(CorpusSchedule, PlanMatchesTheHandDerivedPlanAndPassesTheChecker) {
  const std::string path = GetParam();
  auto s = read_schedule(path);
  ASSERT_TRUE(s.ok()) << s.error().message();
  auto plan = make_planner("tlsf")->plan(*s);
  ASSERT_TRUE(plan.ok()) << plan.error().message();
  expect_pinned_plan(*s, *plan, beside(path, ".plan"));
}

// The expected rewrite (rule 8) of the reference plan is NN-name.rewrite: what
// `planck plan --rewrite` prints, so it does not end in .sched and no glob of
// schedules takes it for one.
TEST_P(CorpusSchedule, RewriteMatchesTheExpectedRewrite) {
  const std::string path = GetParam();
  const std::string text = testing::read_text(path);
  auto s = parse_schedule(text, path);
  ASSERT_TRUE(s.ok()) << s.error().message();
  const std::string expected_path = beside(path, ".rewrite");
  ASSERT_TRUE(fs::exists(expected_path)) << "no expected rewrite beside " << path;
  const std::string expected = testing::read_text(expected_path);

  const auto tlsf = make_planner("tlsf");
  auto out = plan_schedule({.schedule = *s, .text = text, .planner = *tlsf, .options = {}, .rewrite = true});
  ASSERT_TRUE(out.ok()) << out.error().message();
  EXPECT_EQ(out->rewritten, expected) << path;
  const testing::CommandResult cli = testing::run_command(testing::planck_bin() + " plan --rewrite " + path);
  EXPECT_EQ(cli.exit_code, 0) << cli.err;
  EXPECT_EQ(cli.out, expected) << "planck plan --rewrite " << path;
}

// Every planner but the reference one has its plan pinned as
// NN-name.PLANNER.plan, so that a planner whose plans change, for the worse
// or not, fails here even while its plans stay valid.
TEST_P(CorpusSchedule, EveryOtherPlannerMatchesItsPinnedPlan) {
  const std::string path = GetParam();
  auto s = read_schedule(path);
  ASSERT_TRUE(s.ok()) << s.error().message();
  for (const std::string& name : harness::offered_planner_names()) {
    if (name == "tlsf") continue;  // its plan is NN-name.plan, above
    SCOPED_TRACE("planner " + name);
    auto planner = harness::make_offered_planner(name);
    ASSERT_NE(planner, nullptr);
    auto plan = planner->plan(*s);
    ASSERT_TRUE(plan.ok()) << plan.error().message();
    expect_pinned_plan(*s, *plan, beside(path, "." + name + ".plan"));
  }
}

// greedy and bysize are tested against their plain O(n^2) twins: those too
// give the pinned plans.
TEST_P(CorpusSchedule, ThePlainTwinsMatchThePinnedPlans) {
  const std::string path = GetParam();
  auto s = read_schedule(path);
  ASSERT_TRUE(s.ok()) << s.error().message();
  for (const char* name : {"greedy", "bysize"}) {
    SCOPED_TRACE(std::string("plain twin of ") + name);
    auto plan = plain_twin(name)->plan(*s);
    ASSERT_TRUE(plan.ok()) << plan.error().message();
    expect_pinned_plan(*s, *plan, beside(path, std::string(".") + name + ".plan"));
  }
}

TEST_P(CorpusSchedule, PrintingIsCanonical) {
  auto s = read_schedule(GetParam());
  ASSERT_TRUE(s.ok()) << s.error().message();
  const std::string once = print_schedule(*s);
  auto again = parse_schedule(once, "printed");
  ASSERT_TRUE(again.ok()) << again.error().message();
  EXPECT_EQ(print_schedule(*again), once);
}

// corpus/schedules/v2 holds the schedules that use model v2 (docs/model-v2.md),
// apart, so that a planner of v1 alone is judged on the others.
std::vector<std::string> v1_and_v2_schedules() {
  std::vector<std::string> all = schedules_in("schedules");
  for (std::string& path : schedules_in("schedules/v2")) all.push_back(std::move(path));
  return all;
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusSchedule, ::testing::ValuesIn(v1_and_v2_schedules()), test_name);

// A regression is a schedule that once broke a planner or an oracle; each
// carries a comment saying what it caught. Every planner must plan it into
// a plan the checker accepts, but for one that plans one stream, which
// refuses a schedule on several (kind planner-streams).
class RegressionSchedule : public ::testing::TestWithParam<std::string> {};

TEST_P(RegressionSchedule, EveryPlannerGivesAValidPlan) {
  auto s = read_schedule(GetParam());
  ASSERT_TRUE(s.ok()) << s.error().message();
  for (const std::string& name : harness::offered_planner_names()) {
    auto plan = harness::make_offered_planner(name)->plan(*s);
    if (!plan.ok() && plan.error().kind == "planner-streams") continue;
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
