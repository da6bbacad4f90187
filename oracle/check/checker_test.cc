#include "oracle/check/checker.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <iterator>
#include <limits>
#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "gen/random_schedules.h"
#include "model/plan.h"
#include "model/schedule_printer.h"
#include "oracle/check/lifetimes.h"
#include "tests/judged.h"
#include "tests/spec_example.h"

namespace planck::oracle {

namespace {

using ::testing::HasSubstr;

using testing::plan;
using testing::sched;

using testing::check;

using testing::kSpecExample;
using testing::kSpecExamplePlan;

// One buffer t of 256 bytes on the CPU, taken by entry 0 (line 3).
constexpr std::string_view kOneBuffer = R"(schedule v1
buffer t CPU int8 256
kernel k t
)";

TEST(CheckerValid, AcceptsAPlanThatKeepsLiveBuffersApart) {
  EXPECT_EQ(check(kSpecExample, kSpecExamplePlan), std::vector<Violation>{});
}

TEST(CheckerPlacement, APlannedBufferWithoutPlacementIsNotPlaced) {
  const std::vector<Violation> v = check(kSpecExample, R"(plan v1
arena arena0 CUDA 8704
arena arena1 CPU 4096
place t0 arena0 0
place t1 arena0 4096
place h arena1 0
)");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, Rule::NotPlaced);
  EXPECT_EQ(v[0].buffers, std::vector<std::string>{"f"});
  EXPECT_EQ(v[0].message, "not-placed: f, live over entry 1 (line 9), has no placement");
}

TEST(CheckerPlacement, ABufferPlacedTwiceIsReportedAtBothLines) {
  std::string text(kSpecExamplePlan);
  text += "place t1 arena0 4096\n";
  const std::vector<Violation> v = check(kSpecExample, text);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, Rule::PlacedTwice);
  EXPECT_EQ(v[0].buffers, std::vector<std::string>{"t1"});
  EXPECT_EQ(v[0].message, "placed-twice: t1 is placed twice (plan lines 5 and 8)");
}

TEST(CheckerPlacement, PlacingUndeclaredStorageIsUnknownStorage) {
  std::string text(kSpecExamplePlan);
  text += "place zz arena0 0\n";
  const std::vector<Violation> v = check(kSpecExample, text);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, Rule::UnknownStorage);
  EXPECT_EQ(v[0].buffers, std::vector<std::string>{"zz"});
  EXPECT_EQ(v[0].message,
            "unknown-storage: zz is placed at plan line 8 but the schedule declares no storage "
            "of that name");
}

struct NotPlannedCase {
  std::string buffer;
  std::string why;
};

void PrintTo(const NotPlannedCase& c, std::ostream* os) { *os << c.buffer << " (" << c.why << ")"; }

class CheckerNotPlanned : public ::testing::TestWithParam<NotPlannedCase> {};

// Storage that exists but is not planned may not be placed, even at bytes
// nothing else uses at the time.
TEST_P(CheckerNotPlanned, PlacingStorageThatIsNotPlannedIsRejected) {
  const NotPlannedCase& c = GetParam();
  const std::vector<Violation> v = check(R"(schedule v1
alloc  a CPU int8 256
param  p CPU int8 256
buffer w CPU int8 256 held
buffer d DISK:/w.bin int8 256
buffer u CPU int8 256
buffer t CPU int8 256
kernel k t a p w d
)",
                                         "plan v1\narena a0 CPU 512\nplace t a0 0\nplace " +
                                             c.buffer + " a0 256\n");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, Rule::NotPlanned);
  EXPECT_EQ(v[0].buffers, std::vector<std::string>{c.buffer});
  EXPECT_EQ(v[0].message, "not-planned: " + c.buffer +
                              " is placed at plan line 4 but is not planned: " + c.why);
}

INSTANTIATE_TEST_SUITE_P(
    Storage, CheckerNotPlanned,
    ::testing::Values(NotPlannedCase{"a", "it is an alloc"}, NotPlannedCase{"p", "it is a param"},
                      NotPlannedCase{"w", "it is held"},
                      NotPlannedCase{"d", "it is on the disk DISK:/w.bin"},
                      NotPlannedCase{"u", "no entry takes it"}),
    [](const ::testing::TestParamInfo<NotPlannedCase>& info) { return info.param.buffer; });

