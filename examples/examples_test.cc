// The example planners written elsewhere, judged through Planck's adapters:
// the right ones give valid plans for every schedule of the corpus and of
// examples/schedules that they read (the C planner reads model v1 only, the
// Python one v2 and v3 as well), refusing only a schedule that no plan fits,
// and each wrong one gives an invalid plan for at least one of them (and
// never fails as a planner: its plans are wrong, not absent).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>

#include "model/schedule_reader.h"
#include "oracle/check/checker.h"
#include "planner/external.h"
#include "tests/run_command.h"

namespace planck {
namespace {

namespace fs = std::filesystem;

const std::string kPython = PLANCK_PYTHON;
const std::string kFirstFitPy = PLANCK_SOURCE_DIR "/examples/python/first_fit.py";

std::vector<std::string> schedules() {
  std::vector<std::string> out;
  for (const char* folder : {"corpus/schedules", "corpus/schedules/v2", "corpus/regressions", "examples/schedules"}) {
    for (const auto& e : fs::directory_iterator(fs::path(PLANCK_SOURCE_DIR) / folder)) {
      if (e.path().extension() == ".sched") out.push_back(e.path().string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

struct Example {
  std::string name;
  bool python;  // and so reads models v2 and v3 as well as v1
  std::function<std::unique_ptr<Planner>()> make;
};

std::string python_command(const std::string& flags) {
  return kPython + " " + kFirstFitPy + (flags.empty() ? "" : " " + flags);
}

Example python(const std::string& name, const std::string& flags) {
  return {name, true, [flags] { return make_command_planner(python_command(flags)); }};
}

Example python_persistent(const std::string& name, const std::string& flags) {
  return {name, true, [flags] {
            return make_command_planner(python_command("--persistent " + flags), {.persistent = true});
          }};
}

Example library(const std::string& name, const std::string& path) {
  return {name, false, [path] {
            auto planner = make_library_planner(path);
            EXPECT_TRUE(planner.ok()) << planner.error().message();
            return planner.ok() ? std::move(planner).value() : nullptr;
          }};
}

std::string example_name(const ::testing::TestParamInfo<Example>& info) { return info.param.name; }
void PrintTo(const Example& e, std::ostream* os) { *os << e.name; }

// Plans every schedule with the example; for each, the checker's verdict, or
// the planner's failure.
struct Verdicts {
  std::vector<std::string> invalid;   // "SCHEDULE: first violation"
  std::vector<std::string> failures;  // "SCHEDULE: kind: message"
  std::vector<std::string> refused;   // SCHEDULE, where the planner answered over-capacity
};

// The one schedule of examples/schedules that no plan fits.
const std::string kCapacitySchedule = PLANCK_SOURCE_DIR "/examples/schedules/capacity.sched";

Verdicts judge(const Example& example) {
  Verdicts v;
  const auto planner = example.make();
  if (planner == nullptr) {
    v.failures.push_back(example.name + " did not load");
    return v;
  }
  for (const std::string& path : schedules()) {
    auto s = read_schedule(path);
    EXPECT_TRUE(s.ok()) << s.error().message();
    if (!s || (s->uses_v2() && !example.python)) continue;
    auto plan = planner->plan(*s);
    if (!plan) {
      if (plan.error().kind == kOverCapacity) {
        v.refused.push_back(path);
      } else {
        v.failures.push_back(path + ": " + plan.error().kind + ": " + plan.error().message());
      }
      continue;
    }
    const auto violations = oracle::check_plan(*s, *plan);
    if (!violations.empty()) v.invalid.push_back(path + ": " + violations[0].message);
  }
  return v;
}

class RightExample : public ::testing::TestWithParam<Example> {};

TEST_P(RightExample, GivesAValidPlanForEverySchedule) {
  if (GetParam().python && kPython.empty()) GTEST_SKIP() << "no Python 3 found";
  const Verdicts v = judge(GetParam());
  EXPECT_THAT(v.failures, ::testing::IsEmpty());
  EXPECT_THAT(v.invalid, ::testing::IsEmpty());
  if (GetParam().python) {
    EXPECT_THAT(v.refused, ::testing::ElementsAre(kCapacitySchedule));
  }
}

INSTANTIATE_TEST_SUITE_P(Examples, RightExample,
                         ::testing::Values(python("python_command", ""),
                                           python_persistent("python_persistent", ""),
                                           python_persistent("python_lanes", "--lanes"),
                                           library("c_library", PLANCK_FIRST_FIT)),
                         example_name);

class WrongExample : public ::testing::TestWithParam<Example> {};

TEST_P(WrongExample, GivesAnInvalidPlanForSomeSchedule) {
  if (GetParam().python && kPython.empty()) GTEST_SKIP() << "no Python 3 found";
  const Verdicts v = judge(GetParam());
  EXPECT_THAT(v.failures, ::testing::IsEmpty());
  EXPECT_THAT(v.invalid, ::testing::Not(::testing::IsEmpty()));
}

INSTANTIATE_TEST_SUITE_P(
    Examples, WrongExample,
    ::testing::Values(python("python_early_free", "--bug early-free"),
                      python_persistent("python_loops", "--bug loops"),
                      python_persistent("python_phase", "--bug phase"),
                      python_persistent("python_input_first_use", "--bug input-first-use"),
                      python_persistent("python_state_temporary", "--bug state-temporary"),
                      python_persistent("python_inplace_read", "--bug inplace-read"),
                      python_persistent("python_inplace_view", "--bug inplace-view"),
                      python_persistent("python_inplace_loop", "--bug inplace-loop"),
                      python_persistent("python_inplace_tail", "--bug inplace-tail"),
                      python_persistent("python_align256", "--bug align256"),
                      python_persistent("python_capacity", "--bug capacity"),
                      python_persistent("python_one_arena", "--bug one-arena"),
                      python_persistent("python_streams", "--bug streams"),
                      python_persistent("python_wait_all", "--bug wait-all"),
                      python_persistent("python_record_early", "--bug record-early"),
                      python_persistent("python_loop_positions", "--bug loop-positions"),
                      python_persistent("python_inplace_streams", "--bug inplace-streams"),
                      library("c_flag", PLANCK_FIRST_FIT_BUG_FLAG),
                      library("c_align128", PLANCK_FIRST_FIT_BUG_ALIGN128)),
    example_name);

// Each wrong example on the smallest schedule that shows its bug.
class WrongExampleCaught : public ::testing::TestWithParam<std::tuple<Example, std::string>> {};

TEST_P(WrongExampleCaught, OnItsSchedule) {
  const auto& [example, schedule] = GetParam();
  if (example.python && kPython.empty()) GTEST_SKIP() << "no Python 3 found";
  auto planner = example.make();
  ASSERT_NE(planner, nullptr);
  auto s = read_schedule(PLANCK_SOURCE_DIR "/" + schedule);
  ASSERT_TRUE(s.ok()) << s.error().message();
  auto plan = planner->plan(*s);
  ASSERT_TRUE(plan.ok()) << plan.error().message();
  EXPECT_THAT(oracle::check_plan(*s, *plan), ::testing::Not(::testing::IsEmpty()));
}

INSTANTIATE_TEST_SUITE_P(
    Examples, WrongExampleCaught,
    ::testing::Values(
        std::tuple{python("python_early_free", "--bug early-free"), "corpus/schedules/01-chain.sched"},
        std::tuple{python("python_loops", "--bug loops"), "corpus/schedules/08-range.sched"},
        std::tuple{python("python_phase", "--bug phase"), "corpus/schedules/04-phase.sched"},
        std::tuple{python("python_input_first_use", "--bug input-first-use"),
                   "examples/schedules/input-first-use.sched"},
        std::tuple{python("python_state_temporary", "--bug state-temporary"),
                   "examples/schedules/state-temporary.sched"},
        std::tuple{python("python_inplace_read", "--bug inplace-read"), "examples/schedules/inplace-read.sched"},
        std::tuple{python("python_inplace_view", "--bug inplace-view"), "examples/schedules/inplace-view.sched"},
        std::tuple{python("python_inplace_loop", "--bug inplace-loop"), "examples/schedules/inplace-loop.sched"},
        std::tuple{python("python_inplace_tail", "--bug inplace-tail"), "examples/schedules/inplace-tail.sched"},
        std::tuple{python("python_align256", "--bug align256"), "examples/schedules/align.sched"},
        std::tuple{python("python_capacity", "--bug capacity"), "examples/schedules/capacity.sched"},
        std::tuple{python("python_one_arena", "--bug one-arena"), "examples/schedules/lanes.sched"},
        std::tuple{python("python_streams", "--bug streams"), "examples/schedules/streams.sched"},
        std::tuple{python("python_wait_all", "--bug wait-all"), "examples/schedules/wait-all.sched"},
        std::tuple{python("python_record_early", "--bug record-early"), "examples/schedules/record-early.sched"},
        std::tuple{python("python_loop_positions", "--bug loop-positions"), "examples/schedules/loop-positions.sched"},
        std::tuple{python("python_inplace_streams", "--bug inplace-streams"),
                   "examples/schedules/inplace-streams.sched"},
        std::tuple{library("c_flag", PLANCK_FIRST_FIT_BUG_FLAG), "corpus/schedules/11-flag-view.sched"},
        std::tuple{library("c_align128", PLANCK_FIRST_FIT_BUG_ALIGN128),
                   "examples/schedules/small-buffers.sched"}),
    [](const auto& info) { return std::get<0>(info.param).name; });

// The commands of examples/README.md: planck stats plans and checks each
// schedule, and exits 0 only when every plan is valid.
class ExamplesReadme : public testing::PlanckCommandTest {};

TEST_F(ExamplesReadme, StatsPassesTheRightExamplesAndFailsAWrongOne) {
  const std::string corpus = PLANCK_SOURCE_DIR "/corpus/schedules/*.sched";
  auto right = planck("stats " + corpus + " --planner-lib " PLANCK_FIRST_FIT);
  EXPECT_EQ(right.exit_code, 0) << right.out << right.err;
  auto wrong = planck("stats " + corpus + " --planner-lib " PLANCK_FIRST_FIT_BUG_FLAG);
  EXPECT_EQ(wrong.exit_code, 1) << wrong.out << wrong.err;
  EXPECT_THAT(wrong.out, ::testing::HasSubstr("INVALID"));
  if (kPython.empty()) return;
  auto persistent = planck("stats " + corpus + " --persistent --planner-cmd '" +
                           python_command("--persistent") + "'");
  EXPECT_EQ(persistent.exit_code, 0) << persistent.out << persistent.err;
  auto check = planck("plan " PLANCK_SOURCE_DIR "/examples/schedules/small-buffers.sched -o " + dir_ +
                      "/p.plan --planner-cmd '" + python_command("") + "' && " + testing::planck_bin() +
                      " check " PLANCK_SOURCE_DIR "/examples/schedules/small-buffers.sched " + dir_ + "/p.plan");
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  EXPECT_THAT(check.out, ::testing::HasSubstr("valid plan"));
}

}  // namespace
}  // namespace planck
