// The sources of choices give numbers in the ranges asked for: a seed the
// same numbers on every platform, a byte string the numbers its bytes spell.

#include "gen/choices.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <utility>
#include <vector>

namespace planck::gen {
namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

TEST(SeededChoices, TheSameSeedGivesTheSameDraws) {
  SeededChoices a(7);
  SeededChoices b(7);
  SeededChoices other(8);
  bool differs = false;
  for (int i = 0; i < 1000; ++i) {
    const std::uint64_t x = a.draw(0, 1000);
    EXPECT_EQ(x, b.draw(0, 1000));
    differs |= x != other.draw(0, 1000);
  }
  EXPECT_TRUE(differs);
}

TEST(SeededChoices, AFullRangeDrawIsTheEngineOutputTheStandardFixes) {
  // The C++ standard requires the 10000th output of a default-seeded
  // mt19937_64 to be 9981545732273789042: draws over the whole range pass
  // the engine's output through unchanged, whatever the standard library.
  SeededChoices c(std::mt19937_64::default_seed);
  std::uint64_t x = 0;
  for (int i = 0; i < 10000; ++i) x = c.draw(0, kMax);
  EXPECT_EQ(x, 9981545732273789042u);
}

TEST(SeededChoices, DrawsStayInTheirRangeAndReachBothEnds) {
  SeededChoices c(1);
  bool low = false;
  bool high = false;
  for (int i = 0; i < 2000; ++i) {
    const std::uint64_t x = c.draw(10, 13);
    ASSERT_GE(x, 10u);
    ASSERT_LE(x, 13u);
    low |= x == 10;
    high |= x == 13;
    const int y = c.between(-3, 2);
    ASSERT_GE(y, -3);
    ASSERT_LE(y, 2);
    ASSERT_LT(c.below(5), 5u);
    ASSERT_GE(c.draw(kMax - 1, kMax), kMax - 1);
  }
  EXPECT_TRUE(low && high);
  EXPECT_EQ(c.draw(42, 42), 42u);
}

TEST(SeededChoices, PercentHoldsAboutThatOften) {
  SeededChoices c(3);
  int hits = 0;
  for (int i = 0; i < 10000; ++i) hits += c.percent(30);
  EXPECT_GT(hits, 2700);
  EXPECT_LT(hits, 3300);
  EXPECT_FALSE(c.percent(0));
  EXPECT_TRUE(c.percent(100));
}

TEST(ByteChoices, EachDrawTakesTheBytesItsRangeNeedsLowByteFirst) {
  const std::vector<std::uint8_t> bytes{0x05, 0x34, 0x12, 0xff};
  ByteChoices c(bytes);
  EXPECT_EQ(c.draw(0, 255), 5u);          // one byte
  EXPECT_EQ(c.draw(0, 65535), 0x1234u);  // two bytes, the first lowest
  EXPECT_EQ(c.remaining(), 1u);
  EXPECT_EQ(c.draw(7, 7), 7u);  // a range of one value takes no byte
  EXPECT_EQ(c.remaining(), 1u);
  EXPECT_EQ(c.draw(10, 13), 10u + 0xff % 4);  // mapped onto the range
  EXPECT_EQ(c.remaining(), 0u);
}

TEST(ByteChoices, PastTheEndEveryDrawIsItsLowestValue) {
  ByteChoices c(std::span<const std::uint8_t>{});
  EXPECT_EQ(c.draw(3, 9), 3u);
  EXPECT_EQ(c.draw(0, kMax), 0u);
  EXPECT_EQ(c.between(-4, 4), -4);
  EXPECT_TRUE(c.percent(1));
  EXPECT_FALSE(c.percent(0));
}

TEST(ByteChoices, AFullRangeDrawTakesEightBytes) {
  const std::vector<std::uint8_t> bytes{1, 2, 3, 4, 5, 6, 7, 8, 9};
  ByteChoices c(bytes);
  EXPECT_EQ(c.draw(0, kMax), 0x0807060504030201u);
  EXPECT_EQ(c.remaining(), 1u);
}

// A stream of the same bytes, read one at a time, as RapidCheck's choices are.
class StreamOf final : public ByteStreamChoices {
 public:
  explicit StreamOf(std::vector<std::uint8_t> bytes) : bytes_(std::move(bytes)) {}

 private:
  std::uint8_t next_byte() override { return next_ < bytes_.size() ? bytes_[next_++] : 0; }

  std::vector<std::uint8_t> bytes_;
  std::size_t next_ = 0;
};

TEST(ByteChoices, DrawsAsAStreamOfTheSameBytesDraws) {
  SeededChoices seeded(11);
  for (int round = 0; round < 200; ++round) {
    std::vector<std::uint8_t> bytes(seeded.below(40));
    for (std::uint8_t& b : bytes) b = static_cast<std::uint8_t>(seeded.draw(0, 255));
    ByteChoices whole(bytes);
    StreamOf stream(bytes);
    // Ranges of every width, until well past the end of the bytes.
    for (int i = 0; i < 30; ++i) {
      const std::uint64_t lo = seeded.draw(0, 1000);
      const int bits = seeded.between(0, 64);
      const std::uint64_t span = bits == 64 ? kMax : (std::uint64_t{1} << bits) - 1 + seeded.draw(0, 1);
      const std::uint64_t hi = span > kMax - lo ? kMax : lo + span;
      ASSERT_EQ(whole.draw(lo, hi), stream.draw(lo, hi)) << "round " << round << ", draw " << i;
    }
  }
}

}  // namespace
}  // namespace planck::gen
