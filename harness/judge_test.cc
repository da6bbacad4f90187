#include "harness/judge.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>

#include "model/plan.h"
#include "model/schedule_reader.h"

namespace planck::harness {
namespace {

using ::testing::HasSubstr;

// A planner that answers every schedule with one fixed plan text, or an error.
class FixedPlanner final : public Planner {
 public:
  explicit FixedPlanner(Result<Plan> answer) : answer_(std::move(answer)) {}
  std::string_view name() const override { return "fixed"; }
  Result<Plan> plan(const Schedule&) const override { return answer_; }

 private:
  Result<Plan> answer_;
};

Schedule parsed(const char* text) { return *parse_schedule(text, "s.sched"); }
Plan plan_of(const char* text) { return *parse_plan(text, "p.plan"); }

constexpr const char* kTwoAlive = R"(schedule v1
buffer a CPU int8 256
buffer b CPU int8 256
kernel k a b
)";

TEST(Judge, AValidPlanPasses) {
  const FixedPlanner p(plan_of("plan v1\narena arena0 CPU 512\nplace a arena0 0\nplace b arena0 256\n"));
  const Verdict v = judge(p, parsed(kTwoAlive));
  EXPECT_FALSE(v.failed()) << v.explanation;
  ASSERT_TRUE(v.plan.has_value());
}

TEST(Judge, TwoLiveBuffersAtOnePlaceAreAnOverlap) {
  const FixedPlanner p(plan_of("plan v1\narena arena0 CPU 256\nplace a arena0 0\nplace b arena0 0\n"));
  const Verdict v = judge(p, parsed(kTwoAlive));
  EXPECT_EQ(v.kind, "invalid-overlap");
  EXPECT_THAT(v.explanation, HasSubstr("overlap"));
}

TEST(Judge, TheKindIsTheFirstRuleBroken) {
  const FixedPlanner p(plan_of("plan v1\narena arena0 CPU 512\nplace a arena0 0\n"));
  EXPECT_EQ(judge(p, parsed(kTwoAlive)).kind, "invalid-not-placed");
}

TEST(ScheduleJudge, JudgesEachPlanOfOneScheduleAsJudgePlanDoes) {
  const Schedule s = parsed(kTwoAlive);
  const ScheduleJudge judge(s);
  const char* plans[] = {
      "plan v1\narena arena0 CPU 512\nplace a arena0 0\nplace b arena0 256\n",
      "plan v1\narena arena0 CPU 256\nplace a arena0 0\nplace b arena0 0\n",
      "plan v1\narena arena0 CPU 512\nplace a arena0 0\n",
      "plan v1\narena arena0 CPU 512\nplace a arena0 0\nplace b arena0 256\n",
  };
  for (const char* text : plans) {
    const Verdict shared = judge.judge(plan_of(text));
    const Verdict alone = judge_plan(s, plan_of(text));
    EXPECT_EQ(shared.kind, alone.kind) << text;
    EXPECT_EQ(shared.explanation, alone.explanation) << text;
    EXPECT_EQ(shared.note, alone.note) << text;
  }
  EXPECT_FALSE(judge.judge(plan_of(plans[0])).failed());
  EXPECT_EQ(judge.judge(plan_of(plans[1])).kind, "invalid-overlap");
  EXPECT_EQ(judge.judge(plan_of(plans[2])).kind, "invalid-not-placed");
  EXPECT_EQ(judge.judge(Error{"", "no", "planner-exit"}).kind, "planner-exit");
}

TEST(Judge, APlannersOwnFailureKeepsItsKind) {
  Error e{"", "exit status 3", "planner-exit"};
  EXPECT_EQ(judge(FixedPlanner(e), parsed(kTwoAlive)).kind, "planner-exit");
  Error plain{"", "the memory plan outgrew its arena"};
  const Verdict v = judge(FixedPlanner(plain), parsed(kTwoAlive));
  EXPECT_EQ(v.kind, "planner-error");
  EXPECT_THAT(v.explanation, HasSubstr("outgrew"));
}

// Two buffers of 256 bytes alive together on a device of align 16: side by
// side they take 512 bytes (blocks of 256).
Schedule with_capacity(Bytes capacity) {
  return parsed(fmt::format("schedule v2\ndevice CPU align=16 capacity={}\nbuffer a CPU int8 256\nbuffer b CPU "
                            "int8 256\nkernel k a b\n",
                            capacity)
                    .c_str());
}

TEST(Judge, ARefusalToPassACapacityTooSmallForTheBuffersSideBySideIsNoFailure) {
  const Error refused{"", "no room", kOverCapacity};
  const Verdict v = judge(FixedPlanner(refused), with_capacity(511));
  EXPECT_FALSE(v.failed()) << v.explanation;
  EXPECT_FALSE(v.plan);
  EXPECT_THAT(v.note, HasSubstr("side by side take 512 bytes, more than its capacity of 511"));
}

TEST(Judge, ARefusalWhereTheBuffersFitSideBySideIsCapacityRefused) {
  const Error refused{"", "no room", kOverCapacity};
  const Verdict v = judge(FixedPlanner(refused), with_capacity(512));
  EXPECT_EQ(v.kind, "capacity-refused");
  EXPECT_THAT(v.explanation, HasSubstr("no room"));
  // Without any capacity, a refusal is as wrong.
  EXPECT_EQ(judge(FixedPlanner(refused), parsed(kTwoAlive)).kind, "capacity-refused");
}

TEST(Judge, APlanPastTheCapacityIsOverCapacity) {
  const Verdict v = judge(FixedPlanner(plan_of("plan v1\narena A CPU 512\nplace a A 0\nplace b A 256\n")),
                          with_capacity(511));
  EXPECT_EQ(v.kind, "invalid-over-capacity");
}

// The checker accepts what the shadow executor also accepts; a plan the
// checker rejects never reaches the executor, so a clobber verdict needs a
// checker that lets a plan through: not reachable with a correct checker,
// and so covered by the executor's own tests.

}  // namespace
}  // namespace planck::harness
