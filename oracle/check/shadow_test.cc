#include "oracle/check/shadow.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/plan.h"
#include "tests/judged.h"
#include "tests/spec_example.h"

namespace planck::oracle {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

using testing::plan;
using testing::sched;

using testing::run;

Error run_error(std::string_view schedule_text, std::string_view plan_text, ShadowOptions options = {}) {
  Result<ShadowRun> r = run_shadow(sched(schedule_text), plan(plan_text), options);
  EXPECT_FALSE(r.ok());
  return r.ok() ? Error{} : r.error();
}

using testing::kSpecExample;

TEST(Shadow, ValidPlanOfTheSpecExampleRunsClean) {
  ShadowRun r = run(kSpecExample, testing::kSpecExamplePlan);
  EXPECT_FALSE(r.clobber.has_value()) << r.clobber->message();
  // matmul, twice (relu, step, flag check), copy.
  EXPECT_EQ(r.calls, 8u);
}

// a is written at entry 0 and read at entry 2; b takes its bytes in between.
constexpr std::string_view kThreeCalls = R"(schedule v1
buffer a CPU float32 1024
buffer b CPU float32 1024
buffer c CPU float32 1024
kernel fill a
kernel fill b
kernel add c a b
)";

TEST(Shadow, ReusingBytesOfABufferStillNeededIsAClobber) {
  ShadowRun r = run(kThreeCalls, R"(plan v1
arena arena0 CPU 2048
place a arena0 0
place b arena0 0
place c arena0 1024
)");
  ASSERT_TRUE(r.clobber.has_value());
  const Clobber& c = *r.clobber;
  EXPECT_EQ(c.victim, "a");
  EXPECT_EQ(c.taker, "b");
  EXPECT_EQ(c.arena, "arena0");
  EXPECT_EQ(c.begin, 0u);
  EXPECT_EQ(c.end, 1024u);
  EXPECT_EQ(c.before.entry, 0u);
  EXPECT_EQ(c.before.line, 5);
  EXPECT_EQ(c.taken.entry, 1u);
  EXPECT_EQ(c.taken.line, 6);
  EXPECT_EQ(c.after.entry, 2u);
  EXPECT_EQ(c.after.call, "kernel add");
  EXPECT_EQ(c.after.line, 7);
  EXPECT_EQ(r.calls, 3u);
  EXPECT_EQ(c.message(),
            "clobber: a lost bytes [0, 1024) of arena0 to b, which claimed them at entry 1 "
            "(kernel fill, line 6), between a's uses at entry 0 (kernel fill, line 5) and "
            "entry 2 (kernel add, line 7)");
}

TEST(Shadow, ReusingBytesAfterTheLastUseIsNot) {
  ShadowRun r = run(R"(schedule v1
buffer a CPU float32 1024
buffer b CPU float32 1024
kernel fill a
kernel scale a
kernel fill b
)",
                    R"(plan v1
arena arena0 CPU 1024
place a arena0 0
place b arena0 0
)");
  EXPECT_FALSE(r.clobber.has_value()) << r.clobber->message();
}

TEST(Shadow, OnlyTheBytesTakenAreReported) {
  // b (4096 bytes at 2048) takes the upper half of a [0, 4096).
  ShadowRun r = run(R"(schedule v1
buffer a CPU int8 4096
buffer b CPU int8 4096
kernel fill a
kernel fill b
kernel read a
)",
                    R"(plan v1
arena arena0 CPU 6144
place a arena0 0
place b arena0 2048
)");
  ASSERT_TRUE(r.clobber.has_value());
  EXPECT_EQ(r.clobber->begin, 2048u);
  EXPECT_EQ(r.clobber->end, 4096u);
}

// x and y on the same bytes.
constexpr std::string_view kShared = R"(plan v1
arena arena0 CPU 1024
place x arena0 0
place y arena0 0
)";

TEST(Shadow, ABufferUsedOnlyLaterInALoopBodyMustNotTakeTheBytesOfOneUsedEarlier) {
  // x is the loop's state: each iteration reads and writes it at the top of
  // the body. y, used only after it in the body, takes its bytes in the first
  // iteration; only the second iteration sees x find them gone.
  constexpr std::string_view kLoop = R"(schedule v1
buffer x CPU float32 1024
buffer y CPU float32 1024
range {
  kernel step x
  kernel scratch y
}
)";
  EXPECT_FALSE(run(kLoop, kShared, /*iterations=*/1).clobber.has_value());

  ShadowRun r = run(kLoop, kShared);
  ASSERT_TRUE(r.clobber.has_value());
  const Clobber& c = *r.clobber;
  EXPECT_EQ(c.victim, "x");
  EXPECT_EQ(c.taker, "y");
  EXPECT_THAT(c.before.iterations, ElementsAre(1u));
  EXPECT_THAT(c.taken.iterations, ElementsAre(1u));
  EXPECT_THAT(c.after.iterations, ElementsAre(2u));
  EXPECT_EQ(c.after.call, "kernel step");
  EXPECT_EQ(c.after.line, 5);
  EXPECT_EQ(c.taken.line, 6);
  EXPECT_THAT(c.message(), HasSubstr("between x's uses at entry 0 (kernel step, line 5, iteration 1) "
                                     "and entry 0 (kernel step, line 5, iteration 2)"));
}

