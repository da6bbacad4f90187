// The library's entry point: any planner's plan with rules 8 to 10 of docs/planners.md#the-reference-planner-tlsf
// applied, and the switches of rules 9 and 10 read from the
// environment.

#include "planner/plan_schedule.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "tests/parsed.h"

namespace planck {
namespace {

using ::testing::HasSubstr;
using testing::sched;

// Comments, blank lines and uneven spacing: what a canonical print would lose.
constexpr const char* kCommented = R"(schedule v1
# a and b are both alive at k1.
param   x  CPU float32 1024     # the input

buffer a   CPU  float32 1024
buffer  b CPU float32 1024
kernel k0   a x
kernel k1 b   a   # last use of a
)";

// Nothing planned: a param and a held buffer, with the same irregular text.
constexpr const char* kNothingPlanned = R"(schedule v1
# weights stay where the caller put them
param  x CPU float32 1024
buffer   w  CPU float32 1024 held   # a weight

kernel   k x    w
)";

Result<PlanOutcome> run(std::string_view text, std::string_view planner, PlanOptions options,
                        bool rewrite = true) {
  const Schedule s = sched(text);
  const auto p = make_planner(planner);
  return plan_schedule({.schedule = s, .text = text, .planner = *p, .options = options,
                        .rewrite = rewrite});
}

TEST(PlanSchedule, APlannedScheduleComesOutRewrittenWithItsPlan) {
  auto out = run(kCommented, "tlsf", {});
  ASSERT_TRUE(out.ok()) << out.error().message();
  // a at 0, b at 1024 since both are alive at k1; the rewrite prints canonically.
  EXPECT_EQ(print_plan(out->plan),
            "plan v1\narena arena0 CPU 2048\nplace a arena0 0\nplace b arena0 1024\n");
  EXPECT_EQ(out->rewritten, R"(schedule v1
param x CPU float32 1024
buffer arena0 CPU int8 2048
kernel k0 bitcast(shrink(arena0, 0, 1024), float32) x
kernel k1 bitcast(shrink(arena0, 1024, 1024), float32) bitcast(shrink(arena0, 0, 1024), float32)
)");
  EXPECT_EQ(out->debug_line, "");
}

TEST(PlanSchedule, WithoutRewriteThereIsNoOutputText) {
  auto out = run(kCommented, "tlsf", {}, false);
  ASSERT_TRUE(out.ok()) << out.error().message();
  EXPECT_EQ(out->plan.placements.size(), 2u);
  EXPECT_EQ(out->rewritten, "");
}

TEST(PlanSchedule, TheChosenPlannerMakesThePlan) {
  // c can take a's bytes; naive alone keeps all three apart.
  constexpr const char* kChain = R"(schedule v1
buffer a CPU int8 1024
buffer b CPU int8 1024
buffer c CPU int8 1024
kernel k0 a
kernel k1 b a
kernel k2 c b
)";
  const Schedule s = sched(kChain);
  for (std::string_view name : {"naive", "tlsf"}) {
    auto out = run(kChain, name, {}, false);
    ASSERT_TRUE(out.ok()) << out.error().message();
    auto direct = make_planner(name)->plan(s);
    ASSERT_TRUE(direct.ok()) << direct.error().message();
    EXPECT_EQ(print_plan(out->plan), print_plan(*direct)) << name;
  }
  EXPECT_NE(print_plan(run(kChain, "naive", {})->plan), print_plan(run(kChain, "tlsf", {})->plan));
}

TEST(PlanSchedule, NoMemoryPlannerGivesTheInputTextByteForByte) {
  auto out = run(kCommented, "tlsf", {.no_memory_planner = true, .debug = 1});
  ASSERT_TRUE(out.ok()) << out.error().message();
  EXPECT_EQ(out->rewritten, kCommented);
  EXPECT_TRUE(out->plan.placements.empty());
  EXPECT_TRUE(out->plan.arenas.empty());
  EXPECT_EQ(out->debug_line, "");
}

