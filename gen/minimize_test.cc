// The minimizer takes a failing schedule down to the few lines that make it
// fail, within its limits.

#include "gen/minimize.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gen/chain.h"
#include "gen/random_schedules.h"
#include "gen/schedule_assertions.h"
#include "gen/schedule_parts.h"
#include "gen/shrink.h"
#include "model/schedule_printer.h"

namespace planck::gen {
namespace {

// A planted bug: some buffer on CUDA:0 whose phase is a nonzero multiple of
// 64 is taken inside a flag loop (by a call of its body or as its flag).
bool phased_buffer_in_a_flag_loop(const Schedule& s) {
  auto hit = [&](const Arg& a) {
    const Storage& st = s.storage[storage_of(a)];
    return st.kind == StorageKind::Buffer && st.device == "CUDA:0" && st.phase != 0 && st.phase % 64 == 0;
  };
  bool found = false;
  auto visit = [&](auto&& self, const std::vector<Entry>& body, bool in_flag_loop) -> void {
    for (const Entry& e : body) {
      const bool inside = in_flag_loop || e.kind == Entry::Kind::Loop;
      if (inside) for_each_arg(std::span(&e, 1), [&](const Arg& a) { found |= hit(a); });
      self(self, e.body(), inside);
    }
  };
  visit(visit, s.entries, false);
  return found;
}

std::size_t lines(const Schedule& s) {
  const std::string text = print_schedule(s);
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

// The first generated schedule of model v1, from seed 0 on, that fails
// `fails`.
std::optional<Schedule> first_failing(bool (*fails)(const Schedule&)) {
  ScheduleOptions v1;
  v1.features = v1_only(v1.features);
  for (std::uint64_t seed = 0; seed < 5000; ++seed) {
    SeededChoices choices(seed);
    Schedule s = generate_schedule(choices, v1);
    if (fails(s)) return s;
  }
  return std::nullopt;
}

TEST(Minimize, APlantedBugShrinksToAScheduleOfAFewLines) {
  const std::optional<Schedule> failing = first_failing(&phased_buffer_in_a_flag_loop);
  ASSERT_TRUE(failing);
  const Minimized m = minimize(*failing, &phased_buffer_in_a_flag_loop);
  EXPECT_TRUE(m.minimal);
  EXPECT_TRUE(phased_buffer_in_a_flag_loop(m.schedule));
  EXPECT_TRUE(round_trips(m.schedule));
  // The header, the buffer, and a loop with it as its flag: 4 lines.
  EXPECT_LE(lines(m.schedule), 4u) << print_schedule(m.schedule);
  EXPECT_GT(m.shrinks, 0u);
  EXPECT_GE(m.tries, m.shrinks);
}

TEST(Minimize, StopsAtALocalMinimumWhereNoShrinkStillFails) {
  const std::optional<Schedule> failing = first_failing(&phased_buffer_in_a_flag_loop);
  ASSERT_TRUE(failing);
  const Minimized m = minimize(*failing, &phased_buffer_in_a_flag_loop);
  ASSERT_TRUE(m.minimal);
  for (const Schedule& shrunk : shrink_candidates(m.schedule)) {
    EXPECT_FALSE(phased_buffer_in_a_flag_loop(shrunk)) << print_schedule(shrunk);
  }
}

TEST(Minimize, StopsAfterTheMostTriesAllowed) {
  const std::optional<Schedule> failing = first_failing(&phased_buffer_in_a_flag_loop);
  ASSERT_TRUE(failing);
  std::size_t calls = 0;
  const Minimized m = minimize(
      *failing,
      [&](const Schedule& s) {
        ++calls;
        return phased_buffer_in_a_flag_loop(s);
      },
      MinimizeLimits{.max_tries = 5});
  EXPECT_FALSE(m.minimal);
  EXPECT_EQ(m.tries, 5u);
  EXPECT_EQ(calls, 5u);
  EXPECT_TRUE(phased_buffer_in_a_flag_loop(m.schedule));
}

TEST(Minimize, AScheduleThatNoLongerFailsAtAllIsKeptAsItIs) {
  const std::optional<Schedule> failing = first_failing(&phased_buffer_in_a_flag_loop);
  ASSERT_TRUE(failing);
  const Minimized m = minimize(*failing, [](const Schedule&) { return false; });
  EXPECT_TRUE(m.minimal);
  EXPECT_EQ(m.shrinks, 0u);
  EXPECT_EQ(print_schedule(m.schedule), print_schedule(*failing));
}

TEST(Minimize, ALargeChainShrinksToTheTwoKernelsThatMatter) {
  // Fails while the kernels that make t123 and t4567 are both there.
  SeededChoices choices(3);
  const Schedule chain = generate_chain_schedule(choices, ChainOptions{.buffers = 10000});
  auto both = [](const Schedule& s) {
    bool a = false;
    bool b = false;
    for (const Entry& e : s.entries) {
      a |= e.name == "k123";
      b |= e.name == "k4567";
    }
    return a && b;
  };
  const Minimized m = minimize(chain, both);
  EXPECT_TRUE(m.minimal);
  EXPECT_EQ(m.schedule.entries.size(), 2u) << print_schedule(m.schedule);
  for (const Entry& e : m.schedule.entries) EXPECT_TRUE(e.args.empty());
  EXPECT_TRUE(m.schedule.storage.empty());
}

}  // namespace
}  // namespace planck::gen

namespace planck::gen {
namespace {

// The words of model v2 stay while the failure needs them and go when it
// does not: here it needs relu's `inplace=y:x`, x an input, and CPU's
// capacity below 2048, and nothing else.
TEST(Minimize, KeepsTheWordsOfModelV2ThatTheFailureNeedsAndDropsTheRest) {
  Result<Schedule> s = parse_schedule(R"(schedule v2
device CPU align=64 capacity=1024
device GPU align=16
buffer x CPU int8 100 input
buffer y CPU int8 100 output
buffer kv GPU int8 64 state
kernel relu y x inplace=y:x
kernel step kv
)",
                                      "v2.sched");
  ASSERT_TRUE(s.ok()) << s.error().message();
  const auto fails = [](const Schedule& t) {
    const auto named = [&t](StorageId id, const char* name) { return t.storage[id].name == name; };
    bool declared = false;
    for_each_entry(t.entries, [&](const Entry& e) {
      for (const InPlace& p : e.inplace()) declared |= named(p.out, "y") && named(p.in, "x");
    });
    bool input = false;
    for (const Storage& st : t.storage) input |= st.name == "x" && (st.io & kInput) != 0;
    const Device* cpu = t.find_device("CPU");
    return declared && input && cpu != nullptr && cpu->capacity && *cpu->capacity < 2048;
  };
  ASSERT_TRUE(fails(*s));
  const Minimized m = minimize(*s, fails);
  EXPECT_TRUE(m.minimal);
  EXPECT_TRUE(round_trips(m.schedule));
  EXPECT_EQ(print_schedule(m.schedule), R"(schedule v2
device CPU capacity=1024
buffer x CPU int8 0 input
buffer y CPU int8 0
kernel relu y x inplace=y:x
)");
}

}  // namespace
}  // namespace planck::gen
