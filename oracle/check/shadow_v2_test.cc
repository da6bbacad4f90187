// The shadow executor on model v2 (docs/model-v2.md): the caller writes
// planned inputs before entry 0 and reads planned outputs after the last
// entry, a schedule with state runs twice, and an in-place kernel hands
// its input's bytes to its output.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string_view>

#include "model/plan.h"
#include "oracle/check/shadow.h"

#include "tests/judged.h"

namespace planck::oracle {
namespace {

using ::testing::HasSubstr;
using testing::plan;
using testing::sched;

using testing::run;

// x is written by the caller and first read at entry 1; t, used at entry 0
// only, shares its bytes: the bug of a planner that plans inputs from
// their first use.
TEST(ShadowV2, ATemporaryOverAnInputBeforeItsFirstUseIsAClobber) {
  const ShadowRun r = run(R"(schedule v2
buffer x CPU int8 256 input
buffer t CPU int8 256
kernel fill t
kernel read x
)",
                          R"(plan v1
arena arena0 CPU 256
place x arena0 0
place t arena0 0
)");
  ASSERT_TRUE(r.clobber.has_value());
  EXPECT_EQ(r.clobber->victim, "x");
  EXPECT_EQ(r.clobber->taker, "t");
  EXPECT_THAT(r.clobber->message(), HasSubstr("the caller writes inputs, before it"));
}

TEST(ShadowV2, AnOutputTakenAfterItsLastWriteIsAClobberWhenTheCallerReadsIt) {
  const ShadowRun r = run(R"(schedule v2
buffer y CPU int8 256 output
buffer t CPU int8 256
kernel write y
kernel fill t
)",
                          R"(plan v1
arena arena0 CPU 256
place y arena0 0
place t arena0 0
)");
  ASSERT_TRUE(r.clobber.has_value());
  EXPECT_EQ(r.clobber->victim, "y");
  EXPECT_THAT(r.clobber->message(), HasSubstr("the caller reads outputs, after it"));
}

TEST(ShadowV2, InputsAndOutputsApartRunClean) {
  const ShadowRun r = run(R"(schedule v2
buffer x CPU int8 256 input
buffer t CPU int8 256
buffer y CPU int8 256 output
kernel fill t
kernel add y x t
)",
                          R"(plan v1
arena arena0 CPU 768
place x arena0 0
place t arena0 256
place y arena0 512
)");
  EXPECT_FALSE(r.clobber.has_value()) << r.clobber->message();
}

// kv is a cache kept from one run to the next; t shares its bytes after
// its last use in the run, as a planner that frees state at its last use
// would place it.
TEST(ShadowV2, StateSharedWithATemporaryIsLostBetweenRuns) {
  const ShadowRun r = run(R"(schedule v2
buffer kv CPU int8 256 state
buffer t CPU int8 256
kernel step kv
kernel fill t
)",
                          R"(plan v1
arena arena0 CPU 256
place kv arena0 0
place t arena0 0
)");
  ASSERT_TRUE(r.clobber.has_value());
  EXPECT_EQ(r.clobber->victim, "kv");
}

TEST(ShadowV2, StateApartRunsTwiceClean) {
  const ShadowRun r = run(R"(schedule v2
buffer kv CPU int8 256 state
buffer t CPU int8 256
kernel step kv
kernel fill t
)",
                          R"(plan v1
arena arena0 CPU 512
place kv arena0 0
place t arena0 256
)");
  EXPECT_FALSE(r.clobber.has_value()) << r.clobber->message();
  EXPECT_EQ(r.calls, 2u * (2u + 2u));  // each run: the caller's write, two kernels, the caller's read
}

constexpr std::string_view kInPlace = R"(schedule v2
buffer i CPU float32 1024
buffer o CPU float32 1024
kernel fill i
kernel relu o i inplace=o:i
kernel use o
)";

TEST(ShadowV2, AnInPlaceKernelHandsItsInputsBytesToItsOutput) {
  const ShadowRun r = run(kInPlace, R"(plan v1
arena arena0 CPU 1024
place i arena0 0
place o arena0 0
)");
  EXPECT_FALSE(r.clobber.has_value()) << r.clobber->message();
}

TEST(ShadowV2, AnInPlaceKernelThatUsesItsInputFirstHandsItsBytesOver) {
  // IN's first and last use is the kernel that writes OUT over it, in either
  // order of the arguments; OUT smaller, so IN keeps its tail.
  for (const char* kernel : {"kernel k i o inplace=o:i", "kernel k o i inplace=o:i"}) {
    const ShadowRun r = run(std::string("schedule v2\nbuffer i CPU float32 600\nbuffer o CPU float32 256\n") +
                                kernel + "\nkernel use o\n",
                            R"(plan v1
arena arena0 CPU 768
place i arena0 0
place o arena0 0
)");
    EXPECT_FALSE(r.clobber.has_value()) << kernel << ": " << r.clobber->message();
  }
}

// A kernel that takes IN through a view as well reads IN's bytes while it
// writes OUT over them: it hands nothing, and OUT's claim takes IN's bytes.
TEST(ShadowV2, AnInPlaceKernelThatTakesItsInputThroughAViewAsWellHandsNothing) {
  const ShadowRun r = run(R"(schedule v2
buffer i CPU float32 1024
buffer o CPU float32 1024
kernel fill i
kernel relu o i after(i) inplace=o:i
kernel use o
)",
                          R"(plan v1
arena arena0 CPU 4096
place i arena0 0
place o arena0 0
)");
  ASSERT_TRUE(r.clobber.has_value());
  EXPECT_EQ(r.clobber->victim, "i");
}

TEST(ShadowV2, ReadingTheInputAfterAnInPlaceKernelIsAClobber) {
  const ShadowRun r = run(R"(schedule v2
buffer i CPU float32 1024
buffer o CPU float32 1024
kernel fill i
kernel relu o i inplace=o:i
kernel add o i
)",
                          R"(plan v1
arena arena0 CPU 1024
place i arena0 0
place o arena0 0
)");
  ASSERT_TRUE(r.clobber.has_value());
  EXPECT_EQ(r.clobber->victim, "i");
  EXPECT_EQ(r.clobber->taker, "o");
  EXPECT_EQ(r.clobber->after.entry, 2u);
}

TEST(ShadowV2, AnInPlaceOutputAtAnotherPlaceIsAClobber) {
  const ShadowRun r = run(kInPlace, R"(plan v1
arena arena0 CPU 2048
place i arena0 0
place o arena0 512
)");
  ASSERT_TRUE(r.clobber.has_value());
  EXPECT_EQ(r.clobber->victim, "i");
}

TEST(ShadowV2, InPlaceInALoopClobbersTheInputOfTheNextIteration) {
  const ShadowRun r = run(R"(schedule v2
buffer i CPU float32 1024
buffer o CPU float32 1024
kernel fill i
range {
  kernel relu o i inplace=o:i
}
)",
                          R"(plan v1
arena arena0 CPU 1024
place i arena0 0
place o arena0 0
)");
  ASSERT_TRUE(r.clobber.has_value());
  EXPECT_EQ(r.clobber->victim, "i");
  EXPECT_EQ(r.clobber->after.iterations, std::vector<std::uint64_t>{2});
}

}  // namespace
}  // namespace planck::oracle
