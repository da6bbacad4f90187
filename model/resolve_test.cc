#include "model/resolve.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tests/parsed.h"

namespace planck {
namespace {

using Kind = PlanProblem::Kind;
using testing::plan;
using testing::sched;

// t0, t1 and f are buffers (storage 0, 1, 2), x a param (storage 3).
constexpr std::string_view kSchedule = R"(schedule v1
buffer t0 CPU int8 256
buffer t1 CPU int8 256
buffer f  GPU bool 256
param  x  CPU int8 256
kernel k t0 t1 f x
)";

std::vector<Kind> kinds(const Resolution& r) {
  std::vector<Kind> out;
  for (const PlanProblem& problem : r.problems) out.push_back(problem.kind);
  return out;
}

TEST(Resolve, EachPlacementGetsItsStorageAndArena) {
  const Resolution r = resolve(sched(kSchedule), plan(R"(plan v1
arena a0 CPU 512
arena a1 GPU 256
place t1 a0 256
place f a1 0
place t0 a0 0
)"));
  EXPECT_TRUE(r.problems.empty());
  ASSERT_EQ(r.placements.size(), 3u);
  EXPECT_EQ(r.placements[0].storage, StorageId{1});
  EXPECT_EQ(r.placements[0].arena, std::size_t{0});
  EXPECT_EQ(r.placements[1].storage, StorageId{2});
  EXPECT_EQ(r.placements[1].arena, std::size_t{1});
  EXPECT_EQ(r.placements[2].storage, StorageId{0});
  for (const ResolvedPlacement& pl : r.placements) EXPECT_TRUE(pl.ok());
  // By storage: t0, t1 and f are placed by placements 2, 0 and 1; x is not.
  EXPECT_EQ(r.placement_of, (std::vector<std::optional<std::size_t>>{2, 0, 1, std::nullopt}));
  ASSERT_EQ(r.arenas.size(), 2u);
  EXPECT_EQ(r.arenas[1].first, 1u);
  EXPECT_FALSE(r.arenas[1].named_like.has_value());
}

TEST(Resolve, StorageTheScheduleDoesNotDeclareIsUnknownAtItsPlace) {
  const Resolution r = resolve(sched(kSchedule), plan("plan v1\narena a0 CPU 256\nplace zz a0 0\n"));
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].kind, Kind::UnknownStorage);
  EXPECT_EQ(r.problems[0].index, 0u);
  EXPECT_EQ(r.problems[0].pos.line, 3);
  EXPECT_FALSE(r.placements[0].storage.has_value());
  EXPECT_FALSE(r.placements[0].ok());
}

TEST(Resolve, ALaterPlacementOfTheSameStorageIsPlacedTwiceAndTheFirstCounts) {
  const Resolution r =
      resolve(sched(kSchedule), plan("plan v1\narena a0 CPU 512\nplace t0 a0 0\nplace t0 a0 256\n"));
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].kind, Kind::PlacedTwice);
  EXPECT_EQ(r.problems[0].index, 1u);
  EXPECT_EQ(r.problems[0].earlier, 0u);
  EXPECT_EQ(r.problems[0].pos.line, 4);
  EXPECT_EQ(r.problems[0].earlier_pos.line, 3);
  EXPECT_TRUE(r.placements[0].ok());
  EXPECT_FALSE(r.placements[1].first);
  EXPECT_EQ(r.placement_of[0], std::size_t{0});
}

TEST(Resolve, AnArenaThePlanDoesNotDeclareIsUnknown) {
  const Resolution r = resolve(sched(kSchedule), plan("plan v1\narena a0 CPU 256\nplace t0 a9 0\n"));
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].kind, Kind::UnknownArena);
  EXPECT_EQ(r.problems[0].pos.line, 3);
  EXPECT_TRUE(r.placements[0].first);
  EXPECT_FALSE(r.placements[0].arena.has_value());
}

TEST(Resolve, PlacementsInAnArenaDeclaredTwiceGoToTheFirst) {
  const Resolution r = resolve(
      sched(kSchedule), plan("plan v1\narena a0 CPU 256\narena a0 CPU 512\nplace t0 a0 0\n"));
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].kind, Kind::ArenaTwice);
  EXPECT_EQ(r.problems[0].index, 1u);
  EXPECT_EQ(r.problems[0].earlier, 0u);
  EXPECT_EQ(r.problems[0].pos.line, 3);
  EXPECT_EQ(r.problems[0].earlier_pos.line, 2);
  EXPECT_EQ(r.arenas[1].first, 0u);
  EXPECT_EQ(r.placements[0].arena, std::size_t{0});
}

