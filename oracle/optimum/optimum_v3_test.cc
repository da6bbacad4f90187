// The optimum oracle on model v3: explicit conflicts between items, the
// heaviest conflicting set as the lower bound (by flow), and schedules on
// several streams and with local buffers as packing problems.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/schedule_reader.h"
#include "oracle/optimum/optimum.h"
#include "oracle/optimum/optimum_input.h"

namespace planck::oracle {
namespace {

Schedule sched(const std::string& text) {
  Result<Schedule> s = parse_schedule(text, "t.sched");
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message());
  return s.ok() ? *std::move(s) : Schedule{};
}

// a conflicts with b, b with c; a is before c. The heaviest conflicting set
// is {a, b}: 7, not the 9 of all three.
TEST(ConflictLowerBound, IsTheHeaviestSetOfPairwiseConflictingItems) {
  PackingProblem p{.items = {{"a", 4, 0, 1}, {"b", 3, 0, 3}, {"c", 2, 2, 3}}, .conflicts = {{{0, 1}, {1, 2}}}};
  std::string by;
  EXPECT_EQ(conflict_lower_bound(p, &by), 7u);
  EXPECT_EQ(by, "heaviest conflicting set (flow)");
  p.conflicts = {{{0, 1}, {1, 2}, {0, 2}}};
  EXPECT_EQ(conflict_lower_bound(p), 9u);
  p.conflicts = std::vector<std::pair<std::size_t, std::size_t>>{};
  EXPECT_EQ(conflict_lower_bound(p), 4u);
}

TEST(ConflictLowerBound, WeighsAChainOfOrderedItemsByItsLargest) {
  // Five items one after another: no two conflict.
  PackingProblem p;
  for (int i = 0; i < 5; ++i) p.items.push_back({"x" + std::to_string(i), static_cast<Bytes>(i + 1), i, i + 1});
  p.conflicts = std::vector<std::pair<std::size_t, std::size_t>>{};
  EXPECT_EQ(conflict_lower_bound(p), 5u);
}

TEST(OptimumV3, UnorderedStreamsKeepTheirBytesApart) {
  const Schedule s = sched(R"(schedule v3
buffer a CUDA int8 256
buffer b CUDA int8 512
kernel k1 a stream=s1
kernel k2 b stream=s2
)");
  Result<std::vector<DevicePacking>> devices = schedule_packings(s);
  ASSERT_TRUE(devices.ok());
  ASSERT_EQ(devices->size(), 1u);
  const DevicePacking& d = devices->front();
  ASSERT_TRUE(d.problem.conflicts.has_value());
  EXPECT_EQ(d.problem.conflicts->size(), 1u);
  Result<OptimumResult> r = solve_optimum(d.problem);
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_EQ(r->status, OptimumStatus::Optimal);
  EXPECT_EQ(r->lower_bound, 3u);  // in 256-byte units
  EXPECT_EQ(r->upper_bound, 3u);
}

TEST(OptimumV3, AnEventLetsTheLaterStreamReuse) {
  const Schedule s = sched(R"(schedule v3
buffer a CUDA int8 256
buffer b CUDA int8 512
kernel k1 a stream=s1
record e stream=s1
wait e stream=s2
kernel k2 b stream=s2
)");
  Result<std::vector<DevicePacking>> devices = schedule_packings(s);
  ASSERT_TRUE(devices.ok());
  Result<OptimumResult> r = solve_optimum(devices->front().problem);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->upper_bound, 2u);
  EXPECT_EQ(r->status, OptimumStatus::Optimal);
}

// Found by bench/v2_optimum.sh on generated v3 schedules: z, of 0 bytes,
// belongs to no part, and its conflict pairs, kept by the part with
// indices past its items, wrote outside the part's conflict matrix and
// crashed `planck oracle`. A part keeps only the pairs of its own items.
TEST(OptimumV3, AnItemOfNoBytesInAConflictPairIsInNoPart) {
  const Schedule s = sched(R"(schedule v3
buffer a CUDA int8 256
buffer b CUDA int8 512
buffer z CUDA int8 0
kernel k1 a stream=s1
kernel k2 b z stream=s2
)");
  Result<std::vector<DevicePacking>> devices = schedule_packings(s);
  ASSERT_TRUE(devices.ok());
  ASSERT_EQ(devices->front().problem.conflicts->size(), 3u);
  Result<OptimumResult> r = solve_optimum(devices->front().problem);
  ASSERT_TRUE(r.ok()) << r.error().message();
  EXPECT_EQ(r->status, OptimumStatus::Optimal);
  EXPECT_EQ(r->upper_bound, 3u);
}

// Local scratch of a loop body takes turns; x lives over the loop.
TEST(OptimumV3, LocalBuffersLowerTheOptimum) {
  const std::string body = R"(
buffer x CUDA int8 256
range {
  kernel k1 a x
  kernel k2 b a
  kernel k3 c b
  kernel k4 x c
}
)";
  const Schedule local = sched("schedule v3\nbuffer a CUDA int8 1024 local\nbuffer b CUDA int8 1024 local\n"
                               "buffer c CUDA int8 1024 local" + body);
  const Schedule plain = sched("schedule v3\nbuffer a CUDA int8 1024\nbuffer b CUDA int8 1024\n"
                               "buffer c CUDA int8 1024" + body);
  Result<std::vector<DevicePacking>> with = schedule_packings(local);
  Result<std::vector<DevicePacking>> without = schedule_packings(plain);
  ASSERT_TRUE(with.ok() && without.ok());
  Result<OptimumResult> r = solve_optimum(with->front().problem);
  Result<OptimumResult> v1 = solve_optimum(without->front().problem);
  ASSERT_TRUE(r.ok() && v1.ok());
  EXPECT_EQ(r->upper_bound, 9u);   // x, then a and b, b and c apart: 1 + 4 + 4
  EXPECT_EQ(r->status, OptimumStatus::Optimal);
  EXPECT_EQ(v1->upper_bound, 13u);  // every buffer its own bytes
}

}  // namespace
}  // namespace planck::oracle
