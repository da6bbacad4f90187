// The shadow executor against two independent judges on random schedules:
// the static checker, which compares lifetimes it derives itself, and a
// plain byte-array model of the same run.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gen/random_schedules.h"
#include "gen/schedule_parts.h"
#include "model/plan.h"
#include "model/schedule_printer.h"
#include "oracle/check/checker.h"
#include "oracle/check/shadow.h"

namespace planck::oracle {
namespace {

constexpr int kSchedules = 3000;
constexpr std::uint64_t kSeed = 20240611;

// Small schedules on up to two devices and a disk: two to eight
// declarations, mostly buffers (some held, some empty) and a few params and
// allocs, calls with views, ranges and loops nested two deep, flags through
// views; sizes multiples of `unit` up to `max_bytes`, phases up to `max_phase`.
gen::ScheduleOptions small_schedules(Bytes unit, Bytes max_bytes, Bytes max_phase) {
  gen::ScheduleOptions o = gen::ScheduleOptions::small();
  o.max_storage = 8;
  o.max_entries = 7;
  o.bytes_unit = unit;
  o.max_bytes = max_bytes;
  o.max_phase = max_phase;
  return o;
}

// A plan with one arena per device that places every planned buffer: either
// end to end (always valid), or at one of four places `step` apart (often overlapping).
Plan random_plan(const Schedule& s, gen::Choices& c, Bytes step) {
  std::vector<bool> used(s.storage.size(), false);
  gen::for_each_arg(s.entries, [&](const Arg& a) { used[storage_of(a)] = true; });
  const bool stacked = c.percent(25);
  Plan p;
  p.source = "random.plan";
  for (StorageId id = 0; id < s.storage.size(); ++id) {
    const Storage& st = s.storage[id];
    if (!used[id] || st.kind != StorageKind::Buffer || st.held || is_disk(st.device)) continue;
    auto arena = std::find_if(p.arenas.begin(), p.arenas.end(),
                              [&](const Arena& a) { return a.device == st.device; });
    if (arena == p.arenas.end()) {
      // Generated storage may be named arena<n>, so pools have another name.
      p.arenas.push_back({"pool" + std::to_string(p.arenas.size()), st.device, 0, {}});
      arena = std::prev(p.arenas.end());
    }
    const Bytes place = stacked ? arena->size : step * c.draw(0, 3);
    arena->size = std::max(arena->size, place + st.phase + st.bytes);
    p.placements.push_back({st.name, arena->name, place, {}});
  }
  return p;
}

// Where the two measure the same bytes (phase 0, sizes that are multiples of
// 256, so a buffer's bytes are exactly [place, place + rounded)), the checker
// finds an overlap exactly when the shadow executor finds a clobber.
TEST(ShadowAgreement, CheckerFindsAnOverlapExactlyWhenTheShadowExecutorFindsAClobber) {
  gen::SeededChoices c(kSeed);
  gen::ScheduleOptions options = small_schedules(kPlaceAlign, 3 * kPlaceAlign, 0);
  // Planned inputs, outputs, state, in-place kernels, streams, events and
  // local buffers, on devices of blocks of 256 without a capacity, so that
  // every violation is a pair of buffers sharing bytes.
  options.features.align = false;
  options.features.capacity = false;
  int clobbered = 0;
  int clean = 0;
  for (int i = 0; i < kSchedules; ++i) {
    const Schedule s = gen::generate_schedule(c, options);
    const Plan p = random_plan(s, c, kPlaceAlign);

    bool overlap = false;
    for (const Violation& v : check_plan(s, p)) {
      ASSERT_TRUE(v.rule == Rule::Overlap || v.rule == Rule::InPlaceNotAllowed || v.rule == Rule::Race)
          << "the generator made a malformed plan: " << v.message << "\n"
          << print_schedule(s) << print_plan(p);
      overlap = true;
    }
    Result<ShadowRun> run = run_shadow(s, p);
    ASSERT_TRUE(run.ok()) << run.error().message();
    const bool clobber = run->clobber.has_value();
    ASSERT_EQ(overlap, clobber) << (clobber ? run->clobber->message() : "no clobber") << "\n"
                                << print_schedule(s) << print_plan(p);
    ++(clobber ? clobbered : clean);
  }
  // Both verdicts are common enough that the agreement means something.
  EXPECT_GT(clobbered, kSchedules / 5);
  EXPECT_GT(clean, kSchedules / 5);
}

// ---- The byte-array model: the rules of oracle/check/shadow.h with one owner per byte.

// The storage each call of the run uses, in order, each storage once per call:
// loop bodies run `iterations` times, a loop's flag after each pass of its body.
void flatten(const std::vector<Entry>& entries, std::uint64_t iterations,
             std::vector<std::vector<StorageId>>& calls) {
  auto call = [&](const Args& args) {
    std::vector<StorageId> used;
    for (const Arg& a : args) {
      if (std::find(used.begin(), used.end(), storage_of(a)) == used.end()) used.push_back(storage_of(a));
    }
    calls.push_back(used);
  };
  for (const Entry& e : entries) {
    if (e.kind == Entry::Kind::Kernel || e.kind == Entry::Kind::Copy) {
      call(e.args);
      continue;
    }
    for (std::uint64_t k = 0; k < iterations; ++k) {
      flatten(e.body(), iterations, calls);
      if (e.kind == Entry::Kind::Loop) call(e.flag());
    }
  }
}

struct ModelClobber {
  std::string victim;
  std::string taker;
  Bytes begin = 0;
  Bytes end = 0;
  std::uint64_t call = 0;  // the number of the call that found it, from 1
};

std::optional<ModelClobber> run_byte_model(const Schedule& s, const Plan& p) {
  struct Span {
    std::string arena;
    Bytes begin = 0;
    Bytes end = 0;
  };
  std::map<StorageId, Span> placed;
  for (const Placement& pl : p.placements) {
    const StorageId id = *s.find(pl.buffer);
    const Bytes begin = pl.place + s.storage[id].phase;
    placed[id] = {pl.arena, begin, begin + s.storage[id].bytes};
  }
  std::map<std::string, std::vector<std::optional<StorageId>>> owner;  // by arena, one per byte
  for (const Arena& a : p.arenas) owner[a.name].resize(a.size);
  std::vector<bool> claimed(s.storage.size(), false);

  std::vector<std::vector<StorageId>> calls;
  flatten(s.entries, 2, calls);
  for (std::uint64_t i = 0; i < calls.size(); ++i) {
    auto foreign = [&](StorageId b) -> std::optional<ModelClobber> {
      const Span& at = placed[b];
      const auto& bytes = owner[at.arena];
      for (Bytes x = at.begin; x < at.end; ++x) {
        if (bytes[x] == b) continue;
        Bytes end = x;
        while (end < at.end && bytes[end] == bytes[x]) ++end;
        return ModelClobber{s.storage[b].name, s.storage[*bytes[x]].name, x, end, i + 1};
      }
      return std::nullopt;
    };
    std::vector<StorageId> used;
    for (StorageId b : calls[i]) {
      if (placed.count(b)) used.push_back(b);
    }
    for (StorageId b : used) {
      if (!claimed[b]) {
        claimed[b] = true;
        const Span& at = placed[b];
        for (Bytes x = at.begin; x < at.end; ++x) owner[at.arena][x] = b;
      } else if (auto c = foreign(b)) {
        return c;
      }
    }
    for (StorageId b : used) {
      if (auto c = foreign(b)) return c;
    }
  }
  return std::nullopt;
}

// With sizes, phases and places of any byte count, the shadow executor's
// interval maps find the same first clobber, the same bytes taken and the same
// taker as a model that keeps one owner per byte.
TEST(ShadowAgreement, IntervalMapsFindWhatAByteArrayFinds) {
  gen::SeededChoices c(kSeed + 1);
  // The byte model knows model v1.
  gen::ScheduleOptions options = small_schedules(1, 40, 15);
  options.features = v1_only(options.features);
  int clobbered = 0;
  for (int i = 0; i < kSchedules; ++i) {
    const Schedule s = gen::generate_schedule(c, options);
    const Plan p = random_plan(s, c, /*step=*/13);
    Result<ShadowRun> run = run_shadow(s, p);
    ASSERT_TRUE(run.ok()) << run.error().message();
    const std::optional<ModelClobber> expected = run_byte_model(s, p);
    ASSERT_EQ(run->clobber.has_value(), expected.has_value()) << print_schedule(s) << print_plan(p);
    if (!expected) continue;
    ++clobbered;
    const Clobber& c = *run->clobber;
    EXPECT_EQ(c.victim, expected->victim);
    EXPECT_EQ(c.taker, expected->taker);
    EXPECT_EQ(c.begin, expected->begin);
    EXPECT_EQ(c.end, expected->end);
    EXPECT_EQ(run->calls, expected->call) << print_schedule(s) << print_plan(p);
  }
  EXPECT_GT(clobbered, kSchedules / 5);
}

}  // namespace
}  // namespace planck::oracle
