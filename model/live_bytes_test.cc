#include "model/live_bytes.h"

#include <gtest/gtest.h>

#include <vector>

namespace planck {
namespace {

TEST(PeakLiveBytes, IsTheMostBytesAliveAtOnce) {
  // 100 over [0, 2), 300 over [1, 3), 50 over [2, 4): 400 at time 1.
  EXPECT_EQ(peak_live_bytes({{{0, 2}, 100}, {{1, 3}, 300}, {{2, 4}, 50}}), 400u);
}

TEST(PeakLiveBytes, ALoadThatEndsAtATimeIsFreedBeforeOneThatBeginsThen) {
  EXPECT_EQ(peak_live_bytes({{{0, 1}, 256}, {{1, 2}, 512}}), 512u);
}

TEST(PeakLiveBytes, TakesLoadsInAnyOrder) {
  // 21 at time 0, 30 at 5, 40 at 6 (the 20 freed, the 30 begun).
  EXPECT_EQ(peak_live_bytes({{{5, 9}, 10}, {{0, 6}, 20}, {{6, 7}, 30}, {{0, 1}, 1}}), 40u);
}

TEST(PeakLiveBytes, IsZeroWithoutLoads) { EXPECT_EQ(peak_live_bytes({}), 0u); }

TEST(PeakLiveBytes, IsNothingWhenTheLiveBytesPass2To64) {
  const Bytes half = Bytes{1} << 63;
  EXPECT_EQ(peak_live_bytes({{{0, 2}, half}, {{1, 2}, half}}), std::nullopt);
  EXPECT_EQ(peak_live_bytes({{{0, 1}, half}, {{1, 2}, half}}), half);
}

TEST(LoadOf, ABufferIsAliveFromItsFirstEntryToTheOneAfterItsLast) {
  const Load load = load_of(Lifetime{.buffer = 3, .first = 2, .last = 4}, 768);
  EXPECT_EQ(load.alive, (TimeRange{2, 5}));
  EXPECT_EQ(load.size, 768u);
}

TEST(ArenaTotal, SumsTheArenaSizes) {
  Plan p;
  EXPECT_EQ(arena_total(p), 0u);
  p.arenas = {{"arena0", "CPU", 1024, {}}, {"arena1", "GPU", 512, {}}};
  EXPECT_EQ(arena_total(p), 1536u);
  p.arenas.push_back({"arena2", "TPU", ~Bytes{0}, {}});
  EXPECT_EQ(arena_total(p), std::nullopt);
}

}  // namespace
}  // namespace planck
