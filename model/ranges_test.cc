// Half-open ranges and the one conversion from an inclusive lifetime.

#include "model/ranges.h"

#include <gtest/gtest.h>

namespace planck {
namespace {

TEST(HalfOpen, RangesThatShareAPointOverlap) {
  EXPECT_TRUE((ByteRange{0, 256}).overlaps({255, 512}));
  EXPECT_TRUE((ByteRange{0, 512}).overlaps({256, 257}));
  EXPECT_TRUE((TimeRange{-3, 2}).overlaps({1, 9}));
}

TEST(HalfOpen, RangesThatOnlyTouchDoNot) {
  EXPECT_FALSE((ByteRange{0, 256}).overlaps({256, 512}));
  EXPECT_FALSE((ByteRange{256, 512}).overlaps({0, 256}));
}

TEST(HalfOpen, AnEmptyRangeOverlapsNothingEvenInsideAnother) {
  EXPECT_TRUE((ByteRange{5, 5}).empty());
  EXPECT_FALSE((ByteRange{5, 5}).overlaps({0, 10}));
  EXPECT_FALSE((ByteRange{0, 10}).overlaps({5, 5}));
  EXPECT_FALSE((ByteRange{5, 5}).overlaps({5, 5}));
}

TEST(TimesOf, ALifetimeIsItsEntriesFromFirstToTheOneAfterLast) {
  EXPECT_EQ(times_of(Lifetime{.buffer = 0, .first = 2, .last = 4}), (TimeRange{2, 5}));
  EXPECT_EQ(times_of(Lifetime{.buffer = 0, .first = 7, .last = 7}), (TimeRange{7, 8}));
  // Lifetimes that share an entry overlap as ranges, and ones that follow each other do not.
  EXPECT_TRUE(times_of({0, 1, 3}).overlaps(times_of({1, 3, 6})));
  EXPECT_FALSE(times_of({0, 1, 3}).overlaps(times_of({1, 4, 6})));
}

}  // namespace
}  // namespace planck
