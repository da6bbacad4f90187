// The benchmarks' chains: each kernel writes one new buffer and reads a few
// made just before it.

#include "properties/chain.h"

#include <gtest/gtest.h>

#include "model/text.h"
#include "properties/gen_test_util.h"

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

}  // namespace
}  // namespace planck::gen
