// The benchmarks' chains: each kernel writes one new buffer and reads a few
// made just before it.

#include "gen/chain.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gen/schedule_assertions.h"
#include "model/schedule_printer.h"

namespace planck::gen {
namespace {

TEST(ChainSchedule, EachKernelWritesItsBufferAndReadsOnesMadeWithinTheWindow) {
  SeededChoices choices(1);
  const ChainOptions options{.buffers = 2000, .window = 16};
  const Schedule s = generate_chain_schedule(choices, options);
  ASSERT_TRUE(round_trips(s));
  ASSERT_TRUE(within_plannable_total(s));
  ASSERT_EQ(s.storage.size(), options.buffers + 1);
  ASSERT_EQ(s.entries.size(), options.buffers);
  EXPECT_EQ(s.storage[0].kind, StorageKind::Param);
  std::size_t phased = 0;
  std::size_t reads = 0;
  for (std::size_t i = 0; i < options.buffers; ++i) {
    const Storage& made = s.storage[i + 1];
    EXPECT_EQ(made.kind, StorageKind::Buffer);
    EXPECT_EQ(made.device, "CUDA");
    EXPECT_LE(made.bytes, options.max_bytes);
    EXPECT_TRUE(made.phase == 0 || made.phase == 64);
    phased += made.phase != 0;
    const Entry& k = s.entries[i];
    ASSERT_GE(k.args.size(), 2u);
    ASSERT_LE(k.args.size(), 4u);
    EXPECT_EQ(k.args[0].storage, i + 1);
    for (std::size_t a = 1; a < k.args.size(); ++a) {
      const StorageId read = k.args[a].storage;
      // The param, or a buffer made by one of the `window` kernels before.
      EXPECT_TRUE(read == 0 || (read <= i && read + options.window >= i + 1)) << "k" << i << " reads " << read;
    }
    reads += k.args.size() - 1;
  }
  // About one in 16 phased, about two reads a kernel.
  EXPECT_GT(phased, options.buffers / 32);
  EXPECT_LT(phased, options.buffers / 8);
  EXPECT_GT(reads, options.buffers * 3 / 2);
  EXPECT_LT(reads, options.buffers * 5 / 2);
}

TEST(ChainSchedule, TheSameSeedGivesTheSameChain) {
  SeededChoices a(5);
  SeededChoices b(5);
  EXPECT_EQ(print_schedule(generate_chain_schedule(a)), print_schedule(generate_chain_schedule(b)));
}

// The kernels of a chain, in order, through its loops.
std::vector<const Entry*> kernels(const Schedule& s) {
  std::vector<const Entry*> out;
  for (const Entry& e : s.entries) {
    if (e.kind == Entry::Kind::Kernel) out.push_back(&e);
    for (const Entry& inner : e.body()) out.push_back(&inner);
  }
  return out;
}

TEST(ChainSchedule, EveryOtherRunOfLoopBodyKernelsIsARangeLoop) {
  SeededChoices flat_choices(3);
  SeededChoices loop_choices(3);
  const Schedule flat = generate_chain_schedule(flat_choices, {.buffers = 100});
  const Schedule looped = generate_chain_schedule(loop_choices, {.buffers = 100, .loop_body = 8});
  ASSERT_TRUE(round_trips(looped));
  // 100 kernels in runs of 8: runs 0, 2, ..., 12 flat (7 runs, the last of 4
  // kernels), runs 1, 3, ..., 11 loops (6 of them).
  ASSERT_EQ(looped.entries.size(), 6 * 8 + 4 + 6);
  for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(looped.entries[i].kind, Entry::Kind::Kernel);
  EXPECT_EQ(looped.entries[8].kind, Entry::Kind::Range);
  EXPECT_EQ(looped.entries[8].body().size(), 8u);
  EXPECT_EQ(looped.entries[8].body().front().name, "k8");
  // The loops take no draws: the same buffers, the same reads.
  ASSERT_EQ(print_schedule(Schedule{.storage = looped.storage}), print_schedule(Schedule{.storage = flat.storage}));
  const std::vector<const Entry*> a = kernels(flat);
  const std::vector<const Entry*> b = kernels(looped);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i]->name, b[i]->name);
    ASSERT_EQ(a[i]->args.size(), b[i]->args.size());
    for (std::size_t j = 0; j < a[i]->args.size(); ++j) EXPECT_EQ(a[i]->args[j].storage, b[i]->args[j].storage);
  }
}

TEST(ChainSchedule, DevicesTakeTheBuffersInTurn) {
  SeededChoices choices(4);
  const Schedule s = generate_chain_schedule(choices, {.buffers = 10, .devices = 3});
  ASSERT_TRUE(round_trips(s));
  EXPECT_EQ(s.storage[0].device, "CUDA");  // the param
  for (std::size_t i = 0; i < 10; ++i) EXPECT_EQ(s.storage[i + 1].device, "CUDA:" + std::to_string(i % 3));
}

}  // namespace
}  // namespace planck::gen
