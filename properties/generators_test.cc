// The schedule generators make valid schedules of every feature of SPEC
// section 2, and their shrinker turns a failure into a small schedule.

#include "properties/generators.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "model/text.h"
#include "properties/harness.h"
#include "properties/reference_model.h"
#include "properties/show.h"

namespace planck::props {
namespace {

constexpr int kCases = 150;
// Each case parses every shrink of a schedule: some hundreds.
constexpr int kShrinkCases = 20;

// Seeds for the shrinking tests: fixed, so that the tests do not flake.
constexpr std::uint64_t kSeeds[] = {1, 2, 3, 4, 5};

Schedule parse_or_fail(const std::string& text) {
  Result<Schedule> s = parse_schedule(text, "generated");
  if (!s) RC_FAIL(s.error().message() + "\n" + text);
  return std::move(*s);
}

int view_depth(const Arg& a) {
  int n = 0;
  for (const Arg* v = &a; v->kind != Arg::Kind::Storage; v = &v->base.front()) ++n;
  return n;
}

// What one schedule shows of the model's features.
struct Features {
  std::set<Dtype> dtypes;
  std::set<int> device_counts;  // non-disk devices with storage
  bool disk = false, held = false, alloc = false, param = false, phase = false, zero = false, huge = false;
  bool unused = false, copy = false, range = false, flag_loop = false, flag_view = false, arena_name = false;
  int view_depth = 0, loop_depth = 0;

  void add(const Schedule& s) {
    std::set<std::string> devices;
    std::vector<bool> used(s.storage.size(), false);
    for (const Storage& st : s.storage) {
      dtypes.insert(st.dtype);
      if (is_disk(st.device))
        disk = true;
      else
        devices.insert(st.device);
      held |= st.held;
      alloc |= st.kind == StorageKind::Alloc;
      param |= st.kind == StorageKind::Param;
      phase |= st.phase != 0;
      zero |= st.bytes == 0;
      huge |= st.bytes >= (Bytes{1} << 61);
      arena_name |= st.name.starts_with("arena");
    }
    device_counts.insert(static_cast<int>(devices.size()));
    entries(s.entries, 0, used);
    unused |= std::find(used.begin(), used.end(), false) != used.end();
  }

  void entries(const std::vector<Entry>& body, int depth, std::vector<bool>& used) {
    loop_depth = std::max(loop_depth, depth);
    for (const Entry& e : body) {
      copy |= e.kind == Entry::Kind::Copy;
      range |= e.kind == Entry::Kind::Range;
      flag_loop |= e.kind == Entry::Kind::Loop;
      for (const Arg& a : e.args) {
        view_depth = std::max(view_depth, planck::props::view_depth(a));
        used[storage_of(a)] = true;
      }
      for (const Arg& a : e.flag) {
        flag_view |= a.kind != Arg::Kind::Storage;
        used[storage_of(a)] = true;
      }
      entries(e.body, depth + (e.kind == Entry::Kind::Range || e.kind == Entry::Kind::Loop), used);
    }
  }
};

TEST(Generators, CoverEveryFeatureOfTheScheduleModel) {
  Features f;
  const rc::Gen<Schedule> gen = schedules();
  for (std::uint64_t k = 0; k < 600; ++k) f.add(gen(rc::Random(k), static_cast<int>(k % 101)).value());
  EXPECT_EQ(f.dtypes.size(), static_cast<std::size_t>(kDtypeCount));
  EXPECT_EQ(f.device_counts, (std::set<int>{0, 1, 2, 3}));
  EXPECT_TRUE(f.disk);
  EXPECT_TRUE(f.held);
  EXPECT_TRUE(f.alloc);
  EXPECT_TRUE(f.param);
  EXPECT_TRUE(f.phase);
  EXPECT_TRUE(f.zero);
  EXPECT_TRUE(f.huge);
  EXPECT_TRUE(f.unused);
  EXPECT_TRUE(f.copy);
  EXPECT_TRUE(f.range);
  EXPECT_TRUE(f.flag_loop);
  EXPECT_TRUE(f.flag_view);
  EXPECT_TRUE(f.arena_name);
  EXPECT_EQ(f.view_depth, 4);
  EXPECT_EQ(f.loop_depth, 3);
}

TEST(Generators, MakeValidSchedulesWithinThePlannableTotal) {
  check(
      [] {
        const Schedule s = *schedules();
        const std::string text = print_schedule(s);
        RC_ASSERT(print_schedule(parse_or_fail(text)) == text);
        Bytes total = 0;
        for (const Storage& st : s.storage) {
          const Bytes rounded =
              std::max<Bytes>(kPlaceAlign, (st.phase + st.bytes + kPlaceAlign - 1) / kPlaceAlign * kPlaceAlign);
          total += rounded;
          RC_ASSERT(total < kMaxBytes);
        }
      },
      kCases);
}

TEST(Generators, OverflowingSchedulesAreValidButUnplannable) {
  check(
      [] {
        const Schedule s = *overflowing_schedules();
        parse_or_fail(print_schedule(s));
        RC_ASSERT(!model_plan(s).ok());
      },
      kCases);
}

TEST(Generators, EveryShrinkIsValidAndStrictlySmaller) {
  check(
      [] {
        const Schedule s = *schedules();
        const std::vector<std::size_t> before = shrink_measure(s);
        rc::Seq<Schedule> shrinks = shrink_schedule(s);
        while (rc::Maybe<Schedule> next = shrinks.next()) {
          const std::string text = print_schedule(*next);
          const Schedule read = parse_or_fail(text);
          RC_ASSERT(print_schedule(read) == text);
          if (!(shrink_measure(*next) < before)) RC_FAIL("a shrink that is not smaller:\n" + text);
        }
      },
      kShrinkCases);
}

// A property broken by one rule must shrink to a few entries that show it.
void expect_small_counterexample(const std::function<bool(const Schedule&)>& breaks_the_rule, const std::string& rule) {
  for (std::uint64_t seed : kSeeds) {
    const std::optional<Counterexample> found = find_counterexample(
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
    EXPECT_LE(count_entries(*s), 5u) << rule << ", seed " << seed << ":\n" << *found->schedule;
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
            if (!e.flag.empty() && view_depth(e.flag.front()) >= 2) return true;
            bodies.push_back(&e.body);
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
        for (const ModelLifetime& l : model_lifetimes(s)) devices.insert(s.storage[l.buffer].device);
        return devices.size() >= 2;
      },
      "two devices with planned buffers");
}

TEST(Shrinking, AHugePlannedBufferShrinksToAtMostFiveEntries) {
  expect_small_counterexample(
      [](const Schedule& s) {
        for (const ModelLifetime& l : model_lifetimes(s)) {
          if (s.storage[l.buffer].bytes >= (Bytes{1} << 60)) return true;
        }
        return false;
      },
      "a planned buffer of 2^60 bytes or more");
}

TEST(Shrinking, DropsUnusedDeclarationsAndViews) {
  // A failure that needs one phased buffer alive with another keeps just those two.
  const std::optional<Counterexample> found = find_counterexample(
      [] {
        const Schedule s = *schedules();
        for (const ModelLifetime& a : model_lifetimes(s)) {
          for (const ModelLifetime& b : model_lifetimes(s)) {
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
  EXPECT_EQ(count_entries(*s), 1u) << *found->schedule;
  for (const Entry& e : s->entries) {
    for (const Arg& a : e.args) EXPECT_EQ(a.kind, Arg::Kind::Storage) << *found->schedule;
  }
}

}  // namespace
}  // namespace planck::props