TEST(CheckerPlacement, PlacingInAnUndeclaredArenaIsUnknownArena) {
  const std::vector<Violation> v = check(kSpecExample, R"(plan v1
arena arena0 CUDA 8704
arena arena1 CPU 4096
place t0 arena0 0
place t1 arena0 4096
place f arena0 8448
place h arena9 0
)");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, Rule::UnknownArena);
  EXPECT_EQ(v[0].buffers, std::vector<std::string>{"h"});
  EXPECT_EQ(v[0].arenas, std::vector<std::string>{"arena9"});
  EXPECT_EQ(v[0].message,
            "unknown-arena: h is placed at plan line 7 in arena arena9, which the plan does not "
            "declare");
}

TEST(CheckerPlacement, ABufferInAnArenaOfAnotherDeviceIsWrongDevice) {
  const std::vector<Violation> v = check(R"(schedule v1
buffer g CUDA int8 256
buffer c CPU int8 256
kernel k g c
)",
                                         R"(plan v1
arena a0 CUDA 256
arena a1 CPU 256
place g a1 0
place c a1 0
)");
  // c and g also share bytes in a1; the overlap is reported after.
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].rule, Rule::WrongDevice);
  EXPECT_EQ(v[0].buffers, std::vector<std::string>{"g"});
  EXPECT_EQ(v[0].arenas, std::vector<std::string>{"a1"});
  EXPECT_EQ(v[0].message,
            "wrong-device: g on device CUDA is placed at plan line 4 in arena a1 of device CPU");
  EXPECT_EQ(v[1].rule, Rule::Overlap);
}

TEST(CheckerPlacement, APlaceThatIsNotAMultipleOf256IsMisaligned) {
  const std::vector<Violation> v = check(kOneBuffer, "plan v1\narena a0 CPU 512\nplace t a0 128\n");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, Rule::Misaligned);
  EXPECT_EQ(v[0].buffers, std::vector<std::string>{"t"});
  EXPECT_EQ(v[0].message, "misaligned: t is placed at plan line 3 at 128, not a multiple of 256");
}

TEST(CheckerPlacement, ABufferThatEndsPastItsArenaIsOutside) {
  const std::vector<Violation> v = check(kOneBuffer, "plan v1\narena a0 CPU 256\nplace t a0 256\n");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, Rule::OutsideArena);
  EXPECT_EQ(v[0].message,
            "outside-arena: t [256, 512) placed at plan line 3 ends past the 256 bytes of arena "
            "a0");
}

TEST(CheckerPlacement, ThePhaseCountsInTheRoundedSize) {
  // 64 + 256 bytes round up to 512, which a 256-byte arena cannot hold.
  const std::vector<Violation> v = check(R"(schedule v1
buffer t CPU int8 256 phase=64
kernel k t
)",
                                         "plan v1\narena a0 CPU 256\nplace t a0 0\n");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, Rule::OutsideArena);
  EXPECT_THAT(v[0].message, HasSubstr("t [0, 512)"));
}

TEST(CheckerPlacement, AnEndPast2To64IsOutsideTheArenaNotAWrap) {
  const Schedule s = sched(kOneBuffer);
  Plan p = plan("plan v1\narena a0 CPU 256\nplace t a0 0\n");
  p.placements[0].place = std::numeric_limits<Bytes>::max() - 255;  // a multiple of 256
  const std::vector<Violation> v = check_plan(s, p);
  EXPECT_EQ(v, check_plan_quadratic(s, p));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, Rule::OutsideArena);
  EXPECT_THAT(v[0].message, HasSubstr("passes 2^64"));
}

TEST(CheckerArenas, AnArenaSizeThatIsNotAMultipleOf256IsRejected) {
  const std::vector<Violation> v = check(kOneBuffer, "plan v1\narena a0 CPU 300\nplace t a0 0\n");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, Rule::ArenaSize);
  EXPECT_EQ(v[0].arenas, std::vector<std::string>{"a0"});
  EXPECT_EQ(v[0].message, "arena-size: arena a0 (plan line 2) has size 300, not a multiple of 256");
}