TEST(Shadow, SitesInNestedLoopsNameTheIterationOfEachLoopOutermostFirst) {
  // x is used in the inner loop only, y after it in the outer body, on the
  // same bytes: y takes them in the outer loop's first iteration, and x
  // finds them gone in the first inner iteration of the second.
  constexpr std::string_view kNested = R"(schedule v1
buffer x CPU float32 1024
buffer y CPU float32 1024
range {
  range {
    kernel step x
  }
  kernel scratch y
}
)";
  ShadowRun r = run(kNested, kShared);
  ASSERT_TRUE(r.clobber.has_value());
  const Clobber& c = *r.clobber;
  EXPECT_EQ(c.victim, "x");
  EXPECT_EQ(c.taker, "y");
  EXPECT_THAT(c.before.iterations, ElementsAre(1u, 2u));
  EXPECT_THAT(c.taken.iterations, ElementsAre(1u));
  EXPECT_THAT(c.after.iterations, ElementsAre(2u, 1u));
  EXPECT_EQ(r.calls, 4u);  // step, step, scratch, then step again
  EXPECT_THAT(c.message(), HasSubstr("between x's uses at entry 0 (kernel step, line 6, iteration 1.2) "
                                     "and entry 0 (kernel step, line 6, iteration 2.1)"));
}

TEST(Shadow, TwoArgumentsOfOneCallMustNotShareBytes) {
  ShadowRun r = run(R"(schedule v1
buffer a CPU float32 1024
buffer b CPU float32 1024
kernel add a b
)",
                    R"(plan v1
arena arena0 CPU 4096
place a arena0 0
place b arena0 256
)");
  ASSERT_TRUE(r.clobber.has_value());
  const Clobber& c = *r.clobber;
  EXPECT_EQ(c.victim, "a");
  EXPECT_EQ(c.taker, "b");
  EXPECT_EQ(c.begin, 256u);
  EXPECT_EQ(c.end, 1024u);
  EXPECT_EQ(c.before.entry, 0u);
  EXPECT_EQ(c.after.entry, 0u);
  EXPECT_EQ(c.taken.entry, 0u);
  EXPECT_THAT(c.message(), HasSubstr("during a's use at entry 0 (kernel add, line 4)"));
}

TEST(Shadow, TwoViewsOfOneBufferInOneCallAreOneUse) {
  ShadowRun r = run(R"(schedule v1
buffer a CPU float32 1024
kernel swap shrink(a, 0, 512) shrink(a, 512, 512)
)",
                    R"(plan v1
arena arena0 CPU 1024
place a arena0 0
)");
  EXPECT_FALSE(r.clobber.has_value()) << r.clobber->message();
}

TEST(Shadow, ALoopUsesItsFlagThroughAViewAfterItsBody) {
  // t is used in the body, then the flag's storage f (through a shrink) at
  // the end of the iteration: f takes t's bytes, and t finds them gone in the
  // second iteration. Were the flag used before the body, f would be the victim.
  ShadowRun r = run(R"(schedule v1
buffer f CPU bool 256
buffer t CPU float32 256
loop flag=shrink(f, 0, 1) {
  kernel step t
}
)",
                    R"(plan v1
arena arena0 CPU 256
place f arena0 0
place t arena0 0
)");
  ASSERT_TRUE(r.clobber.has_value());
  const Clobber& c = *r.clobber;
  EXPECT_EQ(c.victim, "t");
  EXPECT_EQ(c.taker, "f");
  EXPECT_EQ(c.taken.call, "flag of loop");
  EXPECT_EQ(c.taken.line, 4);
  EXPECT_THAT(c.taken.iterations, ElementsAre(1u));
  EXPECT_THAT(c.after.iterations, ElementsAre(2u));
}

TEST(Shadow, IterationsOfNestedLoopsAreReportedOutermostFirst) {
  // The inner range's body clobbers x in its own second iteration, while the
  // outer range is in its first.
  ShadowRun r = run(R"(schedule v1
buffer x CPU float32 1024
buffer y CPU float32 1024
range {
  range {
    kernel step x
    kernel scratch y
  }
}
)",
                    kShared);
  ASSERT_TRUE(r.clobber.has_value());
  EXPECT_THAT(r.clobber->after.iterations, ElementsAre(1u, 2u));
  EXPECT_THAT(r.clobber->after.describe(), HasSubstr("iteration 1.2"));
}

