// The checker on model v2 (docs/model-v2.md): several arenas on a device,
// a device's alignment and capacity, planned inputs, outputs and state,
// and in-place kernels. Each case is judged by both checkers, which agree.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "model/plan.h"
#include "oracle/check/checker.h"
#include "tests/judged.h"

namespace planck::oracle {
namespace {

using ::testing::HasSubstr;
using testing::plan;
using testing::sched;

using testing::check;

std::vector<Rule> rules(const std::vector<Violation>& v) {
  std::vector<Rule> out;
  for (const Violation& x : v) out.push_back(x.rule);
  return out;
}

// A copy lane and a compute lane on one device, as tinygrad plans them.
TEST(CheckerV2, TwoArenasOnOneDeviceAreValid) {
  const std::vector<Violation> v = check(R"(schedule v1
buffer a CUDA float32 1024
buffer b CUDA float32 1024
buffer h CPU float32 1024
kernel k a
copy b a
copy h b
)",
                                         R"(plan v1
arena arena0 CUDA 4096
arena arena1 CUDA 4096
arena arena2 CPU 4096
place a arena0 0
place b arena1 0
place h arena2 0
)");
  EXPECT_EQ(v, std::vector<Violation>{});
}

TEST(CheckerV2, BuffersInTwoArenasOfADeviceNeverOverlap) {
  const std::vector<Violation> v = check(R"(schedule v1
buffer a CUDA float32 1024
buffer b CUDA float32 1024
kernel k a b
)",
                                         R"(plan v1
arena arena0 CUDA 4096
arena arena1 CUDA 4096
place a arena0 0
place b arena1 0
)");
  EXPECT_EQ(v, std::vector<Violation>{});
}

constexpr std::string_view kAligned16 = R"(schedule v2
device CPU align=16
buffer a CPU float32 20
buffer b CPU float32 20
kernel k a b
)";

TEST(CheckerV2, PlacesOnAMultipleOfTheDeviceAlignAreValid) {
  EXPECT_EQ(check(kAligned16, R"(plan v1
arena arena0 CPU 64
place a arena0 0
place b arena0 32
)"),
            std::vector<Violation>{});
}

TEST(CheckerV2, APlaceOffTheDeviceAlignIsMisaligned) {
  const std::vector<Violation> v = check(kAligned16, R"(plan v1
arena arena0 CPU 80
place a arena0 0
place b arena0 40
)");
  ASSERT_EQ(rules(v), std::vector<Rule>{Rule::Misaligned});
  EXPECT_EQ(v[0].message, "misaligned: b is placed at plan line 4 at 40, not a multiple of 16, the align of device CPU");
}

TEST(CheckerV2, ReservedBytesAreRoundedToTheDeviceAlign) {
  // a's 20 bytes reserve [0, 32): b at 16 shares [16, 32) with it.
  const std::vector<Violation> v = check(kAligned16, R"(plan v1
arena arena0 CPU 64
place a arena0 0
place b arena0 16
)");
  ASSERT_EQ(rules(v), std::vector<Rule>{Rule::Overlap});
  EXPECT_EQ(v[0].shared, (ByteRange{16, 32}));
}

TEST(CheckerV2, AnArenaSizeOffTheDeviceAlignIsReported) {
  const std::vector<Violation> v = check(kAligned16, R"(plan v1
arena arena0 CPU 72
place a arena0 0
place b arena0 32
)");
  ASSERT_EQ(rules(v), std::vector<Rule>{Rule::ArenaSize});
  EXPECT_THAT(v[0].message, HasSubstr("not a multiple of 16, the align of device CPU"));
}

TEST(CheckerV2, ArenasOfADeviceTogetherOverItsCapacity) {
  const std::vector<Violation> v = check(R"(schedule v2
device CPU align=64 capacity=128
buffer a CPU float32 64
buffer b CPU float32 64
kernel k a b
)",
                                         R"(plan v1
arena arena0 CPU 64
arena arena1 CPU 128
place a arena0 0
place b arena1 64
)");
  ASSERT_EQ(rules(v), std::vector<Rule>{Rule::OverCapacity});
  EXPECT_EQ(v[0].message,
            "over-capacity: the arenas of device CPU take 192 bytes, more than its capacity of 128: arena0 of 64 "
            "bytes (plan line 2), arena1 of 128 bytes (plan line 3)");
}

// x is an input first read at entry 2: it lives from entry 0, so t, live
// over entries 0..1, may not share its bytes.
TEST(CheckerV2, APlannedInputLivesFromEntryZero) {
  const std::vector<Violation> v = check(R"(schedule v2
buffer x CPU int8 256 input
buffer t CPU int8 256
kernel fill t
kernel use t
kernel read x
)",
                                         R"(plan v1
arena arena0 CPU 256
place x arena0 0
place t arena0 0
)");
  ASSERT_EQ(rules(v), std::vector<Rule>{Rule::Overlap});
  EXPECT_THAT(v[0].message, HasSubstr("x [0, 256) live over entries 0..2"));
}

TEST(CheckerV2, APlannedOutputLivesToTheLastEntry) {
  const std::vector<Violation> v = check(R"(schedule v2
buffer y CPU int8 256 output
buffer t CPU int8 256
kernel write y
kernel fill t
kernel use t
)",
                                         R"(plan v1
arena arena0 CPU 256
place y arena0 0
place t arena0 0
)");
  ASSERT_EQ(rules(v), std::vector<Rule>{Rule::Overlap});
  EXPECT_THAT(v[0].message, HasSubstr("y [0, 256) live over entries 0..2"));
}

