#include "model/interval_schedule.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace planck {
namespace {

IntervalProblem problem(std::string_view rows) {
  Result<IntervalProblem> p = parse_intervals("id,lower,upper,size\n" + std::string(rows), "t.csv");
  if (!p) ADD_FAILURE() << p.error().message();
  return p ? std::move(p).value() : IntervalProblem{};
}

Schedule schedule_of(std::string_view rows, Bytes unit = 1) {
  Result<Schedule> s = interval_schedule(problem(rows), unit);
  if (!s) ADD_FAILURE() << s.error().message();
  return s ? std::move(s).value() : Schedule{};
}

std::vector<std::string> names_taken(const Schedule& s, std::size_t entry) {
  std::vector<std::string> names;
  for (const Arg& a : s.entries[entry].args) names.push_back(s.storage[storage_of(a)].name);
  return names;
}

// docs/planners.md#the-reference-planner-tlsf's lifetime of each buffer, by name: the first and the last
// top-level entry that takes it.
std::map<std::string, std::pair<std::size_t, std::size_t>> lifetimes(const Schedule& s) {
  std::map<std::string, std::pair<std::size_t, std::size_t>> life;
  for (std::size_t t = 0; t < s.entries.size(); ++t) {
    for (const Arg& a : s.entries[t].args) {
      const Name& name = s.storage[storage_of(a)].name;
      auto [it, first] = life.try_emplace(name, t, t);
      if (!first) it->second.second = t;
    }
  }
  return life;
}

TEST(IntervalSchedule, EachRowIsAnInt8BufferOnTheCsvDeviceDeclaredAtItsLine) {
  const Schedule s = schedule_of("a,0,2,100\n7,1,3,300\n");
  EXPECT_EQ(s.source, "t.csv");
  ASSERT_EQ(s.storage.size(), 2u);
  const Storage& seven = s.storage[1];
  EXPECT_EQ(seven.name, "7");
  EXPECT_EQ(seven.kind, StorageKind::Buffer);
  EXPECT_EQ(seven.device, "CSV");
  EXPECT_EQ(seven.dtype, Dtype::Int8);
  EXPECT_EQ(seven.bytes, 300u);
  EXPECT_EQ(seven.phase, 0u);
  EXPECT_FALSE(seven.held);
  EXPECT_EQ(seven.pos.line, 3);
  EXPECT_EQ(seven.pos.col, 1);
}

TEST(IntervalSchedule, ABuffersLifetimeIsItsRowsHalfOpenInterval) {
  const Schedule s = schedule_of("a,0,2,1\nb,1,3,1\nc,5,6,1\nd,2,9,0\ne,0,9,4\n");
  ASSERT_EQ(s.entries.size(), 9u);
  const std::map<std::string, std::pair<std::size_t, std::size_t>> expected{
      {"a", {0, 1}}, {"b", {1, 2}}, {"c", {5, 5}}, {"d", {2, 8}}, {"e", {0, 8}}};
  EXPECT_EQ(lifetimes(s), expected);
}

TEST(IntervalSchedule, AnEntryTakesTheRowsBeginningThereInRowOrderThenThoseEnding) {
  const Schedule s = schedule_of("a,0,2,1\nz,1,3,1\nb,1,2,1\nc,3,4,1\n");
  ASSERT_EQ(s.entries.size(), 4u);
  EXPECT_EQ(s.entries[1].kind, Entry::Kind::Kernel);
  EXPECT_EQ(s.entries[1].name, "t1");
  EXPECT_THAT(names_taken(s, 0), ::testing::ElementsAre("a"));
  EXPECT_THAT(names_taken(s, 1), ::testing::ElementsAre("z", "b", "a"));
  EXPECT_THAT(names_taken(s, 2), ::testing::ElementsAre("z"));
  EXPECT_THAT(names_taken(s, 3), ::testing::ElementsAre("c"));
}

TEST(IntervalSchedule, StepsBeforeTheFirstRowAreEntriesThatTakeNothing) {
  const Schedule s = schedule_of("a,3,5,8\n");
  ASSERT_EQ(s.entries.size(), 5u);
  for (std::size_t t = 0; t < 3; ++t) EXPECT_TRUE(s.entries[t].args.empty());
  EXPECT_EQ(s.entries[0].name, "t0");
}

TEST(IntervalSchedule, AnEmptyProblemIsAnEmptySchedule) {
  const Schedule s = schedule_of("");
  EXPECT_TRUE(s.storage.empty());
  EXPECT_TRUE(s.entries.empty());
}

TEST(IntervalSchedule, AUnitMultipliesEverySize) {
  const Schedule s = schedule_of("a,0,1,3\nb,0,1,0\n", kPlaceAlign);
  EXPECT_EQ(s.storage[0].bytes, 768u);
  EXPECT_EQ(s.storage[1].bytes, 0u);
}

TEST(IntervalSchedule, AnIdThatCannotNameABufferInAPlanIsAnErrorAtItsRow) {
  Result<Schedule> s = interval_schedule(problem("a,0,1,3\nb c,0,1,3\n"));
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message(),
            "t.csv:3:1: id `b c` cannot name a buffer in a plan file (it has a blank or `#`)");
  EXPECT_FALSE(interval_schedule(problem("x#1,0,1,3\n")));
}

