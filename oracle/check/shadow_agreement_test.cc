// The shadow executor against two independent judges on random schedules:
// the static checker, which compares lifetimes it derives itself, and a
// plain byte-array model of the same run.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "oracle/check/checker.h"
#include "oracle/check/shadow.h"
#include "model/plan.h"
#include "model/text.h"

namespace planck::oracle {
namespace {

constexpr int kSchedules = 3000;
constexpr std::uint64_t kSeed = 20240611;

// How big the generated buffers are: bytes = unit * [0, max_units], phase in [0, max_phase].
struct Sizes {
  Bytes unit = kPlaceAlign;
  int max_units = 3;
  int max_phase = 0;
};

// Small random schedules over two devices: buffers (some held, some empty),
// a param, calls with views, ranges and loops nested two deep, flags through views.
class ScheduleGenerator {
 public:
  ScheduleGenerator(std::uint64_t seed, Sizes sizes) : rng_(seed), sizes_(sizes) {}

  Schedule schedule() {
    Schedule s;
    s.source = "random.sched";
    const int buffers = pick(2, 7);
    for (int i = 0; i < buffers; ++i) {
      Storage st;
      st.name = "b" + std::to_string(i);
      st.device = pick(0, 2) == 0 ? "CUDA" : "CPU";
      st.dtype = Dtype::Int8;
      st.bytes = sizes_.unit * static_cast<Bytes>(pick(0, sizes_.max_units));
      st.phase = static_cast<Bytes>(pick(0, sizes_.max_phase));
      st.held = pick(0, 7) == 0;
      s.storage.push_back(st);
    }
    Storage param;
    param.kind = StorageKind::Param;
    param.name = "x";
    param.device = "CPU";
    param.bytes = kPlaceAlign;
    s.storage.push_back(param);

    const int entries = pick(1, 7);
    for (int i = 0; i < entries; ++i) s.entries.push_back(entry(s, 0));
    return s;
  }

  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

 private:
  Entry entry(const Schedule& s, int depth) {
    Entry e;
    const int kind = depth < 2 ? pick(0, 9) : 0;
    if (kind <= 5) {
      e.kind = Entry::Kind::Kernel;
      e.name = "k";
      const int args = pick(1, 3);
      for (int i = 0; i < args; ++i) e.args.push_back(arg(s));
    } else if (kind == 6) {
      e.kind = Entry::Kind::Copy;
      e.args = {arg(s), arg(s)};
    } else {
      e.kind = kind == 7 ? Entry::Kind::Range : Entry::Kind::Loop;
      const int body = pick(0, 3);
      for (int i = 0; i < body; ++i) e.body.push_back(entry(s, depth + 1));
      if (e.kind == Entry::Kind::Loop) e.flag.push_back(arg(s));
    }
    return e;
  }

  // Storage, or a view of it: the whole storage is used either way.
  Arg arg(const Schedule& s) {
    Arg a;
    a.storage = static_cast<StorageId>(pick(0, static_cast<int>(s.storage.size()) - 1));
    switch (pick(0, 5)) {
      case 0: {
        Arg view;
        view.kind = Arg::Kind::Shrink;
        view.length = s.storage[a.storage].bytes / 2;
        view.base.push_back(a);
        return view;
      }
      case 1: {
        Arg view;
        view.kind = Arg::Kind::After;
        view.base.push_back(a);
        return view;
      }
      default:
        return a;
    }
  }

  std::mt19937_64 rng_;
  Sizes sizes_;
};

void collect_used(const std::vector<Entry>& entries, std::vector<bool>& used) {
  auto mark = [&](const std::vector<Arg>& args) {
    for (const Arg& a : args) used[storage_of(a)] = true;
  };
  for (const Entry& e : entries) {
    mark(e.args);
    mark(e.flag);
    collect_used(e.body, used);
  }
}

// A plan with one arena per device that places every planned buffer: either
// end to end (always valid), or at one of four places `step` apart (often overlapping).
Plan random_plan(const Schedule& s, ScheduleGenerator& gen, Bytes step) {
  std::vector<bool> used(s.storage.size(), false);
  collect_used(s.entries, used);
  const bool stacked = gen.pick(0, 3) == 0;
  Plan p;
  p.source = "random.plan";
  for (StorageId id = 0; id < s.storage.size(); ++id) {
    const Storage& st = s.storage[id];
    if (!used[id] || st.kind != StorageKind::Buffer || st.held || is_disk(st.device)) continue;
    auto arena = std::find_if(p.arenas.begin(), p.arenas.end(),
                              [&](const Arena& a) { return a.device == st.device; });
    if (arena == p.arenas.end()) {
      p.arenas.push_back({"arena" + std::to_string(p.arenas.size()), st.device, 0, {}});
      arena = std::prev(p.arenas.end());
    }
    const Bytes place = stacked ? arena->size : step * static_cast<Bytes>(gen.pick(0, 3));
    arena->size = std::max(arena->size, place + st.phase + st.bytes);
    p.placements.push_back({st.name, arena->name, place, {}});
  }
  return p;
}

// Where the two measure the same bytes (phase 0, sizes that are multiples of
// 256, so a buffer's bytes are exactly [place, place + rounded)), the checker
// finds an overlap exactly when the shadow executor finds a clobber.
TEST(ShadowAgreement, CheckerFindsAnOverlapExactlyWhenTheShadowExecutorFindsAClobber) {
  ScheduleGenerator gen(kSeed, Sizes{});
  int clobbered = 0;
  int clean = 0;
  for (int i = 0; i < kSchedules; ++i) {
    const Schedule s = gen.schedule();
    const Plan p = random_plan(s, gen, kPlaceAlign);

    bool overlap = false;
    for (const Violation& v : check_plan(s, p)) {
      ASSERT_EQ(v.rule, Rule::Overlap) << "the generator made a malformed plan: " << v.message << "\n"
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
  auto call = [&](const std::vector<Arg>& args) {
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
      flatten(e.body, iterations, calls);
      if (e.kind == Entry::Kind::Loop) call(e.flag);
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
  ScheduleGenerator gen(kSeed + 1, Sizes{.unit = 1, .max_units = 40, .max_phase = 15});
  int clobbered = 0;
  for (int i = 0; i < kSchedules; ++i) {
    const Schedule s = gen.schedule();
    const Plan p = random_plan(s, gen, /*step=*/13);
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
