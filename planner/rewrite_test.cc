// Rule 8 of docs/planners.md#the-reference-planner-tlsf, the rewrite. Each test states what the rule says
// with the smallest schedule and plan that show it, and the rewritten
// schedule, in canonical text, that must come out.

#include "planner/rewrite.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "model/schedule_printer.h"
#include "model/schedule_reader.h"
#include "planner/planner.h"
#include "tests/parsed.h"

namespace planck {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

// The schedule rewritten by the plan, printed; a rewrite that fails fails the test.
std::string rewritten(std::string_view schedule, std::string_view plan) {
  Result<Schedule> r = rewrite(testing::sched(schedule), testing::plan(plan));
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message());
  return r.ok() ? print_schedule(*r) : "";
}

// The message of the rewrite's error, or "" (and a failure) when it succeeds.
std::string rewrite_error(std::string_view schedule, std::string_view plan) {
  Result<Schedule> r = rewrite(testing::sched(schedule), testing::plan(plan));
  EXPECT_FALSE(r.ok()) << print_schedule(*r);
  return r.ok() ? "" : r.error().message();
}

TEST(Rewrite, EachPlannedBufferBecomesABitcastShrinkOfItsArenaAndItsDeclarationGoes) {
  EXPECT_EQ(rewritten(R"(schedule v1
param x CPU float32 256
buffer a CPU float32 512
buffer b CPU int32 256
kernel k0 a x
kernel k1 b a
)",
                      "plan v1\narena arena0 CPU 768\nplace a arena0 0\nplace b arena0 512\n"),
            R"(schedule v1
param x CPU float32 256
buffer arena0 CPU int8 768
kernel k0 bitcast(shrink(arena0, 0, 512), float32) x
kernel k1 bitcast(shrink(arena0, 512, 256), int32) bitcast(shrink(arena0, 0, 512), float32)
)");
}

TEST(Rewrite, TheOffsetIsThePlacePlusThePhase) {
  // a's bytes start at 0 + 64; b's at 256 + 128. An int8 buffer is bitcast too.
  EXPECT_EQ(rewritten(R"(schedule v1
buffer a CPU int8 100 phase=64
buffer b CPU int16 200 phase=128
kernel k a b
)",
                      "plan v1\narena arena0 CPU 768\nplace a arena0 0\nplace b arena0 256\n"),
            R"(schedule v1
buffer arena0 CPU int8 768
kernel k bitcast(shrink(arena0, 64, 100), int8) bitcast(shrink(arena0, 384, 200), int16)
)");
}

TEST(Rewrite, ArenasAreDeclaredAfterTheStorageThatStaysInThePlansOrderOfDevices) {
  EXPECT_EQ(rewritten(R"(schedule v1
buffer h CPU int8 256
buffer d CUDA int8 512
param x CPU int8 256
copy d h
kernel k x
)",
                      "plan v1\narena arena0 CUDA 512\narena arena1 CPU 256\n"
                      "place d arena0 0\nplace h arena1 0\n"),
            R"(schedule v1
param x CPU int8 256
buffer arena0 CUDA int8 512
buffer arena1 CPU int8 256
copy bitcast(shrink(arena0, 0, 512), int8) bitcast(shrink(arena1, 0, 256), int8)
kernel k x
)");
}

TEST(Rewrite, ViewsOfAPlannedBufferAreRewrittenInsideAndKeepTheirOwnBounds) {
  // The views' bounds are bytes of the buffer, so they stay as they are.
  EXPECT_EQ(rewritten(R"(schedule v1
buffer a CPU float32 1024
kernel k shrink(a, 256, 512) bitcast(a, int8) after(a) after(shrink(bitcast(a, float16), 0, 8))
)",
                      "plan v1\narena arena0 CPU 1280\nplace a arena0 256\n"),
            "schedule v1\n"
            "buffer arena0 CPU int8 1280\n"
            "kernel k shrink(bitcast(shrink(arena0, 256, 1024), float32), 256, 512) "
            "bitcast(bitcast(shrink(arena0, 256, 1024), float32), int8) "
            "after(bitcast(shrink(arena0, 256, 1024), float32)) "
            "after(shrink(bitcast(bitcast(shrink(arena0, 256, 1024), float32), float16), 0, 8))\n");
}