TEST(CheckerArenas, AnArenaNameDeclaredTwiceIsRejected) {
  const std::vector<Violation> v =
      check(kOneBuffer, "plan v1\narena a0 CPU 256\narena a0 CPU 256\nplace t a0 0\n");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, Rule::ArenaTwice);
  EXPECT_EQ(v[0].message, "arena-twice: arena a0 is declared twice (plan lines 2 and 3)");
}

TEST(CheckerArenas, AnArenaNamedLikeStorageIsRejected) {
  const std::vector<Violation> v = check(kOneBuffer, "plan v1\narena t CPU 256\nplace t t 0\n");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, Rule::ArenaTwice);
  EXPECT_EQ(v[0].buffers, std::vector<std::string>{"t"});
  EXPECT_EQ(v[0].message, "arena-twice: arena t (plan line 2) has the name of buffer t (line 2)");
}

TEST(CheckerArenas, ADeviceWithPlannedBuffersNeedsAnArena) {
  const std::vector<Violation> v = check(R"(schedule v1
buffer g CUDA int8 256
buffer c CPU int8 256
kernel k g c
)",
                                         "plan v1\narena a1 CPU 256\nplace c a1 0\n");
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].rule, Rule::NotPlaced);
  EXPECT_EQ(v[1].rule, Rule::DeviceArenas);
  EXPECT_EQ(v[1].buffers, std::vector<std::string>{"g"});
  EXPECT_EQ(v[1].message, "device-arenas: device CUDA has no arena for its planned buffers g");
}

// Several arenas on a device are valid (docs/model-v2.md: tinygrad's lanes),
// an empty one too.
TEST(CheckerArenas, ADeviceMayHaveSeveralArenas) {
  EXPECT_EQ(check(kOneBuffer, "plan v1\narena a0 CPU 256\narena a1 CPU 256\nplace t a0 0\n"),
            std::vector<Violation>{});
}

TEST(CheckerArenas, AnArenaOnADeviceWithoutPlannedBuffersIsRejected) {
  const std::vector<Violation> v =
      check(kOneBuffer, "plan v1\narena a0 CPU 256\narena g0 GPU 256\nplace t a0 0\n");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, Rule::DeviceArenas);
  EXPECT_EQ(v[0].arenas, std::vector<std::string>{"g0"});
  EXPECT_EQ(v[0].message,
            "device-arenas: arena g0 (plan line 3) is on device GPU, which has no planned buffers");
}

TEST(CheckerOverlap, AnOverlapNamesBuffersBytesEntriesAndLines) {
  const std::vector<Violation> v = check(R"(schedule v1
buffer t0 CPU int8 4096
buffer t1 CPU int8 4096
# t0 lives over entries 0..2 (lines 7-9), t1 over 1..3 (lines 8-10).


kernel a t0
kernel b t0 t1
kernel c t0 t1
kernel d t1
)",
                                         R"(plan v1
arena a0 CPU 6144
place t0 a0 0
place t1 a0 2048
)");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, Rule::Overlap);
  EXPECT_EQ(v[0].buffers, (std::vector<std::string>{"t0", "t1"}));
  EXPECT_EQ(v[0].arenas, std::vector<std::string>{"a0"});
  EXPECT_EQ(v[0].message,
            "overlap: t0 [0, 4096) live over entries 0..2 (lines 7-9) and t1 [2048, 6144) live "
            "over entries 1..3 (lines 8-10) share bytes [2048, 4096) during entries 1..2 (lines "
            "8-9) in arena a0 (plan lines 3 and 4)");
}

