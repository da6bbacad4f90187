// The generator makes valid schedules of every feature of docs/formats.md#schedules-sched
// from any source of choices, and a feature switched off is never used.

#include "gen/random_schedules.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <set>
#include <string>
#include <vector>

#include "gen/schedule_assertions.h"
#include "gen/schedule_parts.h"
#include "model/schedule_printer.h"

namespace planck {

// Test names and failures name the switch (beside FeatureSwitch, for
// argument-dependent lookup).
void PrintTo(const FeatureSwitch& sw, std::ostream* os) { *os << sw.name; }

namespace gen {
namespace {

constexpr int kSeeds = 400;

// The schedule of `seed` at a size that goes round 0..100.
Schedule seeded(std::uint64_t seed, ScheduleOptions options = {}) {
  options.size = static_cast<int>(seed % 101);
  SeededChoices choices(seed);
  return generate_schedule(choices, options);
}

int loop_depth(const std::vector<Entry>& body) {
  int most = 0;
  for (const Entry& e : body) {
    const bool loop = e.kind == Entry::Kind::Range || e.kind == Entry::Kind::Loop;
    most = std::max(most, loop_depth(e.body()) + (loop ? 1 : 0));
  }
  return most;
}

bool flag_through_view(const std::vector<Entry>& body) {
  return std::any_of(body.begin(), body.end(), [](const Entry& e) {
    return (!e.flag().empty() && e.flag().front().kind != Arg::Kind::Storage) || flag_through_view(e.body());
  });
}

TEST(Generate, MakesValidSchedulesWithinThePlannableTotal) {
  for (std::uint64_t seed = 0; seed < kSeeds; ++seed) {
    const Schedule s = seeded(seed);
    ASSERT_TRUE(round_trips(s)) << "seed " << seed;
    ASSERT_TRUE(within_plannable_total(s)) << "seed " << seed;
  }
}

TEST(Generate, TheSameChoicesGiveTheSameSchedule) {
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    EXPECT_EQ(print_schedule(seeded(seed)), print_schedule(seeded(seed)));
    EXPECT_NE(print_schedule(seeded(seed)), print_schedule(seeded(seed + 101)));
  }
}

TEST(Generate, CoversEveryFeatureOfTheScheduleModel) {
  Features seen = no_features();
  std::set<Dtype> dtypes;
  std::set<std::size_t> device_counts;
  int view_depth = 0;
  int deepest_loop = 0;
  bool flag_view = false;
  bool arena_name = false;
  for (std::uint64_t seed = 0; seed < kSeeds; ++seed) {
    const Schedule s = seeded(seed);
    seen |= used_features(s);
    std::set<std::string> devices;
    for (const Storage& st : s.storage) {
      dtypes.insert(st.dtype);
      if (!is_disk(st.device)) devices.insert(st.device);
      arena_name |= st.name.starts_with("arena");
    }
    device_counts.insert(devices.size());
    for_each_arg(s.entries, [&](const Arg& a) { view_depth = std::max(view_depth, static_cast<int>(view_layers(a))); });
    deepest_loop = std::max(deepest_loop, loop_depth(s.entries));
    flag_view |= flag_through_view(s.entries);
  }
  for (const FeatureSwitch& sw : feature_switches()) EXPECT_TRUE(seen.*sw.on) << sw.name;
  EXPECT_EQ(dtypes.size(), static_cast<std::size_t>(kDtypeCount));
  for (std::size_t n : {1, 2, 3}) EXPECT_TRUE(device_counts.contains(n)) << n << " devices";
  EXPECT_EQ(view_depth, 4);
  EXPECT_EQ(deepest_loop, 3);
  EXPECT_TRUE(flag_view);
  EXPECT_TRUE(arena_name);
}

class FeatureSwitchedOff : public ::testing::TestWithParam<FeatureSwitch> {};

TEST_P(FeatureSwitchedOff, IsNeverUsedWhileEveryOtherFeatureStillIs) {
  const FeatureSwitch& off = GetParam();
  ScheduleOptions options;
  options.features.*off.on = false;
  Features seen = no_features();
  for (std::uint64_t seed = 0; seed < kSeeds; ++seed) {
    const Schedule s = seeded(seed, options);
    ASSERT_FALSE(used_features(s).*off.on) << "seed " << seed << ":\n" << print_schedule(s);
    ASSERT_TRUE(round_trips(s)) << "seed " << seed;
    ASSERT_TRUE(within_plannable_total(s)) << "seed " << seed;
    seen |= used_features(s);
  }
  for (const FeatureSwitch& sw : feature_switches()) {
    if (sw.on != off.on) {
      EXPECT_TRUE(seen.*sw.on) << sw.name << " is gone too";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Switches, FeatureSwitchedOff, ::testing::ValuesIn(feature_switches().begin(),
                                                                            feature_switches().end()),
                         [](const ::testing::TestParamInfo<FeatureSwitch>& info) {
                           std::string name(info.param.name);
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(Generate, WithEveryFeatureOffMakesKernelsOnPlainBuffersOfOneDevice) {
  ScheduleOptions options;
  for (const FeatureSwitch& sw : feature_switches()) options.features.*sw.on = false;
  for (std::uint64_t seed = 0; seed < 100; ++seed) {
    const Schedule s = seeded(seed, options);
    ASSERT_TRUE(round_trips(s));
    std::set<std::string> devices;
    for (const Storage& st : s.storage) {
      EXPECT_EQ(st.kind, StorageKind::Buffer);
      EXPECT_FALSE(st.held);
      EXPECT_EQ(st.phase, 0u);
      EXPECT_GT(st.bytes, 0u);
      devices.insert(st.device);
    }
    EXPECT_LE(devices.size(), 1u);
    for (const Entry& e : s.entries) {
      EXPECT_EQ(e.kind, Entry::Kind::Kernel);
      for (const Arg& a : e.args) EXPECT_EQ(a.kind, Arg::Kind::Storage);
    }
  }
}

TEST(Generate, SizesAreMultiplesOfTheUnitUpToTheMostBytesAndPhasesUpToTheMost) {
  ScheduleOptions options;
  options.bytes_unit = kPlaceAlign;
  options.max_bytes = 3 * kPlaceAlign;
  options.max_phase = 15;
  options.features.huge_sizes = false;
  std::set<Bytes> sizes;
  Bytes max_phase = 0;
  for (std::uint64_t seed = 0; seed < kSeeds; ++seed) {
    for (const Storage& st : seeded(seed, options).storage) {
      sizes.insert(st.bytes);
      max_phase = std::max(max_phase, st.phase);
    }
  }
  EXPECT_EQ(sizes, (std::set<Bytes>{0, 256, 512, 768}));
  EXPECT_EQ(max_phase, 15u);
}

TEST(Generate, SizeZeroMakesOneEntryAndLargerSizesMore) {
  ScheduleOptions options;
  options.size = 0;
  std::size_t at_nominal = 0;
  std::size_t past_nominal = 0;
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    SeededChoices choices(seed);
    const Schedule s = generate_schedule(choices, options);
    EXPECT_EQ(s.entries.size(), 1u);
    EXPECT_LE(s.storage.size(), 1u);
    SeededChoices again(seed);
    at_nominal += generate_schedule(again, ScheduleOptions{.size = 100}).entries.size();
    SeededChoices more(seed);
    past_nominal += generate_schedule(more, ScheduleOptions{.size = 400}).entries.size();
  }
  EXPECT_GT(past_nominal, 2 * at_nominal);
}

TEST(Generate, EveryByteStringDecodesToAValidSchedule) {
  SeededChoices bytes_of(99);
  for (int n = 0; n < 300; ++n) {
    std::vector<std::uint8_t> bytes(bytes_of.below(600));
    for (std::uint8_t& b : bytes) b = static_cast<std::uint8_t>(bytes_of.draw(0, 255));
    // Runs of zeros and of 0xff, the ends of every range.
    if (n % 3 == 1) std::fill(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(bytes.size() / 2), 0);
    if (n % 3 == 2) std::fill(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(bytes.size() / 2), 0xff);
    ByteChoices choices(bytes);
    const Schedule s = generate_schedule(choices);
    ASSERT_TRUE(round_trips(s)) << n;
    ASSERT_TRUE(within_plannable_total(s)) << n;
    ByteChoices again(bytes);
    EXPECT_EQ(print_schedule(generate_schedule(again)), print_schedule(s));
  }
  ByteChoices none(std::span<const std::uint8_t>{});
  EXPECT_TRUE(round_trips(generate_schedule(none)));
}

// The storage each top-level entry takes, each once.
std::vector<std::set<StorageId>> taken_per_entry(const Schedule& s) {
  std::vector<std::set<StorageId>> out;
  for (const Entry& e : s.entries) {
    std::set<StorageId> taken;
    for_each_arg(std::span(&e, 1), [&](const Arg& a) { taken.insert(storage_of(a)); });
    out.push_back(std::move(taken));
  }
  return out;
}

TEST(GenerateUnplannable, OneEntryTakesBuffersOfOneDeviceThatPass2To64Bytes) {
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    SeededChoices choices(seed);
    const Schedule s = generate_unplannable_schedule(choices);
    ASSERT_TRUE(round_trips(s)) << seed;
    bool overflows = false;
    for (const std::set<StorageId>& taken : taken_per_entry(s)) {
      std::map<std::string, Bytes> per_device;
      for (StorageId id : taken) {
        const Storage& st = s.storage[id];
        if (st.kind != StorageKind::Buffer || st.held || is_disk(st.device)) continue;
        const std::optional<Bytes> sum = checked_add(per_device[st.device], st.bytes);
        overflows |= !sum;
        if (sum) per_device[st.device] = *sum;
      }
    }
    EXPECT_TRUE(overflows) << print_schedule(s);
  }
}

}  // namespace
}  // namespace gen
}  // namespace planck