TEST(PlanSchedule, NoMemoryPlannerDoesNotRunThePlanner) {
  // Four buffers just below 2^62 bytes: their sizes summed pass 2^64, so
  // planning fails, unless nothing is planned.
  std::string text = "schedule v1\n";
  for (int i = 0; i < 4; ++i) text += "buffer big" + std::to_string(i) + " CPU int8 4611686018427387903\n";
  text += "kernel k big0 big1 big2 big3\n";
  auto planned = run(text, "tlsf", {});
  ASSERT_FALSE(planned.ok());
  EXPECT_THAT(planned.error().message(), HasSubstr("overflow"));
  auto skipped = run(text, "tlsf", {.no_memory_planner = true});
  ASSERT_TRUE(skipped.ok()) << skipped.error().message();
  EXPECT_EQ(skipped->rewritten, text);
}

TEST(PlanSchedule, WhenNothingIsPlannedEveryPlannerGivesTheInputTextByteForByte) {
  for (const std::string& name : planner_names()) {
    auto out = run(kNothingPlanned, name, {.debug = 1});
    ASSERT_TRUE(out.ok()) << name << ": " << out.error().message();
    EXPECT_EQ(out->rewritten, kNothingPlanned) << name;
    EXPECT_TRUE(out->plan.placements.empty()) << name;
    EXPECT_EQ(out->debug_line, "") << name;
  }
}

TEST(PlanSchedule, TheDebugLineComesWithDebugAtOneOrMore) {
  constexpr const char* kReuse = R"(schedule v1
buffer a CPU int8 1000000
buffer b CPU int8 1000000
kernel k0 a
kernel k1 b
)";
  auto quiet = run(kReuse, "tlsf", {});
  ASSERT_TRUE(quiet.ok()) << quiet.error().message();
  EXPECT_EQ(quiet->debug_line, "");
  auto debug = run(kReuse, "tlsf", {.debug = 1});
  ASSERT_TRUE(debug.ok()) << debug.error().message();
  EXPECT_EQ(debug->debug_line, "memory reduced from 2.00 MB -> 1.00 MB, 2 -> 1 bufs");
}

// Sets one environment variable for a test's lifetime, then restores it.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) {
      ::setenv(name, value, 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

Result<PlanOptions> options_with(const char* no_memory_planner, const char* debug) {
  ScopedEnv a("NO_MEMORY_PLANNER", no_memory_planner);
  ScopedEnv b("DEBUG", debug);
  return PlanOptions::from_environment();
}

TEST(PlanOptions, UnsetOrEmptyVariablesLeaveEverythingOff) {
  for (const char* value : {static_cast<const char*>(nullptr), ""}) {
    auto o = options_with(value, value);
    ASSERT_TRUE(o.ok()) << o.error().message();
    EXPECT_FALSE(o->no_memory_planner);
    EXPECT_EQ(o->debug, 0);
  }
}

TEST(PlanOptions, NoMemoryPlannerIsSetAtOneOrMoreAndDebugIsItsLevel) {
  auto on = options_with("1", "3");
  ASSERT_TRUE(on.ok()) << on.error().message();
  EXPECT_TRUE(on->no_memory_planner);
  EXPECT_EQ(on->debug, 3);
  auto two = options_with("2", "0");
  ASSERT_TRUE(two.ok()) << two.error().message();
  EXPECT_TRUE(two->no_memory_planner);
  EXPECT_EQ(two->debug, 0);
  auto off = options_with("0", "-1");
  ASSERT_TRUE(off.ok()) << off.error().message();
  EXPECT_FALSE(off->no_memory_planner);
  EXPECT_EQ(off->debug, -1);
}

TEST(PlanOptions, AValueThatIsNotAnIntegerIsAnErrorNamingIt) {
  auto debug = options_with(nullptr, "yes");
  ASSERT_FALSE(debug.ok());
  EXPECT_EQ(debug.error().message(), "environment: DEBUG=yes is not an integer");
  auto planner = options_with("1x", nullptr);
  ASSERT_FALSE(planner.ok());
  EXPECT_EQ(planner.error().message(), "environment: NO_MEMORY_PLANNER=1x is not an integer");
  auto huge = options_with(nullptr, "99999999999999999999");
  ASSERT_FALSE(huge.ok());
  EXPECT_THAT(huge.error().message(), HasSubstr("DEBUG=99999999999999999999"));
}

}  // namespace
}  // namespace planck