TEST(CheckerOverlap, AnOverlapCarriesItsBuffersBytesEntriesAndLinesAsFields) {
  const std::vector<Violation> v = check(R"(schedule v1
buffer t0 CPU int8 4000
buffer t1 CPU int8 4096 phase=16
kernel a t0
kernel b t0 t1
kernel c t1
)",
                                         R"(plan v1
arena a0 CPU 8192
place t0 a0 0
place t1 a0 2048
)");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, Rule::Overlap);
  EXPECT_EQ(v[0].plan_lines, (std::vector<int>{3, 4}));
  EXPECT_EQ(v[0].lives, (std::vector<EntrySpan>{{.first = 0, .last = 1, .first_line = 4, .last_line = 5},
                                                {.first = 1, .last = 2, .first_line = 5, .last_line = 6}}));
  EXPECT_EQ(v[0].during, (EntrySpan{.first = 1, .last = 1, .first_line = 5, .last_line = 5}));
  // t0 rounds 4000 up to 4096; t1 rounds 16 + 4096 up to 4352.
  EXPECT_EQ(v[0].blocks, (std::vector<ByteRange>{{0, 4096}, {2048, 6400}}));
  EXPECT_EQ(v[0].own_bytes, (std::vector<ByteRange>{{0, 4000}, {2064, 6160}}));
  EXPECT_EQ(v[0].shared, (ByteRange{2048, 4096}));
  EXPECT_EQ(v[0].message, describe(v[0]));
}

TEST(CheckerOverlap, RoundedBlocksThatShareBytesOverlapThoughTheBuffersOwnBytesAreApart) {
  // a holds [0, 100) and b [128, 228), but both blocks are [0, 256).
  const std::vector<Violation> v = check(R"(schedule v1
buffer a CPU int8 100
buffer b CPU int8 100 phase=128
kernel k a b
)",
                                         "plan v1\narena a0 CPU 256\nplace a a0 0\nplace b a0 0\n");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, Rule::Overlap);
  EXPECT_EQ(v[0].own_bytes, (std::vector<ByteRange>{{0, 100}, {128, 228}}));
  EXPECT_EQ(v[0].message,
            "overlap: the rounded blocks of a [0, 256) live over entry 0 (line 4) and b [0, 256) "
            "live over entry 0 (line 4) share bytes [0, 256) during entry 0 (line 4) in arena a0 "
            "(plan lines 3 and 4), though their own bytes, a [0, 100) and b [128, 228), are apart");
}

TEST(CheckerOverlap, ABufferUsedInsideALoopLivesThroughTheWholeLoop) {
  // a is used only before b inside the loop, but the loop is one entry.
  const std::vector<Violation> v = check(R"(schedule v1
buffer a CPU int8 256
buffer b CPU int8 256
range {
  kernel first a
  kernel second b
}
)",
                                         "plan v1\narena a0 CPU 256\nplace a a0 0\nplace b a0 0\n");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, Rule::Overlap);
  EXPECT_EQ(v[0].message,
            "overlap: a [0, 256) live over entry 0 (line 4) and b [0, 256) live over entry 0 "
            "(line 4) share bytes [0, 256) during entry 0 (line 4) in arena a0 (plan lines 3 and "
            "4)");
}

TEST(CheckerOverlap, BytesFreedAfterAnEntryMayBeTakenByTheNext) {
  // a's last entry is 1 and b's first is 2.
  EXPECT_EQ(check(R"(schedule v1
buffer a CPU int8 256
buffer b CPU int8 256
kernel k a
kernel k a
kernel k b
)",
                  "plan v1\narena a0 CPU 256\nplace a a0 0\nplace b a0 0\n"),
            std::vector<Violation>{});
}

TEST(CheckerOverlap, BytesInUseByAnEntryMayNotBeTakenByIt) {
  // a's last entry is 1, and b's first is 1 too.
  const std::vector<Violation> v = check(R"(schedule v1
buffer a CPU int8 256
buffer b CPU int8 256
kernel k a
kernel k a b
)",
                                         "plan v1\narena a0 CPU 256\nplace a a0 0\nplace b a0 0\n");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, Rule::Overlap);
  EXPECT_THAT(v[0].message, HasSubstr("during entry 1 (line 5)"));
}

TEST(CheckerOverlap, ThePhaseCountsInTheBytesABufferHolds) {
  // p's 256 bytes start at 0 + 64 and so reach into [256, 320).
  const std::vector<Violation> v = check(R"(schedule v1
buffer p CPU int8 256 phase=64
buffer b CPU int8 256
kernel k p b
)",
                                         "plan v1\narena a0 CPU 512\nplace p a0 0\n"
                                         "place b a0 256\n");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, Rule::Overlap);
  EXPECT_THAT(v[0].message, HasSubstr("share bytes [256, 512)"));
}

