// The reference planner, rule by rule (docs/planners.md#the-reference-planner-tlsf). Each test states a
// rule and the smallest schedule that shows it.

#include "planner/rules.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "tests/parsed.h"
#include "planner/plan_schedule.h"
#include "planner/planner.h"

namespace planck {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::sched;

Plan plan(const Schedule& s) {
  auto p = make_planner("tlsf")->plan(s);
  EXPECT_TRUE(p.ok()) << p.error().message();
  return p.ok() ? std::move(p).value() : Plan{};
}

std::map<std::string, Bytes> places(const Plan& p) {
  std::map<std::string, Bytes> out;
  for (const Placement& pl : p.placements) out[pl.buffer] = pl.place;
  return out;
}

// The names of the storage an entry takes (rule 1), each once, in order of
// its first take.
std::vector<std::string> taken_names(const Schedule& s, const Entry& e) {
  std::vector<std::string> out;
  for_each_taken(e, [&](StorageId id) {
    if (std::find(out.begin(), out.end(), s.storage[id].name) == out.end()) out.push_back(s.storage[id].name);
  });
  return out;
}

std::vector<std::string> planned_names(const Schedule& s) {
  std::vector<std::string> out;
  for (const Lifetime& l : planned_lifetimes(s)) out.push_back(s.storage[l.buffer].name);
  return out;
}

TEST(PlannerRule1, ACallTakesEachStorageOnceInArgumentOrder) {
  Schedule s = sched(R"(schedule v1
buffer a CPU int8 256
buffer b CPU int8 256
kernel k b a b shrink(a, 0, 8)
)");
  EXPECT_THAT(taken_names(s, s.entries[0]), ElementsAre("b", "a"));
}

TEST(PlannerRule1, AViewPassesTheStorageItViewsThroughAnyDepth) {
  Schedule s = sched(R"(schedule v1
buffer a CPU float32 256
kernel k after(bitcast(shrink(after(a), 0, 128), int32))
)");
  EXPECT_THAT(taken_names(s, s.entries[0]), ElementsAre("a"));
}

TEST(PlannerRule1, ALoopTakesItsCallsStorageNestedLoopsIncludedThenItsFlag) {
  Schedule s = sched(R"(schedule v1
buffer f CPU bool 1
buffer a CPU int8 256
buffer b CPU int8 256
buffer c CPU int8 256
loop flag=f {
  kernel k1 a f
  range {
    kernel k2 c
  }
  kernel k3 b a
}
)");
  EXPECT_THAT(taken_names(s, s.entries[0]), ElementsAre("a", "f", "c", "b"));
  Schedule t = sched(R"(schedule v1
buffer f CPU bool 1
buffer a CPU int8 256
loop flag=shrink(f, 0, 1) {
  kernel k a
}
)");
  EXPECT_THAT(taken_names(t, t.entries[0]), ElementsAre("a", "f"));
}

TEST(PlannerRule2, OnlyTakenBuffersThatAreNeitherHeldNorOnADiskArePlanned) {
  Schedule s = sched(R"(schedule v1
buffer planned CPU int8 256
buffer weight CPU int8 256 held
buffer file DISK:/w.bin int8 256
alloc scratch CPU int8 256
param input CPU int8 256
buffer unused CPU int8 256
kernel k input weight file scratch planned
)");
  EXPECT_THAT(planned_names(s), ElementsAre("planned"));
  EXPECT_THAT(places(plan(s)), ElementsAre(std::pair<const std::string, Bytes>("planned", 0)));
}

TEST(PlannerRule3, ABufferLivesFromTheFirstTopLevelEntryThatTakesItToTheLast) {
  Schedule s = sched(R"(schedule v1
buffer a CPU int8 256
buffer b CPU int8 256
kernel k0 a
kernel k1 b
range {
  kernel k2 b
  kernel k3 a
}
kernel k4 b
)");
  auto lives = planned_lifetimes(s);
  ASSERT_EQ(lives.size(), 2u);
  EXPECT_EQ(lives[0].first, 0u);
  EXPECT_EQ(lives[0].last, 2u);
  EXPECT_EQ(lives[1].first, 1u);
  EXPECT_EQ(lives[1].last, 3u);
}

TEST(PlannerRule3, ABufferUsedInsideALoopLivesThroughTheWholeLoop) {
  // a is used by the first call of the loop only, c by the last: as one entry,
  // the loop keeps both alive together, so they cannot share bytes.
  Schedule s = sched(R"(schedule v1
buffer f CPU bool 256
buffer a CPU int8 256
buffer c CPU int8 256
loop flag=f {
  kernel first a
  kernel last c f
}
)");
  auto p = places(plan(s));
  EXPECT_NE(p["a"], p["c"]);
}

TEST(PlannerRule4, TheRoundedSizeCoversPhaseAndBytesIn256ByteSteps) {
  Schedule s = sched(R"(schedule v1
buffer zero CPU int8 0
buffer small CPU int8 1
buffer exact CPU int8 256
buffer phased CPU int8 200 phase=100
kernel k zero small exact phased
)");
  EXPECT_EQ(*rounded_size(s.storage[0]), 0u);
  EXPECT_EQ(*rounded_size(s.storage[1]), 256u);
  EXPECT_EQ(*rounded_size(s.storage[2]), 256u);
  EXPECT_EQ(*rounded_size(s.storage[3]), 512u);
}

TEST(PlannerRule5, EachDeviceGetsItsOwnArenaCopiesShareTheirDevicesArena) {
  Schedule s = sched(R"(schedule v1
buffer g CUDA int8 512
buffer h CPU int8 256
buffer g2 CUDA int8 256
kernel k g
copy h g
copy g2 h
kernel k2 g
)");
  Plan p = plan(s);
  ASSERT_EQ(p.arenas.size(), 2u);
  EXPECT_EQ(p.arenas[0].device, "CUDA");
  EXPECT_EQ(p.arenas[1].device, "CPU");
  // Each device's allocator starts empty: h is the first buffer of CPU.
  EXPECT_EQ(places(p)["h"], 0u);
  EXPECT_EQ(places(p)["g2"], 512u);
}

TEST(PlannerRule5, ManyZeroByteBuffersAliveAtOnceFitSinceEachCountsAsOneBlock) {
  // With the capacity 2 x sum of rounded sizes this would be 0 and fail;
  // counting each as at least 256 bytes gives every one its block.
  Schedule s = sched(R"(schedule v1
buffer a CPU int8 0
buffer b CPU int8 0
buffer c CPU int8 0
kernel k a b c
)");
  Plan p = plan(s);
  EXPECT_EQ(places(p)["a"], 0u);
  EXPECT_EQ(places(p)["b"], 256u);
  EXPECT_EQ(places(p)["c"], 512u);
  ASSERT_EQ(p.arenas.size(), 1u);
  EXPECT_EQ(p.arenas[0].size, 512u);  // round_up(max(place + 0), 256)
}

TEST(PlannerRule6, BuffersArePlacedInOrderOfFirstAppearance) {
  Schedule s = sched(R"(schedule v1
buffer x CPU int8 256
buffer y CPU int8 512
kernel k y x
)");
  Plan p = plan(s);
  EXPECT_EQ(places(p)["y"], 0u);
  EXPECT_EQ(places(p)["x"], 512u);
  EXPECT_EQ(p.placements[0].buffer, "y");
}

TEST(PlannerRule6, ABufferEndingAtAnEntryIsFreedBeforeOnesStartingThereArePlaced) {
  // a's last entry is 1, so its bytes are free from entry 2, where b starts:
  // the close runs first, and b takes a's block.
  Schedule s = sched(R"(schedule v1
buffer a CPU int8 1024
buffer keep CPU int8 256
buffer b CPU int8 1024
kernel k0 a keep
kernel k1 a keep
kernel k2 b keep
)");
  auto p = places(plan(s));
  EXPECT_EQ(p["a"], 0u);
  EXPECT_EQ(p["keep"], 1024u);
  EXPECT_EQ(p["b"], 0u);
}

TEST(PlannerRule6, BuffersAliveAtTheSameEntryNeverShareBytes) {
  Schedule s = sched(R"(schedule v1
buffer a CPU int8 1024
buffer b CPU int8 1024
kernel k0 a
kernel k1 a b
)");
  auto p = places(plan(s));
  EXPECT_EQ(p["a"], 0u);
  EXPECT_EQ(p["b"], 1024u);
}

TEST(PlannerRule7, TheBufferStartsAtPlacePlusPhaseAndTheArenaEndsAtItsLastByteRoundedUp) {
  Schedule s = sched(R"(schedule v1
buffer a CPU int8 300
buffer b CPU int8 100 phase=64
kernel k a b
)");
  Plan p = plan(s);
  EXPECT_EQ(places(p)["a"], 0u);
  EXPECT_EQ(places(p)["b"], 512u);  // rounded(a) = 512
  // b's bytes end at 512 + 64 + 100 = 676, rounded up to 768.
  ASSERT_EQ(p.arenas.size(), 1u);
  EXPECT_EQ(p.arenas[0].size, 768u);
}

TEST(PlannerRule8, ArenasTakeTheSmallestNumbersNoStorageIsNamedBy) {
  Schedule s = sched(R"(schedule v1
param arena0 CPU int8 256
buffer arena2 CPU int8 256
buffer g CUDA int8 256
buffer h CPU int8 256
kernel k g arena2 h arena0
)");
  Plan p = plan(s);
  ASSERT_EQ(p.arenas.size(), 2u);
  EXPECT_EQ(p.arenas[0].name, "arena1");
  EXPECT_EQ(p.arenas[0].device, "CUDA");
  EXPECT_EQ(p.arenas[1].name, "arena3");
  EXPECT_THAT(arena_names(s, 3), ElementsAre("arena1", "arena3", "arena4"));
}

TEST(PlannerRule9, WhenNothingIsPlannedThePlanIsEmptyAndTheOutputIsTheInput) {
  Schedule s = sched(R"(schedule v1
buffer w CPU int8 256 held
param x CPU int8 256
kernel k w x
)");
  Plan p = plan(s);
  EXPECT_TRUE(p.arenas.empty());
  EXPECT_TRUE(p.placements.empty());
  EXPECT_TRUE(is_no_op(PlanOptions{}, p));
  EXPECT_EQ(debug_line(PlanOptions{.debug = 1}, s, p), "");
}

TEST(PlannerRule9, NoMemoryPlannerLeavesEvenAPlannedScheduleAsItIs) {
  Schedule s = sched(R"(schedule v1
buffer a CPU int8 256
kernel k a
)");
  Plan p = plan(s);
  ASSERT_EQ(p.placements.size(), 1u);
  EXPECT_FALSE(is_no_op(PlanOptions{}, p));
  EXPECT_TRUE(is_no_op(PlanOptions{.no_memory_planner = true}, p));
}

// Two buffers of a million bytes each, both rounded to 1000192; b reuses a's bytes.
constexpr const char* kTwoMegabytesInOne = R"(schedule v1
buffer a CPU int8 1000000
buffer b CPU int8 1000000
kernel k0 a
kernel k1 b
)";

