// The checker on model v3: streams and events order the uses of buffers,
// local buffers share bytes inside a loop body, in-place kernels with
// streams and inside loops, and races. Each case is judged by both
// checkers, which agree.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "model/plan.h"
#include "oracle/check/checker.h"
#include "oracle/check/order.h"
#include "oracle/check/lifetimes.h"
#include "tests/judged.h"
#include "tests/v3_schedules.h"

namespace planck::oracle {
namespace {

using ::testing::HasSubstr;
using testing::check;
using testing::sched;

std::vector<Rule> rules(const std::vector<Violation>& v) {
  std::vector<Rule> out;
  for (const Violation& x : v) out.push_back(x.rule);
  return out;
}

using testing::kSamePlace;

TEST(CheckerV3, TwoStreamsWithoutAnEventRace) {
  const std::vector<Violation> v = check(testing::kTwoStreams,
                                         kSamePlace);
  ASSERT_EQ(rules(v), std::vector<Rule>{Rule::Race});
  EXPECT_EQ(v[0].message,
            "race: a [0, 256) live over entry 0 (line 4) and b [0, 256) live over entry 1 (line 5) share bytes "
            "[0, 256) in arena arena0 (plan lines 3 and 4), apart in file order, but nothing orders a's use at "
            "entry 0 (line 4, stream s1) before b's use at entry 1 (line 5, stream s2)");
}

TEST(CheckerV3, AnEventOrdersTheTwoStreams) {
  EXPECT_EQ(check(testing::kTwoStreamsOrdered,
                  kSamePlace),
            std::vector<Violation>{});
}

TEST(CheckerV3, OneStreamIsOrderedInFileOrder) {
  EXPECT_EQ(check("schedule v3\nbuffer a CUDA float32 256\nbuffer b CUDA float32 256\nkernel k1 a stream=s1\n"
                  "kernel k2 b stream=s1\n",
                  kSamePlace),
            std::vector<Violation>{});
}

TEST(CheckerV3, TheDefaultStreamIsAStreamLikeAnyOther) {
  EXPECT_EQ(rules(check("schedule v3\nbuffer a CUDA float32 256\nbuffer b CUDA float32 256\nkernel k1 a\n"
                        "kernel k2 b stream=s1\n",
                        kSamePlace)),
            std::vector<Rule>{Rule::Race});
}

// A wait orders its own stream only: the third stream still races.
TEST(CheckerV3, AWaitOrdersOnlyItsOwnStream) {
  EXPECT_EQ(rules(check(testing::kWaitOnAnotherStream,
                        kSamePlace)),
            std::vector<Rule>{Rule::Race});
}

// The event is recorded before a's last use on its stream: that use is
// not covered.
TEST(CheckerV3, AnEventRecordedBeforeTheLastUseDoesNotCoverIt) {
  const std::vector<Violation> v = check(R"(schedule v3
buffer a CUDA float32 256
buffer b CUDA float32 256
kernel k1 a stream=s1
record e stream=s1
kernel k3 a stream=s1
wait e stream=s2
kernel k2 b stream=s2
)",
                                         kSamePlace);
  ASSERT_EQ(rules(v), std::vector<Rule>{Rule::Race});
  EXPECT_THAT(v[0].message, HasSubstr("nothing orders a's use at entry 2 (line 6, stream s1) before b's use at entry 4"));
}

TEST(CheckerV3, EventsOrderTransitively) {
  EXPECT_EQ(check(R"(schedule v3
buffer a CUDA float32 256
buffer b CUDA float32 256
kernel k1 a stream=s1
record e1 stream=s1
wait e1 stream=s2
record e2 stream=s2
wait e2 stream=s3
kernel k2 b stream=s3
)",
                  kSamePlace),
            std::vector<Violation>{});
}