TEST(Rewrite, APlannedBufferUsedAsALoopFlagIsRewritten) {
  EXPECT_EQ(rewritten(R"(schedule v1
param x CPU int8 256
buffer f CPU bool 1
loop flag=f {
  kernel step x
}
)",
                      "plan v1\narena arena0 CPU 256\nplace f arena0 0\n"),
            R"(schedule v1
param x CPU int8 256
buffer arena0 CPU int8 256
loop flag=bitcast(shrink(arena0, 0, 1), bool) {
  kernel step x
}
)");
}

TEST(Rewrite, APlannedBufferInsideAViewInALoopFlagIsRewritten) {
  EXPECT_EQ(rewritten(R"(schedule v1
param x CPU int8 256
buffer s CPU int32 256
loop flag=after(shrink(bitcast(s, bool), 0, 1)) {
  kernel step x
}
)",
                      "plan v1\narena arena0 CPU 256\nplace s arena0 0\n"),
            R"(schedule v1
param x CPU int8 256
buffer arena0 CPU int8 256
loop flag=after(shrink(bitcast(bitcast(shrink(arena0, 0, 256), int32), bool), 0, 1)) {
  kernel step x
}
)");
}

TEST(Rewrite, NestedLoopsAreRewrittenAtEveryDepthTheirFlagsIncluded) {
  EXPECT_EQ(rewritten(R"(schedule v1
param x CPU int8 256
buffer a CPU int8 256
buffer f CPU bool 1
buffer g CPU bool 1
range {
  kernel k0 a x
  loop flag=f {
    range {
      kernel k1 a f
    }
    loop flag=after(g) {
      kernel k2 g a
    }
  }
}
)",
                      "plan v1\narena arena0 CPU 768\nplace a arena0 0\nplace f arena0 256\n"
                      "place g arena0 512\n"),
            R"(schedule v1
param x CPU int8 256
buffer arena0 CPU int8 768
range {
  kernel k0 bitcast(shrink(arena0, 0, 256), int8) x
  loop flag=bitcast(shrink(arena0, 256, 1), bool) {
    range {
      kernel k1 bitcast(shrink(arena0, 0, 256), int8) bitcast(shrink(arena0, 256, 1), bool)
    }
    loop flag=after(bitcast(shrink(arena0, 512, 1), bool)) {
      kernel k2 bitcast(shrink(arena0, 512, 1), bool) bitcast(shrink(arena0, 0, 256), int8)
    }
  }
}
)");
}

TEST(Rewrite, UnplannedStorageAndItsViewsAreLeftAsTheyAre) {
  // A param, an alloc, held buffers (one with a phase), a disk and a buffer
  // no entry takes: declarations, order and references all stay.
  EXPECT_EQ(rewritten(R"(schedule v1
param x CPU float32 256
alloc scratch CPU int8 512
buffer w CPU float32 256 held
buffer h CPU float32 256 phase=16 held
buffer d DISK:/tmp/d.bin float32 256
buffer spare CPU int8 256
buffer a CPU float32 256
kernel k a x scratch after(shrink(w, 0, 128)) h
copy d a
)",
                      "plan v1\narena arena0 CPU 256\nplace a arena0 0\n"),
            R"(schedule v1
param x CPU float32 256
alloc scratch CPU int8 512
buffer w CPU float32 256 held
buffer h CPU float32 256 phase=16 held
buffer d DISK:/tmp/d.bin float32 256
buffer spare CPU int8 256
buffer arena0 CPU int8 256
kernel k bitcast(shrink(arena0, 0, 256), float32) x scratch after(shrink(w, 0, 128)) h
copy d bitcast(shrink(arena0, 0, 256), float32)
)");
}