TEST(CheckerOverlap, ZeroByteBuffersNeverOverlap) {
  EXPECT_EQ(check(R"(schedule v1
buffer a CPU int8 256
buffer z CPU int8 0
buffer y CPU int8 0
kernel k a z y
)",
                  "plan v1\narena a0 CPU 256\nplace a a0 0\nplace z a0 0\nplace y a0 256\n"),
            std::vector<Violation>{});
}

TEST(CheckerOverlap, TheQuadraticCheckerReportsEveryPairTheFastOneSome) {
  const Schedule s = sched(R"(schedule v1
buffer a CPU int8 256
buffer b CPU int8 256
buffer c CPU int8 256
kernel k a b c
)");
  const Plan p = plan("plan v1\narena a0 CPU 256\nplace a a0 0\nplace b a0 0\nplace c a0 0\n");
  auto pairs = [](const std::vector<Violation>& v) {
    std::vector<std::vector<std::string>> out;
    for (const Violation& x : v) {
      EXPECT_EQ(x.rule, Rule::Overlap);
      out.push_back(x.buffers);
    }
    return out;
  };
  const std::vector<std::vector<std::string>> every = {{"a", "b"}, {"a", "c"}, {"b", "c"}};
  EXPECT_EQ(pairs(check_plan_quadratic(s, p)), every);
  const std::vector<std::vector<std::string>> some = pairs(check_plan(s, p));
  ASSERT_FALSE(some.empty());
  for (const std::vector<std::string>& pair : some) {
    EXPECT_NE(std::find(every.begin(), every.end(), pair), every.end());
  }
}

// n buffers of 256 bytes, all alive at entry 0, all placed at 0.
struct AllAtZero {
  Schedule s;
  Plan p;
};
AllAtZero all_at_zero(int n) {
  std::string schedule = "schedule v1\n";
  std::string plan_text = "plan v1\narena a0 CPU 256\n";
  std::string call = "kernel k";
  for (int i = 0; i < n; ++i) {
    schedule += fmt::format("buffer b{} CPU int8 256\n", i);
    plan_text += fmt::format("place b{} a0 0\n", i);
    call += fmt::format(" b{}", i);
  }
  return {sched(schedule + call + "\n"), plan(plan_text)};
}

TEST(CheckerLimit, PastTheLimitOverlapsAreCountedNotListed) {
  const AllAtZero z = all_at_zero(30);  // 30 * 29 / 2 = 435 overlapping pairs
  const std::vector<Violation> every = check_plan_quadratic(z.s, z.p);
  ASSERT_EQ(every.size(), 435u);

  const CheckReport slow = check_plan_quadratic(z.s, z.p, kOverlapsListed);
  EXPECT_EQ(slow.violations, std::vector<Violation>(every.begin(), every.begin() + 100));
  EXPECT_EQ(slow.unlisted_overlaps, 335u);

  // The sweep finds fewer pairs; the limit takes the first of them.
  const std::vector<Violation> found = check_plan(z.s, z.p);
  ASSERT_GT(found.size(), 10u);
  const CheckReport fast = check_plan(z.s, z.p, 10);
  EXPECT_EQ(fast.violations, std::vector<Violation>(found.begin(), found.begin() + 10));
  EXPECT_EQ(fast.unlisted_overlaps, found.size() - 10);
}

TEST(CheckerLimit, TheLimitLeavesOtherViolationsAlone) {
  AllAtZero z = all_at_zero(4);
  z.p.arenas[0].size = 300;  // not a multiple of 256
  const CheckReport r = check_plan_quadratic(z.s, z.p, 0);
  ASSERT_EQ(r.violations.size(), 1u);
  EXPECT_EQ(r.violations[0].rule, Rule::ArenaSize);
  EXPECT_EQ(r.unlisted_overlaps, 6u);
  EXPECT_EQ(check_plan(z.s, z.p, 0).violations, r.violations);
}