// Two uses on two streams: b must wait for both.
TEST(CheckerV3, EveryUseOnEveryStreamMustBeOrdered) {
  const std::string uses = R"(schedule v3
buffer a CUDA float32 256
buffer b CUDA float32 256
kernel k1 a stream=s1
kernel k2 a stream=s2
record e1 stream=s1
wait e1 stream=s3
)";
  EXPECT_EQ(rules(check(uses + "kernel k3 b stream=s3\n", kSamePlace)), std::vector<Rule>{Rule::Race});
  EXPECT_EQ(check(uses + "record e2 stream=s2\nwait e2 stream=s3\nkernel k3 b stream=s3\n", kSamePlace),
            std::vector<Violation>{});
}

TEST(CheckerV3, BuffersUsedTogetherStillOverlap) {
  EXPECT_EQ(rules(check("schedule v3\nbuffer a CUDA float32 256\nbuffer b CUDA float32 256\n"
                        "kernel k1 a b stream=s1\n",
                        kSamePlace)),
            std::vector<Rule>{Rule::Overlap});
}

// An output is read by the caller after every stream is joined: nothing
// may take its bytes, on any stream.
TEST(CheckerV3, AnOutputConflictsWithEverythingAfterIt) {
  EXPECT_EQ(rules(check(R"(schedule v3
buffer a CUDA float32 256 output
buffer b CUDA float32 256
kernel k1 a stream=s1
record e stream=s1
wait e stream=s2
kernel k2 b stream=s2
)",
                        kSamePlace)),
            std::vector<Rule>{Rule::Overlap});
}

using testing::kLoopScratch;

TEST(CheckerV3, LocalBuffersShareBytesAtDisjointPositions) {
  EXPECT_EQ(check(kLoopScratch, "plan v1\narena arena0 CUDA 2048\nplace x arena0 1024\nplace a arena0 0\n"
                         "place b arena0 0\n"),
            std::vector<Violation>{});
}

TEST(CheckerV3, LocalBuffersAtTheSamePositionsOverlap) {
  const std::vector<Violation> v = check(R"(schedule v3
buffer a CUDA float32 256 local
buffer b CUDA float32 256 local
range {
  kernel k1 a
  kernel k2 a b
  kernel k3 b
}
)",
                                         kSamePlace);
  ASSERT_EQ(rules(v), std::vector<Rule>{Rule::Overlap});
  EXPECT_EQ(v[0].message,
            "overlap: a [0, 256) at positions 0..1 and b [0, 256) at positions 1..2 of the loop at line 4 share "
            "bytes [0, 256) during position 1 of each iteration in arena arena0 (plan lines 3 and 4)");
}

// A buffer read early in the body and set before the loop is not local: it
// lives over the whole loop, so scratch later in the body may not take its
// bytes (the shape of PTOAS PR #913).
TEST(CheckerV3, ABufferThatIsNotLocalLivesOverTheWholeLoop) {
  EXPECT_EQ(rules(check(R"(schedule v3
buffer x CUDA float32 256
buffer a CUDA float32 256 local
kernel init x
range {
  kernel read a x
  kernel late a
}
)",
                        "plan v1\narena arena0 CUDA 1024\nplace x arena0 0\nplace a arena0 0\n")),
            std::vector<Rule>{Rule::Overlap});
}

TEST(CheckerV3, LocalBuffersOfTwoLoopsAreComparedAtTheTopLevel) {
  const std::string two = R"(schedule v3
buffer a CUDA float32 256 local
buffer b CUDA float32 256 local
range stream=s1 {
  kernel k1 a
}
range stream=s2 {
  kernel k2 b
}
)";
  EXPECT_EQ(rules(check(two, kSamePlace)), std::vector<Rule>{Rule::Race});
}

TEST(CheckerV3, InnerLoopsAreOnePositionOfTheOuterBody) {
  const std::string nested = R"(schedule v3
buffer a CUDA float32 256 local
buffer b CUDA float32 256 local
buffer c CUDA float32 256 local
range {
  range {
    kernel k1 a
    kernel k2 b
  }
  kernel k3 c
}
)";
  // a and b are compared inside the inner loop; c after it in the outer.
  EXPECT_EQ(check(nested, "plan v1\narena arena0 CUDA 1024\nplace a arena0 0\nplace b arena0 0\nplace c arena0 0\n"),
            std::vector<Violation>{});
}