TEST(CheckerV2, StateLivesOverTheWholeSchedule) {
  const std::vector<Violation> v = check(R"(schedule v2
buffer t CPU int8 256
buffer kv CPU int8 256 state
kernel fill t
kernel step kv
kernel use t
)",
                                         R"(plan v1
arena arena0 CPU 256
place kv arena0 0
place t arena0 0
)");
  ASSERT_EQ(rules(v), std::vector<Rule>{Rule::Overlap});
}

// relu writes o over i, which dies there.
constexpr std::string_view kInPlace = R"(schedule v2
buffer i CPU float32 1024
buffer o CPU float32 1024
buffer z CPU float32 1024
kernel fill i
kernel relu o i inplace=o:i
kernel sum z o
)";

TEST(CheckerV2, AnInPlaceKernelMayGiveItsOutputTheInputsBytes) {
  EXPECT_EQ(check(kInPlace, R"(plan v1
arena arena0 CPU 8192
place i arena0 0
place o arena0 0
place z arena0 4096
)"),
            std::vector<Violation>{});
}

TEST(CheckerV2, ABufferThatOverlapsTheSharedBytesIsStillAnOverlap) {
  const std::vector<Violation> v = check(kInPlace, R"(plan v1
arena arena0 CPU 8192
place i arena0 0
place o arena0 0
place z arena0 0
)");
  ASSERT_EQ(rules(v), std::vector<Rule>{Rule::Overlap});
  EXPECT_EQ(v[0].buffers, (std::vector<std::string>{"o", "z"}));
}

TEST(CheckerV2, InPlaceAtAnotherPlaceIsNotAllowed) {
  const std::vector<Violation> v = check(kInPlace, R"(plan v1
arena arena0 CPU 8192
place i arena0 0
place o arena0 512
place z arena0 4096
)");
  ASSERT_EQ(rules(v), std::vector<Rule>{Rule::InPlaceNotAllowed});
  EXPECT_EQ(v[0].buffers, (std::vector<std::string>{"o", "i"}));
  EXPECT_THAT(v[0].message, HasSubstr("declares inplace=o:i, which allows no sharing here: o is placed at 512, i at 0"));
}

TEST(CheckerV2, InPlaceWhileALaterKernelReadsTheInputIsNotAllowed) {
  const std::vector<Violation> v = check(R"(schedule v2
buffer i CPU float32 1024
buffer o CPU float32 1024
kernel fill i
kernel relu o i inplace=o:i
kernel add o i
)",
                                         R"(plan v1
arena arena0 CPU 4096
place i arena0 0
place o arena0 0
)");
  ASSERT_EQ(rules(v), std::vector<Rule>{Rule::InPlaceNotAllowed});
  EXPECT_THAT(v[0].message, HasSubstr("i lives to entry 2, past the kernel's entry 1"));
}

TEST(CheckerV2, InPlaceInsideALoopGrantsNothing) {
  const std::vector<Violation> v = check(R"(schedule v2
buffer i CPU float32 1024
buffer o CPU float32 1024
range {
  kernel fill i
  kernel relu o i inplace=o:i
}
)",
                                         R"(plan v1
arena arena0 CPU 4096
place i arena0 0
place o arena0 0
)");
  ASSERT_EQ(rules(v), std::vector<Rule>{Rule::InPlaceNotAllowed});
  EXPECT_THAT(v[0].message, HasSubstr("inside a loop"));
}

TEST(CheckerV2, AnInPlaceOutputLargerThanItsInputIsNotAllowed) {
  const std::vector<Violation> v = check(R"(schedule v2
buffer i CPU float32 1024
buffer o CPU float32 2048
kernel fill i
kernel widen o i inplace=o:i
kernel use o
)",
                                         R"(plan v1
arena arena0 CPU 2048
place i arena0 0
place o arena0 0
)");
  ASSERT_EQ(rules(v), std::vector<Rule>{Rule::InPlaceNotAllowed});
  EXPECT_THAT(v[0].message, HasSubstr("o has 2048 bytes, more than the 1024 of i"));
}

TEST(CheckerV2, AnOutputInputOrStateCannotTakePartInPlace) {
  const std::vector<Violation> v = check(R"(schedule v2
buffer i CPU float32 1024 output
buffer o CPU float32 1024
kernel fill i
kernel relu o i inplace=o:i
)",
                                         R"(plan v1
arena arena0 CPU 4096
place i arena0 0
place o arena0 0
)");
  ASSERT_EQ(rules(v), std::vector<Rule>{Rule::InPlaceNotAllowed});
}

TEST(CheckerV2, TwoOutputsOverOneInputOverlapEachOther) {
  const std::vector<Violation> v = check(R"(schedule v2
buffer i CPU float32 1024
buffer a CPU float32 1024
buffer b CPU float32 1024
kernel fill i
kernel split a b i inplace=a:i inplace=b:i
)",
                                         R"(plan v1
arena arena0 CPU 4096
place i arena0 0
place a arena0 0
place b arena0 0
)");
  ASSERT_EQ(rules(v), std::vector<Rule>{Rule::Overlap});
  EXPECT_EQ(v[0].buffers, (std::vector<std::string>{"a", "b"}));
}

TEST(CheckerV2, AKernelThatAlsoTakesTheInputThroughAViewGrantsNothing) {
  const std::vector<Violation> v = check(R"(schedule v2
buffer i CPU float32 1024
buffer o CPU float32 1024
kernel fill i
kernel relu o i shrink(i, 0, 512) inplace=o:i
kernel use o
)",
                                         R"(plan v1
arena arena0 CPU 4096
place i arena0 0
place o arena0 0
)");
  ASSERT_EQ(rules(v), std::vector<Rule>{Rule::InPlaceNotAllowed});
  EXPECT_THAT(v[0].message, HasSubstr("through a view"));
}

}  // namespace
}  // namespace planck::oracle
