// Perfect packings: the lifetimes the oracle derives from the schedule are the
// pieces' spans, the peak is the rectangle's width, and the pieces' own places
// fit an arena of that width, so the least arena is the peak.

#include "gen/perfect_packing.h"

#include <gtest/gtest.h>

#include "gen/schedule_assertions.h"
#include "model/schedule_printer.h"
#include "oracle/optimum/optimum.h"
#include "oracle/optimum/optimum_input.h"

namespace planck::gen {
namespace {

struct Case {
  std::uint64_t seed;
  PerfectPackingOptions options;
};

const Case kCases[] = {
    {1, {.buffers = 1, .width = 1}},
    {2, {.buffers = 2, .width = 3}},
    {3, {.buffers = 40, .width = 16}},
    {4, {.buffers = 300, .width = 1024}},
    {5, {.buffers = 120, .width = 4, .entries = 500}},
};

TEST(PerfectPacking, TheDerivedLifetimesAreThePiecesSpansAndThePeakIsTheWidth) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(::testing::Message() << "seed " << c.seed << ", " << c.options.buffers << " buffers");
    SeededChoices choices(c.seed);
    const PerfectPacking p = generate_perfect_packing(choices, c.options);
    ASSERT_TRUE(round_trips(p.schedule));
    ASSERT_EQ(p.pieces.size(), c.options.buffers);
    ASSERT_EQ(p.width, c.options.width);
    auto devices = oracle::schedule_packings(p.schedule);
    ASSERT_TRUE(devices.ok()) << devices.error().message();
    ASSERT_EQ(devices->size(), 1u);
    const oracle::DevicePacking& d = devices->front();
    ASSERT_EQ(d.problem.items.size(), p.pieces.size());
    for (std::size_t k = 0; k < d.buffers.size(); ++k) {
      const StorageId id = d.buffers[k];
      ASSERT_GE(id, 1u);
      const PackingPiece& piece = p.pieces[id - 1];
      const oracle::PackingItem& item = d.problem.items[k];
      EXPECT_EQ(item.name, p.schedule.storage[id].name);
      EXPECT_EQ(item.size, static_cast<Bytes>(piece.size));
      EXPECT_EQ(item.alive.begin, static_cast<std::int64_t>(piece.first));
      EXPECT_EQ(item.alive.end, static_cast<std::int64_t>(piece.last) + 1);
    }
    EXPECT_EQ(oracle::peak_live(d.problem), static_cast<Bytes>(p.width));
  }
}

TEST(PerfectPacking, ThePiecesPlacesFitTheWidth) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(::testing::Message() << "seed " << c.seed);
    SeededChoices choices(c.seed);
    const PerfectPacking p = generate_perfect_packing(choices, c.options);
    oracle::PackingProblem problem;
    oracle::Offsets offsets;
    for (const PackingPiece& piece : p.pieces) {
      problem.items.push_back({"", static_cast<Bytes>(piece.size), static_cast<std::int64_t>(piece.first),
                               static_cast<std::int64_t>(piece.last) + 1});
      offsets.push_back(static_cast<Bytes>(piece.offset));
    }
    EXPECT_EQ(oracle::placement_error(problem, offsets, static_cast<Bytes>(p.width)), "");
  }
}

TEST(PerfectPacking, ARectangleTooSmallForTheBuffersIsCutIntoUnitPieces) {
  SeededChoices choices(7);
  const PerfectPacking p = generate_perfect_packing(choices, {.buffers = 10, .width = 2, .entries = 3});
  ASSERT_EQ(p.pieces.size(), 6u);
  for (const PackingPiece& piece : p.pieces) {
    EXPECT_EQ(piece.size, 1);
    EXPECT_EQ(piece.first, piece.last);
  }
  EXPECT_TRUE(round_trips(p.schedule));
}

TEST(PerfectPacking, TheSameSeedGivesTheSamePacking) {
  SeededChoices a(9);
  SeededChoices b(9);
  SeededChoices c(10);
  const std::string one = print_schedule(generate_perfect_packing(a).schedule);
  EXPECT_EQ(one, print_schedule(generate_perfect_packing(b).schedule));
  EXPECT_NE(one, print_schedule(generate_perfect_packing(c).schedule));
}

TEST(PerfectPacking, TheOracleProvesTheWidthOptimal) {
  SeededChoices choices(11);
  const PerfectPacking p = generate_perfect_packing(choices, {.buffers = 60, .width = 64});
  auto devices = oracle::schedule_packings(p.schedule);
  ASSERT_TRUE(devices.ok()) << devices.error().message();
  auto r = oracle::solve_optimum(devices->front().problem, {.timeout_seconds = 30});
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_EQ(r->status, oracle::OptimumStatus::Optimal);
  EXPECT_EQ(r->upper_bound, static_cast<Bytes>(p.width));
}

}  // namespace
}  // namespace planck::gen
