// The RapidCheck generators make valid schedules of every feature of docs/formats.md#schedules-sched,
// shrink through the shrinker's candidates, and so turn a failure
// into a small schedule.

#include "properties/rapidcheck_generators.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "model/features.h"
#include "gen/schedule_assertions.h"
#include "gen/schedule_parts.h"
#include "gen/shrink.h"
#include "model/schedule_printer.h"
#include "model/schedule_reader.h"
#include "properties/property_runner.h"
#include "properties/tlsf_plain.h"
#include "properties/show.h"

namespace planck::props {
namespace {

constexpr int kCases = 150;
// Each case prints every shrink of a schedule: some hundreds.
constexpr int kShrinkCases = 20;

// Seeds for the shrinking tests: fixed, so that the tests do not flake.
constexpr std::uint64_t kSeeds[] = {1, 2, 3, 4, 5};

int view_depth(const Arg& a) { return static_cast<int>(gen::view_layers(a)); }

TEST(Generators, CoverEveryFeatureOfTheScheduleModel) {
  Features seen = no_features();
  const rc::Gen<Schedule> schedule = schedules();
  for (std::uint64_t k = 0; k < 600; ++k) seen |= used_features(schedule(rc::Random(k), static_cast<int>(k % 101)).value());
  for (const FeatureSwitch& sw : feature_switches()) EXPECT_TRUE(seen.*sw.on) << sw.name;
}

TEST(Generators, TheSameRandomAndSizeGiveTheSameSchedule) {
  const rc::Gen<Schedule> schedule = schedules();
  for (std::uint64_t k = 0; k < 20; ++k) {
    const int size = static_cast<int>(k * 7 % 101);
    EXPECT_EQ(print_schedule(schedule(rc::Random(k), size).value()),
              print_schedule(schedule(rc::Random(k), size).value()));
  }
}

TEST(Generators, MakeValidSchedulesWithinThePlannableTotal) {
  check(
      [] {
        const Schedule s = *schedules();
        for (const ::testing::AssertionResult& valid : {gen::round_trips(s), gen::within_plannable_total(s)}) {
          if (!valid) RC_FAIL(valid.message());
        }
      },
      kCases);
}

TEST(Generators, AFeatureSwitchedOffInTheOptionsIsNeverUsed) {
  gen::ScheduleOptions options;
  options.features.flag_loops = false;
  options.features.phases = false;
  check(
      [&options] {
        const Features used = used_features(*schedules(options));
        RC_ASSERT(!used.flag_loops);
        RC_ASSERT(!used.phases);
      },
      kCases);
}

TEST(Generators, OverflowingSchedulesAreValidButUnplannable) {
  check(
      [] {
        const Schedule s = *overflowing_schedules();
        if (const ::testing::AssertionResult valid = gen::round_trips(s); !valid) RC_FAIL(valid.message());
        RC_ASSERT(!model_plan(s).ok());
      },
      kCases);
}

TEST(Generators, ShrinkThroughTheShrinksOfTheScheduleInTheirOrder) {
  check(
      [] {
        const Schedule s = *schedules();
        const std::vector<Schedule> expected = gen::shrink_candidates(s);
        rc::Seq<Schedule> shrinks = shrink_schedule(s);
        std::size_t i = 0;
        while (rc::Maybe<Schedule> next = shrinks.next()) {
          RC_ASSERT(i < expected.size());
          RC_ASSERT(print_schedule(*next) == print_schedule(expected[i]));
          ++i;
        }
        RC_ASSERT(i == expected.size());
      },
      kShrinkCases);
}

// A property broken by one rule must shrink to a few entries that show it.
void expect_small_counterexample(const std::function<bool(const Schedule&)>& breaks_the_rule, const std::string& rule) {
  for (std::uint64_t seed : kSeeds) {
    const std::optional<Failure> found = find_counterexample(
        [&] {
          const Schedule s = *schedules();
          RC_ASSERT(!breaks_the_rule(s));
        },
        seed, 500);
    ASSERT_TRUE(found) << rule << ": no schedule found with seed " << seed;
    ASSERT_TRUE(found->schedule) << found->description;
    Result<Schedule> s = parse_schedule(*found->schedule, "counterexample");
    ASSERT_TRUE(s.ok()) << s.error().message();
    EXPECT_TRUE(breaks_the_rule(*s)) << *found->schedule;
    EXPECT_LE(gen::count_entries(*s), 5u) << rule << ", seed " << seed << ":\n" << *found->schedule;
  }
}

std::vector<StorageId> distinct_taken(const Entry& e) { return model_taken(e); }

TEST(Shrinking, ALoopWithTwoBuffersShrinksToAtMostFiveEntries) {
  expect_small_counterexample(
      [](const Schedule& s) {
        for (const Entry& e : s.entries) {
          if (e.kind == Entry::Kind::Kernel || e.kind == Entry::Kind::Copy) continue;
          std::size_t buffers = 0;
          for (StorageId id : distinct_taken(e)) buffers += s.storage[id].kind == StorageKind::Buffer;
          if (buffers >= 2) return true;
        }
        return false;
      },
      "a loop that takes two buffers");
}

TEST(Shrinking, AFlagSeenThroughTwoViewsShrinksToAtMostFiveEntries) {
  expect_small_counterexample(
      [](const Schedule& s) {
        std::vector<const std::vector<Entry>*> bodies{&s.entries};
        while (!bodies.empty()) {
          const std::vector<Entry>* body = bodies.back();
          bodies.pop_back();
          for (const Entry& e : *body) {
            if (!e.flag().empty() && view_depth(e.flag().front()) >= 2) return true;
            bodies.push_back(&e.body());
          }
        }
        return false;
      },
      "a flag seen through two views");
}

TEST(Shrinking, TwoDevicesWithPlannedBuffersShrinkToAtMostFiveEntries) {
  expect_small_counterexample(
      [](const Schedule& s) {
        std::set<std::string> devices;
        for (const Lifetime& l : model_lifetimes(s)) devices.insert(s.storage[l.buffer].device);
        return devices.size() >= 2;
      },
      "two devices with planned buffers");
}

TEST(Shrinking, AHugePlannedBufferShrinksToAtMostFiveEntries) {
  expect_small_counterexample(
      [](const Schedule& s) {
        for (const Lifetime& l : model_lifetimes(s)) {
          if (s.storage[l.buffer].bytes >= (Bytes{1} << 60)) return true;
        }
        return false;
      },
      "a planned buffer of 2^60 bytes or more");
}

TEST(Shrinking, DropsUnusedDeclarationsAndViews) {
  // A failure that needs one phased buffer alive with another keeps just those two.
  const std::optional<Failure> found = find_counterexample(
      [] {
        const Schedule s = *schedules();
        for (const Lifetime& a : model_lifetimes(s)) {
          for (const Lifetime& b : model_lifetimes(s)) {
            const bool together = a.buffer != b.buffer && a.first <= b.last && b.first <= a.last;
            RC_ASSERT(!(together && s.storage[a.buffer].phase != 0));
          }
        }
      },
      7, 500);
  ASSERT_TRUE(found && found->schedule);
  Result<Schedule> s = parse_schedule(*found->schedule, "counterexample");
  ASSERT_TRUE(s.ok()) << s.error().message();
  EXPECT_EQ(s->storage.size(), 2u) << *found->schedule;
  EXPECT_EQ(gen::count_entries(*s), 1u) << *found->schedule;
  for (const Entry& e : s->entries) {
    for (const Arg& a : e.args) EXPECT_EQ(a.kind, Arg::Kind::Storage) << *found->schedule;
  }
}

}  // namespace
}  // namespace planck::props
