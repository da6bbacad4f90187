// The planners of docs/planners.md#the-other-planners: each scenario is a small table of buffers
// and the exact places expected, derived by hand in a comment. Lifetimes are
// inclusive ranges of top-level entries; "rounded" is round_up(phase +
// bytes, 256), the bytes a planner keeps apart.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gen/chain.h"
#include "gen/choices.h"
#include "gen/random_schedules.h"
#include "gen/schedule_parts.h"
#include "model/live_bytes.h"
#include "model/schedule_printer.h"
#include "model/schedule_reader.h"
#include "planner/plain_planners.h"
#include "planner/planner.h"

namespace planck {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Places = std::map<std::string, Bytes>;

const std::vector<std::string> kHeuristics = {"greedy", "bysize", "naive", "best"};

Schedule parse(std::string_view text) {
  auto s = parse_schedule(text, "test.sched");
  EXPECT_TRUE(s.ok()) << s.error().message();
  return s.ok() ? std::move(s).value() : Schedule{};
}

// The planner's plan; for greedy and bysize, the plain twin's too, which
// every scenario below expects to be the same, byte for byte.
Plan plan(std::string_view planner, const Schedule& s) {
  auto p = make_planner(planner)->plan(s);
  EXPECT_TRUE(p.ok()) << planner << ": " << p.error().message();
  if (!p.ok()) return Plan{};
  if (const std::unique_ptr<Planner> twin = plain_twin(planner)) {
    auto plain = twin->plan(s);
    EXPECT_TRUE(plain.ok()) << twin->name() << ": " << plain.error().message();
    if (plain.ok()) {
      EXPECT_EQ(print_plan(*p), print_plan(*plain)) << planner << " and " << twin->name();
    }
  }
  return std::move(p).value();
}

Places places(const Plan& p) {
  Places out;
  for (const Placement& pl : p.placements) out[pl.buffer] = pl.place;
  return out;
}

std::vector<Bytes> arena_sizes(const Plan& p) {
  std::vector<Bytes> out;
  for (const Arena& a : p.arenas) out.push_back(a.size);
  return out;
}

std::vector<std::string> placement_order(const Plan& p) {
  std::vector<std::string> out;
  for (const Placement& pl : p.placements) out.push_back(pl.buffer);
  return out;
}

// Four buffers of 2^62 - 1 bytes (rounded 2^62), alive together: laid side
// by side, the fourth would end at 2^64.
std::string four_huge_buffers() {
  std::string text = "schedule v1\n";
  for (int i = 0; i < 4; ++i) text += "buffer big" + std::to_string(i) + " CPU int8 4611686018427387903\n";
  return text + "kernel k big0 big1 big2 big3\n";
}

TEST(GreedyPlanner, ABufferTakesOffsetZeroOfTheFirstObjectWithNoBufferAliveWithIt) {
  // buffer  rounded  lives   greedy, largest first
  // a       1024     [0,0]   new object 0 (base 0), offset 0
  // b        768     [0,1]   alive with a; 1024 + 768 > 1024: new object 1 (base 1024)
  // c        512     [1,2]   object 0 has nothing alive with it: offset 0
  // d        256     [2,2]   object 0 holds c, alive with d; object 1's b is not:
  //                          offset 0 of object 1, though d would fit above c in object 0
  Schedule s = parse(R"(schedule v1
buffer a CPU int8 1024
buffer b CPU int8 768
buffer c CPU int8 512
buffer d CPU int8 256
kernel k0 a b
kernel k1 b c
kernel k2 c d
)");
  Plan p = plan("greedy", s);
  EXPECT_EQ(places(p), (Places{{"a", 0}, {"b", 1024}, {"c", 0}, {"d", 1024}}));
  EXPECT_THAT(arena_sizes(p), ElementsAre(1792));
}

TEST(GreedyPlanner, ABufferStacksAboveTheBuffersAliveWithItWhenTheObjectHasRoom) {
  // buffer  rounded  lives   greedy
  // a       1024     [0,0]   new object 0, offset 0
  // b        512     [1,2]   object 0, offset 0 (a is dead by then)
  // c        256     [2,2]   alive with b: above b's end, 512 + 256 <= 1024
  Schedule s = parse(R"(schedule v1
buffer a CPU int8 1024
buffer b CPU int8 512
buffer c CPU int8 256
kernel k0 a
kernel k1 b
kernel k2 b c
)");
  Plan p = plan("greedy", s);
  EXPECT_EQ(places(p), (Places{{"a", 0}, {"b", 0}, {"c", 512}}));
  EXPECT_THAT(arena_sizes(p), ElementsAre(1024));
}

TEST(GreedyPlanner, AnObjectNeverGrowsABufferThatDoesNotFitOpensANewOneAtTheEnd) {
  // buffer  rounded  lives   greedy
  // a       1024     [0,0]   new object 0 (base 0)
  // b        768     [1,1]   object 0, offset 0
  // c        512     [1,1]   above b: 768 + 512 > 1024; new object 1 at base 1024
  // bysize would put c at 768 and end at 1280: greedy keeps the objects' sizes.
  Schedule s = parse(R"(schedule v1
buffer a CPU int8 1024
buffer b CPU int8 768
buffer c CPU int8 512
kernel k0 a
kernel k1 b c
)");
  Plan p = plan("greedy", s);
  EXPECT_EQ(places(p), (Places{{"a", 0}, {"b", 0}, {"c", 1024}}));
  EXPECT_THAT(arena_sizes(p), ElementsAre(1536));
  EXPECT_THAT(arena_sizes(plan("bysize", s)), ElementsAre(1280));
}

TEST(GreedyPlanner, ABufferPassesOverTheObjectsAliveWithItToTheFirstThatIsNot) {
  // buffer  rounded  lives   greedy
  // o0      1024     [0,1]   new object 0 (base 0)
  // o1       768     [0,0]   alive with o0, no room above it: new object 1 (base 1024)
  // o2       512     [0,1]   no room above o0 or o1: new object 2 (base 1792)
  // b        256     [1,1]   objects 0 and 2 hold o0 and o2, alive with it; object 1's
  //                          o1 is dead: offset 0 of object 1, between the two
  Schedule s = parse(R"(schedule v1
buffer o0 CPU int8 1024
buffer o1 CPU int8 768
buffer o2 CPU int8 512
buffer b CPU int8 256
kernel k0 o0 o1 o2
kernel k1 o0 o2 b
)");
  Plan p = plan("greedy", s);
  EXPECT_EQ(places(p), (Places{{"o0", 0}, {"o1", 1024}, {"o2", 1792}, {"b", 1024}}));
  EXPECT_THAT(arena_sizes(p), ElementsAre(2304));
}

TEST(GreedyPlanner, WhenEveryObjectHoldsOneAliveWithItABufferStacksInTheFirstWithRoom) {
  // buffer  rounded  lives   greedy, largest first
  // a       1024     [0,2]   new object 0 (base 0)
  // b        768     [0,0]   alive with a, no room above it: new object 1 (base 1024)
  // d        512     [2,2]   object 1's b is dead: offset 0 of object 1
  // c        256     [1,2]   alive with a (object 0) and d (object 1): no room above
  //                          a; above d, 512 + 256 fits object 1's 768 exactly: 512
  Schedule s = parse(R"(schedule v1
buffer a CPU int8 1024
buffer b CPU int8 768
buffer c CPU int8 256
buffer d CPU int8 512
kernel k0 a b
kernel k1 a c
kernel k2 a c d
)");
  Plan p = plan("greedy", s);
  EXPECT_EQ(places(p), (Places{{"a", 0}, {"b", 1024}, {"c", 1536}, {"d", 1024}}));
  EXPECT_THAT(arena_sizes(p), ElementsAre(1792));
}

TEST(HeuristicPlanners, BuffersOfEqualSizeArePlacedInOrderOfFirstAppearance) {
  // c, a and b (512 each) are all alive at entry 1; c appears first, then a,
  // then b, and that is the order in which they are placed: c 0, a 512, b 1024,
  // for greedy (one object each) and bysize (each above the others) alike.
  Schedule s = parse(R"(schedule v1
buffer a CPU int8 512
buffer b CPU int8 512
buffer c CPU int8 512
kernel k0 c
kernel k1 a b c
)");
  for (const char* name : {"greedy", "bysize"}) {
    EXPECT_EQ(places(plan(name, s)), (Places{{"a", 512}, {"b", 1024}, {"c", 0}})) << name;
  }
}

TEST(BySizePlanner, AGapExactlyTheBuffersSizeTakesIt) {
  // buffer  rounded  lives   bysize
  // p       1024     [0,0]   0
  // q        512     [0,1]   above p, 1024
  // r        512     [1,2]   alive with q [1024,1536): the gap [0,1024) fits, 0
  // s        512     [1,1]   alive with r [0,512) and q [1024,1536): the gap
  //                          [512,1024) is exactly 512 bytes: 512, not 1536
  Schedule s = parse(R"(schedule v1
buffer p CPU int8 1024
buffer q CPU int8 512
buffer r CPU int8 512
buffer s CPU int8 512
kernel k0 p q
kernel k1 q r s
kernel k2 r
)");
  Plan p = plan("bysize", s);
  EXPECT_EQ(places(p), (Places{{"p", 0}, {"q", 1024}, {"r", 0}, {"s", 512}}));
  EXPECT_THAT(arena_sizes(p), ElementsAre(1536));
}

TEST(BySizePlanner, ABufferTakesTheLowestGapBetweenPlacedBuffersAliveWithIt) {
  // buffer  rounded  lives   bysize, largest first
  // a       1024     [0,0]   0
  // b        512     [0,1]   alive with a [0,1024): above it, 1024
  // c        256     [1,2]   alive with b [1024,1536): the gap [0,1024) fits, 0
  // d        256     [1,2]   alive with c [0,256) and b [1024,1536): the gap
  //                          [256,1024) between them fits, 256
  Schedule s = parse(R"(schedule v1
buffer a CPU int8 1024
buffer b CPU int8 512
buffer c CPU int8 256
buffer d CPU int8 256
kernel k0 a b
kernel k1 b c d
kernel k2 c d
)");
  Plan p = plan("bysize", s);
  EXPECT_EQ(places(p), (Places{{"a", 0}, {"b", 1024}, {"c", 0}, {"d", 256}}));
  EXPECT_THAT(arena_sizes(p), ElementsAre(1536));
}

TEST(BySizePlanner, OfTwoGapsThatFitTheLowestIsTaken) {
  // buffer  rounded  lives   bysize, largest first (equal sizes in order of appearance)
  // p        512     [0,0]   0
  // s        512     [0,1]   above p, 512
  // q        256     [0,0]   above p and s, 1024
  // r        256     [0,1]   above p, s and q, 1280
  // t        256     [1,1]   alive with s [512,1024) and r [1280,1536): the gaps
  //                          [0,512) and [1024,1280) both fit; the lowest, 0
  // (Pisarchyk and Lee take the smallest gap, which would put t at 1024.)
  Schedule s = parse(R"(schedule v1
buffer p CPU int8 512
buffer q CPU int8 256
buffer r CPU int8 256
buffer s CPU int8 512
buffer t CPU int8 256
kernel k0 p q r s
kernel k1 r s t
)");
  Plan p = plan("bysize", s);
  EXPECT_EQ(places(p), (Places{{"p", 0}, {"q", 1024}, {"r", 1280}, {"s", 512}, {"t", 0}}));
  EXPECT_THAT(arena_sizes(p), ElementsAre(1536));
}

TEST(BySizePlanner, AGapTooSmallIsPassedOverAndTheBufferGoesAboveThemAll) {
  // buffer  rounded  lives   bysize
  // a       1024     [0,0]   0
  // b        768     [0,1]   above a, 1024
  // c        768     [1,1]   alive with b [1024,1792): the gap [0,1024) fits, 0
  // d        512     [1,1]   alive with c [0,768) and b [1024,1792): the gap
  //                          [768,1024) is 256 bytes, too small: above both, 1792
  Schedule s = parse(R"(schedule v1
buffer a CPU int8 1024
buffer b CPU int8 768
buffer c CPU int8 768
buffer d CPU int8 512
kernel k0 a b
kernel k1 b c d
)");
  Plan p = plan("bysize", s);
  EXPECT_EQ(places(p), (Places{{"a", 0}, {"b", 1024}, {"c", 0}, {"d", 1792}}));
  EXPECT_THAT(arena_sizes(p), ElementsAre(2304));
}

TEST(BySizePlanner, TheLargestBufferIsPlacedFirstButPlacementsKeepTheOrderOfFirstAppearance) {
  // small appears first, but large (1024) is placed first at 0; small,
  // alive with it, goes above: 1024. The reference planner places in
  // order of time instead: small 0, large 256.
  Schedule s = parse(R"(schedule v1
buffer small CPU int8 256
buffer large CPU int8 1024
kernel k0 small
kernel k1 small large
)");
  Plan p = plan("bysize", s);
  EXPECT_EQ(places(p), (Places{{"small", 1024}, {"large", 0}}));
  EXPECT_THAT(placement_order(p), ElementsAre("small", "large"));
  EXPECT_EQ(places(plan("tlsf", s)), (Places{{"small", 0}, {"large", 256}}));
}

TEST(NaivePlanner, EveryBufferGetsItsOwnBytesEndToEndInOrderOfFirstAppearance) {
  // In order of first appearance: b (256), a (rounded 512), z (0), d (100
  // bytes at phase 64: rounded 256). No two are alive together, yet none
  // shares: b 0, a 256, z 768 (taking nothing), d 768. d's bytes end at
  // 768 + 64 + 100 = 932: the arena is 1024.
  Schedule s = parse(R"(schedule v1
buffer a CPU int8 300
buffer b CPU int8 256
buffer z CPU int8 0
buffer d CPU int8 100 phase=64
kernel k0 b a
kernel k1 z
kernel k2 d
)");
  Plan p = plan("naive", s);
  EXPECT_EQ(places(p), (Places{{"a", 256}, {"b", 0}, {"z", 768}, {"d", 768}}));
  EXPECT_THAT(placement_order(p), ElementsAre("b", "a", "z", "d"));
  EXPECT_THAT(arena_sizes(p), ElementsAre(1024));
}

TEST(NaivePlanner, TheArenaIsTheSumOfTheRoundedSizesWhateverTheLifetimes) {
  // Three 256-byte buffers, each alive alone: every other planner needs
  // 256 bytes, naive 3 x 256.
  Schedule s = parse(R"(schedule v1
buffer a CPU int8 256
buffer b CPU int8 256
buffer c CPU int8 256
kernel k0 a
kernel k1 b
kernel k2 c
)");
  EXPECT_EQ(places(plan("naive", s)), (Places{{"a", 0}, {"b", 256}, {"c", 512}}));
  EXPECT_THAT(arena_sizes(plan("naive", s)), ElementsAre(768));
  for (const char* other : {"tlsf", "greedy", "bysize"}) {
    EXPECT_THAT(arena_sizes(plan(other, s)), ElementsAre(256)) << other;
  }
}

TEST(BestPlanner, KeepsThePlanWithTheFewestArenaBytes) {
  // buffer  rounded  lives
  // a       256      [0,1]
  // b       256      [0,0]
  // k       256      [0,1]
  // c       512      [1,1]
  // tlsf: a 0, b 256, k 512; at entry 1 b's block [256,512) is free but too
  //       small for c, which goes to 768: arena 1280.
  // greedy: c object 0; a alive with c, no room above it: object 1 at 512;
  //       b (dead at 1) object 0 offset 0; k alive with everything: object 2
  //       at 768: arena 1024.
  // bysize: c 0; a above c, 512; b alive with a only, 0; k above all, 768: 1024.
  // naive: 1280. The best is greedy's plan, the first of the two at 1024.
  Schedule s = parse(R"(schedule v1
buffer a CPU int8 256
buffer b CPU int8 256
buffer k CPU int8 256
buffer c CPU int8 512
kernel k0 a b k
kernel k1 a k c
)");
  EXPECT_THAT(arena_sizes(plan("tlsf", s)), ElementsAre(1280));
  EXPECT_THAT(arena_sizes(plan("naive", s)), ElementsAre(1280));
  Plan p = plan("best", s);
  EXPECT_EQ(places(p), (Places{{"a", 512}, {"b", 0}, {"k", 768}, {"c", 0}}));
  EXPECT_THAT(arena_sizes(p), ElementsAre(1024));
}

TEST(BestPlanner, OnATieTheEarlierPlannerWins) {
  // a (256) and b (512) alive together: every planner needs 768 bytes.
  // tlsf and naive place in order of first appearance (a 0, b 256), greedy
  // and bysize largest first (b 0, a 512); tlsf comes first.
  Schedule s = parse(R"(schedule v1
buffer a CPU int8 256
buffer b CPU int8 512
kernel k a b
)");
  EXPECT_EQ(places(plan("greedy", s)), (Places{{"a", 512}, {"b", 0}}));
  Plan p = plan("best", s);
  EXPECT_EQ(places(p), (Places{{"a", 0}, {"b", 256}}));
  EXPECT_THAT(arena_sizes(p), ElementsAre(768));
}

TEST(BestPlanner, APlannerThatFailsIsPassedOver) {
  // Three buffers of 2^62 - 1 bytes alive together: the reference planner's
  // allocator capacity, twice their rounded total 3 x 2^62, passes 2^64;
  // the heuristics lay them side by side in 3 x 2^62 bytes.
  Schedule s = parse(R"(schedule v1
buffer big0 CPU int8 4611686018427387903
buffer big1 CPU int8 4611686018427387903
buffer big2 CPU int8 4611686018427387903
kernel k big0 big1 big2
)");
  ASSERT_FALSE(make_planner("tlsf")->plan(s).ok());
  Plan p = plan("best", s);
  EXPECT_THAT(arena_sizes(p), ElementsAre(3 * (Bytes{1} << 62)));
}

TEST(BestPlanner, WhenEveryPlannerFailsTheFirstOnesErrorIsGiven) {
  Schedule s = parse(four_huge_buffers());
  auto tlsf = make_planner("tlsf")->plan(s);
  ASSERT_FALSE(tlsf.ok());
  auto best = make_planner("best")->plan(s);
  ASSERT_FALSE(best.ok());
  EXPECT_EQ(best.error().message(), tlsf.error().message());
}

TEST(HeuristicPlanners, TheBytesStartAtPlacePlusPhaseAndTheArenaCoversThem) {
  // p: 200 bytes at phase 100, rounded 512, so q cannot start before 512.
  // q: 100 bytes at phase 200 (rounded 512); they end at 512 + 200 + 100 =
  // 812: the arena is 1024, where the bytes alone would end by 768.
  Schedule s = parse(R"(schedule v1
buffer p CPU int8 200 phase=100
buffer q CPU int8 100 phase=200
kernel k p q
)");
  for (const std::string& name : kHeuristics) {
    Plan p = plan(name, s);
    EXPECT_EQ(places(p), (Places{{"p", 0}, {"q", 512}})) << name;
    EXPECT_THAT(arena_sizes(p), ElementsAre(1024)) << name;
  }
}

TEST(HeuristicPlanners, ZeroByteBuffersTakeNoBytes) {
  // a and b have no bytes; w (256) is alive with both.
  // greedy: w object 0; a stacks above w at 256 (256 + 0 fits in 256), b too.
  // bysize: w 0; the empty gap below w fits a and b: both 0.
  // naive: a 0, w 0, b 256 (a takes nothing).
  // best: all three need 256 bytes (tlsf gives each a block: 768); greedy's.
  Schedule s = parse(R"(schedule v1
buffer a CPU int8 0
buffer w CPU int8 256
buffer b CPU int8 0
kernel k a w b
)");
  const std::map<std::string, Places> expected = {
      {"greedy", {{"a", 256}, {"w", 0}, {"b", 256}}},
      {"bysize", {{"a", 0}, {"w", 0}, {"b", 0}}},
      {"naive", {{"a", 0}, {"w", 0}, {"b", 256}}},
      {"best", {{"a", 256}, {"w", 0}, {"b", 256}}},
  };
  for (const auto& [name, want] : expected) {
    Plan p = plan(name, s);
    EXPECT_EQ(places(p), want) << name;
    EXPECT_THAT(arena_sizes(p), ElementsAre(256)) << name;
  }
}

TEST(HeuristicPlanners, EachDeviceIsPlannedApartInItsOwnArenaInOrderOfFirstAppearance) {
  // CUDA: g (512, [0,3]), g2 (256, [2,2]);  CPU: h (256, [1,2]), h2 (512, [3,3]).
  // CUDA comes first: arena0. On each, places start at 0.
  // greedy/bysize: g 0, g2 above it 512 (768); h2 0, h (dead before h2) 0 (512).
  // naive: g 0, g2 512 (768); h 0, h2 256 (768).
  Schedule s = parse(R"(schedule v1
buffer g CUDA int8 512
buffer h CPU int8 256
buffer g2 CUDA int8 256
buffer h2 CPU int8 512
kernel k g
copy h g
copy g2 h
kernel k2 g h2
)");
  const std::map<std::string, std::pair<Places, std::vector<Bytes>>> expected = {
      {"greedy", {{{"g", 0}, {"g2", 512}, {"h", 0}, {"h2", 0}}, {768, 512}}},
      {"bysize", {{{"g", 0}, {"g2", 512}, {"h", 0}, {"h2", 0}}, {768, 512}}},
      {"naive", {{{"g", 0}, {"g2", 512}, {"h", 0}, {"h2", 256}}, {768, 768}}},
  };
  for (const auto& [name, want] : expected) {
    Plan p = plan(name, s);
    ASSERT_EQ(p.arenas.size(), 2u) << name;
    EXPECT_EQ(p.arenas[0].name, "arena0") << name;
    EXPECT_EQ(p.arenas[0].device, "CUDA") << name;
    EXPECT_EQ(p.arenas[1].name, "arena1") << name;
    EXPECT_EQ(p.arenas[1].device, "CPU") << name;
    EXPECT_EQ(places(p), want.first) << name;
    EXPECT_EQ(arena_sizes(p), want.second) << name;
    EXPECT_THAT(placement_order(p), ElementsAre("g", "h", "g2", "h2")) << name;
    for (const Placement& pl : p.placements) {
      EXPECT_EQ(pl.arena, pl.buffer[0] == 'g' ? "arena0" : "arena1") << name << " " << pl.buffer;
    }
  }
}

TEST(HeuristicPlanners, NothingPlannedGivesAnEmptyPlan) {
  Schedule s = parse(R"(schedule v1
buffer w CPU int8 256 held
buffer d DISK:/w.bin int8 256
param x CPU int8 256
kernel k w d x
)");
  for (const std::string& name : kHeuristics) {
    Plan p = plan(name, s);
    EXPECT_TRUE(p.arenas.empty()) << name;
    EXPECT_TRUE(p.placements.empty()) << name;
  }
}

TEST(HeuristicPlanners, AnOverflowIsAnErrorNamingTheBuffer) {
  Schedule s = parse(four_huge_buffers());
  for (const std::string& name : kHeuristics) {
    auto p = make_planner(name)->plan(s);
    ASSERT_FALSE(p.ok()) << name;
    EXPECT_THAT(p.error().message(), HasSubstr("overflow")) << name;
    EXPECT_THAT(p.error().message(), HasSubstr("big3")) << name;
  }
}

TEST(HeuristicPlanners, OnLongChainsTheyPlaceAsTheirPlainTwins) {
  // Thousands of buffers, each alive with a few (window 4) or with hundreds
  // (window 300) of its neighbours in time, of few sizes (up to 2 KiB, so
  // many equal) or of many (up to 1 MiB).
  for (const gen::ChainOptions& options :
       {gen::ChainOptions{.buffers = 3000, .window = 4, .max_bytes = 2048},
        gen::ChainOptions{.buffers = 2000, .window = 300, .max_bytes = 2048},
        gen::ChainOptions{.buffers = 2000, .window = 16, .max_bytes = Bytes{1} << 20}}) {
    gen::SeededChoices choices(options.buffers + options.window);
    const Schedule s = gen::generate_chain_schedule(choices, options);
    for (const char* name : {"greedy", "bysize"}) plan(name, s);
  }
}

TEST(HeuristicPlanners, GreedyAndBysizeStopAtADeadlinePassedAndTheOthersFinish) {
  gen::SeededChoices choices(3);
  const Schedule s = gen::generate_chain_schedule(choices, {.buffers = 3000});
  const auto passed = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  for (const char* name : {"greedy", "bysize"}) {
    const auto p = make_planner(name)->plan_until(s, passed);
    ASSERT_FALSE(p.ok()) << name;
    EXPECT_EQ(p.error().kind, "planner-timeout") << name;
    const auto in_time = make_planner(name)->plan_until(s, std::chrono::steady_clock::time_point::max());
    ASSERT_TRUE(in_time.ok()) << name;
    EXPECT_EQ(print_plan(*in_time), print_plan(plan(name, s))) << name;
  }
  // The reference planner and naive cannot stop midway: they finish, late.
  for (const char* name : {"tlsf", "naive"}) {
    const auto p = make_planner(name)->plan_until(s, passed);
    ASSERT_TRUE(p.ok()) << name;
    EXPECT_EQ(print_plan(*p), print_plan(plan(name, s))) << name;
  }
}

TEST(HeuristicRegistry, ThePlainTwinsAreNotInTheRegistry) {
  for (const char* name : {"greedy_plain", "bysize_plain"}) EXPECT_EQ(make_planner(name), nullptr) << name;
  EXPECT_EQ(plain_twin("greedy")->name(), "greedy_plain");
  EXPECT_EQ(plain_twin("bysize")->name(), "bysize_plain");
  EXPECT_EQ(plain_twin("tlsf"), nullptr);
}

TEST(HeuristicRegistry, EveryNameMakesThePlannerOfThatName) {
  EXPECT_THAT(planner_names(), ElementsAre("tlsf", "tinygrad", "greedy", "bysize", "naive", "best"));
  for (const std::string& name : planner_names()) {
    auto planner = make_planner(name);
    ASSERT_NE(planner, nullptr) << name;
    EXPECT_EQ(planner->name(), name);
  }
}

// Random small schedules of every feature (gen/random_schedules.h), with each
// planned buffer's lifetime found here by rules 1 to 3 of docs/planners.md#the-reference-planner-tlsf,
// apart from planner/lifetimes.
struct RandomCase {
  Schedule schedule;
  std::map<std::string, std::pair<std::size_t, std::size_t>> lives;  // planned buffer -> [first, last]
};

RandomCase random_case(gen::Choices& choices) {
  gen::ScheduleOptions options;
  options.max_storage = 10;
  options.max_entries = 10;
  // Model v1: the lifetimes and 256-byte blocks below are v1's; model v2 is
  // the properties' (properties/, V2PlannerProperty).
  options.features = v1_only(options.features);
  RandomCase c{gen::generate_schedule(choices, options), {}};
  const Schedule& s = c.schedule;
  for (std::size_t e = 0; e < s.entries.size(); ++e) {
    gen::for_each_arg(std::span(&s.entries[e], 1), [&](const Arg& a) {
      const Storage& st = s.storage[storage_of(a)];
      if (st.kind != StorageKind::Buffer || st.held || is_disk(st.device)) return;
      auto [it, fresh] = c.lives.try_emplace(st.name, e, e);
      it->second.second = e;
    });
  }
  return c;
}

// Every planned buffer placed once in an arena of its device (tinygrad
// keeps two on a device) at a multiple of 256, inside it, and no two buffers
// of an arena alive together sharing a byte of [place, place + rounded).
void expect_valid(const RandomCase& c, const Plan& p, const std::string& context) {
  std::map<std::string, const Arena*> arena_by_name;
  for (const Arena& a : p.arenas) {
    EXPECT_TRUE(arena_by_name.emplace(a.name, &a).second) << context << ": two arenas named " << a.name;
    EXPECT_EQ(a.size % 256, 0u) << context;
  }
  struct Placed {
    std::string name, arena;
    Bytes begin, end;
    std::size_t first, last;
  };
  std::vector<Placed> placed;
  for (const Placement& pl : p.placements) {
    auto life = c.lives.find(pl.buffer);
    ASSERT_NE(life, c.lives.end()) << context << ": " << pl.buffer << " is not planned";
    const Storage& st = c.schedule.storage[*c.schedule.find(pl.buffer)];
    const Arena* arena = arena_by_name.at(pl.arena);
    EXPECT_EQ(arena->device, st.device) << context << ": " << pl.buffer;
    EXPECT_EQ(pl.place % 256, 0u) << context << ": " << pl.buffer;
    const Bytes rounded = (st.phase + st.bytes + 255) / 256 * 256;
    EXPECT_LE(pl.place + rounded, arena->size) << context << ": " << pl.buffer;
    placed.push_back({pl.buffer, pl.arena, pl.place, pl.place + rounded, life->second.first,
                      life->second.second});
  }
  EXPECT_EQ(placed.size(), c.lives.size()) << context;
  std::set<std::string> names;
  for (const Placed& b : placed) EXPECT_TRUE(names.insert(b.name).second) << context << ": " << b.name;
  for (std::size_t i = 0; i < placed.size(); ++i) {
    for (std::size_t j = i + 1; j < placed.size(); ++j) {
      const Placed& x = placed[i];
      const Placed& y = placed[j];
      if (x.arena != y.arena || x.last < y.first || y.last < x.first) continue;
      EXPECT_TRUE(x.end <= y.begin || y.end <= x.begin)
          << context << ": " << x.name << " [" << x.begin << "," << x.end << ") and " << y.name
          << " [" << y.begin << "," << y.end << ") are alive together";
    }
  }
}

TEST(HeuristicPlanners, EveryPlanOfRandomSchedulesKeepsBuffersAliveTogetherApart) {
  gen::SeededChoices choices(20200308);
  for (int n = 0; n < 200; ++n) {
    const RandomCase c = random_case(choices);
    const std::string text = print_schedule(c.schedule);
    std::map<std::string, Plan> plans;
    for (const std::string& name : planner_names()) {
      const std::string context = name + " on\n" + text;
      auto p = make_planner(name)->plan(c.schedule);
      ASSERT_TRUE(p.ok()) << context << p.error().message();
      expect_valid(c, *p, context);
      auto again = make_planner(name)->plan(c.schedule);
      ASSERT_TRUE(again.ok()) << context;
      EXPECT_EQ(print_plan(*again), print_plan(*p)) << context << ": not deterministic";
      plans[name] = std::move(p).value();
    }
    // Greedy and bysize only ever reuse bytes: never more than naive.
    for (const char* name : {"greedy", "bysize"}) {
      EXPECT_LE(*arena_total(plans[name]), *arena_total(plans["naive"])) << name << " on\n" << text;
    }
    // best is the first of the others with the fewest bytes.
    const Plan* want = nullptr;
    for (const char* name : {"tlsf", "greedy", "bysize", "naive"}) {
      if (!want || *arena_total(plans[name]) < *arena_total(*want)) want = &plans[name];
    }
    EXPECT_EQ(print_plan(plans["best"]), print_plan(*want)) << text;
  }
}

}  // namespace
}  // namespace planck