TEST(CheckerMessages, TheTextIsMadeFromTheFieldsAlone) {
  Violation v{.rule = Rule::Misaligned,
              .buffers = {"t"},
              .arenas = {"a0"},
              .plan_lines = {7},
              .place = 128};
  EXPECT_EQ(describe(v), "misaligned: t is placed at plan line 7 at 128, not a multiple of 256");
  v.plan_lines = {0};  // a plan built in code
  EXPECT_EQ(describe(v), "misaligned: t is placed at 128, not a multiple of 256");
}

TEST(CheckerLifetimes, ALoopFlagReachedThroughViewsIsTakenByTheLoop) {
  const std::vector<Violation> v = check(R"(schedule v1
buffer a CPU int8 256
buffer f CPU bool 256
kernel k a
loop flag=after(bitcast(shrink(f, 0, 1), bool)) {
  kernel k a
}
)",
                                         "plan v1\narena a0 CPU 512\nplace a a0 0\n");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, Rule::NotPlaced);
  EXPECT_EQ(v[0].message, "not-placed: f, live over entry 1 (line 5), has no placement");
}

TEST(CheckerLifetimes, EntriesTakeStorageInCallOrderThenLoopFlags) {
  const Schedule s = sched(R"(schedule v1
buffer a CPU int8 256
buffer b CPU int8 256
buffer c CPU int8 256
buffer d CPU int8 256
buffer e CPU bool 256
buffer f CPU bool 256
kernel k c a
loop flag=f {
  range {
    kernel k d
  }
  loop flag=e {
    kernel k b
  }
  kernel k a
}
)");
  std::vector<std::string> order;
  std::vector<std::pair<std::size_t, std::size_t>> lives;
  for (const Lifetime& life : taken_storage(s)) {
    order.push_back(s.storage[life.buffer].name);
    lives.emplace_back(life.first, life.last);
  }
  EXPECT_EQ(order, (std::vector<std::string>{"c", "a", "d", "b", "e", "f"}));
  EXPECT_EQ(lives, (std::vector<std::pair<std::size_t, std::size_t>>{
                       {0, 0}, {0, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}}));
}

TEST(CheckerLifetimes, ABufferDeepInNestedLoopsAndViewsIsTakenByTheOuterLoop) {
  constexpr int kDepth = kMaxNesting / 2;
  std::string text = "schedule v1\nbuffer a CPU int8 256\nbuffer b CPU int8 256\nkernel k a\n";
  for (int i = 0; i < kDepth; ++i) text += "range {\n";
  std::string arg = "b";
  for (int i = 0; i < kDepth; ++i) arg = "after(" + arg + ")";
  text += "kernel k " + arg + "\n";
  for (int i = 0; i < kDepth; ++i) text += "}\n";
  text += "kernel k a\n";
  const std::vector<Violation> v = check(text, "plan v1\narena a0 CPU 512\nplace a a0 0\n");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, Rule::NotPlaced);
  EXPECT_EQ(v[0].message, "not-placed: b, live over entry 1 (line 5), has no placement");
}

TEST(CheckerOrder, ViolationsComeArenasPlacementsUnplacedDevicesThenOverlaps) {
  const std::vector<Violation> v = check(R"(schedule v1
buffer t CPU int8 256
buffer u CPU int8 256
buffer g CUDA int8 256
kernel k t u g
)",
                                         R"(plan v1
arena a0 CPU 512
arena a0 CPU 300
place zz a0 0
place t a0 0
place u a0 0
)");
  std::vector<Rule> rules;
  for (const Violation& x : v) rules.push_back(x.rule);
  EXPECT_EQ(rules, (std::vector<Rule>{Rule::ArenaTwice, Rule::UnknownStorage, Rule::NotPlaced,
                                      Rule::DeviceArenas, Rule::Overlap}));
}

// ---- Randomized comparison of check_plan with check_plan_quadratic.

// Small schedules, so that plans often put live buffers at shared places:
// two to eight declarations and one to six entries, loops and views two
// deep, sizes up to 1024 bytes and phases up to 255, on up to two devices
// and a disk.
gen::ScheduleOptions small_schedules() {
  gen::ScheduleOptions o = gen::ScheduleOptions::small();
  o.max_storage = 8;
  o.max_entries = 6;
  o.max_bytes = 1024;
  o.max_phase = 255;
  return o;
}