TEST(Shadow, ABuffersBytesStartAtPlacePlusPhase) {
  // a holds [0, 64), b [64, 128): they share the 256-byte place but no byte.
  ShadowRun r = run(R"(schedule v1
buffer a CPU int8 64
buffer b CPU int8 64 phase=64
kernel add a b
)",
                    R"(plan v1
arena arena0 CPU 256
place a arena0 0
place b arena0 0
)");
  EXPECT_FALSE(r.clobber.has_value()) << r.clobber->message();
}

TEST(Shadow, ZeroByteBuffersHoldNoBytes) {
  // a is placed inside b's bytes, and holds none of them.
  ShadowRun r = run(R"(schedule v1
buffer a CPU int8 0
buffer b CPU int8 1024
kernel add a b
kernel add b a
)",
                    R"(plan v1
arena arena0 CPU 1024
place a arena0 512
place b arena0 0
)");
  EXPECT_FALSE(r.clobber.has_value()) << r.clobber->message();
}

TEST(Shadow, StorageThePlanDoesNotPlaceIsNotTracked) {
  // x, w, s and d are used together with t at entry 0; none is placed.
  ShadowRun r = run(R"(schedule v1
param  x CPU float32 1024
buffer w CPU float32 1024 held
alloc  s CPU float32 1024
buffer d DISK:/w.bin float32 1024
buffer t CPU float32 1024
kernel k t x w s d
)",
                    R"(plan v1
arena arena0 CPU 1024
place t arena0 0
)");
  EXPECT_FALSE(r.clobber.has_value()) << r.clobber->message();
  EXPECT_EQ(r.calls, 1u);
}

TEST(Shadow, TheFirstClobberStopsTheRun) {
  ShadowRun r = run(kThreeCalls, R"(plan v1
arena arena0 CPU 1024
place a arena0 0
place b arena0 0
place c arena0 0
)");
  ASSERT_TRUE(r.clobber.has_value());
  // At entry 2, c claims first and a, the first to be checked, is reported.
  EXPECT_EQ(r.clobber->victim, "a");
  EXPECT_EQ(r.clobber->taker, "c");
  EXPECT_EQ(r.calls, 3u);
}

// t's 8192 bytes reach past the 8000 of its arena.
constexpr std::string_view kPastTheArena = R"(schedule v1
param  x CPU int8 256
buffer t CPU int8 8192
buffer u CPU int8 256
kernel read x
kernel fill t x
kernel fill u t
)";

TEST(Shadow, BytesPastTheEndOfTheArenaAreAFaultAtTheBuffersFirstUse) {
  ShadowRun r = run(kPastTheArena, "plan v1\narena arena0 CPU 8000\nplace t arena0 0\nplace u arena0 0\n");
  EXPECT_FALSE(r.clobber.has_value());
  ASSERT_TRUE(r.outside.has_value());
  EXPECT_EQ(r.outside->buffer, "t");
  EXPECT_EQ(r.outside->arena, "arena0");
  EXPECT_EQ(r.outside->arena_size, 8000u);
  EXPECT_EQ(r.outside->begin, 0u);
  EXPECT_EQ(r.outside->end, 8192u);
  EXPECT_EQ(r.outside->at.entry, 1u);
  // The run stops there, before u takes t's bytes at entry 2.
  EXPECT_EQ(r.calls, 2u);
  EXPECT_EQ(r.outside->message(),
            "outside-arena: t [0, 8192) of arena0 reaches past its 8000 bytes at entry 1 (kernel "
            "fill, line 6): bytes [8000, 8192) are outside it");
}

TEST(Shadow, ThePhaseCountsInTheBytesThatMustFitTheArena) {
  ShadowRun r = run(R"(schedule v1
buffer t CPU int8 256 phase=64
kernel fill t
)",
                    "plan v1\narena arena0 CPU 256\nplace t arena0 0\n");
  ASSERT_TRUE(r.outside.has_value());
  EXPECT_EQ(r.outside->begin, 64u);
  EXPECT_EQ(r.outside->end, 320u);
  EXPECT_THAT(r.outside->message(), HasSubstr("bytes [256, 320) are outside it"));
}

TEST(Shadow, ABufferThatEndsAtTheEndOfItsArenaOrHasNoBytesIsInside) {
  ShadowRun r = run(R"(schedule v1
buffer t CPU int8 256
buffer z CPU int8 0
kernel fill t z
)",
                    "plan v1\narena arena0 CPU 256\nplace t arena0 0\nplace z arena0 4096\n");
  EXPECT_FALSE(r.outside.has_value()) << r.outside->message();
  EXPECT_FALSE(r.clobber.has_value());
}

