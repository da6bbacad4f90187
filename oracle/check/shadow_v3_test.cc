// The shadow executor on model v3: a claim of bytes whose holder's uses do
// not all happen before the claiming entry is a race, and a local buffer
// gives its bytes up at the end of each iteration of its loop.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "oracle/check/shadow.h"
#include "tests/judged.h"
#include "tests/v3_schedules.h"

namespace planck::oracle {
namespace {

using ::testing::HasSubstr;
using testing::run;

using testing::kSamePlace;

TEST(ShadowV3, AClaimAcrossUnorderedStreamsIsARace) {
  const ShadowRun r = run(testing::kTwoStreams,
                          kSamePlace);
  ASSERT_TRUE(r.clobber.has_value());
  EXPECT_TRUE(r.clobber->race);
  EXPECT_EQ(r.clobber->victim, "a");
  EXPECT_EQ(r.clobber->taker, "b");
  EXPECT_EQ(r.clobber->message(),
            "race: b claimed bytes [0, 256) of arena0 from a at entry 1 (kernel k2, line 5) on stream s2, which a's "
            "use at entry 0 (kernel k1, line 4) on stream s1 does not happen before");
}

TEST(ShadowV3, AnEventOrdersTheClaim) {
  const ShadowRun r = run(testing::kTwoStreamsOrdered,
                          kSamePlace);
  EXPECT_FALSE(r.clobber.has_value()) << r.clobber->message();
}

TEST(ShadowV3, AWaitForAnotherStreamDoesNotOrderAThird) {
  const ShadowRun r = run(testing::kWaitOnAnotherStream,
                          kSamePlace);
  ASSERT_TRUE(r.clobber.has_value());
  EXPECT_TRUE(r.clobber->race);
}

TEST(ShadowV3, InPlaceWhileAnotherStreamReadsTheInputIsARace) {
  const ShadowRun r = run(R"(schedule v3
buffer a CUDA float32 256
buffer b CUDA float32 256
kernel k1 a
kernel side a stream=s2
kernel relu b a inplace=b:a
)",
                          kSamePlace);
  ASSERT_TRUE(r.clobber.has_value());
  EXPECT_TRUE(r.clobber->race);
  EXPECT_THAT(r.clobber->message(), HasSubstr("a's use at entry 1 (kernel side, line 5) on stream s2"));
}

// Scratch of one iteration: the two local buffers take turns with the same
// bytes in each iteration.
TEST(ShadowV3, LocalBuffersGiveTheirBytesUpAtTheEndOfEachIteration) {
  const ShadowRun r = run(testing::kLoopScratch,
                          "plan v1\narena arena0 CUDA 2048\nplace x arena0 1024\nplace a arena0 0\nplace b arena0 0\n",
                          3);
  EXPECT_FALSE(r.clobber.has_value()) << r.clobber->message();
}

// The shape of PTOAS PR #913: x is set before the loop and read early in the
// body; scratch later in the body takes its bytes, which the next iteration
// reads clobbered.
TEST(ShadowV3, ScratchOverABufferReadInTheNextIterationIsAClobber) {
  const ShadowRun r = run(R"(schedule v3
buffer x CUDA float32 256
buffer a CUDA float32 256 local
kernel init x
range {
  kernel read x
  kernel scratch a
}
)",
                          "plan v1\narena arena0 CUDA 1024\nplace x arena0 0\nplace a arena0 0\n");
  ASSERT_TRUE(r.clobber.has_value());
  EXPECT_FALSE(r.clobber->race);
  EXPECT_EQ(r.clobber->victim, "x");
  EXPECT_THAT(r.clobber->message(), HasSubstr("iteration 2"));
}

TEST(ShadowV3, ALocalBufferUsedAcrossTheBodyKeepsItsBytesWithinAnIteration) {
  const ShadowRun r = run(R"(schedule v3
buffer a CUDA float32 256 local
buffer b CUDA float32 256 local
range {
  kernel k1 a
  kernel k2 b
  kernel k3 a
}
)",
                          kSamePlace);
  ASSERT_TRUE(r.clobber.has_value());
  EXPECT_EQ(r.clobber->victim, "a");
  EXPECT_EQ(r.clobber->taker, "b");
}

}  // namespace
}  // namespace planck::oracle