TEST(CheckerV3, InPlaceInsideALoopBetweenLocalBuffers) {
  const std::string body = R"(schedule v3
buffer a CUDA float32 256 local
buffer b CUDA float32 256 local
buffer y CUDA float32 256
range {
  kernel k1 a
  kernel relu b a inplace=b:a
  kernel k3 y b
}
)";
  EXPECT_EQ(check(body, "plan v1\narena arena0 CUDA 2048\nplace a arena0 0\nplace b arena0 0\nplace y arena0 1024\n"),
            std::vector<Violation>{});
}

TEST(CheckerV3, InPlaceInsideALoopNeedsBothLocal) {
  const std::vector<Violation> v = check(R"(schedule v3
buffer a CUDA float32 256 local
buffer b CUDA float32 256
buffer y CUDA float32 256
range {
  kernel k1 a
  kernel relu b a inplace=b:a
  kernel k3 y b
}
)",
                                         "plan v1\narena arena0 CUDA 2048\nplace a arena0 0\nplace b arena0 0\n"
                                         "place y arena0 1024\n");
  ASSERT_EQ(rules(v), std::vector<Rule>{Rule::InPlaceNotAllowed});
  EXPECT_THAT(v[0].message, HasSubstr("not both local to that loop"));
}

TEST(CheckerV3, InPlaceInsideALoopWhileTheInputIsReadLater) {
  const std::vector<Violation> v = check(R"(schedule v3
buffer a CUDA float32 256 local
buffer b CUDA float32 256 local
range {
  kernel k1 a
  kernel relu b a inplace=b:a
  kernel k3 b a
}
)",
                                         kSamePlace);
  ASSERT_EQ(rules(v), std::vector<Rule>{Rule::InPlaceNotAllowed});
  EXPECT_THAT(v[0].message, HasSubstr("a is used at position 2 of the loop's body, past the kernel's position 1"));
}

// In place while another stream may still read the input: apart in file
// order (the grant holds on one stream), so a race.
TEST(CheckerV3, InPlaceWhileAnotherStreamReadsTheInput) {
  const std::string text = R"(schedule v3
buffer a CUDA float32 256
buffer b CUDA float32 256
kernel k1 a
kernel side a stream=s2
kernel relu b a inplace=b:a
)";
  const std::vector<Violation> v = check(text, kSamePlace);
  ASSERT_EQ(rules(v), std::vector<Rule>{Rule::Race});
  EXPECT_THAT(v[0].message, HasSubstr("a's use at entry 1 (line 5, stream s2)"));
  const std::string ordered = R"(schedule v3
buffer a CUDA float32 256
buffer b CUDA float32 256
kernel k1 a
kernel side a stream=s2
record e stream=s2
wait e
kernel relu b a inplace=b:a
)";
  EXPECT_EQ(check(ordered, kSamePlace), std::vector<Violation>{});
}

TEST(HappensBefore, TheWalkAgreesWithTheClocks) {
  const Schedule s = sched(R"(schedule v3
buffer a CUDA float32 256
kernel k0 a stream=s1
record e1 stream=s1
kernel k1 a stream=s2
wait e1 stream=s2
record e2 stream=s2
kernel k2 a stream=s3
wait e2 stream=s3
kernel k3 a stream=s3
kernel k4 a stream=s1
record e3 stream=s1
wait e3
wait e2
kernel k5 a
)");
  const HappensBefore clocks(s);
  const HappensBefore walk(s, 0);
  for (std::size_t a = 0; a < s.entries.size(); ++a) {
    for (std::size_t b = 0; b < s.entries.size(); ++b) {
      EXPECT_EQ(clocks.before(a, b), walk.before(a, b)) << a << " before " << b;
    }
  }
  EXPECT_TRUE(clocks.before(0, 7));    // k0, record e1, wait e1, record e2, wait e2, k3
  EXPECT_TRUE(clocks.before(2, 7));    // k1 comes before record e2 on s2
  EXPECT_FALSE(clocks.before(5, 12));  // nothing is recorded on s3
  EXPECT_TRUE(clocks.before(2, 12));
  EXPECT_FALSE(clocks.before(7, 5));   // never backwards
}

}  // namespace
}  // namespace planck::oracle