constexpr std::string_view kOne = R"(schedule v1
buffer a CPU float32 1024
kernel fill a
)";

TEST(Shadow, APlacementOfUndeclaredStorageIsBadInput) {
  Error e = run_error(kOne, "plan v1\narena arena0 CPU 1024\nplace zz arena0 0\n");
  EXPECT_EQ(e.where, "test.plan:3:1");
  EXPECT_THAT(e.what, HasSubstr("zz"));
}

TEST(Shadow, APlacementInAnUndeclaredArenaIsBadInput) {
  Error e = run_error(kOne, "plan v1\narena arena0 CPU 1024\nplace a arena9 0\n");
  EXPECT_EQ(e.where, "test.plan:3:1");
  EXPECT_THAT(e.what, HasSubstr("arena9"));
}

TEST(Shadow, ABufferPlacedTwiceIsBadInput) {
  Error e = run_error(kOne, "plan v1\narena arena0 CPU 2048\nplace a arena0 0\nplace a arena0 1024\n");
  EXPECT_EQ(e.where, "test.plan:4:1");
  EXPECT_THAT(e.what, HasSubstr("placed twice (first at line 3)"));
}

TEST(Shadow, AnArenaDeclaredTwiceIsBadInput) {
  Error e = run_error(kOne, "plan v1\narena arena0 CPU 1024\narena arena0 CPU 2048\nplace a arena0 0\n");
  EXPECT_EQ(e.where, "test.plan:3:1");
}

TEST(Shadow, ABufferEndingPastTheLargestAddressIsBadInput) {
  Schedule s = sched(kOne);
  Plan p = plan("plan v1\narena arena0 CPU 1024\nplace a arena0 0\n");
  p.placements[0].place = ~Bytes{0} - 100;
  Result<ShadowRun> r = run_shadow(s, p);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.error().what, HasSubstr("past the largest address"));
}

TEST(Shadow, NestedLoopsMultiplyTheCallsByTheIterationsAtEachLevel) {
  Schedule s = sched(R"(schedule v1
buffer a CPU float32 1024
buffer f CPU bool 256
range {
  loop flag=f {
    kernel k a
  }
  kernel j a
}
)");
  // Per outer iteration: K * (k + flag) + j.
  EXPECT_EQ(count_calls(s, 2), 2u * (2u * 2u + 1u));
  EXPECT_EQ(count_calls(s, 3), 3u * (3u * 2u + 1u));
  Result<ShadowRun> r = run_shadow(s, Plan{}, {.iterations = 3});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->calls, 21u);
}

TEST(Shadow, ARunThatWouldMakeTooManyCallsIsRefusedBeforeItStarts) {
  // 40 nested ranges make 2^40 calls at two iterations each.
  std::string text = "schedule v1\nbuffer a CPU float32 1024\n";
  for (int i = 0; i < 40; ++i) text += "range {\n";
  text += "kernel k a\n";
  for (int i = 0; i < 40; ++i) text += "}\n";
  Error e = run_error(text, "plan v1\narena arena0 CPU 1024\nplace a arena0 0\n");
  EXPECT_EQ(e.where, "test.sched");
  EXPECT_THAT(e.what, HasSubstr("1099511627776 calls"));

  // Deeper still, the count saturates rather than wrapping.
  std::string deep = "schedule v1\nbuffer a CPU float32 1024\n";
  for (int i = 0; i < 100; ++i) deep += "range {\n";
  deep += "kernel k a\n";
  for (int i = 0; i < 100; ++i) deep += "}\n";
  EXPECT_EQ(count_calls(sched(deep), 2), ~std::uint64_t{0});
  EXPECT_THAT(run_error(deep, "plan v1\n").what, HasSubstr("more than 2^64"));
}

TEST(Shadow, TheCallLimitIsInclusive) {
  Schedule s = sched(kThreeCalls);
  EXPECT_TRUE(run_shadow(s, Plan{}, {.max_calls = 3}).ok());
  EXPECT_FALSE(run_shadow(s, Plan{}, {.max_calls = 2}).ok());
}

TEST(Shadow, LoopBodiesMustRunAtLeastOnce) {
  EXPECT_FALSE(run_shadow(sched(kOne), Plan{}, {.iterations = 0}).ok());
}

TEST(Shadow, AnEmptyScheduleRunsClean) {
  ShadowRun r = run("schedule v1\n", "plan v1\n");
  EXPECT_FALSE(r.clobber.has_value());
  EXPECT_EQ(r.calls, 0u);
}

}  // namespace
}  // namespace planck::oracle