TEST(IntervalSchedule, TimeStepsAreBounded) {
  Result<Schedule> s =
      interval_schedule(problem("a,0,1,1\nb,0," + std::to_string(kMaxIntervalSteps + 1) + ",1\n"));
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().where, "t.csv:3:1");
  EXPECT_THAT(s.error().what, ::testing::HasSubstr("the most time steps a CSV may have as a schedule"));
}

TEST(IntervalSchedule, SizesInUnitsStayBelow2To62) {
  const std::string largest = std::to_string((kMaxBytes - 1) / kPlaceAlign);
  EXPECT_TRUE(interval_schedule(problem("a,0,1," + largest + "\n"), kPlaceAlign));
  Result<Schedule> s =
      interval_schedule(problem("a,0,1," + std::to_string(kMaxBytes / kPlaceAlign) + "\n"), kPlaceAlign);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message(), "t.csv:2:1: size 18014398509481984 as blocks of 256 bytes reaches 2^62");
}

TEST(IntervalCheck, EveryByteOfTheProblemAndThePlanBecomesABlock) {
  Result<Plan> plan =
      parse_plan("plan v1\narena arena0 CSV 5\nplace a arena0 0\nplace b arena0 3\n", "p.plan");
  ASSERT_TRUE(plan);
  Result<IntervalCheck> blocks = interval_check(problem("a,0,2,3\nb,1,3,2\n"), *plan);
  ASSERT_TRUE(blocks) << blocks.error().message();
  EXPECT_EQ(blocks->schedule.storage[0].bytes, 768u);
  EXPECT_EQ(blocks->schedule.storage[1].bytes, 512u);
  EXPECT_EQ(print_plan(blocks->plan),
            "plan v1\narena arena0 CSV 1280\nplace a arena0 0\nplace b arena0 768\n");
  EXPECT_EQ(blocks->plan.source, "p.plan");
  EXPECT_EQ(blocks->plan.placements[1].pos.line, 4);
}

TEST(IntervalCheck, APlaceTooLargeToScaleIsAnErrorAtItsLine) {
  const std::string place = std::to_string(kMaxBytes / kPlaceAlign);
  Result<Plan> plan = parse_plan("plan v1\narena arena0 CSV 5\nplace a arena0 " + place + "\n", "p.plan");
  ASSERT_TRUE(plan);
  Result<IntervalCheck> blocks = interval_check(problem("a,0,2,3\n"), *plan);
  ASSERT_FALSE(blocks);
  EXPECT_EQ(blocks.error().message(),
            "p.plan:3:1: place " + place +
                " as blocks of 256 bytes reaches 2^62, too large to judge against t.csv");
}

}  // namespace
}  // namespace planck