Arena arena(std::string name, std::string device, Bytes size) {
  Arena a;
  a.name = std::move(name);
  a.device = std::move(device);
  a.size = size;
  return a;
}

Placement placement(std::string buffer, std::string arena, Bytes place) {
  Placement pl;
  pl.buffer = std::move(buffer);
  pl.arena = std::move(arena);
  pl.place = place;
  return pl;
}

// Mostly sensible plans: one arena per device, each planned buffer placed
// once, either end to end (valid) or at a few shared places (valid exactly
// when those buffers do not live together); then, now and then, one of
// each kind of mistake.
Plan random_plan(gen::Choices& r, const Schedule& s) {
  const auto pool = [](std::size_t d) { return "pool" + std::to_string(d); };
  Plan p;
  std::vector<std::string> devices;  // arena d is "pool<d>", for devices[d]
  std::vector<Bytes> arena_ends;
  auto device_index = [&](const std::string& device) {
    auto it = std::find(devices.begin(), devices.end(), device);
    if (it != devices.end()) return static_cast<std::size_t>(it - devices.begin());
    devices.push_back(device);
    arena_ends.push_back(0);
    return devices.size() - 1;
  };
  const bool end_to_end = r.percent(30);
  for (const Lifetime& life : planned_buffers(s)) {
    const Storage& st = s.storage[life.buffer];
    const std::size_t d = device_index(st.device);
    const Bytes rounded = *rounded_size(st);
    const Bytes place = end_to_end ? arena_ends[d] : kPlaceAlign * r.draw(0, 4);
    arena_ends[d] = std::max(arena_ends[d], place + rounded);
    if (r.percent(4)) continue;  // not placed
    p.placements.push_back(placement(st.name, pool(d), place));
    if (r.percent(3)) p.placements.push_back(p.placements.back());  // placed twice
  }
  for (std::size_t d = 0; d < devices.size(); ++d) {
    if (r.percent(3)) continue;  // no arena
    Bytes size = arena_ends[d];
    if (r.percent(5)) size = size >= kPlaceAlign ? size - kPlaceAlign : 0;
    if (r.percent(3)) size += 1;
    p.arenas.push_back(arena(pool(d), devices[d], size));
    if (r.percent(3)) p.arenas.push_back(p.arenas.back());
    if (r.percent(3)) p.arenas.push_back(arena("spare" + std::to_string(d), devices[d], 0));
  }
  if (r.percent(3)) p.arenas.push_back(arena("spare", "TPU", 256));
  if (r.percent(3)) p.arenas.push_back(arena(s.storage[0].name, "CPU", 256));  // named as storage
  if (!p.placements.empty()) {
    Placement& pl = p.placements[r.below(p.placements.size())];
    if (r.percent(5)) pl.place += 128;
    if (r.percent(3)) pl.place = std::numeric_limits<Bytes>::max() - 255;
    if (r.percent(6)) pl.arena = std::array{"nowhere", "pool0", "pool1"}[r.below(3)];
  }
  if (r.percent(8)) {
    p.placements.push_back(placement(r.percent(20) ? "zz" : s.storage[0].name, pool(0), 0));
  }
  return p;
}

// A violation of two buffers sharing bytes: an overlap, a race, or a
// sharing that an in-place kernel declares but does not allow.
bool is_pair(const Violation& x) {
  return x.rule == Rule::Overlap || x.rule == Rule::InPlaceNotAllowed || x.rule == Rule::Race;
}

