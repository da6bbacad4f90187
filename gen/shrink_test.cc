// Every shrink of a schedule is a valid schedule strictly smaller than it,
// for generated schedules and for any schedule read from text.

#include "gen/shrink.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gen/random_schedules.h"
#include "gen/schedule_assertions.h"
#include "model/schedule_printer.h"
#include "model/schedule_reader.h"
#include "tests/spec_example.h"

namespace planck::gen {
namespace {

::testing::AssertionResult every_shrink_valid_and_smaller(const Schedule& s) {
  const std::vector<std::size_t> before = shrink_measure(s);
  const Shrinks shrinks(s);
  for (std::size_t i = 0; i < shrinks.size(); ++i) {
    const Schedule shrunk = shrinks[i];
    if (::testing::AssertionResult valid = round_trips(shrunk); !valid) return valid << "shrink " << i;
    if (!(shrink_measure(shrunk) < before)) {
      return ::testing::AssertionFailure() << "shrink " << i << " is not smaller:\n" << print_schedule(shrunk);
    }
  }
  return ::testing::AssertionSuccess();
}

Schedule parse(const std::string& text) {
  Result<Schedule> s = parse_schedule(text, "test.sched");
  EXPECT_TRUE(s.ok()) << s.error().message();
  return s.ok() ? std::move(*s) : Schedule{};
}

TEST(Shrinks, OfGeneratedSchedulesAreValidAndStrictlySmaller) {
  // Each schedule has some hundreds of shrinks, each printed and parsed.
  for (std::uint64_t seed = 0; seed < 12; ++seed) {
    SeededChoices choices(seed);
    const Schedule s = generate_schedule(choices, ScheduleOptions{.size = static_cast<int>(seed * 9 % 101)});
    ASSERT_TRUE(every_shrink_valid_and_smaller(s)) << "seed " << seed << ":\n" << print_schedule(s);
    if (seed % 3 != 0) continue;
    SeededChoices more(seed);
    ASSERT_TRUE(every_shrink_valid_and_smaller(generate_unplannable_schedule(more))) << "seed " << seed;
  }
}

TEST(Shrinks, OfSchedulesReadFromTextAreValidAndStrictlySmaller) {
  EXPECT_TRUE(every_shrink_valid_and_smaller(parse(std::string(testing::kSpecExample))));
  // What the example leaves out: disks, alloc, after views, a flag seen
  // through views, a range nested in a loop.
  EXPECT_TRUE(every_shrink_valid_and_smaller(parse(R"(schedule v1
buffer t0 CUDA float32 4096
buffer f  CUDA bool 256
buffer h  CPU  float32 4096
buffer d  DISK:/w.bin int8 512
alloc  spare CPU int64 64
loop flag=after(shrink(f, 8, 16)) {
  range {
    kernel relu bitcast(shrink(t0, 1024, 2048), int16)
  }
}
copy d h
)")));
}

TEST(Shrinks, TheFirstRemovesTheFirstHalfOfTheEntries) {
  const Schedule s = parse(R"(schedule v1
buffer a CPU int8 256
kernel k0 a
kernel k1 a
kernel k2 a
kernel k3 a
)");
  const std::vector<Schedule> all = shrink_candidates(s);
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(print_schedule(all.front()), "schedule v1\nbuffer a CPU int8 256\nkernel k2 a\nkernel k3 a\n");
  const Shrinks shrinks(s);
  ASSERT_EQ(shrinks.size(), all.size());
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(print_schedule(shrinks[i]), print_schedule(all[i]));
}

TEST(Shrinks, AnEmptyScheduleHasNoneAndPlainStorageOnlyLosesItsUses) {
  EXPECT_TRUE(shrink_candidates(parse("schedule v1\n")).empty());
  // Nothing about `a` is simpler: only the kernel or its argument can go.
  const std::vector<Schedule> all = shrink_candidates(parse("schedule v1\nbuffer a CPU int8 0\nkernel k a\n"));
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(print_schedule(all[0]), "schedule v1\nbuffer a CPU int8 0\n");
  EXPECT_EQ(print_schedule(all[1]), "schedule v1\nbuffer a CPU int8 0\nkernel k\n");
}

}  // namespace
}  // namespace planck::gen