TEST(Rewrite, ArenaNamesSkipEveryStorageNameThePlannedBuffersOwnIncluded) {
  // arena0..arena5 are a param, an alloc, a held buffer, a disk, a buffer no
  // entry takes and a planned buffer: the CPU arena is arena6, CUDA's arena7.
  const Schedule s = testing::sched(R"(schedule v1
param arena0 CPU int8 256
alloc arena1 CPU int8 256
buffer arena2 CPU int8 256 held
buffer arena3 DISK:/tmp/a.bin int8 256
buffer arena4 CPU int8 256
buffer arena5 CPU int8 256
buffer g CUDA int8 256
kernel k arena5 g arena0 arena1 arena2
copy arena3 arena5
)");
  Result<Plan> plan = make_planner("tlsf")->plan(s);
  ASSERT_TRUE(plan.ok()) << plan.error().message();
  Result<Schedule> r = rewrite(s, *plan);
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_EQ(print_schedule(*r), R"(schedule v1
param arena0 CPU int8 256
alloc arena1 CPU int8 256
buffer arena2 CPU int8 256 held
buffer arena3 DISK:/tmp/a.bin int8 256
buffer arena4 CPU int8 256
buffer arena6 CPU int8 256
buffer arena7 CUDA int8 256
kernel k bitcast(shrink(arena6, 0, 256), int8) bitcast(shrink(arena7, 0, 256), int8) arena0 arena1 arena2
copy arena3 bitcast(shrink(arena6, 0, 256), int8)
)");
}

TEST(Rewrite, AnEmptyPlanGivesTheScheduleBack) {
  // Rule 9: with nothing placed (NO_MEMORY_PLANNER, or nothing to plan)
  // the schedule stays as it is, though it has buffers a planner would plan.
  const std::string_view text = R"(schedule v1
param x CPU int8 256
buffer a CPU int8 256 phase=8
buffer f CPU bool 1
loop flag=after(f) {
  kernel k shrink(a, 0, 16) x
}
)";
  EXPECT_EQ(rewritten(text, "plan v1\n"), text);
}

TEST(Rewrite, APlanThatDoesNotFitTheScheduleIsAnErrorNamingWhatIsWrong) {
  const std::string_view s = R"(schedule v1
param input CPU int8 256
buffer act CPU int8 256 phase=8
kernel k act input
)";
  EXPECT_THAT(rewrite_error(s, "plan v1\narena arena0 CPU 512\nplace ghost arena0 0\n"), HasSubstr("ghost"));
  EXPECT_THAT(rewrite_error(s, "plan v1\narena arena0 CPU 512\nplace act arena9 0\n"), HasSubstr("arena9"));
  EXPECT_THAT(rewrite_error(s, "plan v1\narena arena0 CPU 512\nplace act arena0 0\nplace act arena0 256\n"),
              AllOf(HasSubstr("act"), HasSubstr("twice")));
  EXPECT_THAT(rewrite_error(s, "plan v1\narena arena0 CPU 512\narena arena0 CPU 512\nplace act arena0 0\n"),
              AllOf(HasSubstr("arena0"), HasSubstr("twice")));
  // act's bytes would be [256 + 8, 256 + 8 + 256): past an arena of 512.
  EXPECT_THAT(rewrite_error(s, "plan v1\narena arena0 CPU 512\nplace act arena0 256\n"),
              AllOf(HasSubstr("act"), HasSubstr("arena0")));
  // An arena named like the schedule's storage would give two declarations one name.
  EXPECT_THAT(rewrite_error(s, "plan v1\narena input CPU 512\nplace act input 0\n"), HasSubstr("input"));
}

TEST(Rewrite, AViewThatWouldNestPastWhatTheParserReadsIsAnErrorAtItsEntryNamingItsBuffer) {
  // A planned buffer's reference grows two views deeper. Under 198 views
  // the result nests 200 deep, which parses back; under 199 it would not.
  auto nested = [](int views) {
    std::string arg = "a";
    for (int i = 0; i < views; ++i) arg = "after(" + arg + ")";
    return "schedule v1\nbuffer a CPU int8 256\nkernel k " + arg + "\n";
  };
  const std::string_view plan = "plan v1\narena arena0 CPU 256\nplace a arena0 0\n";
  const std::string fits = rewritten(nested(kMaxNesting - 2), plan);
  EXPECT_TRUE(parse_schedule(fits, "rewritten").ok());
  EXPECT_THAT(rewrite_error(nested(kMaxNesting - 1), plan),
              HasSubstr("test.sched:3:1: the rewritten view of a would nest deeper than 200"));
}

}  // namespace
}  // namespace planck