TEST(Resolve, AnArenaNamedLikeStorageIsAProblemButStillAnArena) {
  const Resolution r = resolve(sched(kSchedule), plan("plan v1\narena x CPU 256\nplace t0 x 0\n"));
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].kind, Kind::ArenaNamedLikeStorage);
  EXPECT_EQ(r.problems[0].earlier, 3u);
  EXPECT_EQ(r.problems[0].pos.line, 2);
  EXPECT_EQ(r.problems[0].earlier_pos.line, 5);  // x's declaration in the schedule
  EXPECT_EQ(r.arenas[0].named_like, StorageId{3});
  EXPECT_TRUE(r.placements[0].ok());
}

TEST(Resolve, APlacementHasOnlyItsFirstProblemAndArenasComeFirst) {
  const Resolution r = resolve(sched(kSchedule), plan(R"(plan v1
arena a0 CPU 512
place zz a9 0
place t0 a0 0
place t0 a9 256
place t1 a9 0
arena a0 CPU 256
)"));
  // zz: unknown storage, not unknown arena; the second t0: placed twice, not
  // unknown arena; t1: unknown arena. The arena declared twice comes first.
  EXPECT_EQ(kinds(r), (std::vector<Kind>{Kind::ArenaTwice, Kind::UnknownStorage, Kind::PlacedTwice,
                                         Kind::UnknownArena}));
}

TEST(Resolve, TheFirstStorageOfANameIsTheOnePlaced) {
  // Parsed schedules have unique names; schedules built in code may not.
  Schedule s = sched(kSchedule);
  s.storage.push_back(s.storage[0]);
  const Resolution r = resolve(s, plan("plan v1\narena a0 CPU 256\nplace t0 a0 0\n"));
  EXPECT_EQ(r.placements[0].storage, StorageId{0});
  EXPECT_FALSE(r.placement_of[4].has_value());
}

TEST(Resolve, TheFirstStorageOfANameIsPlacedWhenALaterOneFollowsTheStoragePlacedBefore) {
  // Storage t0, t1, f, x, then t1 again (storage 4) and t0 again (5). The plan
  // places x, then t1: the storage after x, tried first, is the second t1,
  // whose name is the first t1's. Then t0, after the second t1: the second t0.
  Schedule s = sched(kSchedule);
  s.storage.push_back(s.storage[1]);
  s.storage.push_back(s.storage[0]);
  const Resolution r =
      resolve(s, plan("plan v1\narena a0 CPU 512\nplace x a0 0\nplace t1 a0 0\nplace t0 a0 256\n"));
  EXPECT_EQ(r.placements[0].storage, StorageId{3});
  EXPECT_EQ(r.placements[1].storage, StorageId{1});
  EXPECT_EQ(r.placements[2].storage, StorageId{0});
  EXPECT_EQ(r.placement_of[1], 1u);
  EXPECT_EQ(r.placement_of[0], 2u);
  EXPECT_FALSE(r.placement_of[4].has_value());
  EXPECT_FALSE(r.placement_of[5].has_value());
  EXPECT_TRUE(r.problems.empty());
}

// Buffers b0 .. b<n - 1> after a param `a`, then `extra` again by name: the
// numbered names are one run in shortlex order.
Schedule numbered(std::size_t n, const std::vector<std::string>& extra) {
  Schedule s;
  s.storage.push_back(Storage{.kind = StorageKind::Param, .name = "a", .device = "CPU", .bytes = 256});
  for (std::size_t i = 0; i < n; ++i) {
    s.storage.push_back(Storage{.name = "b" + std::to_string(i), .device = "CPU", .bytes = 256});
  }
  for (const std::string& name : extra) s.storage.push_back(Storage{.name = name, .device = "CPU", .bytes = 256});
  return s;
}

// A plan placing `names` in arena a0, in that order.
Plan placing(const std::vector<std::string>& names) {
  Plan p{.arenas = {Arena{.name = "a0", .device = "CPU", .size = 256}}};
  for (const std::string& name : names) p.placements.push_back(Placement{.buffer = name, .arena = "a0"});
  return p;
}

void expect_same(const Resolution& a, const Resolution& b) {
  ASSERT_EQ(a.placements.size(), b.placements.size());
  for (std::size_t i = 0; i < a.placements.size(); ++i) {
    EXPECT_EQ(a.placements[i].storage, b.placements[i].storage) << i;
    EXPECT_EQ(a.placements[i].arena, b.placements[i].arena) << i;
    EXPECT_EQ(a.placements[i].first, b.placements[i].first) << i;
  }
  EXPECT_EQ(a.placement_of, b.placement_of);
  EXPECT_EQ(kinds(a), kinds(b));
}

TEST(Resolve, NamesInOrderAndOutOfItResolveAsThroughTheIndex) {
  // Distinct names; then a later b7 and b150, or a, whose first storage is
  // earlier; then distinct names in more runs; then names that break the
  // order in many places. Placed in reverse, most names are searched for.
  std::vector<std::string> many;
  for (std::size_t i = 0; i < 40; ++i) many.push_back("c" + std::to_string(40 - i));
  for (const std::vector<std::string>& extra : {std::vector<std::string>{}, std::vector<std::string>{"b7", "b150"},
                                                  std::vector<std::string>{"a"}, std::vector<std::string>{"z", "c5", "a2"}, many}) {
    const Schedule s = numbered(200, extra);
    const StorageNames names(s);
    std::vector<std::string> in_order{"a"};
    for (std::size_t i = 0; i < 200; ++i) in_order.push_back("b" + std::to_string(i));
    in_order.insert(in_order.end(), extra.begin(), extra.end());
    in_order.push_back("nobody");
    const std::vector<std::string> reversed(in_order.rbegin(), in_order.rend());
    for (const std::vector<std::string>& order : {in_order, reversed}) {
      const Plan p = placing(order);
      const Resolution alone = resolve(s, p);
      expect_same(alone, resolve(names, p));
      // Each name resolves to its first storage.
      for (std::size_t i = 0; i < order.size(); ++i) EXPECT_EQ(alone.placements[i].storage, s.find(order[i])) << order[i];
    }
  }
}

TEST(StorageNames, ServeEveryPlanOfTheScheduleAsResolveWould) {
  Schedule s = sched(kSchedule);
  s.storage.push_back(s.storage[1]);  // a second t1
  const StorageNames names(s);
  EXPECT_EQ(names.find("t1"), StorageId{1});
  EXPECT_EQ(names.first_named(4), StorageId{1});
  EXPECT_EQ(names.find("nothing"), std::nullopt);
  for (const char* text : {"plan v1\narena a0 CPU 512\nplace t0 a0 0\nplace t1 a0 256\n",
                           "plan v1\narena t0 CPU 256\narena a0 CPU 256\nplace x a0 0\nplace x a1 0\n",
                           "plan v1\narena a0 CPU 256\narena a0 CPU 256\nplace nobody a0 0\nplace f a0 0\n"}) {
    const Plan p = plan(text);
    const Resolution shared = resolve(names, p);
    const Resolution alone = resolve(s, p);
    ASSERT_EQ(shared.placements.size(), alone.placements.size()) << text;
    for (std::size_t i = 0; i < alone.placements.size(); ++i) {
      EXPECT_EQ(shared.placements[i].storage, alone.placements[i].storage) << text;
      EXPECT_EQ(shared.placements[i].arena, alone.placements[i].arena) << text;
      EXPECT_EQ(shared.placements[i].first, alone.placements[i].first) << text;
    }
    EXPECT_EQ(shared.placement_of, alone.placement_of) << text;
    EXPECT_EQ(kinds(shared), kinds(alone)) << text;
  }
  EXPECT_EQ(kinds(resolve(names, plan("plan v1\narena t0 CPU 256\narena a0 CPU 256\nplace x a0 0\nplace x a1 0\n"))),
            (std::vector<Kind>{Kind::ArenaNamedLikeStorage, Kind::PlacedTwice}));
}

TEST(PlanProblemError, EachProblemIsAnErrorAtItsPlaceInThePlan) {
  const Schedule s = sched(kSchedule);
  const Plan p = plan(R"(plan v1
arena a0 CPU 512
arena a0 CPU 256
arena x CPU 256
place zz a0 0
place t0 a0 0
place t0 a0 256
place t1 a9 0
)");
  const Resolution r = resolve(s, p);
  std::vector<std::string> errors;
  for (const PlanProblem& problem : r.problems) errors.push_back(plan_problem_error(s, p, problem).message());
  EXPECT_EQ(errors, (std::vector<std::string>{
                        "test.plan:3:1: arena a0 is declared twice (first at line 2)",
                        "test.plan:4:1: arena x has the name of the schedule's param x (line 5)",
                        "test.plan:5:1: zz is placed but the schedule declares no storage of that name",
                        "test.plan:7:1: t0 is placed twice (first at line 6)",
                        "test.plan:8:1: t1 is placed in arena a9, which the plan does not declare",
                    }));
}

TEST(PlanProblemError, APlanBuiltInCodeHasNoLines) {
  const Schedule s = sched(kSchedule);
  Plan p;
  p.placements.push_back({.buffer = "t0", .arena = "a0"});
  p.placements.push_back({.buffer = "t0", .arena = "a0"});
  p.arenas.push_back({.name = "a0", .device = "CPU", .size = 256});
  const Resolution r = resolve(s, p);
  ASSERT_EQ(r.problems.size(), 1u);
  const Error e = plan_problem_error(s, p, r.problems[0]);
  EXPECT_EQ(e.where, "");
  EXPECT_EQ(e.what, "t0 is placed twice");
}

}  // namespace
}  // namespace planck