TEST(PlannerRule10, TheDebugLineSaysTheMemorySavedOnlyWhenItDiffers) {
  Schedule s = sched(kTwoMegabytesInOne);
  const PlanOptions debug{.debug = 1};
  EXPECT_EQ(debug_line(debug, s, plan(s)), "memory reduced from 2.00 MB -> 1.00 MB, 2 -> 1 bufs");
  Schedule one = sched(R"(schedule v1
buffer a CPU int8 1000
kernel k0 a
)");
  EXPECT_EQ(debug_line(debug, one, plan(one)), "");
}

TEST(PlannerRule10, TheDebugLineNeedsDebugAtOneOrMore) {
  Schedule s = sched(kTwoMegabytesInOne);
  EXPECT_EQ(debug_line(PlanOptions{.debug = 0}, s, plan(s)), "");
  EXPECT_EQ(debug_line(PlanOptions{.debug = -1}, s, plan(s)), "");
  EXPECT_THAT(debug_line(PlanOptions{.debug = 2}, s, plan(s)), HasSubstr("2 -> 1 bufs"));
}

TEST(PlannerOverflow, ASumOfSizesPast2To64IsAnErrorNamingTheBuffer) {
  // Each buffer is just below 2^62 bytes; four of them pass 2^64 when summed.
  std::string text = "schedule v1\n";
  for (int i = 0; i < 4; ++i) text += "buffer big" + std::to_string(i) + " CPU int8 4611686018427387903\n";
  text += "kernel k big0 big1 big2 big3\n";
  Schedule s = sched(text);
  auto p = make_planner("tlsf")->plan(s);
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(p.error().message(), HasSubstr("overflow"));
  EXPECT_THAT(p.error().message(), HasSubstr("big3"));
}

}  // namespace
}  // namespace planck