// Where the two checkers disagree, or empty. check_plan must find a pair
// sharing bytes exactly when the quadratic checker does, report only pairs
// that it reports too, and report every other violation exactly as it does.
std::string disagreement(const std::vector<Violation>& fast, const std::vector<Violation>& slow) {
  auto others = [](const std::vector<Violation>& v) {
    std::vector<Violation> out;
    std::copy_if(v.begin(), v.end(), std::back_inserter(out), [](const Violation& x) { return !is_pair(x); });
    return out;
  };
  auto overlaps = [](const std::vector<Violation>& v) {
    std::set<std::string> out;
    for (const Violation& x : v) {
      if (is_pair(x)) out.insert(x.message);
    }
    return out;
  };
  if (others(fast) != others(slow)) return "other violations differ";
  const std::set<std::string> fast_pairs = overlaps(fast);
  const std::set<std::string> slow_pairs = overlaps(slow);
  if (fast_pairs.empty() != slow_pairs.empty()) return "one finds an overlap, the other none";
  for (const std::string& pair : fast_pairs) {
    if (!slow_pairs.contains(pair)) {
      return "check_plan reports a pair the quadratic one does not: " + pair;
    }
  }
  return "";
}

TEST(CheckerRandom, TheFastCheckerAgreesWithTheQuadraticOne) {
  gen::SeededChoices r(20240611);
  const gen::ScheduleOptions options = small_schedules();
  int valid = 0;
  int overlapping = 0;
  int fewer_pairs = 0;
  for (int i = 0; i < 4000; ++i) {
    const Schedule s = gen::generate_schedule(r, options);
    const Plan p = random_plan(r, s);
    const std::vector<Violation> fast = check_plan(s, p);
    const std::vector<Violation> slow = check_plan_quadratic(s, p);
    ASSERT_EQ(disagreement(fast, slow), "") << print_schedule(s) << print_plan(p);
    valid += fast.empty();
    const auto fast_overlaps = std::count_if(fast.begin(), fast.end(), is_pair);
    overlapping += fast_overlaps > 0;
    fewer_pairs += fast_overlaps < std::count_if(slow.begin(), slow.end(), is_pair);
  }
  // The generator must reach both verdicts, and cases where the sweep
  // reports fewer pairs, or the comparison would prove little.
  EXPECT_GT(valid, 400);
  EXPECT_GT(overlapping, 400);
  EXPECT_GT(fewer_pairs, 20);
}

// Many buffers alive together in one arena, so that the sweep keeps more of
// them than its small list holds and moves to its map, and drops
// them again as they die: each schedule has 100 to 300 buffers over ten
// entries, each buffer taken by the entries of a random span; the plan puts
// them end to end in a random order, then places a few at another's place.
TEST(CheckerRandom, ManyLiveBuffersInOneArenaAgreeWithTheQuadraticChecker) {
  gen::SeededChoices r(20261202);
  constexpr std::size_t kEntries = 10;
  int overlapping = 0;
  for (int round = 0; round < 40; ++round) {
    const std::size_t n = r.draw(100, 300);
    Schedule s;
    s.entries.resize(kEntries);
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) {
      Storage st;
      st.name = fmt::format("b{}", i);
      st.device = "CPU";
      st.bytes = kPlaceAlign * r.draw(1, 4) - r.draw(0, 255);
      s.storage.push_back(st);
      const std::size_t first = r.below(kEntries);
      const std::size_t last = first + r.below(kEntries - first);
      for (std::size_t e = first; e <= last; ++e) s.entries[e].args.push_back(Arg{.storage = static_cast<StorageId>(i)});
      order[i] = i;
    }
    for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[r.below(i)]);
    Plan p;
    Bytes end = 0;
    std::vector<Bytes> place(n);
    for (std::size_t i : order) {
      place[i] = end;
      end += *rounded_size(s.storage[i]);
    }
    const std::size_t moved = r.below(4);
    for (std::size_t k = 0; k < moved; ++k) place[r.below(n)] = place[r.below(n)];
    p.arenas.push_back(arena("a0", "CPU", end));
    for (std::size_t i = 0; i < n; ++i) p.placements.push_back(placement(s.storage[i].name, "a0", place[i]));
    const std::vector<Violation> fast = check_plan(s, p);
    const std::vector<Violation> slow = check_plan_quadratic(s, p);
    ASSERT_EQ(disagreement(fast, slow), "") << print_schedule(s) << print_plan(p);
    overlapping += !slow.empty();
  }
  EXPECT_GT(overlapping, 10);
  EXPECT_LT(overlapping, 40);
}

}  // namespace
}  // namespace planck::oracle
